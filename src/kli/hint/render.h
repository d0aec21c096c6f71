/* SPDX-License-Identifier: MIT */
/* Sandbox hints, the text of a hint (hint.h): from what was found (the
 * mount that refused a path, or the network), the block of lines the
 * model and the person read: the command, its exit status, the observed
 * line, the likely rule with its origin, why, and the fix. A fix never
 * suggests widening the jail onto what runs later as root or as the user.
 * Every line is printable on its own (no control characters, valid UTF-8,
 * cut with "..."). Pure, except the environment's is_dir callback. */
#ifndef KLI_HINT_RENDER_H
#define KLI_HINT_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "hint/hint.h"
#include "containment/jailpolicy.h"

/* How much of an observed line a hint shows. */
#define HINT_SHOW_LINE 300

struct hint_finding {
	const struct jail_mount *m;  /* NULL for the network */
	char *path;                  /* the real path refused */
	char *observed;
	bool write;                  /* a write refused, else a read of a mask */
	char *dest;                  /* under an allowlist: "HOST:PORT" refused, or NULL */
};

/* S on one line, printable (valid UTF-8, no control characters: it is
 * shown on a terminal too), at most MAX bytes, "..." after a cut. */
char *hint_one_line(const char *s, size_t max);

/* The hint block for COMMAND, ended with EXIT_STATUS (-1: unknown), for F. */
char *hint_render(const struct jail_policy *p, const struct hint_env *env,
		  const char *command, int exit_status, const struct hint_finding *f);

#endif
