/* SPDX-License-Identifier: MIT */
/* The jail kjail runs git in after a run (git/report.h), over what the
 * jail wrote: a plan derived from the run's own, so that git, whatever
 * config, hooks or objects the jail left, cannot change anything, reach
 * a socket or the network, or read what the run could not:
 *   - the host read-only, /dev, /proc and a private /tmp as in the run;
 *   - the account's home hidden (an empty read-only directory);
 *   - every writable root of the run bound read-only, with the run's
 *     protected paths and masks (credential stores, sockets) over them;
 *   - no network namespace of the host (the caller's seccomp export
 *     refuses sockets too), no socket bound, no policy file, no secret;
 *   - the environment given (git/report.c: a locked-down one).
 * Pure: plan in, plan out. */
#ifndef KJ_PLANNER_GITJAIL_H
#define KJ_PLANNER_GITJAIL_H

#include "planner/plan.h"

/* A file kjail hands git there, read-only: data (copied) at path, under
 * the jail's private /tmp (the index as it was before the run). */
struct gitjail_file {
	const char *path;
	const char *data;
	size_t len;
};

/* out: the jail for git in dir (its working directory), built from base
 * (the run's plan); home: the account's home, hidden (NULL or "/": not);
 * ro: more directories bound read-only (NULL-terminated, may be NULL: a
 * linked worktree's git directories), under the run's masks; file: one
 * more file, or NULL; env: the whole environment (copied). */
void gitjail_plan(const struct plan *base, const char *dir, const char *home,
		  const char *const *ro, const struct gitjail_file *file, char *const *env,
		  struct plan *out);

#endif
