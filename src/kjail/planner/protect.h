/* SPDX-License-Identifier: MIT */
/* planner/protect.c: every protected row, for every writable root. */
#ifndef KJ_PLANNER_PROTECT_H
#define KJ_PLANNER_PROTECT_H

#include "planner/internal.h"

/* protect.c: every row of the table, for every writable root */
bool protect_all(struct builder *b);

#endif
