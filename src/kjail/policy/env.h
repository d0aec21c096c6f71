/* SPDX-License-Identifier: MIT */
/* The environment handed to bwrap (and so to every process of the jail). */
#ifndef KJ_ENV_H
#define KJ_ENV_H

#include "policy/policy.h"
#include "strv.h"

/* Copy envp into kept, leaving out every variable that matches a --deny-env
 * pattern, or a built-in scrub pattern (when defaults are on) that no
 * --keep-env pattern exempts. Each removed name goes to removed, with the
 * rule that removed it as its origin. Entries without '=' are dropped. */
void env_filter(char *const *envp, const struct policy *p, struct strv *kept,
		struct entry_list *removed);

/* fnmatch(pat, name, 0) == 0, without fnmatch for patterns made of literal
 * bytes and '*' only (every built-in one): the names of the whole
 * environment are matched against every pattern on each run. */
bool env_glob_match(const char *pat, const char *name);

#endif
