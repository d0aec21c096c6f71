/* SPDX-License-Identifier: MIT */
/* What the person watching a text-mode run sees of each tool call: one
 * line ("▸ edit src/main.c (+3 −1)", "▸ bash: make test → exit 0, 2.1 s,
 * 48 lines"), then the body the tool handed back (barrier.h's SHOW: an
 * edit's or a write's diff, a failed command's output tail). On stderr,
 * beside the refusals, so that the answer alone is on stdout; nothing
 * under --json (the events say it) or --quiet. Every byte goes through the
 * terminal neutraliser (term.h) whether or not stderr is a terminal; on a
 * terminal the diff is coloured. */
#ifndef KLI_AGENT_SHOW_H
#define KLI_AGENT_SHOW_H

#include <stdbool.h>

#include "agent/state.h"

/* The text to print for call C (after the run; OK its outcome, TEXT the
 * result the model gets, SHOW the tool's text for the person or NULL).
 * COLOUR: SGR colours for the diff. Pure; a new string. */
char *show_render(const struct tool_call *c, const char *workspace, bool ok, const char *text,
		  const char *show, bool colour);

/* Print it on stderr, unless the run is --json or --quiet. */
void agent_show_call(struct agent *a, const struct tool_call *c, bool ok, const char *text,
		     const char *show);

#endif
