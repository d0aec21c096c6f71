/* SPDX-License-Identifier: MIT */
/* The only code that starts the jail: it opens the descriptors bwrap reads
 * (the masked files' empty data, the policy file, the seccomp program, its
 * options), starts bwrap once with all of them, waits for it and for every
 * process of the jail, and says why a jail did not start. */
#ifndef KJ_SPAWN_H
#define KJ_SPAWN_H

#include <stdbool.h>
#include "planner/planner.h"
#include "util.h"

#ifdef KJ_OS_LINUX
/* Runs cmd in the jail of pl: bwrap (by absolute path) with the entry
 * program entry, the policy file holding policy_json (freed). Returns when
 * no process of the jail is left, with the command's status (128+N for a
 * signal N), or dies (status 125, one line) when the jail could not be set
 * up. The command never runs outside the jail. */
int jail_run(const struct plan *pl, const char *bwrap, const char *entry, char *const *cmd,
	     char *policy_json);

/* Runs cmd in the jail of pl with its standard output captured (standard
 * input and error: /dev/null): the output, NUL-terminated, its length in
 * *len; NULL when the jail did not start, the command failed, said more
 * than cap bytes or ran longer than timeout_ms (then it is killed). For
 * kjail's own runs over what a jail wrote (git/report.h); no policy file,
 * no proxy. Dies only where jail_run would before the start. */
char *jail_capture(const struct plan *pl, const char *bwrap, const char *entry,
		   char *const *cmd, size_t cap, int timeout_ms, size_t *len);

/* How long git may take in its jail after a run, each time. */
#define GIT_JAIL_TIMEOUT_MS 20000

/* Prints the exact bwrap invocation for cmd in the jail of pl (one
 * shell-quoted line, or JSON), its descriptors numbered as jail_run would
 * number them, and returns 0 (125 when stdout fails). */
int jail_print(const struct plan *pl, const char *bwrap, const char *entry, char *const *cmd,
	       bool json);
#endif

#endif
