/* SPDX-License-Identifier: MIT */
/* The authority report of `kli --print-authority`, as text or as one line
 * of JSON. Both formats are compatible with the original kli's; JSON only
 * ever gains keys (profile, sources). Pure: each returns a string. */
#ifndef KLI_REPORT_H
#define KLI_REPORT_H

#include "authority.h"
#include "settings.h"

/* Lines ending in '\n'. */
char *report_text(const struct grant *g);

/* One object and a '\n': the spec's keys, then "profile" and "sources"
 * (left out when PROFILE is NULL). */
char *report_json(const struct grant *g, const char *profile,
		  const struct kli_source *sources, size_t nsources);

#endif
