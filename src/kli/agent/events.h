/* SPDX-License-Identifier: MIT */
/* The agent's JSON events (agent.h, kli --json): one object a line on the
 * run's output, each with "type" and the agent's label as "agent", in the
 * order things happen; nothing when the run is not --json. Text that need
 * not be UTF-8 (paths, what a server sends) is made so first. */
#ifndef KLI_AGENT_EVENTS_H
#define KLI_AGENT_EVENTS_H

#include <jansson.h>

#include "agent/agent.h"
#include "model/chat.h"

/* A JSON string from text that need not be UTF-8 (paths, server words). */
json_t *agent_jstr(const char *s);
/* Arguments as JSON when they parse, else as the text the model sent. */
json_t *agent_args_value(const char *arguments);
/* Print EV (taking it) when the run is --json; free it either way. */
void agent_emit(struct agent *a, json_t *ev);
/* The "result" record that ends a --json run: turns, tool calls, token
 * usage (null when no reply carried it), whether it failed, its exit code
 * (doc/kli-result.schema.json). */
void agent_emit_result(struct agent *a, bool is_error, int exit_code);
/* The "turn" event of model turn TURN. */
void agent_emit_turn(struct agent *a, long turn, const struct chat_reply *r);

#endif
