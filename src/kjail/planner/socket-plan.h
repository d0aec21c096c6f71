/* SPDX-License-Identifier: MIT */
/* planner/socket-plan.c: the sockets --allow-socket names. */
#ifndef KJ_PLANNER_SOCKET_PLAN_H
#define KJ_PLANNER_SOCKET_PLAN_H

#include "planner/internal.h"

/* socket-plan.c: each socket the policy allows, found and checked on the
 * host (an existing socket, at its real path), planned after the masks
 * (a mask of exactly that path is dropped); false with the error set,
 * naming the flag or FILE:LINE, for one kjail cannot allow. After
 * check_masks. */
bool add_sockets(struct builder *b);

#endif
