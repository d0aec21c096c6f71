/* SPDX-License-Identifier: MIT */
/* planner/plan.c, for the planner alone: an op that takes its path. */
#ifndef KJ_PLANNER_PLAN_TAKE_H
#define KJ_PLANNER_PLAN_TAKE_H

#include "planner/internal.h"

/* plan.c: appends an op that takes ownership of path; rule and origin are
 * already the plan's pool's. */
struct op *plan_take(struct plan *pl, enum op_kind kind, char *path, const char *rule,
		     const char *origin);

#endif
