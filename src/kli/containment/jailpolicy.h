/* SPDX-License-Identifier: MIT */
/* The one reader of kjail's policy document (doc/policy-json.md): the file
 * named by $KJAIL_POLICY inside a jail, or a saved `kjail --explain --json`.
 * kli learns what the jail enforces from this and nothing else: it never
 * reads kjail's flags or config files.
 *
 * Threat model: the document inside a jail is bound read-only by kjail, but
 * kli may also be handed any file (--jail-policy, or a $KJAIL_POLICY set by
 * whoever started kli outside a jail). A malformed document is refused as a
 * whole (NULL), never half read: a rule taken from half a policy could name
 * the wrong layer. Members this reader does not know are ignored.
 *
 * Everything but jail_policy_load() is pure; is_file is the one question
 * parsing asks of the file system, through a callback. */
#ifndef KLI_JAILPOLICY_H
#define KLI_JAILPOLICY_H

#include <stdbool.h>
#include <stddef.h>

/* One mount of the jail, in stacking order. */
struct jail_mount {
	char *path;      /* real, clean, absolute */
	char *verdict;   /* "read-only", "writable", "private", "masked" */
	char *rule;      /* "read-only", "masked", "protected: git hooks", ... */
	char *origin;    /* "host root", "--deny-read", "FILE:LINE", ... */
	bool exact;      /* a file mount: it decides its own path only */
};

/* A tri-state member: documents before issue 28 lack some. */
enum jail_flag { JAIL_UNKNOWN = -1, JAIL_OFF = 0, JAIL_ON = 1 };

struct jail_policy {
	struct jail_mount *mounts;
	size_t nmounts;
	char *workspace;        /* may be NULL */
	bool network_known;     /* the policy said whether there is a network */
	bool network;           /* shared with the host */
	char *network_origin;   /* "--no-network", "FILE:LINE", ...; may be NULL */
	char *network_mode;     /* "shared", "none", "allowlist"; NULL: from network */
	bool allowlist;         /* network_mode is "allowlist": out only through kjail's proxy */
	char *net_log;          /* the proxy's log (network.log) under an allowlist, or NULL */
	char **hosts;           /* the allowlist's hosts ("host:port"), sorted */
	size_t nhosts;
	char **unprotected;     /* protected names absent at the start */
	size_t nunprotected;
	char **degraded;        /* --backend landlock: "ID:WHAT" of each thing it
				 * loses against bwrap ("degraded"), sorted */
	size_t ndegraded;
	long version;           /* 0: not given */
	char *backend;          /* may be NULL */
	char *kjail_version;    /* may be NULL */
	enum jail_flag seccomp;
	enum jail_flag landlock;
	long landlock_abi;      /* -1: not given */
	enum jail_flag landlock_writes; /* its write rules apply; JAIL_OFF under
					 * --allow-userns (scopes only) */
	enum jail_flag allow_userns;
};

/* Parse the policy JSON (LEN bytes of TEXT). NULL when it is not a kjail
 * policy: not JSON, not an object of "type" "policy", or "mounts" missing or
 * malformed (a mount whose path is not absolute, or lacks a verdict, makes
 * the whole policy unusable). IS_FILE (may be NULL: none is) says which
 * mount paths are files; those decide only their exact path, as kjail's own
 * lookup does. */
struct jail_policy *jail_policy_parse(const char *text, size_t len,
				      bool (*is_file)(const char *path));
/* The same, with "~" and "~/..." in a mount's path or the workspace (a
 * declared policy: kjail --check-config --json) taken from HOME (absolute;
 * NULL: such a path makes the policy unusable, as any relative one). */
struct jail_policy *jail_policy_parse_home(const char *text, size_t len,
					   bool (*is_file)(const char *path), const char *home);
void jail_policy_free(struct jail_policy *p);

/* Read and parse the policy file at PATH (absolute; a regular file of at
 * most 1 MiB, opened without following a FIFO into a hang); file mounts are
 * told apart with stat(2), "~" taken from $HOME. NULL when anything is wrong. */
struct jail_policy *jail_policy_load(const char *path);

/* The mount deciding PATH (real, clean, absolute): the last one whose path
 * equals it or is a component-wise ancestor of it (an exact mount: equals
 * it). NULL when none does. */
const struct jail_mount *jail_verdict_for(const struct jail_policy *p, const char *path);

/* The network as one word: "shared", "none" or "allowlist" ("unknown" when
 * the document does not say). */
const char *jail_network_mode(const struct jail_policy *p);

/* The first Landlock ABI with scopes (abstract Unix sockets, signals): kjail's
 * LANDLOCK_SCOPES_ABI. Below it, a jail without the write rules has nothing
 * of Landlock left. */
#define JAIL_LANDLOCK_SCOPES_ABI 6

/* The environment variable kjail sets inside the jail. */
#define JAIL_POLICY_ENV "KJAIL_POLICY"

#endif
