/* SPDX-License-Identifier: MIT */
/* Python's configparser files (.pypirc, pip.conf), read as pip and twine
 * read them (RawConfigParser's defaults, from a file opened as text):
 *   - lines split at LF, CR LF and a CR alone (universal newlines);
 *   - a line whose stripped text starts with # or ; is a comment, a blank
 *     one adds to the value above; neither ends it;
 *   - a line indented deeper than the option line above continues its
 *     value, whatever it holds ("    password = x" under "user = a" is
 *     user's value);
 *   - otherwise "[name]" starts a section, and "key = value" or
 *     "key: value" sets an option: the key is what comes before the first
 *     '=' or ':', stripped and lower()ed as Python does (str.strip() takes
 *     U+00A0 and the other Unicode spaces; lower() makes the Kelvin sign
 *     k).
 * An option is judged by that key, and by each of its continuation lines
 * read as an option line would be; it goes whole, with its continuation
 * lines. Masked whole: what configparser refuses (an option before the
 * first section, a line with no delimiter, an empty key), and a vertical
 * tab, a form feed, \x1c-\x1e, U+0085, U+2028 or U+2029 anywhere: a file
 * read takes them as blanks and str.splitlines() as line breaks, so
 * which line a key is on is in doubt. */
#include "config.h"
#include "cfgfilter/internal.h"
#include "cfgfilter/ini.h"

#include <stdlib.h>
#include <string.h>

/* the line separators str.splitlines() has and a text file read does not */
static bool split_in_doubt(const char *in, size_t len, size_t *at)
{
	size_t k;
	for (size_t i = 0; i < len; i += k) {
		uint32_t c = cf_utf8_at(in, len, i, &k);
		if (c == 0x0b || c == 0x0c || (c >= 0x1c && c <= 0x1e) || c == 0x85 ||
		    c == 0x2028 || c == 0x2029) {
			*at = i;
			return true;
		}
	}
	return false;
}

/* The indentation of s in code points (Python's \S search). */
static size_t indent_of(const char *s, size_t n)
{
	size_t i = 0, k, cols = 0;
	while (i < n && cf_py_space(cf_utf8_at(s, n, i, &k))) {
		i += k;
		cols++;
	}
	return cols;
}

/* The option key of the stripped line s (n bytes) as configparser makes
 * it: up to the first '=' or ':', rstripped, lower()ed, into key. False:
 * no delimiter. */
static bool option_key(const char *s, size_t n, struct strbuf *key)
{
	size_t d = 0;
	while (d < n && s[d] != '=' && s[d] != ':')
		d++;
	if (d == n)
		return false;
	size_t b, e;
	cf_trim(s, d, cf_py_space, &b, &e);
	sb_reset(key);
	for (size_t i = b, k; i < e; i += k) {
		uint32_t c = cf_utf8_at(s, e, i, &k);
		if (c == 0x212a) /* KELVIN SIGN: lower() makes it k */
			sb_addc(key, 'k');
		else if (k == 1 && c >= 'A' && c <= 'Z')
			sb_addc(key, (char)(c + 'a' - 'A'));
		else
			sb_add(key, s + i, k);
	}
	return true;
}

/* A continuation line or an option line, s stripped: secret by its key
 * (when it reads as one) or a URL with a password. */
static bool line_secret(const char *const *secret, const char *s, size_t n, struct strbuf *key)
{
	return (option_key(s, n, key) && cf_key_secret(secret, key->s, key->len)) ||
	       cf_value_url_secret(s, n);
}

bool cf_filter_ini(const char *const *secret, const char *in, size_t len,
		   struct cf_result *res)
{
	size_t at;
	if (split_in_doubt(in, len, &at)) {
		size_t line = 1;
		for (size_t i = 0; i < at; i++)
			line += in[i] == '\n';
		return cf_fail(res, line, "a form feed, vertical tab or Unicode line separator "
					  "(a line break to str.splitlines(), not to a file read)");
	}
	size_t n;
	struct cf_line *l = cf_lines(in, len, &n);
	bool *drop = xreallocarray(NULL, n ? n : 1, sizeof *drop);
	memset(drop, 0, (n ? n : 1) * sizeof *drop);
	struct strbuf key = STRBUF_INIT;
	bool in_section = false, has_opt = false, ok = true, opt_secret = false;
	size_t indent_level = 0, opt_start = 0, opt_end = 0;
	for (size_t i = 0; i <= n && ok; i++) {
		size_t b = 0, e = 0, indent = 0;
		if (i < n) {
			cf_trim(l[i].text, l[i].len, cf_py_space, &b, &e);
			if (b == e || l[i].text[b] == '#' || l[i].text[b] == ';')
				continue; /* a blank line or a comment: neither ends a value */
			indent = indent_of(l[i].text, l[i].len);
			if (has_opt && indent > indent_level) {
				opt_secret = opt_secret ||
					     line_secret(secret, l[i].text + b, e - b, &key);
				opt_end = i + 1;
				continue;
			}
		}
		if (has_opt && opt_secret)
			for (size_t j = opt_start; j < opt_end; j++)
				drop[j] = true;
		has_opt = false;
		if (i == n)
			break;
		const char *s = l[i].text + b;
		size_t sl = e - b;
		indent_level = indent;
		if (s[0] == '[' && sl >= 3 && memchr(s + 2, ']', sl - 2)) {
			in_section = true;
			continue;
		}
		if (!in_section) {
			ok = cf_fail(res, i + 1, "a setting before the first section");
			break;
		}
		if (!option_key(s, sl, &key) || key.len == 0) {
			ok = cf_fail(res, i + 1, "neither a setting (key = value) nor a section");
			break;
		}
		has_opt = true;
		opt_start = i;
		opt_end = i + 1;
		opt_secret = line_secret(secret, s, sl, &key);
	}
	struct strbuf out = STRBUF_INIT;
	for (size_t i = 0; i < n && ok; i++) {
		size_t b, e;
		cf_trim(l[i].text, l[i].len, cf_py_space, &b, &e);
		if (!drop[i])
			sb_add(&out, l[i].text, l[i].full);
		else if (b < e)
			res->removed++;
	}
	free(drop);
	free(l);
	sb_release(&key);
	return cf_done(&out, ok, res);
}
