/* SPDX-License-Identifier: MIT */
/* settings/profiles.c: profile names, the extends graph, the run's profile. */
#ifndef KLI_SETTINGS_PROFILES_H
#define KLI_SETTINGS_PROFILES_H

#include <stdbool.h>
#include <stddef.h>

#include "settings/internal.h"

bool profile_name_valid(const char *s);
/* Built in, or defined in any file read so far. */
bool profile_known(const struct loader *L, const char *name);
/* Index of the first definition of NAME, or -1 (a built-in nobody configured). */
long profile_first_def(const struct loader *L, const char *name);
/* Every extends names a known profile, and none leads back to itself. */
bool profile_check_extends(const struct loader *L, char *err, size_t errlen);
/* Mark NAME and every profile it extends, directly or not (acyclic by now). */
void profile_mark_reachable(const struct loader *L, const char *name, bool *on);
/* The profile of the run: --profile, else the system/user [kli] profile,
 * else the default; every name given must be known. */
bool profile_select(const struct loader *L, const struct kli_options *opts, const char **name,
		    char *err, size_t errlen);

#endif
