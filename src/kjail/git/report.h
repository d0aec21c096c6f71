/* SPDX-License-Identifier: MIT */
/* After a run in a repository: what git left half done because of the jail,
 * one line each, with the command that finishes it outside. Before the run
 * it notes, for each writable root that is a git work tree (its .git a
 * directory, or a file naming a linked worktree's or submodule's git
 * directory, git/link.h), HEAD and which operation states are there; after,
 * it reports what changed:
 *   - a protected tracked file (read-only in the jail) that is not as the
 *     new HEAD has it, because HEAD moved in the jail and git could not
 *     write it ("unable to unlink ...: Device or resource busy");
 *   - a merge, rebase, cherry-pick, revert or bisect the jail started and
 *     did not finish;
 *   - a branch made in the jail from a remote-tracking branch whose
 *     upstream git could not write (.git/config is read-only there).
 * A run that left none of these prints nothing and runs no git. State is
 * read from git's files; only for the first, git runs (outside the jail,
 * after it) with a config lockdown: no system or user config, no hooks, no
 * fsmonitor, no pager, no optional locks, no filters (hash-object
 * --no-filters), so nothing the jail planted runs; and the git run is the
 * one the caller's PATH finds outside every writable root (a git the jail
 * put in a writable directory on PATH never runs). */
#ifndef KJ_GITREPORT_H
#define KJ_GITREPORT_H

#include <stddef.h>
#include <time.h>
#include "run/notice.h"
#include "planner/plan.h"

struct gitreport_tree {
	char *tree, *gitdir, *common;
	char *head;      /* the commit HEAD named before the run, or NULL */
	unsigned states; /* operation states there before the run */
};

struct gitreport {
	struct gitreport_tree *v;
	size_t n;
	time_t start;
	char *git;       /* the git the report runs (real path, outside every
			  * writable root), or NULL: the file check is skipped */
};

#ifdef KJ_OS_LINUX
/* Before the run: the trees of pl's writable roots, as they are. */
void gitreport_before(const struct plan *pl, struct gitreport *r);
/* After the run: one line per problem on n. */
void gitreport_after(const struct plan *pl, const struct gitreport *r, struct notice *n);
void gitreport_free(struct gitreport *r);
#endif

#endif
