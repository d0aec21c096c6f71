/* SPDX-License-Identifier: MIT */
/* npm's .npmrc, read as npm's `ini` module (v4 to v6) decodes it:
 *   - lines split at every CR and LF;
 *   - blank lines and those whose first non-blank is ; or # are comments;
 *   - [section] alone on its line (blanks after it) is a header;
 *   - otherwise the key is what comes before the first '=', the value what
 *     follows it; each is trimmed as JavaScript's trim() does (U+00A0 and
 *     the other Unicode spaces too), then either JSON-parsed when it is
 *     quoted ("..." as it is, '...' without its quotes) or read up to the
 *     first ; or # not escaped by a backslash (\; \# \\ stand for the
 *     character) and trimmed again; a key ending in [] names an array.
 * An entry is judged by that key (with and without its []) and value and
 * by its raw text; it goes whole. Masked whole: a line with no '=' (npm
 * reads a flag; kjail takes none), U+2028 or U+2029 (JavaScript's regular
 * expressions end a line there and npm skips it), a quoted text that is
 * not a JSON string or that JSON.parse may read differently (an escape
 * jansson refuses). */
#include "config.h"
#include "cfgfilter/internal.h"
#include "cfgfilter/npmrc.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static bool js_quoted(const char *s, size_t n)
{
	return n >= 1 && ((s[0] == '"' && s[n - 1] == '"') || (s[0] == '\'' && s[n - 1] == '\''));
}

/* ini's unsafe(): s decoded into out. False with *why where npm's reading
 * is in doubt. */
static bool npm_unsafe(const char *s, size_t n, struct strbuf *out, const char **why)
{
	size_t b, e;
	cf_trim(s, n, cf_js_space, &b, &e);
	s += b;
	n = e - b;
	sb_reset(out);
	if (js_quoted(s, n)) {
		const char *j = s;
		size_t jl = n;
		if (s[0] == '\'') {
			j = s + 1;
			jl = n >= 2 ? n - 2 : 0;
		}
		json_error_t err;
		json_t *v = json_loadb(j, jl, JSON_DECODE_ANY, &err);
		if (!v) {
			if (memchr(j, '\\', jl)) {
				*why = "a quoted text with an escape JSON.parse may read differently";
				return false;
			}
			sb_add(out, j, jl); /* npm keeps it as it is */
			return true;
		}
		bool str = json_is_string(v);
		if (str)
			sb_add(out, json_string_value(v), json_string_length(v));
		json_decref(v);
		if (!str)
			*why = "a quoted text that is not a JSON string";
		return str;
	}
	bool esc = false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (esc) {
			if (c != '\\' && c != ';' && c != '#')
				sb_addc(out, '\\');
			sb_addc(out, c);
			esc = false;
		} else if (c == ';' || c == '#') {
			break;
		} else if (c == '\\') {
			esc = true;
		} else {
			sb_addc(out, c);
		}
	}
	if (esc)
		sb_addc(out, '\\');
	cf_trim(out->s, out->len, cf_js_space, &b, &e);
	memmove(out->s, out->s + b, e - b);
	sb_setlen(out, e - b);
	return true;
}

/* The line is blank, a comment or a [section] header: kept as it is. */
static bool npm_other(const char *s, size_t n)
{
	size_t b, e, k;
	cf_trim(s, n, cf_js_space, &b, &e);
	if (b == e || s[b] == ';' || s[b] == '#')
		return true;
	if (s[0] != '[')
		return false;
	const char *close = memchr(s + 1, ']', n - 1);
	if (!close)
		return false;
	for (size_t i = (size_t)(close - s) + 1; i < n; i += k)
		if (!cf_js_space(cf_utf8_at(s, n, i, &k)))
			return false;
	return true;
}

static bool npm_key_secret(const char *const *secret, const struct strbuf *key)
{
	return cf_key_secret(secret, key->s, key->len) ||
	       (key->len > 2 && memcmp(key->s + key->len - 2, "[]", 2) == 0 &&
		cf_key_secret(secret, key->s, key->len - 2));
}

bool cf_filter_npmrc(const char *const *secret, const char *in, size_t len,
		     struct cf_result *res)
{
	size_t n;
	struct cf_line *l = cf_lines(in, len, &n);
	struct strbuf out = STRBUF_INIT, key = STRBUF_INIT, value = STRBUF_INIT;
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		const char *s = l[i].text, *why = NULL;
		size_t k = l[i].len;
		if (npm_other(s, k)) {
			sb_add(&out, s, l[i].full);
			continue;
		}
		if (memmem(s, k, "\xe2\x80\xa8", 3) || memmem(s, k, "\xe2\x80\xa9", 3)) {
			ok = cf_fail(res, i + 1, "U+2028 or U+2029, where npm's reading is in doubt");
			break;
		}
		const char *eq = memchr(s, '=', k);
		if (!eq || eq == s) {
			ok = cf_fail(res, i + 1, "neither a setting (key = value) nor a section");
			break;
		}
		size_t kl = (size_t)(eq - s);
		if (!npm_unsafe(s, kl, &key, &why) ||
		    !npm_unsafe(eq + 1, k - kl - 1, &value, &why)) {
			ok = cf_fail(res, i + 1, "%s", why);
			break;
		}
		size_t rb, re;
		cf_trim(s, kl, cf_js_space, &rb, &re);
		bool secret_here = npm_key_secret(secret, &key) ||
				   cf_key_secret(secret, s + rb, re - rb) ||
				   cf_value_url_secret(value.s, value.len) || cf_has_url_secret(s, k);
		if (secret_here)
			res->removed++;
		else
			sb_add(&out, s, l[i].full);
	}
	free(l);
	sb_release(&key);
	sb_release(&value);
	return cf_done(&out, ok, res);
}
