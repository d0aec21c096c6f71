/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char sb_empty[1];

void sb_init(struct strbuf *sb, size_t hint)
{
	*sb = (struct strbuf)STRBUF_INIT;
	if (hint)
		sb_realloc(sb, hint);
}

void sb_realloc(struct strbuf *sb, size_t extra)
{
	/* len + extra + 1 must not wrap: a huge extra is a length gone wrong,
	 * and no allocator would give it anyway */
	if (extra >= SIZE_MAX - sb->len)
		die("out of memory (a string of %zu bytes cannot take %zu more)", sb->len, extra);
	size_t need = sb->len + extra + 1;
	/* doubling keeps n appends at O(n) bytes copied */
	size_t a = sb->alloc <= SIZE_MAX / 2 ? sb->alloc * 2 : need;
	if (a < 32)
		a = 32;
	if (a < need)
		a = need;
	/* nothing past what the limit lets in (max + 1 cannot wrap to 0 and
	 * still be a limit worth keeping) */
	size_t cap = sb->max + 1;
	if (sb->max && cap && a > cap)
		a = need > cap ? need : cap;
	sb->s = xreallocarray(sb->alloc ? sb->s : NULL, a, 1);
	if (!sb->alloc)
		sb->s[sb->len] = '\0';
	sb->alloc = a;
}

size_t sb_room(const struct strbuf *sb)
{
	if (!sb->max)
		return SIZE_MAX - 1 - sb->len;
	return sb->max > sb->len ? sb->max - sb->len : 0;
}

bool sb_add(struct strbuf *sb, const void *p, size_t n)
{
	if (sb->max && n > sb_room(sb))
		return false;
	if (n == 0)
		return true;
	sb_grow(sb, n);
	memcpy(sb->s + sb->len, p, n);
	sb_setlen(sb, sb->len + n);
	return true;
}

bool sb_adds(struct strbuf *sb, const char *str)
{
	return sb_add(sb, str, strlen(str));
}

bool sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	/* Formatted in place when it fits; else measured, grown, formatted
	 * again: one pass for the short lines most callers add. */
	va_list again;
	va_copy(again, ap);
	size_t size = sb->alloc ? sb->alloc - sb->len : 0;
	int n = vsnprintf(size ? sb->s + sb->len : NULL, size, fmt, ap);
	if (n < 0)
		die_errno("cannot format \"%s\"", fmt);
	bool ok = !sb->max || (size_t)n <= sb_room(sb);
	if (ok && n > 0 && (size_t)n >= size) {
		sb_grow(sb, (size_t)n);
		vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	/* refused: what the first pass wrote past the end is cut off again */
	sb_setlen(sb, ok ? sb->len + (size_t)n : sb->len);
	return ok;
}

bool sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool ok = sb_vaddf(sb, fmt, ap);
	va_end(ap);
	return ok;
}

char *sb_detach(struct strbuf *sb)
{
	if (!sb->alloc)
		sb_realloc(sb, 0);
	char *s = sb->s;
	sb->s = sb_empty;
	sb->len = sb->alloc = 0;
	return s;
}

void sb_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->s);
	sb->s = sb_empty;
	sb->len = sb->alloc = 0;
}
