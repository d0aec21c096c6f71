/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for a streamed reply: the SSE parser and the stream
 * assembler behind it.
 *
 * Input: a first byte choosing the piece size, then the bytes of a stream.
 * Fed in pieces of that size and fed whole, the parser must give the same
 * events (their count and bytes); each event goes through
 * chat_stream_event, and a stream that ends well gives a reply that
 * passes the same checks as a whole one. Nothing may crash, leak or trip
 * a sanitizer. */
#include "config.h"
#include "model/chat.h"
#include "model/sse.h"
#include "model/stream.h"
#include "util.h"
#include "fuzz.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct seen {
	size_t events;
	uint64_t hash;  /* FNV-1a over every event's name and data */
	struct chat_stream *st;
};

static uint64_t fnv(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
	return h;
}

static bool on_event(void *ud, const char *event, const char *data, size_t len, char *err,
		     size_t errlen)
{
	struct seen *s = ud;
	CHECK(data[len] == '\0');
	s->events++;
	s->hash = fnv(fnv(s->hash, event, strlen(event) + 1), data, len);
	if (!s->st)
		return true;
	char *added = NULL;
	bool ok = chat_stream_event(s->st, data, len, &added, err, errlen);
	if (added)
		CHECK(ok && added[0]);
	free(added);
	return true; /* keep parsing: the assembler's verdict is checked at the end */
}

static void run(const char *s, size_t n, size_t piece, struct seen *seen)
{
	struct sse p = SSE_INIT;
	char err[600];
	for (size_t i = 0; i < n; i += piece)
		if (!sse_feed(&p, s + i, n - i < piece ? n - i : piece, on_event, seen, err,
			      sizeof err))
			break;
	(void)sse_finish(&p, on_event, seen, err, sizeof err);
	sse_clear(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 1 << 20)
		return 0;
	size_t piece = 1 + data[0] % 17;
	const char *s = (const char *)data + 1;
	size_t n = size - 1;

	struct chat_stream st;
	chat_stream_init(&st);
	struct seen split = { 0, 14695981039346656037ull, &st };
	run(s, n, piece, &split);
	struct seen whole = { 0, 14695981039346656037ull, NULL };
	run(s, n, n ? n : 1, &whole);
	CHECK(split.events == whole.events);
	CHECK(split.hash == whole.hash);

	struct chat_reply r;
	char err[600];
	if (chat_stream_finish(&st, &r, err, sizeof err)) {
		for (size_t i = 0; i < r.ncalls; i++) {
			CHECK(r.calls[i].id && r.calls[i].name && r.calls[i].arguments);
			for (size_t j = 0; j < i; j++)
				CHECK(strcmp(r.calls[i].id, r.calls[j].id) != 0);
		}
		chat_reply_clear(&r);
	} else {
		CHECK(err[0]);
	}
	chat_stream_clear(&st);
	return 0;
}
