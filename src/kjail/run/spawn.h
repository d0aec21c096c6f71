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

/* Prints the exact bwrap invocation for cmd in the jail of pl (one
 * shell-quoted line, or JSON), its descriptors numbered as jail_run would
 * number them, and returns 0 (125 when stdout fails). */
int jail_print(const struct plan *pl, const char *bwrap, const char *entry, char *const *cmd,
	       bool json);
#endif

#endif
