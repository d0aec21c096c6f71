/* SPDX-License-Identifier: MIT */
/* The only reader of kjail policy files (named conf, not config, so it cannot
 * shadow autoconf's config.h). */
#ifndef KJ_CONF_H
#define KJ_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include "policy/policy.h"

/* Where the user config lives: $XDG_CONFIG_HOME/kjail/config.ini when that
 * is absolute, else HOME/.config/kjail/config.ini. */
char *config_user_path(const char *home, const char *xdg_config_home);

/* Add one file's settings to p. Paths in it must be absolute or start with
 * "~/" (expanded against home). A missing file is fine when optional. */
bool config_load_file(struct policy *p, const char *path, bool optional, const char *home,
		      char *err, size_t errlen);

/* Same over text in memory (tests, fuzzing). */
bool config_load_text(struct policy *p, const char *name, const char *text, size_t len,
		      const char *home, char *err, size_t errlen);

/* Checks shared with the command line. */
bool env_pattern_valid(const char *pattern);
/* --device=CLASS, device = CLASS (what: the flag or the key): adds a known
 * class to l once; false with one line in err for an unknown one. */
bool device_add(struct entry_list *l, const char *what, const char *value, const char *origin,
		char *err, size_t errlen);

#endif
