/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "policy/credfile.h"
#include "policy/secretval.h"
#include "util.h"

#include <stdint.h>
#include <string.h>

#define DEPTH_MAX 32
#define VALUE_MAX 8192

static bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'; }

static void set_hit(struct credfile_hit *hit, const char *key, size_t kl, size_t line,
		    const char *why)
{
	size_t m = 0;
	for (size_t i = 0; i < kl && m < CREDFILE_KEY_MAX; i++)
		hit->key[m++] = key[i] > 0x20 && key[i] < 0x7f && key[i] != '`' ? key[i] : '?';
	hit->key[m] = '\0';
	hit->line = line;
	hit->why = why;
}

/* --- lines: every line's own shape ------------------------------------ */
static bool any_line(const char *buf, size_t len, struct credfile_hit *hit)
{
	size_t line = 1;
	for (size_t at = 0; at < len; line++) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - buf) : len;
		const char *why = secretval_judge(buf + at, end - at, SV_FORMATS);
		if (why) {
			set_hit(hit, "", 0, line, why);
			return true;
		}
		at = end + 1;
	}
	return false;
}

/* --- JSON ---------------------------------------------------------------- */
struct json {
	const char *s;
	size_t n, at, line;
	/* per depth: the member's key (for objects) and whether it, or one
	 * above, is credential-shaped */
	char key[DEPTH_MAX][CREDFILE_KEY_MAX + 1];
	size_t keylen[DEPTH_MAX];
	unsigned flags[DEPTH_MAX];
	bool object[DEPTH_MAX];
	int depth;
};

/* The string at j->s[j->at] == '"', decoded into out (what a JSON reader
 * reads: \uXXXX beyond ASCII as '?'), at most cap bytes kept. */
static size_t json_string(struct json *j, char *out, size_t cap)
{
	size_t m = 0;
	j->at++;
	while (j->at < j->n && j->s[j->at] != '"') {
		char c = j->s[j->at++];
		if (c == '\n')
			j->line++;
		if (c == '\\' && j->at < j->n) {
			char e = j->s[j->at++];
			switch (e) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u': {
				unsigned v = 0;
				for (int i = 0; i < 4 && j->at < j->n; i++) {
					int h = hex_value(j->s[j->at]);
					if (h < 0)
						break;
					v = v * 16 + (unsigned)h;
					j->at++;
				}
				c = v > 0 && v < 0x80 ? (char)v : '?';
				break;
			}
			default: c = e; break;
			}
		}
		if (m < cap)
			out[m++] = c;
	}
	if (j->at < j->n)
		j->at++;
	return m;
}

static bool json_find(const char *buf, size_t len, struct credfile_hit *hit)
{
	struct json j;
	memset(&j, 0, sizeof j);
	j.s = buf;
	j.n = len;
	j.line = 1;
	j.depth = -1;
	char val[VALUE_MAX];
	while (j.at < j.n) {
		char c = j.s[j.at];
		if (c == '\n')
			j.line++;
		if (c == '{' || c == '[') {
			unsigned up = j.depth >= 0 ? j.flags[j.depth] : 0;
			if (j.depth >= 0 && j.object[j.depth])
				up |= secretval_key(j.key[j.depth], j.keylen[j.depth]) & SV_KEYED;
			if (j.depth + 1 >= DEPTH_MAX)
				return false; /* the line rule still holds */
			j.depth++;
			j.object[j.depth] = c == '{';
			j.flags[j.depth] = up;
			j.keylen[j.depth] = 0;
			j.at++;
			continue;
		}
		if (c == '}' || c == ']') {
			if (j.depth >= 0)
				j.depth--;
			j.at++;
			continue;
		}
		if (c != '"') {
			j.at++;
			continue;
		}
		size_t line = j.line;
		size_t vl = json_string(&j, val, sizeof val);
		size_t k = j.at;
		while (k < j.n && is_ws(j.s[k]))
			k++;
		if (k < j.n && j.s[k] == ':' && j.depth >= 0 && j.object[j.depth]) {
			size_t kl = vl < CREDFILE_KEY_MAX ? vl : CREDFILE_KEY_MAX;
			memcpy(j.key[j.depth], val, kl);
			j.keylen[j.depth] = kl;
			continue;
		}
		/* a value: under its member's key, or an array's parent's */
		unsigned flags = SV_FORMATS;
		const char *key = "";
		size_t kl = 0;
		if (j.depth >= 0) {
			flags = j.flags[j.depth];
			if (j.object[j.depth]) {
				key = j.key[j.depth];
				kl = j.keylen[j.depth];
				flags |= secretval_key(key, kl);
			} else {
				for (int d = j.depth - 1; d >= 0 && !kl; d--)
					if (j.object[d])
						key = j.key[d], kl = j.keylen[d];
				flags |= secretval_key(key, kl);
			}
			if (!flags)
				flags = SV_FORMATS;
		}
		const char *why = secretval_judge(val, vl, flags);
		if (why) {
			set_hit(hit, key, kl, line, why);
			return true;
		}
	}
	return false;
}

