/* SPDX-License-Identifier: MIT */
/* The pieces of an agent's tool call (agent.h) that agent.c's dispatch
 * puts together: the live facts a call is checked against (a job's
 * command), the run behind a fault barrier, a refusal, and the result
 * going back: a long one is stored whole and the model gets its head
 * (result-read pages it), a sandbox hint at its end (hint.h) is shown to
 * the person too and kept in the model's sight. Background jobs are
 * recorded here and reaped between runs. A task (a sub-agent) is run by
 * agent.c itself, beside the loop it calls again. */
#ifndef KLI_AGENT_TOOLS_H
#define KLI_AGENT_TOOLS_H

#include <stdbool.h>

#include "agent/agent.h"
#include "model/chat.h"
#include "tools/tools.h"

/* The commands of the jobs C names, filled in for mediate() to check. */
void agent_fill_job_commands(struct agent_shared *sh, struct tool_call *c);

/* Run C, which mediate() allowed, behind a fault barrier; the result
 * text, *OK whether the tool succeeded. */
/* *SHOW: what the person watching sees of the run (barrier.h), or NULL. */
char *agent_run_allowed(struct agent *a, const struct tool_call *c, bool *ok, char **show);

/* TEXT (taken) as the model gets it: a long one stored whole and its head
 * returned, a sandbox hint kept at the end and shown to the person. */
char *agent_bounded_hinted(struct agent *a, const struct tool_call *c, char *text);

/* A refusal: one line for the person, the "denied" event, and the same
 * words (returned) for the model. */
char *agent_refused(struct agent *a, const struct chat_call *cc, const char *message);

#endif
