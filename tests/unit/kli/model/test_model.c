/* SPDX-License-Identifier: MIT */
/* kli's model client, the pure parts: the request body, reply parsing
 * (every malformed shape a server can send), the endpoint, the retry
 * policy, UTF-8 scrubbing; and the API key loader. */
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
#include <unistd.h>

#include "model/chat.h"
#include "model/key.h"
#include "util.h"

/* ------------------------------------------------------------ request */

static void test_request(void **state)
{
	(void)state;
	json_t *msgs = json_pack("[{s:s, s:s}]", "role", "user", "content", "hi");
	json_t *tools = json_pack("[{s:s}]", "type", "function");
	json_t *req = chat_request("qwen", msgs, tools, false);
	char *s = json_dumps(req, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"messages\":[{\"content\":\"hi\",\"role\":\"user\"}],"
			       "\"model\":\"qwen\",\"stream\":false,\"tool_choice\":\"auto\","
			       "\"tools\":[{\"type\":\"function\"}]}");
	free(s);
	json_decref(req);
	json_t *empty = json_array();
	req = chat_request("m", msgs, empty, false);
	assert_null(json_object_get(req, "tools"));
	assert_null(json_object_get(req, "tool_choice"));
	json_decref(req);
	json_decref(empty);
	json_decref(msgs);
	json_decref(tools);
}

/* ------------------------------------------------------------ replies */

static bool parse(const char *body, struct chat_reply *r, char *err)
{
	return chat_reply_parse(body, strlen(body), r, err, 300);
}

static void test_reply_content(void **state)
{
	(void)state;
	struct chat_reply r;
	char err[300];
	assert_true(parse("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"done\"},"
			  "\"finish_reason\":\"stop\"}]}", &r, err));
	assert_string_equal(r.content, "done");
	assert_int_equal(r.ncalls, 0);
	assert_string_equal(r.finish_reason, "stop");
	chat_reply_clear(&r);
}

static void test_reply_calls(void **state)
{
	(void)state;
	struct chat_reply r;
	char err[300];
	assert_true(parse("{\"choices\":[{\"message\":{\"content\":null,\"tool_calls\":["
			  "{\"id\":\"a\",\"type\":\"function\",\"function\":{\"name\":\"read\","
			  "\"arguments\":\"{\\\"path\\\":\\\"x\\\"}\"}},"
			  "{\"function\":{\"name\":\"bash\",\"arguments\":{\"command\":\"ls\"}}},"
			  "{\"id\":null,\"function\":{\"name\":\"bash-jobs\"}}]}}]}", &r, err));
	assert_null(r.content);
	assert_int_equal(r.ncalls, 3);
	assert_string_equal(r.calls[0].id, "a");
	assert_string_equal(r.calls[0].arguments, "{\"path\":\"x\"}");
	/* No id: one is made up; arguments as an object become text. */
	assert_string_equal(r.calls[1].id, "call_2");
	assert_string_equal(r.calls[1].arguments, "{\"command\":\"ls\"}");
	assert_string_equal(r.calls[2].id, "call_3");
	assert_string_equal(r.calls[2].arguments, "{}");

	/* The dump reads back as the same reply: how it crosses the barrier. */
	char *dump = chat_reply_dump(&r);
	struct chat_reply back;
	assert_true(parse(dump, &back, err));
	assert_int_equal(back.ncalls, 3);
	assert_string_equal(back.calls[1].name, "bash");
	assert_string_equal(back.calls[1].arguments, r.calls[1].arguments);
	json_t *m = chat_reply_message(&back);
	assert_string_equal(json_string_value(json_object_get(m, "role")), "assistant");
	assert_int_equal(json_array_size(json_object_get(m, "tool_calls")), 3);
	json_decref(m);
	chat_reply_clear(&back);
	free(dump);
	chat_reply_clear(&r);

	/* A made-up id steps past one the server sent: each result stays
	 * with its call. */
	assert_true(parse("{\"choices\":[{\"message\":{\"tool_calls\":["
			  "{\"id\":\"call_2\",\"function\":{\"name\":\"read\"}},"
			  "{\"function\":{\"name\":\"read\"}},"
			  "{\"id\":\"call_3\",\"function\":{\"name\":\"read\"}},"
			  "{\"id\":\"\",\"function\":{\"name\":\"read\"}}]}}]}", &r, err));
	assert_int_equal(r.ncalls, 4);
	assert_string_equal(r.calls[0].id, "call_2");
	assert_string_equal(r.calls[1].id, "call_4");
	assert_string_equal(r.calls[2].id, "call_3");
	assert_string_equal(r.calls[3].id, "call_5");
	chat_reply_clear(&r);
}

