/* SPDX-License-Identifier: MIT */
/* Capability entries as written in config ("ATOM under PATH", ...). */
#include "config.h"
#include "authority/argv.h"
#include "authority/caps.h"
#include "authority/constraint.h"
#include "authority/internal.h"
#include "path.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---------------------------------------------------- capability entries */

void grant_cap_clear(struct grant_cap *cap)
{
	free(cap->atom);
	cap->atom = NULL;
	constraint_clear(&cap->c);
}

void cap_list_clear(struct cap_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		grant_cap_clear(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static bool is_ws(char c)
{
	return c == ' ' || c == '\t';
}

static const char *skip_ws(const char *s)
{
	while (is_ws(*s))
		s++;
	return s;
}

/* Trimmed copy of [b, e). */
static char *trimmed(const char *b, const char *e)
{
	while (b < e && is_ws(*b))
		b++;
	while (e > b && is_ws(e[-1]))
		e--;
	return xstrndup(b, (size_t)(e - b));
}

/* Does S start with the word KW? *arg gets what follows, white space skipped. */
static bool keyword(const char *s, const char *kw, const char **arg)
{
	size_t n = strlen(kw);
	if (strncmp(s, kw, n) != 0 || (s[n] != '\0' && !is_ws(s[n])))
		return false;
	*arg = skip_ws(s + n);
	return true;
}

/* Structural UTF-8 check (no overlongs or surrogates), so reports stay valid JSON. */
static bool valid_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3
			   : (c >> 3) == 0x1e ? 4 : 0;
		if (len == 0 || i + len > n || (len == 2 && c < 0xc2))
			return false;
		for (size_t k = 1; k < len; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
		if (len == 3 && ((c == 0xe0 && s[i + 1] < 0xa0) || (c == 0xed && s[i + 1] >= 0xa0)))
			return false;
		if (len == 4 && ((c == 0xf0 && s[i + 1] < 0x90) || c > 0xf4 ||
				 (c == 0xf4 && s[i + 1] >= 0x90)))
			return false;
		i += len;
	}
	return true;
}

static bool parse_range(const char *entry, const char *arg, struct constraint *out,
			char *err, size_t errlen)
{
	const char *dots = strstr(arg, "..");
	if (!dots) {
		fmt_into(err, errlen, "bad capability '%s': 'in' needs LO..HI (two integers)",
			 SHOWN(entry));
		return false;
	}
	_cleanup_free_ char *lo_s = trimmed(arg, dots);
	_cleanup_free_ char *hi_s = trimmed(dots + 2, dots + strlen(dots));
	long long lo = 0, hi = 0;
	const char *bad = NULL;
	bool overflow = false;
	if (!auth_parse_ll(lo_s, strlen(lo_s), &lo, &overflow))
		bad = lo_s;
	else if (!auth_parse_ll(hi_s, strlen(hi_s), &hi, &overflow))
		bad = hi_s;
	if (bad && !bad[0])
		fmt_into(err, errlen, "bad capability '%s': %s is missing in LO..HI", SHOWN(entry),
			 bad == lo_s ? "LO" : "HI");
	else if (bad && overflow)
		fmt_into(err, errlen, "bad capability '%s': %s is out of range (%lld..%lld)",
			 SHOWN(entry), SHOWN(bad), LLONG_MIN, LLONG_MAX);
	else if (bad)
		fmt_into(err, errlen, "bad capability '%s': '%s' is not an integer", SHOWN(entry),
			 SHOWN(bad));
	else if (lo > hi)
		fmt_into(err, errlen, "bad capability '%s': empty range (%lld is greater than %lld)",
			 SHOWN(entry), lo, hi);
	else {
		constraint_range(out, lo, hi);
		return true;
	}
	return false;
}

static bool parse_enum(const char *entry, const char *arg, struct constraint *out,
		       char *err, size_t errlen)
{
	size_t n = 1;
	for (const char *p = arg; *p; p++)
		n += *p == '|';
	char **v = xcalloc(n, sizeof *v);
	size_t got = 0;
	bool ok = true;
	for (const char *p = arg; ok; p++) {
		const char *bar = strchr(p, '|');
		const char *end = bar ? bar : p + strlen(p);
		v[got] = trimmed(p, end);
		if (!v[got][0]) {
			fmt_into(err, errlen, "bad capability '%s': empty value in the 'one of' list",
				 SHOWN(entry));
			ok = false;
		} else if (strpbrk(v[got], "\"\\")) {
			fmt_into(err, errlen, "bad capability '%s': a value has a quote or backslash",
				 SHOWN(entry));
			ok = false;
		}
		got++;
		if (!bar)
			break;
		p = bar;
	}
	if (ok)
		constraint_enum(out, (const char *const *)v, got);
	auth_free_strs(v, got);
	return ok;
}

/* 'prefix "npm test" "git diff" make': command word prefixes, each quoted
 * (its words separated by blanks) or one bare word. */
static bool parse_prefixes(const char *entry, const char *arg, struct constraint *out,
			   char *err, size_t errlen)
{
	char **v = NULL;
	size_t n = 0;
	bool ok = true;
	for (const char *p = skip_ws(arg); *p && ok; p = skip_ws(p)) {
		const char *s = p, *e;
		if (*p == '"') {
			s = p + 1;
			e = strchr(s, '"');
			if (!e) {
				fmt_into(err, errlen, "bad capability '%s': a prefix's quote is not "
					 "closed", SHOWN(entry));
				ok = false;
				break;
			}
			p = e + 1;
		} else {
			while (*p && !is_ws(*p))
				p++;
			e = p;
		}
		_cleanup_free_ char *words = xstrndup(s, (size_t)(e - s));
		char *canon = argv_canonical(words);
		if (!canon) {
			fmt_into(err, errlen, "bad capability '%s': a prefix must be words of "
				 "letters, digits and _-./=:@%%+^ only", SHOWN(entry));
			ok = false;
			break;
		}
		v = xreallocarray(v, n + 1, sizeof *v);
		v[n++] = canon;
	}
	if (ok && n == 0) {
		fmt_into(err, errlen, "bad capability '%s': 'prefix' needs a command (\"npm test\")",
			 SHOWN(entry));
		ok = false;
	}
	if (ok)
		constraint_prefixes(out, (const char *const *)v, n);
	auth_free_strs(v, n);
	return ok;
}

/* The words of an "under" list: plain (up to a blank) or double-quoted
 * (up to the next '"', blanks kept, no escapes: the quoting of command
 * prefixes). False and a message on an unclosed or empty quote, or a
 * quote inside a word. */
struct path_word {
	char *text;
	bool quoted;
};

static void path_words_free(struct path_word *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].text);
	free(v);
}

