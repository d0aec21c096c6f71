/* SPDX-License-Identifier: MIT */
/* cfgfilter/yaml.c: a block-style YAML subset, as .yarnrc.yml is written, filtered
 * (cfgfilter.h says what a filter keeps). */
#ifndef KJ_CFGFILTER_YAML_H
#define KJ_CFGFILTER_YAML_H

#include <stdbool.h>
#include <stddef.h>

#include "cfgfilter/cfgfilter.h"

bool cf_filter_yaml(const char *const *secret, const char *in, size_t len,
		    struct cf_result *res);

#endif
