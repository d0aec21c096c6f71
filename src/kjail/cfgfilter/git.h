/* SPDX-License-Identifier: MIT */
/* cfgfilter/git.c: git's config syntax, the subset kjail keeps a file in, filtered
 * (cfgfilter.h says what a filter keeps). */
#ifndef KJ_CFGFILTER_GIT_H
#define KJ_CFGFILTER_GIT_H

#include <stdbool.h>
#include <stddef.h>

#include "cfgfilter/cfgfilter.h"

bool cf_filter_git(const char *const *secret, const char *in, size_t len,
		   struct cf_result *res);

#endif