static void test_reply_malformed(void **state)
{
	(void)state;
	static const struct {
		const char *body, *err;
	} cases[] = {
		{ "", "the model's reply is empty" },
		{ "{\"choices\": [", "the model's reply is not valid JSON (" },
		{ "nonsense", "the model's reply is not valid JSON (" },
		{ "{\"a\":1,\"a\":2}", "the model's reply is not valid JSON (duplicate object key" },
		{ "[]", "the model's reply is not a JSON object" },
		{ "{}", "the model's reply has no \"choices\" list" },
		{ "{\"choices\":{}}", "the model's reply has no \"choices\" list" },
		{ "{\"choices\":[]}", "the model's reply has an empty \"choices\" list" },
		{ "{\"choices\":[1]}", "the model's reply has a choice that is not an object" },
		{ "{\"choices\":[{}]}", "the model's reply has no \"message\" object in choices[0]" },
		{ "{\"choices\":[{\"message\":\"hi\"}]}", "the model's reply has no \"message\" object" },
		{ "{\"choices\":[{\"message\":{}}]}",
		  "the model's reply has neither content nor tool calls" },
		{ "{\"choices\":[{\"message\":{\"content\":5}}]}",
		  "the model's reply has a \"content\" that is neither text nor a list of parts" },
		{ "{\"choices\":[{\"message\":{\"tool_calls\":{}}}]}",
		  "the model's reply has \"tool_calls\" that is not a list" },
		{ "{\"choices\":[{\"message\":{\"tool_calls\":[7]}}]}",
		  "the model's reply has a tool call that is not an object" },
		{ "{\"choices\":[{\"message\":{\"tool_calls\":[{}]}}]}",
		  "the model's reply has a tool call without a \"function\" object" },
		{ "{\"choices\":[{\"message\":{\"tool_calls\":[{\"function\":{\"name\":\"\"}}]}}]}",
		  "the model's reply has a tool call without a function name" },
		{ "{\"choices\":[{\"message\":{\"tool_calls\":[{\"id\":3.5,\"function\":{\"name\":\"r\"}}]}}]}",
		  "the model's reply has a tool call whose id is neither text nor a number" },
		{ "data: {\"choices\":[]}\n\n", "the model's reply is a stream (server-sent events), "
		  "though kli did not ask for one" },
		{ "\x1f\x8b\x08\x00", "the model's reply is gzip-compressed, though kli did not ask" },
		{ "{\"choices\":[{\"message\":{\"function_call\":{\"arguments\":\"{}\"}}}]}",
		  "the model's reply has a tool call without a function name" },
		{ "{\"choices\":[{\"message\":{\"tool_calls\":[{\"id\":\"a\\nb\",\"function\":{\"name\":\"r\"}},"
		  "{\"id\":\"c\",\"function\":{\"name\":\"r\"}},{\"id\":\"a\\nb\",\"function\":{\"name\":\"w\"}}]}}]}",
		  "the model's reply has two tool calls with the id 'a b'" },
		{ "{\"choices\":[{\"message\":{\"tool_calls\":[{\"function\":{\"name\":\"r\",\"arguments\":[1]}}]}}]}",
		  "the model's reply has tool call arguments that are neither text nor an object" },
		{ "{\"error\":{\"message\":\"no such model\"}}",
		  "the model server reported an error: no such model" },
		{ "{\"error\":\"overloaded\"}", "the model server reported an error: overloaded" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct chat_reply r;
		char err[300] = "";
		assert_false(parse(cases[i].body, &r, err));
		if (!str_has_prefix(err, cases[i].err))
			fail_msg("case %zu: got \"%s\", want \"%s...\"", i, err, cases[i].err);
		assert_null(r.content);
		assert_int_equal(r.ncalls, 0);
	}
	/* Truncated at every byte: never a crash, always a message. */
	const char *good = "{\"choices\":[{\"message\":{\"content\":\"x\",\"tool_calls\":[{\"id\":\"a\","
			   "\"function\":{\"name\":\"n\",\"arguments\":\"{}\"}}]}}]}";
	for (size_t n = 0; n < strlen(good); n++) {
		struct chat_reply r;
		char err[300] = "";
		assert_false(chat_reply_parse(good, n, &r, err, sizeof err));
		assert_true(err[0] != '\0');
	}
}

static void test_error_detail(void **state)
{
	(void)state;
	const char *b = "{\"error\":{\"message\":\"line one\\nline\\u0007two\"}}";
	char *d = chat_error_detail(b, strlen(b));
	assert_string_equal(d, "line one line?two");
	free(d);
	assert_null(chat_error_detail("not json", 8));
	assert_null(chat_error_detail("{\"error\":{}}", 12));
	char big[600];
	snprintf(big, sizeof big, "{\"error\":\"%0500d\"}", 0);
	d = chat_error_detail(big, strlen(big));
	assert_int_equal(strlen(d), 203);
	assert_true(str_has_prefix(d + 200, "..."));
	free(d);
}

/* ----------------------------------------------------------- endpoint */

static void test_endpoint(void **state)
{
	(void)state;
	char *url, *sock, err[200];
	assert_true(chat_endpoint("http://127.0.0.1:8080/v1/", &url, &sock, err, sizeof err));
	assert_string_equal(url, "http://127.0.0.1:8080/v1/chat/completions");
	assert_null(sock);
	free(url);
	assert_true(chat_endpoint("https://api.example/v1", &url, &sock, err, sizeof err));
	assert_string_equal(url, "https://api.example/v1/chat/completions");
	free(url);
	assert_true(chat_endpoint("unix:/run/llm.sock", &url, &sock, err, sizeof err));
	assert_string_equal(url, "http://localhost/v1/chat/completions");
	assert_string_equal(sock, "/run/llm.sock");
	free(url);
	free(sock);
	assert_false(chat_endpoint("unix:run.sock", &url, &sock, err, sizeof err));
	assert_true(str_has_prefix(err, "base-url: a unix: socket path must be absolute"));
	char longp[200] = "unix:/";
	memset(longp + 6, 'a', 120);
	longp[126] = '\0';
	assert_false(chat_endpoint(longp, &url, &sock, err, sizeof err));
	assert_false(chat_endpoint("ftp://x", &url, &sock, err, sizeof err));
	assert_string_equal(err, "base-url must start with http://, https:// or unix:/");
}

/* ------------------------------------------------------------ retries */

static void test_retry_policy(void **state)
{
	(void)state;
	assert_true(chat_retryable(429));
	assert_true(chat_retryable(500));
	assert_true(chat_retryable(503));
	assert_false(chat_retryable(400));
	assert_false(chat_retryable(401));
	assert_false(chat_retryable(404));
	assert_false(chat_retryable(200));

	assert_int_equal(chat_retry_after(" 3\r\n"), 3);
	assert_int_equal(chat_retry_after("0"), 0);
	assert_int_equal(chat_retry_after(NULL), -1);
	assert_int_equal(chat_retry_after("soon"), -1);
	assert_int_equal(chat_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), -1);
	assert_int_equal(chat_retry_after("-1"), -1);
	assert_int_equal(chat_retry_after("99999999999999999999"), -1);

	assert_int_equal(chat_backoff_ms(1, -1), 500);
	assert_int_equal(chat_backoff_ms(2, -1), 1000);
	assert_int_equal(chat_backoff_ms(3, -1), 2000);
	assert_int_equal(chat_backoff_ms(10, -1), CHAT_BACKOFF_MAX_MS);
	assert_int_equal(chat_backoff_ms(1000, -1), CHAT_BACKOFF_MAX_MS);
	assert_int_equal(chat_backoff_ms(1, 2), 2000);
	assert_int_equal(chat_backoff_ms(5, CHAT_RETRY_AFTER_MAX_S), CHAT_RETRY_AFTER_MAX_S * 1000);
	assert_int_equal(chat_backoff_ms(1, CHAT_RETRY_AFTER_MAX_S + 1), -1);
}

