/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for what kli reads from a model server's reply body:
 * the reply parser (chat_reply_parse), the error-message reader, the
 * too-long classifier, key masking and the terminal filter.
 *
 * Input: one reply body. Whatever parses must be a reply kli can act on
 * (every call has a name, an id, and ids are unique) that survives the
 * fault barrier's round trip unchanged; an echo of a key drawn from the
 * input's first bytes is gone after key_mask, and the streaming masker
 * (model/redact.h) fed the body in pieces gives what key_mask gives; the
 * terminal filter leaves no escape but SGR. Nothing may crash, leak or
 * trip a sanitizer. */
#include "config.h"
#include "model/chat.h"
#include "model/key.h"
#include "model/redact.h"
#include "agent/term.h"
#include "util.h"
#include "fuzz.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_reply(const struct chat_reply *r)
{
	for (size_t i = 0; i < r->ncalls; i++) {
		CHECK(r->calls[i].id && r->calls[i].id[0]);
		CHECK(r->calls[i].name && r->calls[i].name[0]);
		CHECK(r->calls[i].arguments);
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(r->calls[i].id, r->calls[j].id) != 0);
	}
	/* across the barrier's pipe and back: the same reply */
	char *d = chat_reply_dump(r);
	struct chat_reply b;
	char err[600];
	CHECK(chat_reply_parse(d, strlen(d), &b, err, sizeof err));
	CHECK((r->content == NULL) == (b.content == NULL));
	CHECK(!r->content || strcmp(r->content, b.content) == 0);
	CHECK(b.ncalls == r->ncalls);
	for (size_t i = 0; i < r->ncalls; i++) {
		CHECK(strcmp(r->calls[i].id, b.calls[i].id) == 0);
		CHECK(strcmp(r->calls[i].name, b.calls[i].name) == 0);
		CHECK(strcmp(r->calls[i].arguments, b.calls[i].arguments) == 0);
	}
	chat_reply_clear(&b);
	free(d);
}

/* A key from the input's first bytes, visible ASCII as key_valid wants. */
static void key_from(const uint8_t *data, size_t size, char key[24])
{
	size_t n = 8 + (size ? data[0] % 12 : 0);
	for (size_t i = 0; i < n; i++)
		key[i] = (char)(0x21 + (i + 1 < size ? data[i + 1] : i) % 94);
	key[n] = '\0';
}

/* TEXT (N bytes) fed to the streaming masker in pieces whose lengths the
 * input's bytes pick: WANT (key_mask of the whole), whatever they are. */
static void check_stream(const char *text, size_t n, const char *key, const char *want,
			 const uint8_t *data, size_t size)
{
	struct redact *r = redact_new(key);
	char *got = xmalloc(n + 1);
	size_t at = 0, done = 0, m;
	for (size_t i = 0; at < n; i++) {
		size_t k = 1 + (size ? data[i % size] % 16 : 0);
		if (k > n - at)
			k = n - at;
		char *o = redact_feed(r, text + at, k, &m);
		CHECK(done + m <= n);
		memcpy(got + done, o, m);
		done += m;
		at += k;
		free(o);
	}
	char *o = redact_finish(r, &m);
	CHECK(done + m == n);
	memcpy(got + done, o, m);
	free(o);
	CHECK(memcmp(got, want, n) == 0);
	free(got);
	redact_free(r);
}

static void check_mask(const uint8_t *data, size_t size)
{
	char key[24];
	key_from(data, size, key);
	char *b = xmalloc(size + strlen(key) + 1);
	memcpy(b, data, size);
	memcpy(b + size, key, strlen(key) + 1); /* always one echo, at the end */
	size_t n = size + strlen(key);
	char *text = xmalloc(n);
	memcpy(text, b, n);
	key_mask(b, n, key);
	check_stream(text, n, key, b, data, size);
	free(text);
	/* The mask is '*': a key holding '*' can reappear from an echo's
	 * stars and the bytes around it (a key of stars is its own mask). */
	if (!strchr(key, '*'))
		CHECK(memmem(b, n, key, strlen(key)) == NULL);
	free(b);
}

static void check_term(const char *s, size_t n)
{
	size_t used;
	char *t = term_neutralise(s, n, false, &used);
	CHECK(used <= n);
	free(t);
	t = term_neutralise(s, n, true, &used);
	CHECK(used == n);
	for (const char *p = t; (p = strchr(p, '\x1b')); p++) {
		/* only SGR: ESC [ digits ; : m */
		CHECK(p[1] == '[');
		size_t k = 2;
		while (strchr("0123456789;:", p[k]) && p[k])
			k++;
		CHECK(p[k] == 'm');
	}
	CHECK(!strchr(t, '\a'));
	free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return 0;
	char *body = xmalloc(size + 1);
	memcpy(body, data, size);
	body[size] = '\0';
	struct chat_reply r;
	char err[600];
	if (chat_reply_parse(body, size, &r, err, sizeof err)) {
		check_reply(&r);
		chat_reply_clear(&r);
	} else {
		CHECK(err[0]);
		CHECK(r.content == NULL && r.ncalls == 0);
	}
	free(chat_error_detail(body, size));
	(void)chat_too_long(400, body, size);
	(void)chat_body_kind(body, size);
	check_mask(data, size);
	check_term(body, size);
	free(body);
	return 0;
}
