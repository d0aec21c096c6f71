/* SPDX-License-Identifier: MIT */
/* --backend landlock's protected names: "restored after the run". Landlock
 * cannot hold a name read-only inside a writable root, so each protected
 * name there (the plan's OP_PROTECT ops: git's hooks and config, ...) is
 * copied at the start, and after the run, what changed is moved aside and
 * the copy put back, one line per name. Everything is done with *at calls
 * and O_NOFOLLOW from the writable root down; what the jail wrote is only
 * compared byte for byte with the copy, never parsed. */
#ifndef KJ_LL_RESTORE_H
#define KJ_LL_RESTORE_H

#include <stdbool.h>
#include <stddef.h>
#include "planner/planner.h"
#include "run/notice.h"
#include "strv.h"

struct ll_snapshot {
	char *dir;         /* where the copies are: STATE/protected */
	char **paths;      /* each protected name that was there */
	size_t n;
	/* OP_SEAL (a directory bwrap lets take no new entry, as a linked
	 * worktree's worktrees/): "DIR/NAME" of each entry at the start */
	struct strv sealed;
	/* OP_PIN (an ancestor of a protected name bwrap keeps from being
	 * renamed away): "DEV:INO:PATH" of each at the start */
	struct strv pins;
};

/* Copies every protected name of pl present now into STATE/protected;
 * dies (125, one line) when one cannot be copied: the command must not
 * run with a name that could not be put back. */
void ll_snapshot_take(const struct plan *pl, const char *state, struct ll_snapshot *s);

/* After the run: each name that differs from its copy (content, mode,
 * type) or is gone is moved aside (when there) to
 * NAME.kjail-moved-aside.RANDOM and its copy put back, with one line;
 * an entry new in a sealed directory is moved aside so, with one line; a
 * pinned directory replaced (renamed away and made again) gets a line.
 * False when one could not be restored or moved (each has its line). */
bool ll_snapshot_restore(const struct plan *pl, const struct ll_snapshot *s, struct notice *n);

void ll_snapshot_free(struct ll_snapshot *s);

#endif
