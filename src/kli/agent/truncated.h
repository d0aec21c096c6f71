/* SPDX-License-Identifier: MIT */
/* Tool calls cut off at the model's output limit (agent.h): a reply with
 * finish_reason "length" that calls tools runs none of them. The last
 * call at least is cut off, and whether the others are whole cannot be
 * told (arguments that parse may still have lost their end). Each call
 * gets a result saying it was cut off and not run, so the model can send
 * it again, shorter; said on stderr and as "truncated" events. After
 * AGENT_MAX_TRUNCATED such replies in a row the turn ends. */
#ifndef KLI_AGENT_TRUNCATED_H
#define KLI_AGENT_TRUNCATED_H

#include <stdbool.h>

#include "agent/agent.h"
#include "model/chat.h"

#define AGENT_MAX_TRUNCATED 3

/* R calls tools and was cut at the output limit. */
bool agent_calls_truncated(const struct chat_reply *r);

/* Into the conversation: R's message with each call's arguments replaced
 * by {} (what was cut is not JSON every server takes back), then a
 * result for each call saying it was not run. */
void agent_refuse_truncated(struct agent *a, const struct chat_reply *r);

/* The line a turn ends with after AGENT_MAX_TRUNCATED in a row. New. */
char *agent_truncated_error(void);

#endif
