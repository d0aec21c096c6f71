/* SPDX-License-Identifier: MIT */
/* planner/checks.c: what was planned, checked against the host. */
#ifndef KJ_PLANNER_CHECKS_H
#define KJ_PLANNER_CHECKS_H

#include "planner/internal.h"

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

#endif
