/* SPDX-License-Identifier: MIT */
/* npm's .npmrc (the ini package: one key = value a line, [sections], ; and
 * # comments, no continuation) and Python's configparser files (.pypirc,
 * pip.conf: key = value or key: value inside [sections], an indented line
 * continues the value above, blank lines too when one follows). */
#include "config.h"
#include "cfgfilter/internal.h"
#include "cfgfilter/ini.h"

#include <stdlib.h>
#include <string.h>

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_blank(const struct cf_line *l)
{
	for (size_t i = 0; i < l->len; i++)
		if (!is_space(l->text[i]))
			return false;
	return true;
}

/* The key of a key line (trimmed; npm: quotes and a trailing [] off), or
 * false when the line has no delimiter. */
static bool split_key(bool npm, const char *s, size_t n, const char **key, size_t *klen)
{
	size_t d = 0;
	while (d < n && s[d] != '=' && (npm || s[d] != ':'))
		d++;
	if (d == n)
		return false;
	size_t b = 0, e = d;
	while (b < e && is_space(s[b]))
		b++;
	while (e > b && is_space(s[e - 1]))
		e--;
	if (npm) {
		if (e - b >= 2 && (s[b] == '"' || s[b] == '\'') && s[e - 1] == s[b])
			b++, e--;
		if (e - b >= 2 && s[e - 2] == '[' && s[e - 1] == ']')
			e -= 2;
	}
	*key = s + b;
	*klen = e - b;
	return true;
}

/* Lines [i, end) of one entry: the key line, and under configparser the
 * indented lines after it (and blank ones between them). */
static size_t entry_end(bool npm, const struct cf_line *l, size_t n, size_t i)
{
	size_t end = i + 1;
	if (npm)
		return end;
	for (size_t j = i + 1; j < n; j++) {
		if (is_blank(&l[j]))
			continue;
		if (!is_space(l[j].text[0]))
			break;
		end = j + 1;
	}
	return end;
}

bool cf_filter_ini(bool npm, const char *const *secret, const char *in, size_t len,
		   struct cf_result *res)
{
	size_t n;
	struct cf_line *l = cf_lines(in, len, &n);
	struct strbuf out = STRBUF_INIT;
	bool in_section = npm, ok = true;
	for (size_t i = 0; i < n && ok;) {
		const char *s = l[i].text;
		size_t k = l[i].len, b = 0;
		while (b < k && is_space(s[b]))
			b++;
		if (b == k || s[b] == '#' || s[b] == ';') {
			sb_add(&out, s, l[i++].full);
			continue;
		}
		if (!npm && b > 0) {
			ok = cf_fail(res, i + 1, "an indented line that continues nothing");
			break;
		}
		if (s[b] == '[') {
			size_t e = k;
			while (e > b && is_space(s[e - 1]))
				e--;
			if (s[e - 1] != ']' || e - b < 3) {
				ok = cf_fail(res, i + 1, "a section header without its ']'");
				break;
			}
			in_section = true;
			sb_add(&out, s, l[i++].full);
			continue;
		}
		const char *key;
		size_t klen;
		if (!split_key(npm, s + b, k - b, &key, &klen) || klen == 0) {
			ok = cf_fail(res, i + 1, "neither a setting (key = value) nor a section");
			break;
		}
		if (!in_section) {
			ok = cf_fail(res, i + 1, "a setting before the first section");
			break;
		}
		size_t end = entry_end(npm, l, n, i);
		bool secret_here = cf_key_secret(secret, key, klen);
		for (size_t j = i; j < end && !secret_here; j++)
			secret_here = cf_has_url_secret(l[j].text, l[j].len);
		for (size_t j = i; j < end; j++) {
			if (!secret_here)
				sb_add(&out, l[j].text, l[j].full);
			else if (!is_blank(&l[j]))
				res->removed++;
		}
		i = end;
	}
	free(l);
	return cf_done(&out, ok, res);
}