static void test_utf8_scrub(void **state)
{
	(void)state;
	char s[] = "ok \xc3\xa9 \xff bad \xe2\x82 cut \xf0\x9f\x98\x80 emoji \xed\xa0\x80 surrogate "
		   "\xc0\xaf overlong";
	utf8_scrub(s, strlen(s));
	assert_string_equal(s, "ok \xc3\xa9 ? bad ?? cut \xf0\x9f\x98\x80 emoji ??? surrogate "
			       "?? overlong");
	char nul[] = { 'a', '\0', 'b', '\0' };
	utf8_scrub(nul, 3);
	assert_string_equal(nul, "a?b");
}

/* ---------------------------------------------------------------- key */

static char *write_tmp(const char *text)
{
	char *p = xstrdup("test_kli_model.key.XXXXXX");
	int fd = mkstemp(p);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	char *abs = xasprintf("%s/%s", getcwd((char[4096]){ 0 }, 4096), p);
	free(p);
	return abs;
}

static void test_key_file(void **state)
{
	(void)state;
	char *path = write_tmp("  sk-abc123  \nsecond line\n");
	struct kli_model m = { .api_key_file = path, .retries = -1 };
	char *key, err[300];
	assert_true(key_load(&m, "/nonexistent", &key, err, sizeof err));
	assert_string_equal(key, "sk-abc123");
	key_free(key);
	unlink(path);
	assert_false(key_load(&m, "/nonexistent", &key, err, sizeof err));
	assert_null(key);
	assert_true(strstr(err, "No such file or directory") != NULL);
	free(path);

	path = write_tmp("key with space\n");
	m.api_key_file = path;
	assert_false(key_load(&m, NULL, &key, err, sizeof err));
	assert_true(strstr(err, "visible ASCII") && !strstr(err, "key with"));
	unlink(path);
	free(path);

	struct kli_model none = { .retries = -1 };
	assert_true(key_load(&none, NULL, &key, err, sizeof err));
	assert_null(key);
	struct kli_model both = { .api_key_file = (char *)"/k", .api_key_env = (char *)"K" };
	assert_false(key_load(&both, NULL, &key, err, sizeof err));
}

