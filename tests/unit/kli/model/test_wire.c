/* SPDX-License-Identifier: MIT */
/* kli's wire to real servers, the pure parts: the SSE parser (every split
 * of a stream gives the same events), the streamed reply put back
 * together (the same reply as the whole one), what a retried stream shows,
 * and the terminal filter. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "unit-skip.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/chat.h"
#include "model/replay.h"
#include "model/sse.h"
#include "model/stream.h"
#include "agent/term.h"
#include "util.h"

/* ---------------------------------------------------------------- SSE */

struct got {
	char text[4096];
};

static bool collect(void *ud, const char *event, const char *data, size_t len, char *err,
		    size_t errlen)
{
	(void)err, (void)errlen;
	struct got *g = ud;
	size_t n = strlen(g->text);
	snprintf(g->text + n, sizeof g->text - n, "[%s|%.*s]", event, (int)len, data);
	return true;
}

/* Feed S in pieces of K bytes; the events seen. */
static void events(const char *s, size_t k, struct got *g)
{
	struct sse p = SSE_INIT;
	char err[200];
	g->text[0] = '\0';
	size_t n = strlen(s);
	for (size_t i = 0; i < n; i += k)
		assert_true(sse_feed(&p, s + i, n - i < k ? n - i : k, collect, g, err, sizeof err));
	assert_true(sse_finish(&p, collect, g, err, sizeof err));
	sse_clear(&p);
}

static void test_sse(void **state)
{
	(void)state;
	const char *stream = "\xef\xbb\xbf: a comment\r\n"
			     "data: one\r\n\r\n"
			     "event: ping\ndata:two\ndata:  three\n\n"
			     "id: 5\rretry: 10\rdata\r\r"
			     "unknown: x\n\n\n"
			     "data: last";
	const char *want = "[message|one][ping|two\n three][message|][message|last]";
	for (size_t k = 1; k <= strlen(stream); k++) {
		struct got g;
		events(stream, k, &g);
		if (strcmp(g.text, want) != 0)
			fail_msg("pieces of %zu: got %s", k, g.text);
	}
}

static bool refuse(void *ud, const char *event, const char *data, size_t len, char *err,
		   size_t errlen)
{
	(void)ud, (void)event, (void)data, (void)len;
	fmt_into(err, errlen, "no");
	return false;
}

static void test_sse_stop(void **state)
{
	(void)state;
	struct sse p = SSE_INIT;
	char err[200];
	assert_false(sse_feed(&p, "data: x\n\n", 9, refuse, NULL, err, sizeof err));
	assert_string_equal(err, "no");
	assert_false(sse_feed(&p, "data: y\n\n", 9, collect, NULL, err, sizeof err));
	sse_clear(&p);
}

/* Where each event starts in the stream, at every split: a malformed
 * one is named by its byte offset. */
struct at {
	struct sse *p;
	size_t v[8], n;
};

static bool note_at(void *ud, const char *event, const char *data, size_t len, char *err,
		    size_t errlen)
{
	(void)event, (void)data, (void)len, (void)err, (void)errlen;
	struct at *a = ud;
	if (a->n < 8)
		a->v[a->n++] = a->p->event_at;
	return true;
}

static void test_sse_offsets(void **state)
{
	(void)state;
	/* events at 3 (after the BOM), 22 (after a comment, CR LF) and 42
	 * (an event's first data line, where a malformed one would be) */
	const char *stream = "\xef\xbb\xbf" "data: one\r\n\r\n"
			     ": hi\r\ndata: two\n\n"
			     "event: e\ndata: x\ndata: y";
	for (size_t k = 1; k <= strlen(stream); k++) {
		struct sse p = SSE_INIT;
		struct at a = { .p = &p };
		char err[200];
		size_t n = strlen(stream);
		for (size_t i = 0; i < n; i += k)
			assert_true(sse_feed(&p, stream + i, n - i < k ? n - i : k, note_at, &a, err,
					     sizeof err));
		assert_true(sse_finish(&p, note_at, &a, err, sizeof err));
		sse_clear(&p);
		assert_int_equal(a.n, 3);
		if (a.v[0] != 3 || a.v[1] != 22 || a.v[2] != 42)
			fail_msg("pieces of %zu: events at %zu, %zu, %zu", k, a.v[0], a.v[1],
				 a.v[2]);
	}
}

/* ------------------------------------------------------------- stream */

static bool stream_of(const char *const *chunks, size_t n, struct chat_reply *r, char *added,
		      char *err)
{
	struct chat_stream s;
	chat_stream_init(&s);
	added[0] = '\0';
	bool ok = true;
	for (size_t i = 0; ok && i < n; i++) {
		char *a = NULL;
		ok = chat_stream_event(&s, chunks[i], strlen(chunks[i]), &a, err, 300);
		if (a)
			strcat(added, a);
		free(a);
	}
	ok = ok && chat_stream_finish(&s, r, err, 300);
	chat_stream_clear(&s);
	return ok;
}

