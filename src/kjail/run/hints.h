/* SPDX-License-Identifier: MIT */
/* The hints (build/hints.h) at start: each once, "kjail: hint: ...", when
 * standard error is a terminal, where a person reads them; a pipe or a
 * file (a script, CI, an agent's tool call) gets none. */
#ifndef KJ_RUN_HINTS_H
#define KJ_RUN_HINTS_H

#include "planner/plan.h"

void hints_say(const struct plan *pl);

#endif
