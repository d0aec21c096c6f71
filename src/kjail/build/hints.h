/* SPDX-License-Identifier: MIT */
/* The hints: what a newcomer hits next, said where it happens (issue 37).
 * kjail never reads what the command writes, so each is known at start,
 * from the plan alone: something the caller's environment points at that
 * the policy hides, and the flag that would give it. One line each, in
 * words, without "kjail: "; run/hints.c says them at start (on a terminal
 * only), explain.c lists them ("hint: ..."). Pure: the host was looked at
 * by the planner (planner/hints.c). */
#ifndef KJ_HINTS_H
#define KJ_HINTS_H

#include "planner/plan.h"
#include "strv.h"

/* The hints for pl, appended to out, one line each:
 *   - $SSH_AUTH_SOCK names an agent's socket (plan.h: agent_socket) that
 *     the jail cannot reach (masked, or under the jail's own /tmp), or the
 *     variable is removed from the jail's environment: --allow-socket
 *     ssh-agent;
 *   - the workspace lies below the top of a git work tree (repo_above)
 *     whose .git is not writable in the jail: -C TOP.
 * None under --backend container, which sets up no jail. */
void hints_build(const struct plan *pl, struct strv *out);

#endif
