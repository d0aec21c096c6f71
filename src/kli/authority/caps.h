/* SPDX-License-Identifier: MIT */
/* authority/caps.c: capability entries as written in config ("ATOM under PATH", ...). */
#ifndef KLI_AUTHORITY_CAPS_H
#define KLI_AUTHORITY_CAPS_H

#include "authority/grant.h"

/* ---- capability entries ---- */

/* One entry: "ATOM", "ATOM under PATH", "ATOM in LO..HI", "ATOM one of A|B".
 * Fills *out (free with grant_cap_clear) or returns false with a message. */
bool cap_parse_entry(const char *text, const struct auth_ctx *ctx, struct grant_cap *out,
		     char *err, size_t errlen);
void grant_cap_clear(struct grant_cap *cap);

struct cap_list {
	struct grant_cap *v;
	size_t n;
};

/* Append the entries of a comma-separated value ("" appends nothing). On
 * error the list keeps the entries parsed before the bad one. */
bool cap_parse_list(const char *value, const struct auth_ctx *ctx, struct cap_list *out,
		    char *err, size_t errlen);
void cap_list_clear(struct cap_list *l);

#endif