extern char **environ;

static void test_key_env(void **state)
{
	(void)state;
	setenv("KLI_UNIT_KEY", "sk-from-env", 1);
	setenv("KLI_UNIT_COPY", "prefix-sk-from-env", 1);
	char *raw = getenv("KLI_UNIT_KEY");
	struct kli_model m = { .api_key_env = (char *)"KLI_UNIT_KEY", .retries = -1 };
	char *key, err[300];
	assert_true(key_load(&m, NULL, &key, err, sizeof err));
	assert_string_equal(key, "sk-from-env");
	assert_null(getenv("KLI_UNIT_KEY"));
	/* The bytes the environment held are wiped, not just unlinked. */
	assert_int_equal(raw[0], '\0');
	key_scrub_environ(key);
	assert_null(getenv("KLI_UNIT_COPY"));
	for (char **e = environ; *e; e++)
		assert_null(strstr(*e, "sk-from-env"));
	key_free(key);
	assert_false(key_load(&m, NULL, &key, err, sizeof err));
	assert_string_equal(err, "api-key-env: the variable KLI_UNIT_KEY is not set or empty");
	/* a short placeholder key: only a variable that is exactly it goes */
	setenv("KLI_UNIT_PATHLIKE", "/usr/bin:/bin", 1);
	setenv("KLI_UNIT_SHORT", "bin", 1);
	key_scrub_environ("bin");
	assert_non_null(getenv("KLI_UNIT_PATHLIKE"));
	assert_null(getenv("KLI_UNIT_SHORT"));
	assert_true(key_in_value("x-sk-from-env", "sk-from-env"));
	assert_false(key_in_value("/usr/bin", "bin"));
	assert_true(key_in_value("bin", "bin"));
	assert_false(key_in_value("anything", NULL));
	assert_true(key_valid("sk-1"));
	assert_false(key_valid(""));
	assert_false(key_valid("a\r\nX-Evil: 1"));
}


/* ------------------------------------------------------ reply shapes */

static void test_reply_shapes(void **state)
{
	(void)state;
	struct chat_reply r;
	char err[300];
	/* content as a list of parts: text joined, the others named */
	assert_true(parse("{\"choices\":[{\"message\":{\"content\":[{\"type\":\"text\","
			  "\"text\":\"one \"},{\"type\":\"image_url\",\"image_url\":{}},"
			  "{\"type\":\"text\",\"text\":\"two\"},{\"type\":\"audio\"}]}}]}", &r, err));
	assert_string_equal(r.content, "one two\n[kli: the reply also held parts kli does not "
				       "show: image_url, audio]");
	chat_reply_clear(&r);
	/* a numeric tool call id */
	assert_true(parse("{\"choices\":[{\"message\":{\"tool_calls\":[{\"id\":7,\"function\":"
			  "{\"name\":\"read\",\"arguments\":\"{}\"}}]}}]}", &r, err));
	assert_string_equal(r.calls[0].id, "7");
	chat_reply_clear(&r);
	/* the legacy function_call */
	assert_true(parse("{\"choices\":[{\"message\":{\"content\":null,\"function_call\":"
			  "{\"name\":\"read\",\"arguments\":\"{\\\"path\\\":\\\"a\\\"}\"}},"
			  "\"finish_reason\":\"function_call\"}]}", &r, err));
	assert_int_equal(r.ncalls, 1);
	assert_string_equal(r.calls[0].id, "call_1");
	assert_string_equal(r.calls[0].name, "read");
	assert_string_equal(r.calls[0].arguments, "{\"path\":\"a\"}");
	chat_reply_clear(&r);
	/* a BOM before the JSON */
	assert_true(parse("\xef\xbb\xbf{\"choices\":[{\"message\":{\"content\":\"bom\"}}]}", &r,
			  err));
	assert_string_equal(r.content, "bom");
	chat_reply_clear(&r);
	/* an escaped NUL: kept, visibly, and nothing after it lost */
	assert_true(parse("{\"choices\":[{\"message\":{\"content\":\"a\\u0000b\"}}]}", &r, err));
	assert_string_equal(r.content, "a\\0b");
	chat_reply_clear(&r);
	/* content_filter with no message at all */
	assert_true(parse("{\"choices\":[{\"finish_reason\":\"content_filter\"}]}", &r, err));
	assert_null(r.content);
	assert_string_equal(r.finish_reason, "content_filter");
	/* and it crosses the barrier's pipe */
	char *d = chat_reply_dump(&r);
	chat_reply_clear(&r);
	assert_true(parse(d, &r, err));
	assert_string_equal(r.finish_reason, "content_filter");
	chat_reply_clear(&r);
	free(d);
}

