/* SPDX-License-Identifier: MIT */
/* A tool's answer, as every tool gives it (tools.h): the dispatcher in
 * tools.c calls the tools, and the tools call these, so they live apart
 * from both. */
#include "config.h"
#include "tools/result.h"
#include "path.h"
#include "util.h"
#include <stdarg.h>
#include <stdlib.h>

void tool_fail(struct barrier_out *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	free(out->text);
	out->text = xvasprintf(fmt, ap);
	va_end(ap);
	out->ok = false;
}

void tool_ok(struct barrier_out *out, char *text)
{
	free(out->text);
	out->text = text;
	out->ok = true;
}

const char *tool_shown_path(const char *path, const char *workspace)
{
	const char *rel = path_relative_to(path, workspace);
	if (!rel)
		return path;
	return *rel ? rel : ".";
}
