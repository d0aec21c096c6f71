/* SPDX-License-Identifier: MIT */
/* One model turn of an agent (agent.h): the request (the conversation and
 * the tools its grant is offered) sent and the reply read in a barrier
 * child (barrier.h), so a crash or hang in libcurl, jansson or the parsing
 * ends the child, not the agent. The main agent's streamed text is shown
 * as it comes (term.h neutralises it on a terminal); a failure is logged
 * as a fault. */
#ifndef KLI_AGENT_MODEL_H
#define KLI_AGENT_MODEL_H

#include <stdbool.h>

#include "agent/agent.h"
#include "model/chat.h"

/* True with *REPLY; false with *ERROR one line, *TOO_LONG when the server
 * said the request is too long for its context. *SHOWN: the text was
 * printed as it streamed. Cancelled by Ctrl-C (cancel.h): false with
 * *ERROR CANCEL_TEXT and *PARTIAL the text streamed so far (or NULL). */
bool agent_model_turn(struct agent *a, struct chat_reply *reply, char **error, bool *too_long,
		      bool *shown, char **partial);

#endif
