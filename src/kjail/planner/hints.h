/* SPDX-License-Identifier: MIT */
/* planner/hints.c: what the start-up hints need to know of the host
 * (build/hints.h turns it into lines). */
#ifndef KJ_PLANNER_HINTS_H
#define KJ_PLANNER_HINTS_H

#include "planner/internal.h"

/* The socket $SSH_AUTH_SOCK names (plan.h: agent_socket), and the top of
 * the git work tree the workspace lies below (repo_above). After
 * add_roots. */
void note_agent_socket(struct builder *b);
void note_repo_above(struct builder *b);

#endif
