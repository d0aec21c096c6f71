/* SPDX-License-Identifier: MIT */
/* Key masking for a text in pieces: see model/redact.h. */
#include "config.h"
#include "model/redact.h"
#include "model/key.h"
#include "util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct bytes {
	char *s;
	size_t n, cap;
};

static void bytes_room(struct bytes *b, size_t n)
{
	if (b->n + n + 1 <= b->cap)
		return;
	size_t cap = (b->n + n + 1) * 2;
	char *s = xmalloc(cap);
	if (b->n)
		memcpy(s, b->s, b->n);
	if (b->s)
		explicit_bzero(b->s, b->cap); /* it may have held part of an echo */
	free(b->s);
	b->s = s;
	b->cap = cap;
}

static void bytes_put(struct bytes *b, const char *s, size_t n)
{
	bytes_room(b, n);
	if (n)
		memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void bytes_stars(struct bytes *b, size_t n)
{
	bytes_room(b, n);
	memset(b->s + b->n, '*', n);
	b->n += n;
	b->s[b->n] = '\0';
}

/* Drop the first N bytes. */
static void bytes_drop(struct bytes *b, size_t n)
{
	memmove(b->s, b->s + n, b->n - n);
	explicit_bzero(b->s + b->n - n, n);
	b->n -= n;
	b->s[b->n] = '\0';
}

static void bytes_wipe(struct bytes *b)
{
	if (b->s)
		explicit_bzero(b->s, b->cap);
	free(b->s);
	*b = (struct bytes){ 0 };
}

/* One base64 form, found as key_mask finds it (leftmost, not overlapping).
 * The bytes held back are always the form's first Q bytes: the automaton's
 * state says how many, and they need not be kept. */
struct b64 {
	char *form;
	size_t n;
	size_t *fail; /* fail[q-1]: the longest proper border of form[0..q) */
	size_t q;
};

static void b64_init(struct b64 *f, char *form)
{
	f->form = form;
	f->n = strlen(form);
	f->fail = xcalloc(f->n, sizeof *f->fail);
	for (size_t i = 1, k = 0; i < f->n; i++) {
		while (k > 0 && form[i] != form[k])
			k = f->fail[k - 1];
		if (form[i] == form[k])
			k++;
		f->fail[i] = k;
	}
	f->q = 0;
}

static void b64_feed(struct b64 *f, const char *s, size_t n, struct bytes *out)
{
	size_t plain = 0; /* bytes of S before I that go through as they are */
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (f->q == 0 && c != f->form[0]) {
			plain++;
			continue;
		}
		bytes_put(out, s + i - plain, plain);
		plain = 0;
		/* What no longer begins the form is let through. */
		while (f->q > 0 && f->form[f->q] != c) {
			size_t k = f->fail[f->q - 1];
			bytes_put(out, f->form, f->q - k);
			f->q = k;
		}
		if (f->form[f->q] != c) {
			bytes_put(out, &c, 1);
		} else if (++f->q == f->n) {
			bytes_stars(out, f->n);
			f->q = 0;
		}
	}
	bytes_put(out, s + n - plain, plain);
}

static void b64_finish(struct b64 *f, struct bytes *out)
{
	bytes_put(out, f->form, f->q);
	f->q = 0;
}

static void b64_clear(struct b64 *f)
{
	key_free(f->form);
	free(f->fail);
}

struct redact {
	const char *key; /* NULL: nothing to mask */
	struct b64 b64[KEY_B64_FORMS];
	size_t nb64;
	struct bytes held; /* the echo stage's input from its place in the text */
};

struct redact *redact_new(const char *key)
{
	struct redact *r = xcalloc(1, sizeof *r);
	if (!key || strlen(key) < KEY_SHORT)
		return r;
	r->key = key;
	char *forms[KEY_B64_FORMS];
	r->nb64 = key_b64_forms(key, forms);
	for (size_t i = 0; i < r->nb64; i++)
		b64_init(&r->b64[i], forms[i]);
	return r;
}

/* The echo stage: mask_escaped in key.c, stopping where it cannot tell
 * yet; HELD starts where that scan is. */
static void echo_run(struct redact *r, bool more, struct bytes *out)
{
	const char *b = r->held.s, *key = r->key;
	size_t len = r->held.n, i = 0, from = 0;
	while (i < len) {
		char c = b[i];
		if (c != key[0] && c != '\\' && c != '%') {
			i++;
			continue;
		}
		size_t end = key_echo_end(b, len, i, key, more);
		if (end == KEY_ECHO_OPEN)
			break;
		if (end == 0) {
			i++;
			continue;
		}
		bytes_put(out, b + from, i - from);
		bytes_stars(out, end - i);
		i = from = end;
	}
	bytes_put(out, b + from, i - from);
	bytes_drop(&r->held, i);
}

static char *run(struct redact *r, const char *s, size_t n, bool final, size_t *outlen)
{
	struct bytes out = { 0 };
	if (!r->key) {
		bytes_put(&out, s, n);
		*outlen = out.n;
		return out.s;
	}
	/* Each stage's output is the next one's input. */
	struct bytes a = { 0 }, b = { 0 };
	bytes_put(&a, s, n);
	for (size_t i = 0; i < r->nb64; i++) {
		b.n = 0;
		bytes_put(&b, "", 0);
		b64_feed(&r->b64[i], a.s, a.n, &b);
		if (final)
			b64_finish(&r->b64[i], &b);
		struct bytes t = a;
		a = b;
		b = t;
	}
	bytes_put(&r->held, a.s, a.n);
	bytes_wipe(&a);
	bytes_wipe(&b);
	bytes_put(&out, "", 0);
	echo_run(r, !final, &out);
	*outlen = out.n;
	return out.s;
}

char *redact_feed(struct redact *r, const char *s, size_t n, size_t *outlen)
{
	return run(r, s, n, false, outlen);
}

char *redact_finish(struct redact *r, size_t *outlen)
{
	return run(r, "", 0, true, outlen);
}

void redact_free(struct redact *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nb64; i++)
		b64_clear(&r->b64[i]);
	bytes_wipe(&r->held);
	free(r);
}
