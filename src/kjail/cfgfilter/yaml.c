/* SPDX-License-Identifier: MIT */
/* A block-style YAML subset, as .yarnrc.yml is written: "key: value"
 * mappings nested by indentation (spaces), plain or quoted keys and
 * values on one line, "- " list items, comments, plain values continued
 * on deeper lines. Flow collections ({ [), block scalars (| >), anchors,
 * aliases, tags, directives, several documents, a quoted value over lines
 * or an escape inside a quoted key fail the file. A secret key's line goes
 * with every deeper line after it (its nested block or continued value);
 * a secret inside a list item fails the file (removing the line would
 * change the list). */
#include "config.h"
#include "cfgfilter/internal.h"
#include "cfgfilter/yaml.h"

#include <stdlib.h>
#include <string.h>

#define YAML_DEPTH 64

struct yaml_state {
	const char *const *secret;
	struct strbuf path;            /* "a.b.c" of the open mappings */
	struct { size_t indent, len; } open[YAML_DEPTH];
	size_t depth;
	long drop;                     /* dropping lines deeper than this, or -1 */
	long cont;                     /* a plain value continues deeper than this, or -1 */
};

/* The end of a quoted scalar starting at s[0] (the quote), or 0 when it is
 * open on this line; *esc: it holds an escape. */
static size_t quoted_end(const char *s, size_t n, bool *esc)
{
	char q = s[0];
	*esc = false;
	for (size_t i = 1; i < n; i++) {
		if (q == '"' && s[i] == '\\') {
			*esc = true;
			i++;
		} else if (s[i] == q) {
			if (q == '\'' && i + 1 < n && s[i + 1] == '\'') {
				*esc = true;
				i++;
				continue;
			}
			return i + 1;
		}
	}
	return 0;
}

static void add_utf8(struct strbuf *out, uint32_t c)
{
	if (c < 0x80) {
		sb_addc(out, (char)c);
	} else if (c < 0x800) {
		sb_addc(out, (char)(0xc0 | c >> 6));
		sb_addc(out, (char)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		sb_addc(out, (char)(0xe0 | c >> 12));
		sb_addc(out, (char)(0x80 | ((c >> 6) & 0x3f)));
		sb_addc(out, (char)(0x80 | (c & 0x3f)));
	} else {
		sb_addc(out, (char)(0xf0 | c >> 18));
		sb_addc(out, (char)(0x80 | ((c >> 12) & 0x3f)));
		sb_addc(out, (char)(0x80 | ((c >> 6) & 0x3f)));
		sb_addc(out, (char)(0x80 | (c & 0x3f)));
	}
}

/* The double-quoted scalar s[0..n) (inside its quotes) as a YAML loader
 * reads it: the escapes replaced. False on one no loader knows. */
static bool dq_decode(const char *s, size_t n, struct strbuf *out)
{
	static const char simple[] = "0\0a\ab\bt\tn\nv\vf\fr\re\x1b" "  \"\"//\\\\";
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\') {
			sb_addc(out, s[i]);
			continue;
		}
		if (++i == n)
			return false;
		char c = s[i];
		const char *m = NULL;
		for (size_t j = 0; j + 1 < sizeof simple; j += 2)
			if (simple[j] == c) {
				m = simple + j + 1;
				break;
			}
		if (c == '\t') {
			sb_addc(out, '\t');
		} else if (m) {
			sb_addc(out, *m);
		} else if (c == 'N' || c == '_' || c == 'L' || c == 'P') {
			add_utf8(out, c == 'N' ? 0x85 : c == '_' ? 0xa0 : c == 'L' ? 0x2028 : 0x2029);
		} else if (c == 'x' || c == 'u' || c == 'U') {
			size_t d = c == 'x' ? 2 : c == 'u' ? 4 : 8;
			uint32_t v = 0;
			if (n - i - 1 < d)
				return false;
			for (size_t j = 1; j <= d; j++) {
				char h = s[i + j];
				int x = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
					: h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
				if (x < 0)
					return false;
				v = v << 4 | (uint32_t)x;
			}
			if (v > 0x10ffff)
				return false;
			add_utf8(out, v);
			i += d;
		} else {
			return false;
		}
	}
	return true;
}

