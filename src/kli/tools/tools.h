/* SPDX-License-Identifier: MIT */
/* kli's tools: what the model may call, how its arguments are read, and
 * the code that runs each call (inside a fault barrier child).
 *
 * Tools never decide authority. A call is parsed into a struct tool_call,
 * mediate() checks it (and opens every path it checked, fsat.h), and only
 * then does the tool run, through exactly those descriptors. */
#ifndef KLI_TOOLS_H
#define KLI_TOOLS_H

#include <jansson.h>
#include <stdbool.h>

#include "tools/call.h"

/* NULL for an unknown name. */
const struct tool_spec *tool_lookup(const char *name);
const struct tool_spec *tool_spec(enum tool_id id);

/* The "tools" list of a request: the tools marked in OFFER. */
json_t *tools_schema(const bool offer[TOOL_COUNT]);

/* Read ARGUMENTS (JSON text) for tool T into *out. On false, err says what
 * is wrong, in words the model can act on. */
bool tool_call_parse(const struct tool_spec *t, const char *arguments, struct tool_call *out,
		     char *err, size_t errlen);
void tool_call_clear(struct tool_call *c);

/* The barrier function: runs RUN->call (a struct tool_run *). */
void tool_execute(void *run, struct barrier_out *out);

#endif
