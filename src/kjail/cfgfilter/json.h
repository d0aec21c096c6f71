/* SPDX-License-Identifier: MIT */
/* cfgfilter/json.c: JSON, as docker's config.json, filtered
 * (cfgfilter.h says what a filter keeps). */
#ifndef KJ_CFGFILTER_JSON_H
#define KJ_CFGFILTER_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "cfgfilter/cfgfilter.h"

bool cf_filter_json(const char *const *secret, const char *in, size_t len,
		    struct cf_result *res);

#endif
