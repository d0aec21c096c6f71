/* SPDX-License-Identifier: MIT */
/* The plan: what the jail mounts where, and what kjail made, reserved or
 * removed on the way. planner/planner.h builds it from the policy and the host;
 * bwrap.c, seatbelt.c and explain.c are pure functions of it. */
#ifndef KJ_PLAN_H
#define KJ_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include "policy/device.h"
#include "policy/egress.h"
#include "policy/policy.h"
#include "strv.h"

enum op_kind {
	OP_RO_ROOT,   /* --ro-bind / / */
	OP_DEV,       /* --dev /dev */
	OP_PROC,      /* --proc /proc */
	OP_PROC_BIND, /* --ro-bind /proc /proc (--nested-userns) */
	OP_TMP,       /* --tmpfs /tmp */
	OP_BIND,      /* a writable root */
	OP_PIN,       /* an ancestor of a protected path, bound onto itself so it
		       * cannot be renamed away and rebuilt */
	OP_SEAL,      /* a directory that takes no new entry (a linked worktree's
		       * worktrees/, which git outside trusts): bound onto itself,
		       * then read-only after every mount, the mounts under it
		       * (its entries' pins) left as they are */
	OP_PROTECT,   /* read-only inside a writable root */
	OP_MASK_FILE, /* empty read-only file over it, or a filtered copy */
	OP_MASK_DIR,  /* empty read-only tmpfs over it */
	OP_HELPER,    /* kjail's own binary, when the jail would not see it */
	OP_POLICY,    /* a read-only directory holding the policy as JSON, so the
		       * jail (and kli's hints) can tell why something was refused */
	OP_SOCKET,    /* a Unix socket the policy allows (sockets.h), bound
		       * read-only from a descriptor kjail opened at its real
		       * path; after the masks, so it shows through them */
	OP_SHOW,      /* a regular file inside a mask shown read-only, bound
		       * like an OP_SOCKET from a descriptor (gpg-agent's
		       * public keyring: socket-plan.c) */
};

/* Inside the jail: the policy, and the variable that names it. */
#define KJ_POLICY_DIR "/tmp/.kjail"
#define KJ_POLICY_FILE KJ_POLICY_DIR "/policy.json"
#define KJ_POLICY_ENV "KJAIL_POLICY"
/* Under an allowlist: the proxy's log, one JSON line a connection
 * (proxy.h), read-only to the jail. */
#define KJ_NET_LOG KJ_POLICY_DIR "/net.log"
/* With kjail's proxy: kjail's entry program, read-only, at a fixed path,
 * for ssh's ProxyCommand (entry/connect.h) */
#define KJ_ENTRY_IN_JAIL KJ_POLICY_DIR "/kjail-entry"
#define KJ_SSH_PROXY_COMMAND KJ_ENTRY_IN_JAIL " --connect %h %p"
/* ssh's system-wide configuration, which ssh reads after the user's
 * (masked with ~/.ssh): where the ProxyCommand goes (planner/ssh.h) */
#define KJ_SSH_CONFIG "/etc/ssh/ssh_config"

struct op {
	enum op_kind kind;
	char *path;    /* real path on the host and in the jail */
	const char *rule;    /* "workspace", "masked", "protected: git hooks", ... */
	const char *origin;  /* "built-in credential store", "FILE:LINE", "--deny-read" */
	/* OP_MASK_FILE of a config file shown with its secrets removed
	 * (cfgfilter.h): the bytes served instead of an empty file (rule
	 * "filtered"); NULL for an empty one. macOS's Seatbelt cannot serve
	 * them: there the file is masked whole. */
	char *data;
	size_t len;
	unsigned removed;      /* secret entries removed */
	const char *format;    /* "npmrc", ... (cfgfilter.h) */
	const char *unit;      /* what removed counts: "line", "member" */
	/* OP_BIND inside a directory mask on its parent (the workspace's
	 * cache directory inside the one mask on every workspace's): with
	 * the OP_SOCKETs, the plan's last ops, after every mask; a mask
	 * holding one turns read-only only after them */
	bool inner;
	/* OP_MASK_FILE whose data is no filtered copy but a file kjail
	 * serves (planner/ssh.h): "shown" (a public file inside a directory
	 * mask, copied whole: ~/.ssh/known_hosts) or "generated" (ssh's
	 * configuration with kjail's ProxyCommand); read-only either way.
	 * NULL for every other op. */
	const char *serves;
};

