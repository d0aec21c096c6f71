/* SPDX-License-Identifier: MIT */
/* tools/files.c: read, find, search and write; all run in the barrier child. */
#ifndef KLI_TOOLS_FILES_H
#define KLI_TOOLS_FILES_H

#include "tools/call.h"

void tool_read(const struct tool_call *c, const struct tool_env *env, struct barrier_out *out);
void tool_find(const struct tool_call *c, const struct tool_env *env, struct barrier_out *out);
void tool_search(const struct tool_call *c, const struct tool_env *env, struct barrier_out *out);
void tool_write(const struct tool_call *c, const struct tool_env *env, struct barrier_out *out);

#endif
