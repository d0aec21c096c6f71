/* SPDX-License-Identifier: MIT */
/* macOS backend: the plan rendered as a Seatbelt (SBPL) profile for
 * /usr/bin/sandbox-exec.
 *
 * The generator is pure and built on every platform: plan and host facts in,
 * profile text and sandbox-exec argv out. No path, name or other user string
 * is ever written into the profile text: every path travels as a
 * "-D NAME=VALUE" argument and the profile says (param "NAME"). The text is a
 * function of how many paths of each kind the plan has, nothing else.
 *
 * Running it (the host probe, --print, the exec of sandbox-exec) is the
 * Seatbelt backend's, in run/seatbelt-run.h. */
#ifndef KJ_SEATBELT_H
#define KJ_SEATBELT_H

#include <stdbool.h>
#include <stdio.h>
#include "planner/planner.h"
#include "strv.h"
#include "util.h"

/* Absolute, never looked up through PATH (which the workspace could plant). */
#define SEATBELT_EXEC "/usr/bin/sandbox-exec"

/* What the generator needs besides the plan. Paths are resolved (realpath)
 * and clean; any may be NULL. */
struct seatbelt_host {
	char *user_tmp;  /* the per-user temporary directory (DARWIN_USER_TEMP_DIR) */
	char *homes[2];  /* the account's home and $HOME, when different */
	bool defaults;   /* built-in masks on (not --no-defaults): adds macOS's own
			  * credential store (~/Library/Keychains) and clipboard */
};

/* The profile text for pl (a fresh string), with one "NAME=VALUE" appended
 * to *params for each parameter it refers to, in the order of -D options. */
char *seatbelt_profile(const struct plan *pl, const struct seatbelt_host *h, struct strv *params);

/* argv = SEATBELT_EXEC -p PROFILE {-D NAME=VALUE}... -- cmd... */
void seatbelt_argv(const char *profile, const struct strv *params, char *const *cmd,
		   struct strv *argv);

/* Both at once: the argv kjail would exec. */
void seatbelt_build(const struct plan *pl, const struct seatbelt_host *h, char *const *cmd,
		    struct strv *argv);

#endif
