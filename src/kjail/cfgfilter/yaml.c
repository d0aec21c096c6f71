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
		if (s[i] == ':' && (i + 1 == n || s[i + 1] == ' ')) {
			size_t e = i;
			while (e > 0 && s[e - 1] == ' ')
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
	while (i < n && s[i] == ' ')
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
		if (cf_has_url_secret(s, n))
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
		if (cf_has_url_secret(s, n))
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
	bool secret = cf_key_secret(y->secret, y->path.s, y->path.len) || cf_has_url_secret(s, n);
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
