/* SPDX-License-Identifier: MIT */
/* The agent loop: ask the model, run the tool calls it makes (each through
 * mediate() and a fault barrier), hand the results back, until the model
 * answers without a tool call or the turns run out.
 *
 * struct agent_shared is one run's state: the model, the tool environment,
 * the background jobs, the stored long results, the fault log. Sub-agents
 * (the task tool) share it and hold their own, conferred, grant.
 *
 * The parts, each with its header: state (the run's and an agent's state),
 * turn (one model turn behind a barrier), tool-call (one tool call:
 * mediate, barrier, result), trim (the context limit), truncated (calls
 * cut off at the output limit), events (--json),
 * environ (what a command's environment holds). */
#ifndef KLI_AGENT_H
#define KLI_AGENT_H

#include <stdbool.h>

#include "agent/state.h"

/* One prompt, up to MAX_TURNS model turns. When the server says the
 * conversation is too long for its context, the bodies of the oldest tool
 * results are dropped (each keeps a line saying what it was and how to
 * read it again) and the turn is tried once more, said on stderr and as a
 * "trimmed" event. Tool calls cut off at the model's output limit are not
 * run (agent/truncated.h): the model is told and asked again, and after
 * three such replies in a row the prompt fails. True with *answer the final
 * answer; false with *error one line, and *answer, when not NULL, an
 * answer the model cut short at its output limit (shown, then the error).
 * The conversation is kept, so a second prompt continues it. */
bool agent_ask(struct agent *a, const char *prompt, long max_turns, char **answer,
	       char **error);

#endif
