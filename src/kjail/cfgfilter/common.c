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
		size_t end = at;
		while (end < len && in[end] != '\n' && in[end] != '\r')
			end++;
		size_t next = end;
		if (next < len)
			next += in[next] == '\r' && next + 1 < len && in[next + 1] == '\n' ? 2 : 1;
		if (*n == cap)
			v = xreallocarray(v, cap *= 2, sizeof *v);
		v[(*n)++] = (struct cf_line){ .text = in + at, .len = end - at, .full = next - at };
		at = next;
	}
	return v;
}

uint32_t cf_utf8_at(const char *s, size_t n, size_t i, size_t *len)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned c = u[i];
	size_t k = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (i + k > n) {
		*len = 1;
		return c;
	}
	*len = k;
	switch (k) {
	case 1: return c;
	case 2: return (c & 0x1fu) << 6 | (u[i + 1] & 0x3fu);
	case 3: return (c & 0x0fu) << 12 | (u[i + 1] & 0x3fu) << 6 | (u[i + 2] & 0x3fu);
	default:
		return (c & 0x07u) << 18 | (u[i + 1] & 0x3fu) << 12 | (u[i + 2] & 0x3fu) << 6 |
		       (u[i + 3] & 0x3fu);
	}
}

/* The Unicode spaces both JavaScript and Python count as blanks. */
static bool unicode_space(uint32_t c)
{
	return c == 0x20 || (c >= 0x09 && c <= 0x0d) || c == 0xa0 || c == 0x1680 ||
	       (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f ||
	       c == 0x205f || c == 0x3000;
}

bool cf_js_space(uint32_t c)
{
	return unicode_space(c) || c == 0xfeff;
}

bool cf_py_space(uint32_t c)
{
	return unicode_space(c) || (c >= 0x1c && c <= 0x1f) || c == 0x85;
}

void cf_trim(const char *s, size_t n, bool (*space)(uint32_t), size_t *b, size_t *e)
{
	size_t i = 0, k;
	while (i < n && space(cf_utf8_at(s, n, i, &k)))
		i += k;
	size_t end = i;
	for (size_t j = i; j < n; j += k)
		if (!space(cf_utf8_at(s, n, j, &k)))
			end = j + k;
	*b = i;
	*e = end;
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

/* A URL with a password (or an http(s) URL with a user) in s; the
 * authority ends at one of stops (and at the end of s). */
static bool url_secret(const char *s, size_t n, const char *stops)
{
	for (size_t i = 0; i + 3 <= n; i++) {
		if (memcmp(s + i, "://", 3) != 0)
			continue;
		/* the authority: up to the path, query, fragment or an end of
		 * the value; the user part is before its last '@' */
		size_t a = i + 3, e = a, at = SIZE_MAX;
		while (e < n && !strchr(stops, s[e])) {
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

bool cf_has_url_secret(const char *s, size_t n)
{
	return url_secret(s, n, "/?#\"' \t\\");
}

bool cf_value_url_secret(const char *s, size_t n)
{
	/* a decoded value: a quote, a blank or a backslash is part of it, and
	 * a URL parser may take it into the user part (WHATWG's percent-encodes
	 * a quote or a blank; Python's urllib splits at the last '@' whatever
	 * comes before) */
	return url_secret(s, n, "/?#\n");
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
