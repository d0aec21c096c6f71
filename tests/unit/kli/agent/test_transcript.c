/* SPDX-License-Identifier: MIT */
/* A saved session's reader: what kli writes reads back the same; anything
 * else, a grant or a system message among it, is refused with one line. */
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

#include "agent/transcript.h"
#include "util.h"

#define HEAD "{\"format\":\"kli-session\",\"version\":1,\"id\":\"s-1\",\"created\":1," \
	     "\"updated\":2,\"workspace\":\"/ws\",\"first_prompt\":\"hi\","
#define USER "{\"role\":\"user\",\"content\":\"hi\"}"
#define CALL "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\"," \
	     "\"type\":\"function\",\"function\":{\"name\":\"bash\",\"arguments\":\"{}\"}}]}"
#define RESULT "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"name\":\"bash\",\"content\":\"ok\"}"

static bool parse(const char *text, char *err, size_t errlen)
{
	struct transcript t;
	bool ok = transcript_parse(text, strlen(text), &t, err, errlen);
	if (!ok) {
		assert_null(t.messages);
		assert_non_null(err[0] ? err : NULL);
		assert_null(strchr(err, '\n'));
	}
	transcript_clear(&t);
	return ok;
}

static void test_round_trip(void **state)
{
	(void)state;
	const char *text = HEAD "\"messages\":[" USER "," CALL "," RESULT "]}";
	struct transcript t;
	char err[300];
	assert_true(transcript_parse(text, strlen(text), &t, err, sizeof err));
	assert_string_equal(t.id, "s-1");
	assert_string_equal(t.workspace, "/ws");
	assert_int_equal(json_array_size(t.messages), 3);
	char *again = transcript_dump(&t);
	struct transcript b;
	assert_true(transcript_parse(again, strlen(again), &b, err, sizeof err));
	assert_true(json_equal(t.messages, b.messages));
	assert_int_equal(b.updated, 2);
	free(again);
	transcript_clear(&b);
	transcript_clear(&t);
}

static void test_refused(void **state)
{
	(void)state;
	char err[300];
	/* no authority: a grant, a system message */
	assert_false(parse(HEAD "\"grant\":\"file/write under /\",\"messages\":[]}", err, sizeof err));
	assert_string_equal(err, "unknown field 'grant' (a session holds a conversation, never "
				 "authority)");
	assert_false(parse(HEAD "\"messages\":[{\"role\":\"system\",\"content\":\"x\"}]}", err,
			   sizeof err));
	assert_non_null(strstr(err, "role 'system'"));
	/* a capability-like field on a message */
	assert_false(parse(HEAD "\"messages\":[{\"role\":\"user\",\"content\":\"x\",\"grant\":1}]}",
			   err, sizeof err));
	assert_string_equal(err, "message 1 (user) has a field 'grant' kli never writes");
	/* a result for no call, or the call's result twice */
	assert_false(parse(HEAD "\"messages\":[" RESULT "]}", err, sizeof err));
	assert_false(parse(HEAD "\"messages\":[" CALL "," RESULT "," RESULT "]}", err, sizeof err));
	/* shapes */
	assert_false(parse("[]", err, sizeof err));
	assert_false(parse(HEAD "\"messages\":{}}", err, sizeof err));
	assert_false(parse(HEAD "\"messages\":[1]}", err, sizeof err));
	assert_false(parse(HEAD "\"messages\":[{\"role\":\"user\",\"content\":7}]}", err, sizeof err));
	assert_false(parse(HEAD "\"messages\":[],\"messages\":[]}", err, sizeof err));
	assert_false(parse(HEAD "\"messages\":[{\"role\":\"user\",\"content\":\"a\\u0000b\"}]}", err,
			   sizeof err));
	const char *bad_id = "{\"format\":\"kli-session\",\"version\":1,\"id\":\"../x\",\"created\":1,"
			     "\"updated\":2,\"workspace\":\"/ws\",\"first_prompt\":\"\",\"messages\":[]}";
	assert_false(parse(bad_id, err, sizeof err));
	assert_string_equal(err, "\"id\" is not a session id");
	const char *rel = "{\"format\":\"kli-session\",\"version\":1,\"id\":\"x\",\"created\":1,"
			  "\"updated\":2,\"workspace\":\"ws\",\"first_prompt\":\"\",\"messages\":[]}";
	assert_false(parse(rel, err, sizeof err));
	assert_false(parse("{\"a\":\"\x1b]0;x\x07", err, sizeof err));
	assert_null(strchr(err, '\x1b'));
}

static void test_limits(void **state)
{
	(void)state;
	char err[300];
	struct transcript t;
	assert_false(transcript_parse("{}", TRANSCRIPT_MAX_BYTES + 1, &t, err, sizeof err));
	/* one message too many */
	size_t n = TRANSCRIPT_MAX_MESSAGES + 1;
	char *s = xmalloc(sizeof HEAD + 20 + n * (sizeof USER + 1));
	char *p = s + sprintf(s, "%s\"messages\":[", HEAD);
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s%s", i ? "," : "", USER);
	strcpy(p, "]}");
	assert_false(parse(s, err, sizeof err));
	assert_non_null(strstr(err, "at most"));
	free(s);
}

static void test_ids_and_lines(void **state)
{
	(void)state;
	assert_true(transcript_id_valid("20261207-082300-abcdef"));
	assert_false(transcript_id_valid(""));
	assert_false(transcript_id_valid("a/b"));
	assert_false(transcript_id_valid(".."));
	assert_false(transcript_id_valid("a.json"));
	char *l = transcript_first_line("fix it\nplease");
	assert_string_equal(l, "fix it");
	free(l);
	l = transcript_first_line("a\x1b[2Jb");
	assert_null(strchr(l, '\x1b'));
	free(l);
	char big[400];
	memset(big, 'x', sizeof big - 3);
	strcpy(big + sizeof big - 3, "\xc3\xa9"); /* é at the cut */
	l = transcript_first_line(big);
	assert_true(strlen(l) <= TRANSCRIPT_MAX_FIRST);
	free(l);
	json_t *h = json_pack("[{s:s},{s:s}]", "role", "system", "role", "user");
	json_t *m = transcript_messages(h);
	assert_int_equal(json_array_size(m), 1);
	json_decref(m);
	json_decref(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_ids_and_lines),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
