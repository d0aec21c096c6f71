/* SPDX-License-Identifier: MIT */
/* The planner's insides, shared by the files that build the plan (planner/planner.c
 * drives them). Calls go one way only, top to bottom:
 *   planner/planner.c          the builder: writable roots, then the rest in order
 *   protect.c       the protected paths of each writable root (protected.h)
 *   protect-git.c   what git config names
 *   protect-home.c  the home directory's names, $XDG_CONFIG_HOME's
 *   protect-path.c  protecting one path: bind, pin, make or reserve it
 *   masks.c         the masks: built-in, --deny-read, under no network
 *   mask-aliases.c  the masks again at the other mounts of their objects
 *   socket-plan.c   the sockets --allow-socket names (sockets.h)
 *   planner/checks.c     the checks of what was planned against the host
 *   planner/tools.c    candidates, lookups, directory reads, errors
 *   plan.c          the plan itself
 * A file calls only those below it (protect.c calls protect-git.c and
 * protect-home.c, both call protect-path.c), never one above. */
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

/* plan.c: appends an op that takes ownership of path; rule and origin are
 * already the plan's pool's. */
struct op *plan_take(struct plan *pl, enum op_kind kind, char *path, const char *rule,
		     const char *origin);

/* planner/tools.c */
enum kind kind_of(const char *path, bool follow);
/* kind_of, answered from the memo when the path is a directory already
 * found real (a real directory is the same with or without following). */
enum kind kind_in(struct builder *b, const char *path, bool follow);
void cand_push(struct cands *c, struct cand x);
/* Adds a candidate that takes ownership of path. */
void cand_take(struct plan *pl, struct cands *c, enum op_kind kind, char *path,
	       const char *rule, const char *origin);
void cand_add(struct plan *pl, struct cands *c, enum op_kind kind, const char *path,
	      const char *rule, const char *origin);
void cands_free(struct cands *c);
/* Sorted in tree order, one entry per path (the first added; but a seal
 * wins over a pin of its path). */
void cands_sort_unique(struct cands *c);
/* Parents sort before children, so mounts stack the right way round. */
void emit_sorted(struct plan *pl, struct cands *c);
bool in_private_area(const char *path);
const struct cand *covering(const struct cands *c, const char *path);
KJ_PRINTF(2, 3) bool fail(struct builder *b, const char *fmt, ...);
void skip(struct builder *b, const char *path, const char *why, const char *origin);
/* What kjail makes itself changes a directory: no listing is trusted
 * after that. */
void listings_forget(struct builder *b);
/* Which of the n names (first components: name[i], len[i] bytes) are
 * entries of dir: one read of the directory where a lookup per name would
 * cost a system call each, most of them for nothing. False when dir cannot
 * be read in full: then nothing is known. Only absence is taken from it
 * (what is there is still looked up), so the answer is that of a lookup
 * per name. link, when given: which of them are symlinks. */
bool scan_dir(struct builder *b, const char *dir, const char *const *name,
	      const size_t *len, size_t n, bool *present, bool *link);

/* planner/checks.c */
#define MOUNTINFO_MAX (16u << 20)
/* The mount table as this process sees it (bwrap binds from it), read and
 * parsed on first use; NULL with the error set when it cannot be. */
const struct mount_table *host_mounts(struct builder *b);
bool check_planted(struct builder *b);
bool check_kernel_mounts(struct builder *b);
/* Orders the masks and drops those nested in another or private in the
 * jail; false when one would hide a writable root. */
bool check_masks(struct builder *b);

/* masks.c */
void add_mask(struct builder *b, const char *path, const char *origin);
/* The filtered copies planned, onto their masks' ops (after emit_sorted),
 * and freed. */
void attach_filtered(struct builder *b);
void filtered_free(struct builder *b);
/* The built-in masks (with defaults on), those under no network and
 * --deny-read's. */
void add_policy_masks(struct builder *b);
/* The repositories' own git config files (b->protects' "git config"
 * rows): one holding a credential (a CI checkout keeps its token in
 * .git/config: actions/checkout's http.<url>.extraheader) is served
 * filtered as ~/.gitconfig is, still read-only (under Seatbelt, which
 * cannot serve a copy, masked whole with one line); one that cannot be
 * parsed is masked whole; the others stay the files themselves. After
 * protect_all. */
void add_repo_config_filters(struct builder *b);

/* socket-plan.c: each socket the policy allows, found and checked on the
 * host (an existing socket, at its real path), planned after the masks
 * (a mask of exactly that path is dropped); false with the error set,
 * naming the flag or FILE:LINE, for one kjail cannot allow. After
 * check_masks. */
bool add_sockets(struct builder *b);

/* mask-aliases.c: each mask planned so far, also at every other name the
 * mount table gives its object (mountinfo.h), confirmed by stat; false
 * with the error set when the table cannot be read or there are too many. */
bool add_mask_aliases(struct builder *b);

/* protect-path.c: what a row's kind does at one place */
enum protect_act {
	ACT_RESERVE,    /* present: read-only; absent: reserved */
	ACT_IF_PRESENT, /* present: read-only; absent: nothing */
	ACT_IF_FILE,    /* a file: read-only; else nothing */
	ACT_MAKE_DIR,   /* absent: made an empty directory, then read-only */
	ACT_MAKE_FILE,  /* absent: made an empty file, then read-only */
};
/* may_make: a CREATE_DIR row's directory may be made here (a repository's
 * .git/hooks, a config directory); wtc: extensions.worktreeConfig is set
 * (a MAKE_FILE row's file is made). Otherwise both are reserved. */
enum protect_act protect_act_of(enum protect_kind k, bool may_make, bool wtc);
/* Protect root/rel, which is p, of kind k (looked up already). */
void protect_kind(struct builder *b, const char *root, const char *rel, const char *why,
		  enum protect_act act, const char *p, enum kind k);
void protect(struct builder *b, const char *root, const char *rel, const char *why,
	     enum protect_act act);
/* dir (root/...) may get new entries in the jail, but what it holds is
 * what git outside uses (.git/modules): present, it and its ancestors are
 * pinned and its entries noted, and aftercare renames aside each entry the
 * jail adds; absent, it is reserved. */
void watch_dir(struct builder *b, const char *root, const char *dir, const char *why);
/* dir (root/...) takes no new entry in the jail, since git outside trusts
 * one (a linked worktree's worktrees/): present, it is sealed (plan.h's
 * OP_SEAL; what is in it keeps its own pins and protections) and its
 * ancestors pinned; absent, it is reserved. */
void seal_dir(struct builder *b, const char *root, const char *dir, const char *why);
/* path (real) inside a writable root: protected there. */
void protect_at(struct builder *b, const char *real, const char *why, enum protect_act act);

/* protect-git.c */
/* Protects what the git config file names; true when it or a file it
 * includes sets extensions.worktreeConfig. tree: the work tree relative
 * paths are taken against, NULL when unknown. */
bool protect_git_config(struct builder *b, const char *root, const char *file, int depth,
			const char *tree);
/* The repository's config (gitdir/config), then the user's and the
 * system's, relative paths against the work tree tree; true when the
 * repository's sets extensions.worktreeConfig. */
bool protect_git_configs(struct builder *b, const char *root, const char *gitdir,
			 const char *tree);
void protect_global_git_configs(struct builder *b);

/* protect-home.c: the WHERE_HOME and WHERE_XDG_CONFIG rows */
void protect_homes(struct builder *b);

/* protect.c: every row of the table, for every writable root */
bool protect_all(struct builder *b);

#endif