/* A URL with a password in the line s, as written or in any of its quoted
 * scalars as a loader decodes them (a "\x40" is an '@'); an escape no
 * loader knows counts as one. */
static bool line_url_secret(const char *s, size_t n)
{
	if (cf_has_url_secret(s, n) || cf_value_url_secret(s, n))
		return true;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '"' && s[i] != '\'')
			continue;
		bool esc;
		size_t e = quoted_end(s + i, n - i, &esc);
		if (!e)
			return false;
		struct strbuf v = STRBUF_INIT;
		bool ok = true;
		if (s[i] == '"') {
			ok = dq_decode(s + i + 1, e - 2, &v);
		} else {
			for (size_t j = i + 1; j + 1 < i + e; j++) {
				sb_addc(&v, s[j]);
				j += s[j] == '\'' && s[j + 1] == '\'';
			}
		}
		bool hit = !ok || cf_value_url_secret(v.s, v.len);
		sb_release(&v);
		if (hit)
			return true;
		i += e - 1;
	}
	return false;
}

static bool only_comment(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && s[i] == ' ')
		i++;
	return i == n || (s[i] == '#' && i > 0);
}

/* The key of s[0..n): its text and where the value starts (after ':'),
 * or false: no key here. why is set when the line is not in the subset. */
static bool yaml_key(const char *s, size_t n, const char **key, size_t *klen, size_t *val,
		     const char **why)
{
	*why = NULL;
	if (s[0] == '"' || s[0] == '\'') {
		bool esc;
		size_t e = quoted_end(s, n, &esc);
		if (!e || esc) {
			*why = !e ? "an open quote" : "an escape in a quoted key";
			return false;
		}
		size_t c = e;
		while (c < n && s[c] == ' ')
			c++;
		if (c == n || s[c] != ':') {
			*why = "a quoted scalar where a key was expected";
			return false;
		}
		*key = s + 1;
		*klen = e - 2;
		*val = c + 1;
		return true;
	}
	if (strchr("&*!|>{[%@`?,", s[0])) {
		*why = "YAML this filter does not read (flow, anchor, alias, tag or block scalar)";
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '#' && i > 0 && s[i - 1] == ' ')
			return false;
		if (s[i] == ':' && (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\t')) {
			size_t e = i;
			while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t'))
				e--;
			*key = s;
			*klen = e;
			*val = i + 1;
			return true;
		}
	}
	return false;
}

/* The value after a key: true when a block follows (nothing on the line),
 * *plain when it is a plain scalar (it may continue on deeper lines). */
static bool yaml_value(const char *s, size_t n, bool *block, bool *plain, const char **why)
{
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	*block = *plain = false;
	if (i == n || s[i] == '#') {
		*block = true;
		return true;
	}
	if (s[i] == '"' || s[i] == '\'') {
		bool esc;
		size_t e = quoted_end(s + i, n - i, &esc);
		if (!e) {
			*why = "a quoted value over several lines";
			return false;
		}
		if (!only_comment(s + i + e, n - i - e)) {
			*why = "text after a quoted value";
			return false;
		}
		return true;
	}
	if (strchr("&*!|>{[%@`", s[i])) {
		*why = "YAML this filter does not read (flow, anchor, alias, tag or block scalar)";
		return false;
	}
	*plain = true;
	return true;
}

static void yaml_open(struct yaml_state *y, size_t indent)
{
	while (y->depth && y->open[y->depth - 1].indent >= indent)
		y->depth--;
	sb_setlen(&y->path, y->depth ? y->open[y->depth - 1].len : 0);
}

/* One line, not blank and not a comment: kept (true, *keep) or dropped,
 * or the file fails. */
