/* SPDX-License-Identifier: MIT */
/* The context limit (agent.h): when the server says the conversation is
 * too long, the bodies of the oldest tool results are dropped, each
 * leaving a line that says what it was and how to read it again (a new
 * call, checked like any other), and the turn is tried once more; said on
 * stderr and as a "trimmed" event. */
#ifndef KLI_AGENT_TRIM_H
#define KLI_AGENT_TRIM_H

#include <stdbool.h>

#include "agent/agent.h"

/* Trim once and say so. False, with *ERROR (the server's words) made one
 * line saying why, when there is nothing to trim or *TRIMMED says this
 * turn was already tried trimmed; true sets *TRIMMED and frees *ERROR. */
bool agent_retry_trimmed(struct agent *a, bool *trimmed, char **error);

#endif
