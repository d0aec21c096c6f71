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

static bool shell_safe(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '+' || c == '=' || c == '/' || c == '.' ||
	       c == ',' || c == ':' || c == '@' || c == '%';
}

/* Bytes shell_quote() needs for w (without the NUL). */
static size_t quoted_len(const char *w, bool *plain)
{
	size_t n = 0, quotes = 0;
	bool safe = w[0] != '\0';
	for (; w[n]; n++) {
		safe &= shell_safe((unsigned char)w[n]);
		quotes += w[n] == '\'';
	}
	*plain = safe;
	return safe ? n : n + 2 + 3 * quotes;
}

static char *quote_into(char *o, const char *w, bool plain)
{
	if (plain) {
		size_t n = strlen(w);
		memcpy(o, w, n);
		return o + n;
	}
	*o++ = '\'';
	for (; *w; w++) {
		if (*w == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *w;
		}
	}
	*o++ = '\'';
	return o;
}

char *shell_quote(const char *w)
{
	bool plain;
	char *out = xmalloc(quoted_len(w, &plain) + 1);
	*quote_into(out, w, plain) = '\0';
	return out;
}

char *strv_shell_join(const struct strv *s)
{
	size_t len = 1;
	for (size_t i = 0; i < s->n; i++) {
		bool plain;
		len += quoted_len(s->v[i], &plain) + 1;
	}
	char *out = xmalloc(len), *o = out;
	for (size_t i = 0; i < s->n; i++) {
		bool plain;
		quoted_len(s->v[i], &plain);
		if (i)
			*o++ = ' ';
		o = quote_into(o, s->v[i], plain);
	}
	*o = '\0';
	return out;
}