static void test_stream_calls(void **state)
{
	(void)state;
	static const char *const chunks[] = {
		"{\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"Rea\"}}]}",
		"{\"choices\":[{\"delta\":{\"content\":\"ding\"}}]}",
		"{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"type\":\"function\","
		"\"function\":{\"name\":\"read\",\"arguments\":\"\"}}]}}]}",
		"{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"pa\"}}]}}]}",
		"{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":7,\"function\":{\"name\":\"find\"}}]}}]}",
		"{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"th\\\":\\\"a\\\"}\"}}]}}]}",
		"{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"{}\"}}]}}]}",
		"{\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}",
		"{\"choices\":[],\"usage\":{\"total_tokens\":3}}",
		"[DONE]",
	};
	struct chat_reply r;
	char added[200], err[300];
	assert_true(stream_of(chunks, ARRAY_SIZE(chunks), &r, added, err));
	assert_string_equal(added, "Reading");
	assert_string_equal(r.content, "Reading");
	assert_int_equal(r.ncalls, 2);
	assert_string_equal(r.calls[0].id, "c1");
	assert_string_equal(r.calls[0].name, "read");
	assert_string_equal(r.calls[0].arguments, "{\"path\":\"a\"}");
	assert_string_equal(r.calls[1].id, "7");
	assert_string_equal(r.calls[1].name, "find");
	assert_string_equal(r.finish_reason, "tool_calls");
	chat_reply_clear(&r);
}

static void test_stream_shapes(void **state)
{
	(void)state;
	struct chat_reply r;
	char added[200], err[300];
	/* legacy function_call deltas, no index */
	static const char *const legacy[] = {
		"{\"choices\":[{\"delta\":{\"function_call\":{\"name\":\"read\",\"arguments\":\"{\"}}}]}",
		"{\"choices\":[{\"delta\":{\"function_call\":{\"arguments\":\"}\"}}}]}",
		"{\"choices\":[{\"delta\":{},\"finish_reason\":\"function_call\"}]}",
	};
	assert_true(stream_of(legacy, ARRAY_SIZE(legacy), &r, added, err));
	assert_int_equal(r.ncalls, 1);
	assert_string_equal(r.calls[0].name, "read");
	assert_string_equal(r.calls[0].arguments, "{}");
	chat_reply_clear(&r);
	/* an error chunk, in one line */
	static const char *const error[] = { "{\"error\":{\"message\":\"overloaded\"}}" };
	assert_false(stream_of(error, 1, &r, added, err));
	assert_string_equal(err, "the model server reported an error: overloaded");
	/* cut before its end */
	static const char *const cut[] = { "{\"choices\":[{\"delta\":{\"content\":\"a\"}}]}" };
	assert_false(stream_of(cut, 1, &r, added, err));
	assert_string_equal(err, "the model's stream ended before the answer did (no "
				 "finish_reason, no [DONE])");
	/* not JSON: named by where it is in the stream; an index out of range */
	struct chat_stream st;
	chat_stream_init(&st);
	st.at = 845;
	char *a = NULL;
	assert_false(chat_stream_event(&st, "{nope", 5, &a, err, 300));
	assert_null(a);
	chat_stream_clear(&st);
	assert_string_equal(err, "the model's stream has an event that is not valid JSON at byte "
				 "845 of the stream (string or '}' expected near 'nope', at byte 5 "
				 "of the event)");
	static const char *const far[] = {
		"{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":100000000,\"function\":{}}]}}]}",
	};
	assert_false(stream_of(far, 1, &r, added, err));
	assert_string_equal(err, "the model's stream has a tool call index out of range (0 to 127)");
	/* parts and an escaped NUL in deltas */
	static const char *const parts[] = {
		"{\"choices\":[{\"delta\":{\"content\":[{\"type\":\"text\",\"text\":\"x\\u0000y\"}]}}]}",
		"[DONE]",
	};
	assert_true(stream_of(parts, 2, &r, added, err));
	assert_string_equal(r.content, "x\\0y");
	chat_reply_clear(&r);
}

/* ------------------------------------------------------------ replay */

/* The tries, each a list of pieces (NULL-terminated, the tries too), fed
 * through a replay: what is shown, with "|RESTART|" where the answer
 * restarted. */