/* --- key = value, key: value --------------------------------------------- */
static void trim(const char **s, size_t *n)
{
	while (*n && is_ws(**s))
		(*s)++, (*n)--;
	while (*n && is_ws((*s)[*n - 1]))
		(*n)--;
}

static bool unquote(const char **s, size_t *n)
{
	if (*n >= 2 && ((**s == '"' && (*s)[*n - 1] == '"') || (**s == '\'' && (*s)[*n - 1] == '\''))) {
		(*s)++;
		*n -= 2;
		return true;
	}
	return false;
}

struct level {
	size_t indent;
	unsigned flags;
};

static bool lines_find(const char *buf, size_t len, struct credfile_hit *hit)
{
	struct level stack[DEPTH_MAX];
	int depth = 0;
	unsigned section = 0;
	size_t line = 0;
	for (size_t at = 0; at < len;) {
		line++;
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - buf) : len;
		const char *s = buf + at;
		size_t n = end - at;
		at = end + 1;
		size_t indent = 0;
		while (indent < n && (s[indent] == ' ' || s[indent] == '\t'))
			indent++;
		s += indent;
		n -= indent;
		trim(&s, &n);
		if (!n || s[0] == '#' || s[0] == ';' || (n > 1 && s[0] == '/' && s[1] == '/'))
			continue;
		if (s[0] == '[' && s[n - 1] == ']') { /* [section], [[table]] */
			section = secretval_key(s, n) & SV_KEYED;
			depth = 0;
			continue;
		}
		if (n > 7 && memcmp(s, "export ", 7) == 0)
			s += 7, n -= 7;
		if (n > 2 && s[0] == '-' && s[1] == ' ')
			s += 2, n -= 2, indent += 2;
		/* the key ends at the first '=' or ": " (or a ':' ending the line) */
		size_t sep = SIZE_MAX;
		bool yaml = false;
		for (size_t i = 0; i < n && sep == SIZE_MAX; i++) {
			if (s[i] == '=')
				sep = i;
			else if (s[i] == ':' && (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\t'))
				sep = i, yaml = true;
		}
		if (sep == SIZE_MAX || sep == 0)
			continue;
		const char *k = s, *v = s + sep + 1;
		size_t kl = sep, vl = n - sep - 1;
		trim(&k, &kl);
		unquote(&k, &kl);
		trim(&v, &vl);
		if (!unquote(&v, &vl)) {
			/* an inline comment after an unquoted value */
			for (size_t i = 1; i < vl; i++)
				if ((v[i] == '#' || v[i] == ';') && is_ws(v[i - 1])) {
					vl = i;
					trim(&v, &vl);
					break;
				}
		}
		while (depth > 0 && stack[depth - 1].indent >= indent)
			depth--;
		unsigned up = depth ? stack[depth - 1].flags : section;
		unsigned flags = up | secretval_key(k, kl);
		if (yaml && !vl) { /* a parent: its children are under it */
			if (depth < DEPTH_MAX)
				stack[depth++] = (struct level){ indent, flags & SV_KEYED };
			continue;
		}
		if (yaml && vl == 1 && (v[0] == '|' || v[0] == '>'))
			continue;
		const char *why = secretval_judge(v, vl, flags ? flags : SV_FORMATS);
		if (why) {
			set_hit(hit, k, kl, line, why);
			return true;
		}
	}
	return false;
}

static size_t line_of(const char *buf, const char *at)
{
	size_t line = 1;
	for (const char *p = buf; p < at; p++)
		line += *p == '\n';
	return line;
}

bool credfile_find(const char *buf, size_t len, struct credfile_hit *hit)
{
	size_t i = 0;
	while (i < len && is_ws(buf[i]))
		i++;
	if (i < len && (buf[i] == '{' || buf[i] == '['))
		if (json_find(buf, len, hit))
			return true;
	if (i < len && buf[i] != '{' && lines_find(buf, len, hit))
		return true;
	if (any_line(buf, len, hit))
		return true;
	/* a file that is one token (~/.config/TOOL/token): the value rule
	 * on its one line */
	const char *s = buf + i;
	size_t n = len - i;
	trim(&s, &n);
	const char *why = n && !memchr(s, '\n', n) ? secretval_judge(s, n, SV_PLAIN) : NULL;
	if (why)
		set_hit(hit, "", 0, line_of(buf, s), why);
	return why != NULL;
}
