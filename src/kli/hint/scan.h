/* SPDX-License-Identifier: MIT */
/* Sandbox hints, where a word leads in the jail (hint.h): one hint
 * computation's state (the policy, the environment, the directories a
 * relative word is taken from: the working directory, then each "cd DIR"
 * of the command) and the lookup of a word, "~" and "$HOME" expanded,
 * resolved through the environment's callbacks, against the policy's
 * mounts. The budget: at most HINT_MAX_LOOKUPS paths resolved (each a few
 * system calls) and HINT_MAX_BASES "cd" targets per computation. */
#ifndef KLI_HINT_SCAN_H
#define KLI_HINT_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "hint/hint.h"
#include "hint/words.h"
#include "containment/jailpolicy.h"

#define HINT_MAX_LOOKUPS 256
#define HINT_MAX_BASES 4

/* One hint computation: the policy, the environment, the budget. */
struct hint_scan {
	const struct jail_policy *p;
	const struct hint_env *env;
	const char *bases[HINT_MAX_BASES + 1]; /* the cwd, then "cd DIR" targets */
	char *owned[HINT_MAX_BASES];
	size_t nbases, nowned;
	unsigned lookups;
};

/* S for P and ENV, its bases from ENV's cwd and the "cd DIR" words of W. */
void hint_scan_init(struct hint_scan *s, const struct jail_policy *p, const struct hint_env *env,
		    const struct hint_words *w);
void hint_scan_clear(struct hint_scan *s);

/* The first base under which WORD names a path whose mount passes WANT;
 * its real path in *out (to free), else NULL and *out NULL. */
const struct jail_mount *hint_lookup(struct hint_scan *s, const char *word,
				     bool (*want)(const struct jail_mount *), char **out);

/* What a mount is, for hint_lookup(). */
/* read-only or masked: the jail refuses writes there */
bool hint_is_refusing(const struct jail_mount *m);
/* anything but writable: the jail's private /tmp, /dev and /proc take
 * writes, so a read-only file system there is the jail's too (its
 * /proc/sys), where a permission error is only the kernel's usual one */
bool hint_is_not_writable(const struct jail_mount *m);
bool hint_is_protected(const struct jail_mount *m);
bool hint_is_masked(const struct jail_mount *m);

#endif
