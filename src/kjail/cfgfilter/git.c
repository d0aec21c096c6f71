/* SPDX-License-Identifier: MIT */
/* git's config syntax, the subset kjail keeps a file in: [section] and
 * [section "subsection"] headers alone on their line, name = value or a
 * bare name, quotes and backslash escapes in values, comments (# ;) after
 * them, and lines continued by a final backslash. A key on a header's
 * line, an open quote, an unknown escape or anything else fails the file
 * (git itself refuses most of them; kjail does not guess the rest). */
#include "config.h"
#include "cfgfilter/internal.h"
#include "cfgfilter/git.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* A header at s[b..k): "section" or "section.sub" or "section \"sub\"",
 * lower-cased except for a quoted subsection, into name. False with why. */
static bool parse_header(const char *s, size_t b, size_t k, struct strbuf *name,
			 const char **why)
{
	size_t i = b + 1;
	while (i < k && (isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '.'))
		sb_addc(name, (char)tolower((unsigned char)s[i++]));
	if (name->len == 0) {
		*why = "a section header without a name";
		return false;
	}
	if (i < k && is_space(s[i])) {
		while (i < k && is_space(s[i]))
			i++;
		if (i == k || s[i] != '"') {
			*why = "a subsection not in quotes";
			return false;
		}
		sb_addc(name, '.');
		for (i++; i < k && s[i] != '"'; i++) {
			if (s[i] == '\\' && ++i == k)
				break;
			sb_addc(name, s[i]);
		}
		if (i >= k) {
			*why = "an open quote in a section header";
			return false;
		}
		i++;
	}
	if (i == k || s[i] != ']') {
		*why = "a section header without its ']'";
		return false;
	}
	for (i++; i < k && is_space(s[i]); i++)
		;
	if (i < k && s[i] != '#' && s[i] != ';') {
		*why = "a setting on a section header's line";
		return false;
	}
	return true;
}

/* Scans a value from s[i..k) in the state *quoted; true when the line
 * ends in a continuation. False with why on a bad escape or an open
 * quote. */
static bool scan_value(const char *s, size_t i, size_t k, bool *quoted, bool *cont,
		       const char **why)
{
	*cont = false;
	for (; i < k; i++) {
		char c = s[i];
		if (c == '\\') {
			if (i + 1 == k) {
				*cont = true;
				return true;
			}
			if (!strchr("ntb\\\"", s[++i])) {
				*why = "an escape git does not know";
				return false;
			}
		} else if (c == '"') {
			*quoted = !*quoted;
		} else if (!*quoted && (c == '#' || c == ';')) {
			break;
		}
	}
	if (*quoted) {
		*why = "an open quote";
		return false;
	}
	return true;
}

struct git_state {
	const char *const *secret;
	struct cf_line *l;
	size_t n;
	struct strbuf section; /* "section" or "section.sub" */
	bool in_section;
	bool drop_section;     /* its header names a URL with a password */
};

/* The key line at l[i] (text from b): its entry's end into *end, and
 * whether it is secret. */
static bool key_entry(struct git_state *g, size_t i, size_t b, size_t *end, bool *secret,
		      struct cf_result *res)
{
	const char *s = g->l[i].text;
	size_t k = g->l[i].len, e = b;
	*end = i + 1;
	*secret = true;
	if (!isalpha((unsigned char)s[b]))
		return cf_fail(res, i + 1, "neither a setting nor a section header");
	while (e < k && (isalnum((unsigned char)s[e]) || s[e] == '-'))
		e++;
	struct strbuf key = STRBUF_INIT;
	sb_add(&key, g->section.s, g->section.len);
	sb_addc(&key, '.');
	for (size_t j = b; j < e; j++)
		sb_addc(&key, (char)tolower((unsigned char)s[j]));
	*secret = cf_key_secret(g->secret, key.s, key.len);
	sb_release(&key);
	size_t v = e;
	while (v < k && is_space(s[v]))
		v++;
	*end = i + 1;
	if (v == k || s[v] == '#' || s[v] == ';') /* a bare key: true */
		return true;
	if (s[v] != '=')
		return cf_fail(res, i + 1, "a key name followed by neither '=' nor its end");
	bool quoted = false, cont = false;
	const char *why;
	size_t j = i, from = v + 1;
	for (;;) {
		if (!scan_value(g->l[j].text, from, g->l[j].len, &quoted, &cont, &why))
			return cf_fail(res, j + 1, "%s", why);
		*secret = *secret || cf_has_url_secret(g->l[j].text, g->l[j].len);
		if (!cont)
			break;
		if (++j == g->n)
			return cf_fail(res, j, "a continued line at the end of the file");
		from = 0;
	}
	*end = j + 1;
	return true;
}

bool cf_filter_git(const char *const *secret, const char *in, size_t len,
		   struct cf_result *res)
{
	struct git_state g = { .secret = secret, .section = STRBUF_INIT };
	g.l = cf_lines(in, len, &g.n);
	struct strbuf out = STRBUF_INIT;
	bool ok = true;
	for (size_t i = 0; i < g.n && ok;) {
		const char *s = g.l[i].text;
		size_t k = g.l[i].len, b = 0;
		while (b < k && is_space(s[b]))
			b++;
		if (b < k && s[b] == '[') {
			const char *why;
			sb_reset(&g.section);
			if (!parse_header(s, b, k, &g.section, &why)) {
				ok = cf_fail(res, i + 1, "%s", why);
				break;
			}
			g.in_section = true;
			g.drop_section = cf_has_url_secret(g.section.s, g.section.len);
		}
		if (g.drop_section) {
			res->removed += b < k;
			i++;
			continue;
		}
		if (b == k || s[b] == '#' || s[b] == ';' || s[b] == '[') {
			sb_add(&out, s, g.l[i++].full);
			continue;
		}
		if (!g.in_section) {
			ok = cf_fail(res, i + 1, "a setting before the first section");
			break;
		}
		size_t end;
		bool sec;
		if (!key_entry(&g, i, b, &end, &sec, res)) {
			ok = false;
			break;
		}
		for (; i < end; i++) {
			if (sec)
				res->removed++;
			else
				sb_add(&out, g.l[i].text, g.l[i].full);
		}
	}
	free(g.l);
	sb_release(&g.section);
	return cf_done(&out, ok, res);
}
