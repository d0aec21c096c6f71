/* SPDX-License-Identifier: MIT */
/* planner/protect-home.c: the home directory's protected names. */
#ifndef KJ_PLANNER_PROTECT_HOME_H
#define KJ_PLANNER_PROTECT_HOME_H

#include "planner/internal.h"

/* protect-home.c: the WHERE_HOME and WHERE_XDG_CONFIG rows */
void protect_homes(struct builder *b);

#endif
