/* SPDX-License-Identifier: MIT */
/* One tool call of an agent (agent.h): parsed, given the live facts it is
 * checked against (a job's command), put through mediate(), then run
 * behind a fault barrier (or, for task, as a sub-agent with the conferred
 * grant). The result goes back into the conversation and out as events: a
 * long one is stored whole and the model gets its head (result-read pages
 * it), a sandbox hint at its end (hint.h) is shown to the person too and
 * kept in the model's sight. Background jobs are recorded here and reaped
 * between runs. */
#ifndef KLI_AGENT_TOOLS_H
#define KLI_AGENT_TOOLS_H

#include "agent.h"
#include "model/chat.h"

/* Run the call CC and add its result to the conversation. */
void agent_tool_turn(struct agent *a, const struct chat_call *cc);

#endif