static bool path_words(const char *entry, const char *arg, struct path_word **out, size_t *nout,
		       char *err, size_t errlen)
{
	struct path_word *v = NULL;
	size_t n = 0;
	const char *why = NULL;
	for (const char *p = skip_ws(arg); *p && !why; p = skip_ws(p)) {
		const char *s = p, *e;
		bool quoted = *p == '"';
		if (quoted) {
			s = p + 1;
			e = strchr(s, '"');
			if (!e)
				why = "a path's quote is not closed";
			else if (e == s)
				why = "an empty quoted path";
			else if (e[1] && !is_ws(e[1]))
				why = "a blank must follow a quoted path";
			if (why)
				break;
			p = e + 1;
		} else {
			while (*p && !is_ws(*p))
				p++;
			e = p;
			if (memchr(s, '"', (size_t)(e - s)))
				why = "a quote inside a path (quote the whole path: \"my dir\")";
		}
		v = xreallocarray(v, n + 1, sizeof *v);
		v[n++] = (struct path_word){ xstrndup(s, (size_t)(e - s)), quoted };
	}
	if (why) {
		fmt_into(err, errlen, "bad capability '%s': %s", SHOWN(entry), why);
		path_words_free(v, n);
		return false;
	}
	*out = v;
	*nout = n;
	return true;
}

/* Before path sets, "under my dir" was the one path "my dir"; now blanks
 * separate paths. A list must not silently take a new meaning, so unless
 * it is one plain word (read alike both ways) it is refused when
 *  - its text, read the old way as one path, names something that exists;
 *  - two plain words meet at a blank that touches no '/' ("my dir",
 *    "src tests"): write src/ tests/, or quote a path with blanks.
 * What passes read the old way was a name with a component beginning or
 * ending in a blank ("src/ tests/" was src/" tests") that does not exist. */
static bool keeps_meaning(const char *entry, const char *arg, const struct path_word *v,
			  size_t n, const struct auth_ctx *ctx, char *err, size_t errlen)
{
	if (n == 1 && !v[0].quoted)
		return true;
	struct constraint old;
	char perr[200];
	struct stat st;
	if (constraint_path_resolve(&old, arg, ctx, perr, sizeof perr)) {
		bool exists = lstat(old.paths[0], &st) == 0;
		constraint_clear(&old);
		if (exists) {
			fmt_into(err, errlen, "bad capability '%s': '%s' names an existing path, "
				 "which kli read as one path before 'under' took a set: quote a path "
				 "with blanks (\"my dir\"), or rename it", SHOWN(entry), SHOWN(arg));
			return false;
		}
	}
	for (size_t i = 1; i < n; i++) {
		const char *a = v[i - 1].text, *b = v[i].text;
		if (v[i - 1].quoted || v[i].quoted || a[strlen(a) - 1] == '/' || b[0] == '/')
			continue;
		fmt_into(err, errlen, "bad capability '%s': '%s %s' could be one path with a blank "
			 "or two paths: end each path in '/' (under src/ tests/) or quote a path "
			 "with blanks (under \"my dir\")", SHOWN(entry), SHOWN(a), SHOWN(b));
		return false;
	}
	return true;
}

/* "under A B ...": a set of path prefixes, separated by blanks, a path
 * with blanks quoted. */
