/* SPDX-License-Identifier: MIT */
/* The planner's insides, shared by the files that build the plan (planner/planner.c
 * drives them). Calls go one way only, top to bottom:
 *   planner/planner.c          the builder: writable roots, then the rest in order
 *   protect.c       the protected paths of each writable root (protected.h)
 *   protect-git.c   what git config names
 *   protect-home.c  the home directory's names, $XDG_CONFIG_HOME's
 *   protect-path.c  protecting one path: bind, pin, make or reserve it
 *   credscan.c      credential files found by content (calls masks.c)
 *   masks.c         the masks: built-in, --deny-read, under no network
 *   socket-scan.c   the host's sockets, found and masked (socket-rules.h)
 *   docker-endpoint.c  the sockets docker's client would connect to
 *   mask-aliases.c  the masks again at the other mounts of their objects
 *   socket-plan.c   the sockets --allow-socket names (sockets.h)
 *   ssh.c           ssh's known_hosts shown, its ProxyCommand (ssh.h)
 *   netlog.c        where --net-log keeps the proxy's log (netlog.h)
 *   hints.c         what the start-up hints need of the host
 *   planner/checks.c     the checks of what was planned against the host
 *   planner/tools.c    candidates, lookups, directory reads, errors
 *   plan.c          the plan itself
 * A file calls only those below it (protect.c calls protect-git.c and
 * protect-home.c, both call protect-path.c), never one above. This header
 * holds the types they share; each file's functions are declared in its
 * own header (tools.h, checks.h, masks.h, protect-path.h, ...), so a file
 * includes the declarations of exactly the files it calls. */
#ifndef KJ_PLAN_BUILD_H
#define KJ_PLAN_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include "planner/planner.h"
#include "planner/mountinfo.h"
#include "path.h"
#include "planner/protected.h"
#include "util.h"
#include "git/link.h"
#include "cfgfilter/cfgfilter.h"
#include "policy/defaults.h"

enum kind { K_MISSING, K_DIR, K_FILE, K_LINK };

/* A candidate mount before ordering; rule and origin live in the plan's
 * string pool. */
struct cand {
	char *path;
	const char *rule;
	const char *origin;
	enum op_kind kind;
	size_t seq;   /* insertion order: for one path, the first rule wins */
};

struct cands {
	struct cand *v;
	size_t n;
	size_t cap;
};

/* Directory listings already read, for a directory read twice (the home
 * directory: its symlinks, then its masks). Small ones only. */
struct listing {
	char *dir;
	char *buf;
	size_t size;
};
#define LISTINGS 4

#define SCAN_MAX KJ_SCAN_MAX
#define GIT_INCLUDES_MAX 256

struct builder {
	const struct policy *p;
	const struct host *h;
	struct plan *pl;
	struct cands roots;    /* writable roots */
	struct cands pins;
	struct cands protects;
	struct cands masks;
	struct cands sockets;  /* OP_SOCKET, after the masks */
	/* writable roots bound inside a directory mask on their parent,
	 * after the masks: the workspace's own cache directory inside the
	 * one mask on every workspace's (planner/planner.c) */
	struct cands inner;
	struct path_memo memo;  /* the home directory, once, for its many masks */
	/* masked files to be served filtered (masks.c): by real path */
	struct filtered {
		char *path;
		struct cf_result res;
		enum cf_format format;
	} *filtered;
	size_t nfiltered;
	int git_includes;       /* included git config files still to be read */
	size_t git_roots;       /* writable roots that are repositories */
	char *git_err;          /* a git config kjail cannot fully read: the
				 * plan fails with this */
	struct listing listings[LISTINGS];
	/* the symbolic links met on the way to the workspace and the writable
	 * paths, in the same lookup that gave their roots (check_planted) */
	struct seen_link {
		char *link, *real;
		const char *given, *origin;
	} *seen;
	size_t nseen;
	/* writable roots whose .git is a file naming a git directory outside
	 * them (git/link.h): that directory's common directory is a writable
	 * root too, protected as a repository's .git is (protect.c) */
	struct linked_git {
		char *tree;
		struct gitlink link;
	} *linked;
	size_t nlinked;
	struct mount_table mounts; /* /proc/self/mountinfo, once (host_mounts) */
	bool mounts_read;
	char *err;
	size_t errlen;
};

#endif
