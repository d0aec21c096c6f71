/* SPDX-License-Identifier: MIT */
/* planner/mask-aliases.c: the masks at their objects' other names. */
#ifndef KJ_PLANNER_MASK_ALIASES_H
#define KJ_PLANNER_MASK_ALIASES_H

#include "planner/internal.h"

/* mask-aliases.c: each mask planned so far, also at every other name the
 * mount table gives its object (mountinfo.h), confirmed by stat; false
 * with the error set when the table cannot be read or there are too many. */
bool add_mask_aliases(struct builder *b);

#endif
