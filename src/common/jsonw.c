#include "config.h"
#include "jsonw.h"

#include "util.h"

#include <stddef.h>
#include <string.h>

static void put(struct jsonw *w, const void *p, size_t n)
{
	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;
		while (cap < w->len + n)
			cap *= 2;
		w->buf = xreallocarray(w->buf, cap, 1);
		w->cap = cap;
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static void putch(struct jsonw *w, char c) { put(w, &c, 1); }
static void puts_w(struct jsonw *w, const char *s) { put(w, s, strlen(s)); }

void jw_init(struct jsonw *w, FILE *out)
{
	w->out = out;
	w->buf = NULL;
	w->len = w->cap = 0;
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

/* Length of the valid UTF-8 sequence at s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned min;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xE0) == 0xC0)
		n = 2, min = 0x80;
	else if ((s[0] & 0xF0) == 0xE0)
		n = 3, min = 0x800;
	else if ((s[0] & 0xF8) == 0xF0)
		n = 4, min = 0x10000;
	else
		return 0;
	unsigned cp = s[0] & (0x7F >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

static bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

static void write_string(struct jsonw *w, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	putch(w, '"');
	while (*s) {
		/* the common case: a run of plain ASCII, copied at once */
		const unsigned char *run = s;
		while (plain(*s))
			s++;
		if (s > run)
			put(w, run, (size_t)(s - run));
		if (!*s)
			break;
		size_t n = utf8_len(s);
		if (n == 0) {
			puts_w(w, "\\ufffd");
			s++;
			continue;
		}
		if (n > 1) {
			put(w, s, n);
			s += n;
			continue;
		}
		char esc[8];
		switch (*s) {
		case '"': puts_w(w, "\\\""); break;
		case '\\': puts_w(w, "\\\\"); break;
		case '\n': puts_w(w, "\\n"); break;
		case '\t': puts_w(w, "\\t"); break;
		case '\r': puts_w(w, "\\r"); break;
		case '\b': puts_w(w, "\\b"); break;
		case '\f': puts_w(w, "\\f"); break;
		default:
			snprintf(esc, sizeof esc, "\\u%04x", *s);
			puts_w(w, esc);
		}
		s++;
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

bool jw_flush(struct jsonw *w)
{
	bool ok = w->len == 0 || fwrite(w->buf, 1, w->len, w->out) == w->len;
	free(w->buf);
	w->buf = NULL;
	w->len = w->cap = 0;
	return ok;
}