static void test_too_long(void **state)
{
	(void)state;
	assert_true(chat_too_long(413, NULL, 0));
	const char *b1 = "{\"error\":{\"code\":\"context_length_exceeded\",\"message\":\"x\"}}";
	assert_true(chat_too_long(400, b1, strlen(b1)));
	const char *b2 = "{\"error\":{\"message\":\"This model's maximum context length is 8192 tokens\"}}";
	assert_true(chat_too_long(400, b2, strlen(b2)));
	const char *b3 = "{\"detail\":\"Prompt is too long\"}";
	assert_true(chat_too_long(400, b3, strlen(b3)));
	const char *b4 = "{\"error\":{\"message\":\"bad tool schema\"}}";
	assert_false(chat_too_long(400, b4, strlen(b4)));
	assert_false(chat_too_long(500, b1, strlen(b1)));
}

/* ------------------------------------------------------- key masking */

static void mask_is(const char *key, const char *in, const char *want)
{
	char *b = strdup(in);
	key_mask(b, strlen(b), key);
	if (strcmp(b, want) != 0)
		fail_msg("key_mask(%s): got \"%s\", want \"%s\"", in, b, want);
	free(b);
}

static void test_key_mask(void **state)
{
	(void)state;
	const char *key = "sk-a\"b\\c/d";
	mask_is(key, "x sk-a\"b\\c/d y", "x ********** y");
	/* JSON-escaped, every way */
	mask_is(key, "\"sk-a\\\"b\\\\c\\/d\"", "\"*************\"");
	mask_is(key, "sk-a\\u0022b\\u005Cc\\u002fd", "*************************");
	mask_is(key, "\\u0073k-a\\\"b\\\\c/d!", "*****************!");
	/* URL-encoded */
	mask_is(key, "?k=sk-a%22b%5Cc%2Fd&", "?k=****************&");
	/* base64 of user:key, at each of the three offsets (the characters
	 * that depend on the key alone) */
	mask_is("kli-test-key-9f3c1a7e5b", "Basic dTprbGktdGVzdC1rZXktOWYzYzFhN2U1Yg==",
		"Basic dTp******************************g==");
	mask_is("kli-test-key-9f3c1a7e5b", "Basic dXM6a2xpLXRlc3Qta2V5LTlmM2MxYTdlNWI=",
		"Basic dXM6******************************I=");
	mask_is("kli-test-key-9f3c1a7e5b", "Basic dXNlcjprbGktdGVzdC1rZXktOWYzYzFhN2U1Yg==",
		"Basic dXNlcjp******************************g==");
	/* a short placeholder is not a secret: the reply is left whole */
	mask_is("x", "{\"index\":\"x\"}", "{\"index\":\"x\"}");
	/* what is not the key stays */
	mask_is(key, "sk-a\\\"b\\\\c\\/e", "sk-a\\\"b\\\\c\\/e");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_reply_content),
		cmocka_unit_test(test_reply_calls),
		cmocka_unit_test(test_reply_malformed),
		cmocka_unit_test(test_reply_shapes),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_key_mask),
		cmocka_unit_test(test_error_detail),
		cmocka_unit_test(test_endpoint),
		cmocka_unit_test(test_retry_policy),
		cmocka_unit_test(test_utf8_scrub),
		cmocka_unit_test(test_key_file),
		cmocka_unit_test(test_key_env),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
