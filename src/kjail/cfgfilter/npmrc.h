/* SPDX-License-Identifier: MIT */
/* cfgfilter/npmrc.c: npm's .npmrc, filtered as npm's ini module reads it
 * (cfgfilter.h says what a filter keeps). */
#ifndef KJ_CFGFILTER_NPMRC_H
#define KJ_CFGFILTER_NPMRC_H

#include <stdbool.h>
#include <stddef.h>

#include "cfgfilter/cfgfilter.h"

bool cf_filter_npmrc(const char *const *secret, const char *in, size_t len,
		     struct cf_result *res);

#endif
