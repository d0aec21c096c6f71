/* SPDX-License-Identifier: MIT */
/* After a run in a repository: what git left half done because of the jail,
 * and what the jail did to hide its changes, one line each, with the
 * command that finishes or undoes it outside. Before the run it notes, for
 * each writable root that is a git work tree (its .git a directory, or a
 * file naming a linked worktree's or submodule's git directory,
 * git/link.h), HEAD, which operation states are there, and the bytes of
 * the index and of info/exclude; after, it reports what changed:
 *   - a protected tracked file (read-only in the jail) that is not as the
 *     new HEAD has it, because HEAD moved in the jail and git could not
 *     write it ("unable to unlink ...: Device or resource busy");
 *   - a merge, rebase, cherry-pick, revert or bisect the jail started and
 *     did not finish;
 *   - a branch made in the jail from a remote-tracking branch whose
 *     upstream git could not write (.git/config is read-only there);
 *   - an index entry the jail marked assume-unchanged or skip-worktree
 *     (git status and git diff then say nothing of its changes);
 *   - a line the jail added to info/exclude (where it could write it).
 *
 * Nothing the jail wrote is parsed outside a jail, and no git runs over it
 * outside one. HEAD, refs, packed-refs, the operation states and the
 * reflogs are read as the small files they are: with *at calls from the
 * git directories opened before the run, O_NOFOLLOW at every component, a
 * regular file only, a bounded read, never through git. The index and
 * info/exclude are compared as bytes. What needs git over the jail's
 * objects, index and config (ls-tree, hash-object, ls-files -v) runs in a
 * jail of its own (planner/gitjail.h: read-only, no home, no network, no
 * socket, seccomp, a time and output limit) through the runner the caller
 * gives, with a locked-down git: no system or user config, no hooks, no
 * fsmonitor, no pager, no lazy fetch, no protocol, no filters; and the git
 * run is the one the caller's PATH finds outside every writable root. With
 * no runner (or when that jail cannot start) nothing runs, and the report
 * says what it could not check. A run that left none of these prints
 * nothing and runs no git. */
#ifndef KJ_GITREPORT_H
#define KJ_GITREPORT_H

#include <stddef.h>
#include <time.h>
#include "run/notice.h"
#include "planner/plan.h"
#include "planner/gitjail.h"

struct gitreport_tree {
	char *tree, *gitdir, *common;
	int gitdir_fd, common_fd; /* opened before the run (O_PATH), or -1 */
	char *head;      /* the commit HEAD named before the run, or NULL */
	unsigned states; /* operation states there before the run */
	char *index;     /* the index's bytes before the run, or NULL */
	size_t index_len;
	bool index_big;  /* over GITREPORT_INDEX_MAX: not compared */
	char *exclude;   /* info/exclude's bytes before the run, or NULL */
	size_t exclude_len;
};

/* Runs git (argv[0], an absolute path) in dir with exactly env, in a jail
 * of its own, with file (or NULL) there too; its standard output, up to
 * cap bytes, or NULL. */
typedef char *(*gitreport_runner)(void *ctx, const char *dir, char *const *env,
				  char *const *argv, const struct gitjail_file *file,
				  size_t cap, size_t *len);

/* The largest index copied before the run to compare its flags after. */
#define GITREPORT_INDEX_MAX (64u << 20)

struct gitreport {
	struct gitreport_tree *v;
	size_t n;
	time_t start;
	char *git;       /* the git the report runs (real path, outside every
			  * writable root), or NULL: the file check is skipped */
	gitreport_runner run;  /* set by the caller after gitreport_before */
	void *run_ctx;
};

#ifdef KJ_OS_LINUX
/* Before the run: the trees of pl's writable roots, as they are. */
void gitreport_before(const struct plan *pl, struct gitreport *r);
/* After the run: one line per problem on n. */
void gitreport_after(const struct plan *pl, const struct gitreport *r, struct notice *n);
void gitreport_free(struct gitreport *r);
#endif

#endif
