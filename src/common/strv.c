/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "strv.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void reserve(struct strv *s, size_t extra)
{
	if (s->v && s->n + extra + 1 <= s->cap)
		return;
	size_t cap = s->cap ? s->cap : 8;
	while (cap < s->n + extra + 1)
		cap *= 2;
	s->v = xreallocarray(s->v, cap, sizeof *s->v);
	s->cap = cap;
	s->v[s->n] = NULL;
}

void strv_take(struct strv *s, char *str)
{
	reserve(s, 1);
	s->v[s->n++] = str;
	s->v[s->n] = NULL;
}

void strv_push(struct strv *s, const char *str)
{
	strv_take(s, xstrdup(str));
}

void strv_pushn(struct strv *s, const char *a, const char *b)
{
	strv_push(s, a);
	strv_push(s, b);
}

void strv_pushf(struct strv *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strv_take(s, xvasprintf(fmt, ap));
	va_end(ap);
}

void strv_pushv(struct strv *s, const char *const *v)
{
	for (; v && *v; v++)
		strv_push(s, *v);
}

char *const *strv_argv(struct strv *s)
{
	reserve(s, 0);
	return s->v;
}

long strv_find(const struct strv *s, const char *str)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], str) == 0)
			return (long)i;
	return -1;
}

void strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

/* Bytes a POSIX shell takes literally anywhere in a word; NUL is not one,
 * so a scan stops at the end of the string by itself. */
static const bool shell_safe[256] = {
	['a' ... 'z'] = true, ['A' ... 'Z'] = true, ['0' ... '9'] = true,
	['_'] = true, ['-'] = true, ['+'] = true, ['='] = true, ['/'] = true,
	['.'] = true, [','] = true, [':'] = true, ['@'] = true, ['%'] = true,
};

static bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

/* A word holding a control byte (a newline in a variable's value, say)
 * goes out as $'...' with escapes, so that a quoted line stays one line:
 * bash, ksh and zsh read it (and POSIX sh since its 2024 edition). */
static bool has_control(const unsigned char *p)
{
	for (; *p; p++)
		if (is_control(*p))
			return true;
	return false;
}

static size_t ansi_len(const unsigned char *p)
{
	size_t n = 3; /* $'' */
	for (; *p; p++) {
		if (*p == '\\' || *p == '\'' || *p == '\n' || *p == '\t')
			n += 2;
		else
			n += is_control(*p) ? 4 : 1;
	}
	return n;
}

static char *ansi_into(char *o, const unsigned char *p)
{
	static const char hex[] = "0123456789abcdef";
	*o++ = '$';
	*o++ = '\'';
	for (; *p; p++) {
		if (*p == '\\' || *p == '\'') {
			*o++ = '\\';
			*o++ = (char)*p;
		} else if (*p == '\n' || *p == '\t') {
			*o++ = '\\';
			*o++ = *p == '\n' ? 'n' : 't';
		} else if (is_control(*p)) {
			*o++ = '\\';
			*o++ = 'x';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		} else {
			*o++ = (char)*p;
		}
	}
	*o++ = '\'';
	return o;
}

/* Bytes shell_quote() needs for w (without the NUL); *plain is set when w
 * goes out as it is. one_line: a control byte makes it $'...'. */
static size_t quoted_len(const char *w, bool *plain, bool one_line)
{
	const unsigned char *p = (const unsigned char *)w;
	size_t n = byte_run(shell_safe, p), quotes = 0;
	*plain = n && !p[n];
	if (*plain)
		return n;
	/* the safe prefix holds no quote nor control byte: look from the
	 * first unsafe one */
	if (one_line && has_control(p + n))
		return ansi_len(p);
	for (; p[n]; n++)
		quotes += p[n] == '\'';
	return n + 2 + 3 * quotes;
}

/* Write w single-quoted, each ' as '\'', or (one_line) as $'...' when it
 * holds a control byte. */
static char *quote_into(char *o, const char *w, bool one_line)
{
	if (one_line && has_control((const unsigned char *)w))
		return ansi_into(o, (const unsigned char *)w);
	*o++ = '\'';
	for (;;) {
		size_t n = strcspn(w, "'");
		memcpy(o, w, n);
		o += n;
		if (!w[n])
			break;
		memcpy(o, "'\\''", 4);
		o += 4;
		w += n + 1;
	}
	*o++ = '\'';
	return o;
}

char *shell_quote(const char *w)
{
	bool plain;
	size_t len = quoted_len(w, &plain, false);
	char *out = xmalloc(len + 1);
	if (plain)
		memcpy(out, w, len);
	else
		quote_into(out, w, false);
	out[len] = '\0';
	return out;
}

/* Each word is scanned once: the first pass keeps the length of the plain
 * ones (0 for a word that needs quoting), the second copies them as they
 * are. */
static char *join(const struct strv *s, bool one_line)
{
	size_t *plain_len = xreallocarray(NULL, s->n, sizeof *plain_len);
	size_t len = 1;
	for (size_t i = 0; i < s->n; i++) {
		bool plain;
		size_t q = quoted_len(s->v[i], &plain, one_line);
		plain_len[i] = plain ? q : 0;
		len += q + 1;
	}
	char *out = xmalloc(len), *o = out;
	for (size_t i = 0; i < s->n; i++) {
		if (i)
			*o++ = ' ';
		if (plain_len[i]) {
			memcpy(o, s->v[i], plain_len[i]);
			o += plain_len[i];
		} else {
			o = quote_into(o, s->v[i], one_line);
		}
	}
	*o = '\0';
	free(plain_len);
	return out;
}

char *strv_shell_join(const struct strv *s)
{
	return join(s, false);
}

char *strv_shell_line(const struct strv *s)
{
	return join(s, true);
}

void strv_print_argv(FILE *out, char *const *argv)
{
	struct strv v = STRV_INIT;
	strv_pushv(&v, (const char *const *)argv);
	char *line = strv_shell_line(&v);
	strv_free(&v);
	fprintf(out, "%s\n", line);
	free(line);
}
