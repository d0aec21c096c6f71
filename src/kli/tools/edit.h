/* SPDX-License-Identifier: MIT */
/* tools/edit.c: edit; runs in the barrier child. */
#ifndef KLI_TOOLS_EDIT_H
#define KLI_TOOLS_EDIT_H

#include "tools/call.h"

void tool_edit(const struct tool_call *c, const struct tool_env *env, struct barrier_out *out);

#endif
