/* SPDX-License-Identifier: MIT */
/* The authority report of `kli --print-authority`, as text or as one line
 * of JSON. Both formats are compatible with the original kli's; JSON only
 * ever gains keys (profile, sources). Pure: each returns a string. */
#ifndef KLI_REPORT_H
#define KLI_REPORT_H

#include <jansson.h>

#include "authority/authority.h"
#include "authority/exclude.h"
#include "settings/settings.h"

/* A JSON string of s: config text is checked UTF-8, but a path can come
 * back from a symlink or a policy with any bytes, which jansson refuses;
 * those become '?' rather than fail. Never NULL (out of memory dies). */
json_t *report_json_str(const char *s);

/* Lines ending in '\n'. */
char *report_text(const struct grant *g);

/* kli's own files (exclude.h), out of every grant whatever it says: a
 * header line, then "  PATH  [WHAT]" for each (", and everything under
 * it" for a directory), in the order of X; "" when X is NULL or empty.
 * Control characters in a path are shown as '?'. */
char *report_exclusions_text(const struct kli_exclusions *x);

/* One object and a '\n': the spec's keys, then "profile" and "sources"
 * (left out when PROFILE is NULL), then "excluded_files", kli's own files
 * as {"path", "what", "why", "tree"} (left out when X is NULL). */
char *report_json(const struct grant *g, const char *profile,
		  const struct kli_source *sources, size_t nsources,
		  const struct kli_exclusions *x);

#endif