struct host {
	const char *cwd;             /* absolute and real, as getcwd gives it */
	const char *home;            /* the account's home (passwd) */
	const char *home_env;        /* $HOME, may be NULL */
	const char *xdg_config_home; /* may be NULL */
	const char *xdg_data_home;   /* may be NULL */
	const char *xdg_runtime_dir; /* may be NULL */
	const char *ssh_auth_sock;   /* may be NULL */
	const char *tmux;            /* $TMUX: "SOCKET,PID,SESSION", may be NULL */
	const char *tmux_tmpdir;     /* may be NULL */
	const char *screendir;       /* may be NULL */
	const char *git_config_global; /* $GIT_CONFIG_GLOBAL, may be NULL */
	const char *git_config_system; /* $GIT_CONFIG_SYSTEM, may be NULL */
	char *const *env;            /* the caller's environment: the variables
				      * credential stores move with (defaults.h),
				      * and where the git run outside after the
				      * jail takes settings from (GIT_CONFIG_COUNT,
				      * GIT_DIR, ...); may be NULL */
	const char *self;            /* the jail's entry helper (kjail-entry or kjail), real path */
	const char *console;         /* the terminal on standard output (ttyname(1)), which
				      * bwrap binds at the jail's /dev/console; NULL if none */
	unsigned uid;
	bool dry_run;                /* --print/--explain: create nothing */
	bool plan_caches;            /* apply the policy's cache setting (cache.h):
				      * main sets it; unit tests of other parts
				      * leave it off, as with --no-cache */
	bool scan_sockets;           /* find the host's sockets and mask them
				      * (planner/socket-scan.h): main sets it;
				      * unit tests of other parts leave it off */
	bool interactive;            /* no command given: the user's shell runs,
				      * and keeps its history with the caches */
	bool explain;                /* --explain: also list what was skipped, and why */
	bool in_kjail;               /* this kjail runs inside a kjail jail
				      * (probe_in_kjail_jail) */
	const char *no_disable_userns; /* why bwrap cannot --disable-userns here
				      * (run/bwrap-probe.h), or NULL */
	bool disable_userns_cached;  /* it can, on the cache's word */
	char *const *command;        /* the command the jail is to run (with
				      * --print too), for the few kjail refuses
				      * up front (git/command.h); NULL with
				      * --explain */
};

/* A socket the jail may reach (--allow-socket): its strings are the
 * plan's pool's. */
struct plan_socket {
	const char *path;     /* real path, bound there (its OP_SOCKET) */
	const char *name;     /* the table's name, or NULL for a path unknown to it */
	const char *given;    /* the path as found or named, when a symlink led to
			       * path; else NULL */
	const char *origin;   /* "--allow-socket", "FILE:LINE" */
	const char *gives;    /* what the jail can do with it, or NULL */
	const char *warning;  /* the one line a run prints, or NULL */
	/* What is bound at path, when it is not the socket there: */
	const char *source;   /* the restricted socket beside it (gpg-agent's
			       * S.gpg-agent.extra), real path; or NULL */
	bool relay;           /* kjail's relay to the socket at agent (ssh-agent) */
	const char *agent;    /* with relay: the agent's socket, real path */
	const char *refuses;  /* what the bound socket refuses, or NULL */
};

/* A socket the start-up scan found and masked (planner/socket-scan.c). */
struct plan_scanned {
	const char *path;     /* the socket */
	const char *what;     /* what it is (socket-rules.h), "socket found by scan" */
	const char *mask;     /* the mask over it: path, or its directory's */
};