static void replayed(const char *const *const *tries, char *shown, size_t cap)
{
	struct replay r;
	replay_init(&r);
	shown[0] = '\0';
	for (size_t t = 0; tries[t]; t++) {
		if (t > 0)
			replay_retry(&r);
		const char *out;
		size_t k;
		for (size_t i = 0; tries[t][i]; i++) {
			if (replay_text(&r, tries[t][i], strlen(tries[t][i]), &out, &k) ==
			    REPLAY_RESTART)
				strlcat(shown, "|RESTART|", cap);
			snprintf(shown + strlen(shown), cap - strlen(shown), "%.*s", (int)k, out);
		}
		/* every try but the last broke off; the last is whole */
		if (!tries[t + 1] && replay_end(&r, &out, &k) == REPLAY_RESTART) {
			strlcat(shown, "|RESTART|", cap);
			snprintf(shown + strlen(shown), cap - strlen(shown), "%.*s", (int)k, out);
		}
	}
	replay_clear(&r);
}

static void replay_is(const char *const *const *tries, const char *want)
{
	char shown[512];
	replayed(tries, shown, sizeof shown);
	if (strcmp(shown, want) != 0)
		fail_msg("shown \"%s\", want \"%s\"", shown, want);
}

static void test_replay(void **state)
{
	(void)state;
	static const char *const cut[] = { "The ", "answ", "er i", NULL };
	static const char *const whole[] = { "The ", "answ", "er i", "s 42.", NULL };
	static const char *const other_split[] = { "Th", "e answer is", " 42.", NULL };
	static const char *const one_piece[] = { "The answer is 42.", NULL };
	static const char *const differs[] = { "The ", "ANSWER is 42.", NULL };
	static const char *const shorter[] = { "The", NULL };
	static const char *const nothing[] = { NULL };
	/* the first try goes straight through */
	replay_is((const char *const *const[]){ whole, NULL }, "The answer is 42.");
	/* a retry repeating the text shows only the rest, however it is split */
	replay_is((const char *const *const[]){ cut, whole, NULL }, "The answer is 42.");
	replay_is((const char *const *const[]){ cut, other_split, NULL }, "The answer is 42.");
	replay_is((const char *const *const[]){ cut, one_piece, NULL }, "The answer is 42.");
	replay_is((const char *const *const[]){ cut, cut, one_piece, NULL }, "The answer is 42.");
	/* one that differs restarts, shown whole from its start */
	replay_is((const char *const *const[]){ cut, differs, NULL },
		  "The answer i|RESTART|The ANSWER is 42.");
	/* ... and a third try is compared with the restarted answer */
	replay_is((const char *const *const[]){ cut, differs, cut, NULL },
		  "The answer i|RESTART|The ANSWER is 42.|RESTART|The answer i");
	/* one that ends short of what was shown restarts at its end */
	replay_is((const char *const *const[]){ cut, shorter, NULL }, "The answer i|RESTART|The");
	replay_is((const char *const *const[]){ cut, nothing, NULL }, "The answer i|RESTART|");
	/* nothing shown before: nothing to compare */
	replay_is((const char *const *const[]){ nothing, differs, NULL }, "The ANSWER is 42.");
}

/* -------------------------------------------------------------- term */

static void neutral_is(const char *in, const char *want)
{
	char *got = term_neutralise(in, strlen(in), true, NULL);
	if (strcmp(got, want) != 0)
		fail_msg("term_neutralise(%s): got \"%s\", want \"%s\"", in, got, want);
	free(got);
}

static void test_term(void **state)
{
	(void)state;
	neutral_is("plain\ttext\r\n", "plain\ttext\r\n");
	neutral_is("\x1b[1;31mred\x1b[0m", "\x1b[1;31mred\x1b[0m");
	neutral_is("\x1b]0;title\x07", "^[]0;title^G");
	neutral_is("\x1b]52;c;aGk=\x1b\\", "^[]52;c;aGk=^[\\");
	neutral_is("\x1bP1$r\x1b\\", "^[P1$r^[\\");
	neutral_is("\x1b[2J\x1b[H", "^[[2J^[[H");
	neutral_is("a\rb", "a^Mb");
	neutral_is("\xc2\x9b" "31m \xc2\x9d", "^[[31m ^[]");
	neutral_is("caf\xc3\xa9 \xc2\xa0", "caf\xc3\xa9 \xc2\xa0");
	/* not final: an unfinished sequence is held back */
	size_t used;
	char *s = term_neutralise("ok\x1b[3", 5, false, &used);
	assert_string_equal(s, "ok");
	assert_int_equal(used, 2);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sse),
		cmocka_unit_test(test_sse_stop),
		cmocka_unit_test(test_sse_offsets),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_stream_calls),
		cmocka_unit_test(test_stream_shapes),
		cmocka_unit_test(test_term),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
