/* SPDX-License-Identifier: MIT */
/* tools/bash.c: commands, their background jobs and stored results; all run
 * in the barrier child. */
#ifndef KLI_TOOLS_BASH_H
#define KLI_TOOLS_BASH_H

#include "tools/call.h"

void tool_bash(const struct tool_call *c, const struct tool_env *env, struct barrier_out *out);
void tool_bash_output(const struct tool_call *c, const struct tool_env *env,
		      struct barrier_out *out);
void tool_bash_kill(const struct tool_call *c, const struct tool_env *env,
		    struct barrier_out *out);
void tool_bash_jobs(const struct tool_call *c, const struct tool_env *env,
		    struct barrier_out *out);
void tool_result_read(const struct tool_call *c, const struct tool_env *env,
		      struct barrier_out *out);

#endif