static bool yaml_line(struct yaml_state *y, const char *s, size_t n, size_t ind, bool *keep,
		      struct cf_result *res, size_t line)
{
	*keep = true;
	if (y->drop >= 0 && (long)ind > y->drop) {
		*keep = false;
		return true;
	}
	y->drop = -1;
	if (y->cont >= 0 && (long)ind > y->cont) {
		if (line_url_secret(s, n))
			return cf_fail(res, line, "a URL with a password in a continued value");
		return true;
	}
	y->cont = -1;
	if (ind == 0 && (n >= 3 && (memcmp(s, "---", 3) == 0 || memcmp(s, "...", 3) == 0)))
		return cf_fail(res, line, "a document marker (one document only)");
	size_t i = ind;
	bool item = false;
	if (s[i] == '-' && (i + 1 == n || s[i + 1] == ' ')) {
		item = true;
		for (i++; i < n && s[i] == ' '; i++)
			;
		if (i == n || s[i] == '#')
			return true; /* a list item whose mapping follows */
	}
	const char *key, *why;
	size_t klen, val;
	if (!yaml_key(s + i, n - i, &key, &klen, &val, &why)) {
		if (why)
			return cf_fail(res, line, "%s", why);
		if (!item)
			return cf_fail(res, line, "neither \"key: value\" nor a list item");
		if (line_url_secret(s, n))
			return cf_fail(res, line, "a URL with a password in a list item");
		return true;
	}
	bool block, plain;
	if (!yaml_value(s + i + val, n - i - val, &block, &plain, &why))
		return cf_fail(res, line, "%s", why);
	yaml_open(y, i);
	size_t base = y->path.len;
	if (base)
		sb_addc(&y->path, '.');
	sb_add(&y->path, key, klen);
	bool secret = cf_key_secret(y->secret, y->path.s, y->path.len) || line_url_secret(s, n);
	if (secret) {
		if (item)
			return cf_fail(res, line, "a secret in a list item");
		*keep = false;
		y->drop = (long)i;
		sb_setlen(&y->path, base);
		return true;
	}
	if (block && y->depth < YAML_DEPTH) {
		y->open[y->depth].indent = i;
		y->open[y->depth++].len = y->path.len;
	} else if (block) {
		return cf_fail(res, line, "nested deeper than %d", YAML_DEPTH);
	} else {
		sb_setlen(&y->path, base);
		if (plain)
			y->cont = (long)i;
	}
	return true;
}

bool cf_filter_yaml(const char *const *secret, const char *in, size_t len,
		    struct cf_result *res)
{
	/* line breaks to YAML 1.1 loaders (PyYAML), not to YAML 1.2 ones */
	static const char *const nel[] = { "\xc2\x85", "\xe2\x80\xa8", "\xe2\x80\xa9" };
	for (size_t i = 0; i < 3; i++) {
		const char *at = memmem(in, len, nel[i], strlen(nel[i]));
		if (at) {
			size_t line = 1;
			for (const char *p = in; p < at; p++)
				line += *p == '\n';
			return cf_fail(res, line, "U+0085, U+2028 or U+2029: a line break to some YAML "
						  "loaders and not to others");
		}
	}
	size_t n;
	struct cf_line *l = cf_lines(in, len, &n);
	struct yaml_state y = { .secret = secret, .path = STRBUF_INIT, .drop = -1, .cont = -1 };
	struct strbuf out = STRBUF_INIT;
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		const char *s = l[i].text;
		size_t k = l[i].len, ind = 0;
		while (ind < k && s[ind] == ' ')
			ind++;
		if (ind < k && s[ind] == '\t') {
			ok = cf_fail(res, i + 1, "a tab in the indentation");
			break;
		}
		bool keep = true;
		if (ind == k) {
			/* blank: kept */
		} else if (s[ind] == '#') {
			keep = !(y.drop >= 0 && (long)ind > y.drop);
		} else if (!yaml_line(&y, s, k, ind, &keep, res, i + 1)) {
			ok = false;
			break;
		} else if (!keep) {
			res->removed++;
		}
		if (keep)
			sb_add(&out, s, l[i].full);
	}
	free(l);
	sb_release(&y.path);
	return cf_done(&out, ok, res);
}