struct plan {
	enum backend backend;        /* resolved: never BACKEND_AUTO */
	char *workspace;
	bool network;                /* the host's network (NET_SHARED) */
	enum net_mode net;           /* egress.h */
	const char *net_origin;      /* what decided it (the plan's pool) */
	struct allow_rule *allow;    /* NET_ALLOWLIST: the proxy's rules, their
				      * text and origin in the plan's pool */
	size_t nallow;
	struct egress_upstream upstream; /* NET_ALLOWLIST: the caller's upstream
					  * proxy, from kjail's environment
					  * (egress.h); its strings the pool's */
	bool proxied;                /* the jail's way out is kjail's proxy (proxy.h),
				      * with the rules above: NET_ALLOWLIST, and
				      * NET_NONE with bwrap (no rule: every host is
				      * refused at once, naming --allow-host), unless
				      * the proxy's log would lie in a writable root */
	bool nested_userns;
	bool allow_userns;
	/* Inside a kjail jail: the outer jail's /proc/sys is a read-only
	 * mount, where bwrap's --disable-userns cannot write its sysctl, so
	 * user namespaces are refused by the seccomp rules alone. */
	bool in_kjail;
	/* Where bwrap's --disable-userns fails though user namespaces work
	 * (a read-only /proc/sys, gVisor: run/bwrap-probe.h): why, in the
	 * pool; bwrap goes without it and the seccomp rules alone refuse
	 * user namespaces, as in_kjail. NULL: bwrap gets it. */
	const char *no_disable_userns;
	/* bwrap gets --disable-userns on the probe cache's word: a jail that
	 * then does not start has kjail probe again (spawn.c) */
	bool disable_userns_cached;
	long inside_id;               /* uid and gid inside the jail, or -1: the caller's */
	/* Run as root, the jail's uid is the owner of what root owns, and an
	 * owner needs no capability to chmod, chown to its group, touch or set
	 * attributes: what the jail sees of the host must be read-only mounts. */
	bool proc_read_only;         /* --remount-ro /proc: a chmod there writes the
				      * kernel's shared entry, seen by every procfs */
	struct strv host_devices;    /* the host's device nodes behind the jail's
				      * /dev (and console), bound read-only onto
				      * themselves in a mount namespace of kjail's
				      * own before bwrap binds them (spawn.c) */
	/* --device: the host's nodes bound into the jail's /dev, writable, and
	 * their links (device.h), in that order; the nodes are in
	 * host_devices too when kjail runs as root */
	struct dev_bind *devices;
	size_t ndevices;
	struct op *ops;
	size_t nops;
	size_t ops_cap;
	struct strpool strings;      /* the ops' rules and origins, one copy each */
	struct entry_list skipped;   /* value: path, origin: why and from where;
				      * only for --explain (host.explain) */
	struct entry_list created;   /* directories kjail made so it could pin them */
	struct entry_list unguarded; /* protected names absent at start, which the
				      * jail may make (reserved, protected.h): one
				      * it makes is renamed aside after the run,
				      * with a warning naming where it went */
	struct entry_list watched;   /* directories the jail may add entries to but
				      * whose new entries git outside would use (a
				      * submodule's repository under .git/modules):
				      * value: the directory, origin: why; pinned,
				      * and an entry it adds is renamed aside after
				      * the run, with a warning */
	struct strv watched_present; /* "DIR/NAME" of each entry there at the start */
	struct plan_socket *sockets; /* --allow-socket, in the policy's order */
	size_t nsockets;
	struct plan_scanned *scanned; /* the scan's masked sockets, the pool */
	size_t nscanned;
	bool scanned_host;           /* the socket scan ran (socket-scan.h) */
	size_t scan_entries;         /* directory entries the scan read */
	const char *scan_cut;        /* where the scan stopped at its limit, or NULL */
	enum cache_mode cache;       /* what was done (CACHE_OFF if nothing) */
	const char *cache_origin;    /* the plan's pool */
	const char *cache_note;      /* why there is none though the policy asked
				      * (no home to keep it in), or NULL; the pool */
	bool cache_warn;             /* a run says cache_note in one line (not when
				      * a writable root holds the home's caches) */
	char *cache_dir;             /* the per-workspace directory, or NULL */
	struct entry_list cache_env; /* NAME=VALUE set for the tools, origin: the tool */
	struct entry_list cache_overridden; /* NAME, origin: the caller's value, replaced */
	char *history;               /* the shell's HISTFILE, or NULL */
	char *net_log;               /* --net-log: where the proxy's log is kept
				      * after the run (planner/netlog.h), its
				      * directory real; NULL: nowhere */
	const char *net_log_origin;  /* the plan's pool */
	/* The root of every workspace's cache (HOME/CACHE_WS_ROOT) when a
	 * writable root holds it: masked and its ancestors pinned, and after
	 * the run checked to be the directory it was (aftercare.h), else
	 * moved aside; absent at the start, it is reserved (unguarded). */
	struct {
		char *path;          /* NULL: no writable root holds it */
		bool present;        /* there at the start, with this identity: */
		unsigned long long dev, ino;
		unsigned mode, uid;
	} cache_root;
	/* What the start-up hints (build/hints.h) need of the host, in the
	 * plan's pool (planner/hints.c): */
	const char *agent_socket;    /* the socket $SSH_AUTH_SOCK names (real
				      * path), when it names one; else NULL */
	const char *repo_above;      /* the top of the git work tree the
				      * workspace lies below (not at), whose
				      * .git the jail cannot write; else NULL */
	struct strv env;             /* the environment bwrap gets */
	struct entry_list secrets;   /* the policy's (secret.h): each handed
				      * over on a descriptor (run/secret.h) */
	struct entry_list env_removed;
};

/* AUTO as this system takes it: bwrap on Linux, seatbelt on macOS. */
enum backend backend_effective(enum backend b);

void plan_free(struct plan *pl);

/* $NAME in the caller's environment (h->env), or NULL. */
const char *host_getenv(const struct host *h, const char *name);
/* Appends an op (copies strings); exposed for tests that build plans by hand. */
struct op *plan_add(struct plan *pl, enum op_kind kind, const char *path, const char *rule,
		    const char *origin);

/* The op that decides what the jail does with PATH (a clean absolute real
 * path): the last one covering it, or NULL for a path under no op. */
const struct op *plan_verdict(const struct plan *pl, const char *path);

#endif
