/* SPDX-License-Identifier: MIT */
/* What the format filters share (cfgfilter/internal.h): the output buffer,
 * the lines, the secret tests, the one-line error. Called by the filters
 * and cfgfilter.c, calls none of them. */
#include "config.h"
#include "cfgfilter/internal.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool cf_done(struct strbuf *out, bool ok, struct cf_result *res)
{
	if (!ok) {
		sb_release(out);
		return false;
	}
	res->len = out->len;
	res->data = sb_detach(out);
	return true;
}

struct cf_line *cf_lines(const char *in, size_t len, size_t *n)
{
	size_t cap = 16;
	struct cf_line *v = xreallocarray(NULL, cap, sizeof *v);
	*n = 0;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(in + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - in) : len;
		if (*n == cap)
			v = xreallocarray(v, cap *= 2, sizeof *v);
		size_t l = end - at;
		if (l && in[end - 1] == '\r')
			l--;
		v[(*n)++] = (struct cf_line){ .text = in + at, .len = l,
					      .full = (nl ? end + 1 : end) - at };
		at = nl ? end + 1 : end;
	}
	return v;
}

bool cf_key_secret(const char *const *secret, const char *key, size_t n)
{
	char *k = xstrndup(key, n);
	for (char *p = k; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	bool hit = false;
	for (; secret && *secret && !hit; secret++)
		hit = fnmatch(*secret, k, FNM_CASEFOLD) == 0;
	free(k);
	return hit;
}

/* The scheme before s[at] ("://"): letters, digits, + - . */
static bool scheme_is_http(const char *s, size_t at)
{
	size_t b = at;
	while (b > 0 && (isalnum((unsigned char)s[b - 1]) || strchr("+-.", s[b - 1])))
		b--;
	size_t l = at - b;
	return (l == 4 && strncasecmp(s + b, "http", 4) == 0) ||
	       (l == 5 && strncasecmp(s + b, "https", 5) == 0);
}

bool cf_has_url_secret(const char *s, size_t n)
{
	for (size_t i = 0; i + 3 <= n; i++) {
		if (memcmp(s + i, "://", 3) != 0)
			continue;
		/* the authority: up to the path, query, fragment or an end of
		 * the value; the user part is before its last '@' */
		size_t a = i + 3, e = a, at = SIZE_MAX;
		while (e < n && !strchr("/?#\"' \t\\", s[e])) {
			if (s[e] == '@')
				at = e;
			e++;
		}
		if (at == SIZE_MAX)
			continue;
		if (memchr(s + a, ':', at - a) || scheme_is_http(s, i))
			return true;
	}
	return false;
}

bool cf_fail(struct cf_result *res, size_t line, const char *fmt, ...)
{
	char msg[sizeof res->err - 32];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (line)
		snprintf(res->err, sizeof res->err, "line %zu: %s", line, msg);
	else
		snprintf(res->err, sizeof res->err, "%s", msg);
	/* one line: a parser's message may quote the file's bytes */
	for (char *p = res->err; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return false;
}
