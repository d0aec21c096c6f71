/* SPDX-License-Identifier: MIT */
/* cfgfilter/ini.c: Python's configparser files (.pypirc, pip.conf), filtered
 * (cfgfilter.h says what a filter keeps). */
#ifndef KJ_CFGFILTER_INI_H
#define KJ_CFGFILTER_INI_H

#include <stdbool.h>
#include <stddef.h>

#include "cfgfilter/cfgfilter.h"

bool cf_filter_ini(const char *const *secret, const char *in, size_t len, struct cf_result *res);

#endif
