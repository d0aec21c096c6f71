/* SPDX-License-Identifier: MIT */
/* The hints at start (run/hints.h). */
#include "config.h"
#include "run/hints.h"
#include "build/hints.h"
#include "util.h"

#include <unistd.h>

void hints_say(const struct plan *pl)
{
	if (!isatty(STDERR_FILENO))
		return;
	struct strv lines = STRV_INIT;
	hints_build(pl, &lines);
	for (size_t i = 0; i < lines.n; i++)
		warn_msg("hint: %s", lines.v[i]);
	strv_free(&lines);
}
