/* SPDX-License-Identifier: MIT */
/* tools/result.c: a tool's result, and paths as the model sees them. */
#ifndef KLI_TOOLS_RESULT_H
#define KLI_TOOLS_RESULT_H

#include "agent/barrier.h"
#include "util.h"

/* Set OUT to an error (ok false) or a success with TEXT. */
KJ_PRINTF(2, 3) void tool_fail(struct barrier_out *out, const char *fmt, ...);
void tool_ok(struct barrier_out *out, char *text);

/* PATH as the model should see it: relative to the workspace when inside. */
const char *tool_shown_path(const char *path, const char *workspace);

#endif
