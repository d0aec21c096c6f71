/* SPDX-License-Identifier: MIT */
/* Sandbox hints: when kli runs inside a kjail jail, a command that fails
 * the way a jail makes commands fail (a write refused with EROFS, EACCES or
 * EPERM; a read of a masked path that comes back empty; a connection or
 * name lookup refused under --no-network) gets a short, structured hint:
 * the command, the observed line, the rule that most likely refused it with
 * its origin, and the fix.
 *
 * The rules come from the policy kjail writes into the jail (the file named
 * by $KJAIL_POLICY: what `kjail --explain --json` prints). That file only
 * ever produces hint text: nothing here takes part in authority, in what a
 * tool may do, or in what runs.
 *
 * Everything but hint_policy_load() is pure: file system questions (resolve
 * a path through symlinks, does a directory exist, would a write here be
 * refused by the mount) go through callbacks the caller may leave NULL. */
#ifndef KLI_HINT_H
#define KLI_HINT_H

#include <stdbool.h>
#include <stddef.h>

/* One mount of the jail, in stacking order. */
struct hint_mount {
	char *path;      /* real, clean, absolute */
	char *verdict;   /* "read-only", "writable", "private", "masked" */
	char *rule;      /* "read-only", "masked", "protected: git hooks", ... */
	char *origin;    /* "host root", "--deny-read", "FILE:LINE", ... */
	bool exact;      /* a file mount: it decides its own path only */
};

struct hint_policy {
	struct hint_mount *mounts;
	size_t nmounts;
	char *workspace;        /* may be NULL */
	bool network_known;     /* the policy said whether there is a network */
	bool network;           /* shared with the host */
	char *network_origin;   /* "--no-network", "FILE:LINE", ...; may be NULL */
	bool allowlist;         /* network.mode "allowlist": out only through kjail's proxy */
	char *net_log;          /* its log (network.log), may be NULL */
};

/* Parse the policy JSON (LEN bytes of TEXT). NULL when it is not a kjail
 * policy: not JSON, not an object of "type" "policy", or "mounts" missing or
 * malformed (a mount whose path is not absolute, or lacks a verdict, makes
 * the whole policy unusable: a hint from half a policy could name the wrong
 * rule). IS_FILE (may be NULL: none is) says which mount paths are files;
 * those decide only their exact path, as kjail's own lookup does. */
struct hint_policy *hint_policy_parse(const char *text, size_t len,
				      bool (*is_file)(const char *path));
void hint_policy_free(struct hint_policy *p);

/* Read and parse the policy file at PATH (absolute; a regular file of at
 * most 1 MiB, opened without following a FIFO into a hang); file mounts are
 * told apart with stat(2). NULL when anything is wrong: a hint is never
 * worth an error. */
struct hint_policy *hint_policy_load(const char *path);

/* The mount deciding PATH (real, clean, absolute): the last one whose path
 * equals it or is a component-wise ancestor of it (an exact mount: equals
 * it). NULL when none does (kjail's host root is always the first mount,
 * so only a policy without it has none). */
const struct hint_mount *hint_verdict_for(const struct hint_policy *p, const char *path);

/* Where and how a command ran. */
struct hint_env {
	const char *cwd;   /* its working directory: absolute */
	const char *home;  /* for "~" and "$HOME"; NULL or relative: not expanded */
	/* PATH (absolute, clean) with every existing component resolved through
	 * symlinks (path_resolve); NULL: taken as it is. Returns a fresh string
	 * or NULL. */
	char *(*resolve)(const char *path);
	/* Does DIR exist as a directory? NULL: every one does. */
	bool (*is_dir)(const char *dir);
	/* The errno a write to PATH (or, when missing, to its nearest existing
	 * parent) gets from access(2), 0 when none: tells a refusal by the
	 * jail's read-only mount (EROFS) from plain file permissions (EACCES).
	 * NULL: every EACCES/EPERM on a path the policy keeps read-only counts
	 * as the jail's. */
	int (*write_errno)(const char *path);
	/* The proxy's log (struct hint_policy's net_log) as text, to name the
	 * host of a refusal the output does not name; NULL: not read. */
	char *(*read_log)(const char *path, size_t *len);
};

/* The hint for COMMAND that ended with EXIT_STATUS (the shell's status,
 * 128+N for signal N, -1 when unknown: a job still running) after printing
 * OUTPUT, or NULL when nothing in it looks like the jail refused it. The
 * hint is one block of lines, each ending in '\n', the first starting
 * "sandbox denied (likely): ", every other one with two spaces; no line is
 * empty. */
char *hint_for(const struct hint_policy *p, const struct hint_env *env, const char *command,
	       int exit_status, const char *output);

/* Where the hint block a tool appended to TEXT (after "\n\n") starts, or
 * (size_t)-1 when TEXT does not end in one. A command's own output cannot
 * pass for a hint: a tool result ends in its status line ("[exit status
 * 1]", "[job 2 is running]"), which no hint line looks like. */
size_t hint_split(const char *text);

/* The environment variable kjail sets inside the jail. */
#define HINT_POLICY_ENV "KJAIL_POLICY"
/* The prefix of a hint block. */
#define HINT_HEAD "sandbox denied (likely): "

#endif