static bool parse_paths(const char *entry, const char *arg, const struct auth_ctx *ctx,
			struct constraint *out, char *err, size_t errlen)
{
	struct path_word *w = NULL;
	size_t nw = 0;
	if (!path_words(entry, arg, &w, &nw, err, errlen))
		return false;
	char **v = NULL;
	size_t n = 0;
	bool ok = keeps_meaning(entry, arg, w, nw, ctx, err, errlen);
	for (size_t i = 0; i < nw && ok; i++) {
		struct constraint one;
		char perr[200];
		if (!constraint_path_resolve(&one, w[i].text, ctx, perr, sizeof perr)) {
			fmt_into(err, errlen, "bad capability '%s': %s", SHOWN(entry), perr);
			ok = false;
			break;
		}
		/* a grant's report must state its paths exactly: a newline, a
		 * quote (a blank makes it quoted, constraint_path_word) or a
		 * byte that is not UTF-8 (a link's target, say) would read as
		 * something else (a tool's object, checked against it, may be
		 * any name) */
		if (!utf8_printable(one.paths[0]) || strchr(one.paths[0], '"')) {
			fmt_into(err, errlen,
				 "bad capability '%s': '%s' resolves to a name with quotes, control "
				 "characters or bytes that are not UTF-8, which kli cannot state "
				 "exactly",
				 SHOWN(entry), SHOWN(w[i].text));
			ok = false;
		} else {
			v = xreallocarray(v, n + 1, sizeof *v);
			v[n++] = xstrdup(one.paths[0]);
		}
		constraint_clear(&one);
	}
	if (ok)
		constraint_paths(out, (const char *const *)v, n);
	auth_free_strs(v, n);
	path_words_free(w, nw);
	return ok;
}

static bool parse_constraint(const char *entry, const char *rest, const struct auth_ctx *ctx,
			     struct constraint *out, char *err, size_t errlen)
{
	const char *arg;
	if (!*rest) {
		constraint_any(out);
		return true;
	}
	if (keyword(rest, "under", &arg)) {
		if (!*arg) {
			fmt_into(err, errlen, "bad capability '%s': 'under' needs a path",
				 SHOWN(entry));
			return false;
		}
		return parse_paths(entry, arg, ctx, out, err, errlen);
	}
	if (keyword(rest, "in", &arg))
		return parse_range(entry, arg, out, err, errlen);
	if (keyword(rest, "prefix", &arg))
		return parse_prefixes(entry, arg, out, err, errlen);
	if (keyword(rest, "one", &arg) && keyword(arg, "of", &arg)) {
		if (!*arg) {
			fmt_into(err, errlen, "bad capability '%s': 'one of' needs values (A|B)",
				 SHOWN(entry));
			return false;
		}
		return parse_enum(entry, arg, out, err, errlen);
	}
	fmt_into(err, errlen,
		 "bad capability '%s': after the atom, expected 'under PATH', 'in LO..HI' or "
		 "'one of A|B'", SHOWN(entry));
	return false;
}

bool cap_parse_entry(const char *text, const struct auth_ctx *ctx, struct grant_cap *out,
		     char *err, size_t errlen)
{
	_cleanup_free_ char *entry = trimmed(text, text + strlen(text));
	size_t n = strlen(entry);
	if (n == 0) {
		fmt_into(err, errlen, "empty capability entry");
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)entry[i];
		if (c < 0x20 || c == 0x7f) {
			fmt_into(err, errlen, "bad capability '%s': control character",
				 SHOWN(entry));
			return false;
		}
	}
	if (!valid_utf8((const unsigned char *)entry, n)) {
		fmt_into(err, errlen, "bad capability '%s': not valid UTF-8", SHOWN(entry));
		return false;
	}
	size_t alen = strcspn(entry, " \t");
	_cleanup_free_ char *raw = xstrndup(entry, alen);
	char aerr[200];
	_cleanup_free_ char *atom = atom_normalize(raw, aerr, sizeof aerr);
	if (!atom) {
		fmt_into(err, errlen, "bad capability '%s': %s", SHOWN(entry), aerr);
		return false;
	}
	struct constraint c;
	if (!parse_constraint(entry, skip_ws(entry + alen), ctx, &c, err, errlen))
		return false;
	out->atom = steal_pointer(&atom);
	out->c = c;
	return true;
}

bool cap_parse_list(const char *value, const struct auth_ctx *ctx, struct cap_list *out,
		    char *err, size_t errlen)
{
	if (!*skip_ws(value))
		return true;
	for (const char *p = value;;) {
		const char *comma = strchr(p, ',');
		_cleanup_free_ char *piece = comma ? xstrndup(p, (size_t)(comma - p)) : xstrdup(p);
		if (!*skip_ws(piece)) {
			fmt_into(err, errlen, "empty capability entry (a stray comma?)");
			return false;
		}
		struct grant_cap cap;
		if (!cap_parse_entry(piece, ctx, &cap, err, errlen))
			return false;
		out->v = xreallocarray(out->v, out->n + 1, sizeof *out->v);
		out->v[out->n++] = cap;
		if (!comma)
			return true;
		p = comma + 1;
	}
}
