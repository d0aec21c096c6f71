/* SPDX-License-Identifier: MIT */
/* Does this file hold a credential? The recogniser behind kjail's scan of
 * the home's config directories (planner/credscan.h): no table names
 * every tool, so a file is judged by what it holds. Pure: bytes in, the
 * first finding out; the bytes are untrusted (any file of the home).
 *
 * A finding is either a value of any line that says it is a credential by
 * its own shape (secretval.h's SV_FORMATS: a vendor's token, a private
 * key block, a URL with a password, a webhook URL; in a comment too: the
 * jail reads comments as well as anyone), or a credential-shaped key
 * (secretval_key) holding a secret value by secretval_judge, read as JSON
 * (when the file starts with '{' or '['; string escapes decoded) or as
 * lines of `key = value` (INI, TOML, .env, `export KEY=value`) or `key:
 * value` (YAML, with its nesting by indentation), an INI section or a
 * YAML or JSON parent that is credential-shaped counting for the keys
 * under it. What the reader cannot make out is not an error: the line
 * rule still holds. */
#ifndef KJ_POLICY_CREDFILE_H
#define KJ_POLICY_CREDFILE_H

#include <stdbool.h>
#include <stddef.h>

#define CREDFILE_KEY_MAX 48

struct credfile_hit {
	char key[CREDFILE_KEY_MAX + 1]; /* printable ASCII, no '`'; "" for a line's */
	size_t line;                    /* 1-based */
	const char *why;                /* secretval_judge's reason */
};

/* The first credential in buf[0..len), into hit; false when none. */
bool credfile_find(const char *buf, size_t len, struct credfile_hit *hit);

#endif
