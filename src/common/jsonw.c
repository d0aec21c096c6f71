/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "jsonw.h"

#include "util.h"

#include <stddef.h>
#include <string.h>

static void grow(struct jsonw *w, size_t n)
{
	/* kjail's policy file is some 5 KiB with the built-in policy: one
	 * allocation, not a copy into a second */
	sb_grow(&w->sb, w->sb.alloc || n > 8191 ? n : 8191);
}

/* Room for n more bytes at the end of the text; where they go. */
static inline char *reserve(struct jsonw *w, size_t n)
{
	if (n > sb_avail(&w->sb))
		grow(w, n);
	return w->sb.s + w->sb.len;
}

/* The n bytes written at reserve's answer become part of the text. */
static inline void wrote(struct jsonw *w, size_t n)
{
	sb_setlen(&w->sb, w->sb.len + n);
}

static inline void put(struct jsonw *w, const void *p, size_t n)
{
	memcpy(reserve(w, n), p, n);
	wrote(w, n);
}

static inline void putch(struct jsonw *w, char c)
{
	*reserve(w, 1) = c;
	wrote(w, 1);
}

static void puts_w(struct jsonw *w, const char *s) { put(w, s, strlen(s)); }

void jw_init(struct jsonw *w, FILE *out)
{
	w->out = out;
	sb_init(&w->sb, 0);
	w->depth = 0;
	w->after_key = false;
	w->first[0] = true;
}

/* A comma before every value or key but the first of its container. */
static void separate(struct jsonw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (!w->first[w->depth])
		putch(w, ',');
	w->first[w->depth] = false;
}

static void open_container(struct jsonw *w, char c)
{
	separate(w);
	putch(w, c);
	if (w->depth < JSONW_MAX_DEPTH)
		w->depth++;
	w->first[w->depth] = true;
}

static void close_container(struct jsonw *w, char c)
{
	if (w->depth)
		w->depth--;
	putch(w, c);
}

void jw_begin_object(struct jsonw *w) { open_container(w, '{'); }
void jw_end_object(struct jsonw *w) { close_container(w, '}'); }
void jw_begin_array(struct jsonw *w) { open_container(w, '['); }
void jw_end_array(struct jsonw *w) { close_container(w, ']'); }

/* Printable ASCII but '"' and '\\': copied as it is. NUL is not plain, so a
 * run stops at the end of the string by itself. */
static const bool plain[256] = {
	[' ' ... '!'] = true, ['#' ... '['] = true, [']' ... 0x7f] = true,
};

/* The two-byte escapes; other control bytes become \u00XX. */
static const char short_escape[256] = {
	['"'] = '"', ['\\'] = '\\', ['\n'] = 'n', ['\t'] = 't', ['\r'] = 'r',
	['\b'] = 'b', ['\f'] = 'f',
};

/* Write what the byte ending a plain run stands for; returns how many input
 * bytes that took. */
static size_t escape_one(struct jsonw *w, const unsigned char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = utf8_seq(s, 4); /* a NUL ends a sequence early */
	if (n == 0) {
		put(w, "\\ufffd", 6);
		return 1;
	}
	if (n > 1) {
		put(w, s, n);
		return n;
	}
	char *o = reserve(w, 6);
	if (short_escape[*s]) {
		o[0] = '\\';
		o[1] = short_escape[*s];
		wrote(w, 2);
	} else {
		memcpy(o, "\\u00", 4);
		o[4] = hex[*s >> 4];
		o[5] = hex[*s & 0xf];
		wrote(w, 6);
	}
	return 1;
}

static void write_string(struct jsonw *w, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = byte_run(plain, s);
	/* most strings are one plain run: it and both quotes in one go */
	char *o = reserve(w, n + 2);
	o[0] = '"';
	memcpy(o + 1, s, n);
	if (!s[n]) {
		o[n + 1] = '"';
		wrote(w, n + 2);
		return;
	}
	wrote(w, n + 1);
	for (s += n; *s; s += n) {
		s += escape_one(w, s);
		n = byte_run(plain, s);
		put(w, s, n);
	}
	putch(w, '"');
}

void jw_key(struct jsonw *w, const char *key)
{
	separate(w);
	write_string(w, key);
	putch(w, ':');
	w->after_key = true;
}

void jw_string(struct jsonw *w, const char *s)
{
	separate(w);
	if (s)
		write_string(w, s);
	else
		puts_w(w, "null");
}

void jw_bool(struct jsonw *w, bool v)
{
	separate(w);
	puts_w(w, v ? "true" : "false");
}

void jw_int(struct jsonw *w, long v)
{
	char buf[24];
	snprintf(buf, sizeof buf, "%ld", v);
	separate(w);
	puts_w(w, buf);
}

void jw_kstring(struct jsonw *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_string(w, s);
}

void jw_kbool(struct jsonw *w, const char *key, bool v)
{
	jw_key(w, key);
	jw_bool(w, v);
}

char *jw_take(struct jsonw *w, const char *end)
{
	if (end)
		puts_w(w, end);
	return sb_detach(&w->sb);
}

bool jw_flush(struct jsonw *w)
{
	bool ok = w->sb.len == 0 || fwrite(w->sb.s, 1, w->sb.len, w->out) == w->sb.len;
	sb_release(&w->sb);
	return ok;
}
