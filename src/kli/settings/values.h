/* SPDX-License-Identifier: MIT */
/* settings/values.c: one [model] or [bash] item, checked; false with the
 * reason in ERR (the reader adds FILE:LINE). */
#ifndef KLI_SETTINGS_VALUES_H
#define KLI_SETTINGS_VALUES_H

#include <stdbool.h>
#include <stddef.h>

#include "settings/internal.h"

struct ini_item;

bool settings_model_item(struct kli_model *m, const struct ini_item *it, char *err,
			 size_t errlen);
bool settings_bash_item(struct strv *env, long *timeout, const struct ini_item *it, char *err,
			size_t errlen);
void settings_model_clear(struct kli_model *m);

#endif
