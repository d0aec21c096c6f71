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

char *shell_quote(const char *w)
{
	if (w[0] && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			      "0123456789_-+=/.,:@%") == strlen(w))
		return xstrdup(w);
	size_t n = 3;
	for (const char *c = w; *c; c++)
		n += *c == '\'' ? 4 : 1;
	char *out = xmalloc(n), *o = out;
	*o++ = '\'';
	for (const char *c = w; *c; c++) {
		if (*c == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *c;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

char *strv_shell_join(const struct strv *s)
{
	size_t cap = 1, len = 0;
	char *out = xmalloc(cap);
	out[0] = '\0';
	for (size_t i = 0; i < s->n; i++) {
		_cleanup_free_ char *q = shell_quote(s->v[i]);
		size_t qn = strlen(q);
		out = xreallocarray(out, len + qn + 2, 1);
		if (i)
			out[len++] = ' ';
		memcpy(out + len, q, qn + 1);
		len += qn;
	}
	return out;
}
