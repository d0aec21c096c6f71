#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"

struct buf {
	char *text;
	size_t len;
	FILE *f;
	struct jsonw w;
};

static void open_buf(struct buf *b)
{
	b->f = open_memstream(&b->text, &b->len);
	assert_non_null(b->f);
	jw_init(&b->w, b->f);
}

static void close_buf(struct buf *b)
{
	assert_true(jw_flush(&b->w));
	assert_int_equal(fclose(b->f), 0);
}

static void test_nesting_and_commas(void **state)
{
	(void)state;
	struct buf b;
	open_buf(&b);
	jw_begin_object(&b.w);
	jw_kstring(&b.w, "a", "x");
	jw_kbool(&b.w, "b", true);
	jw_key(&b.w, "c");
	jw_begin_array(&b.w);
	jw_string(&b.w, "1");
	jw_begin_object(&b.w);
	jw_end_object(&b.w);
	jw_begin_array(&b.w);
	jw_end_array(&b.w);
	jw_bool(&b.w, false);
	jw_string(&b.w, NULL);
	jw_end_array(&b.w);
	jw_key(&b.w, "d");
	jw_begin_object(&b.w);
	jw_kstring(&b.w, "e", NULL);
	jw_end_object(&b.w);
	jw_end_object(&b.w);
	close_buf(&b);
	assert_string_equal(b.text,
			    "{\"a\":\"x\",\"b\":true,\"c\":[\"1\",{},[],false,null],\"d\":{\"e\":null}}");
	free(b.text);
}

static void test_escaping_round_trips(void **state)
{
	(void)state;
	static const char *const words[] = {
		"plain", "quote\" backslash\\ slash/", "nl\n tab\t cr\r bs\b ff\f",
		"\x01\x1f ctl", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x92", "",
		"\")(allow default)(", NULL,
	};
	for (const char *const *w = words; *w; w++) {
		struct buf b;
		open_buf(&b);
		jw_string(&b.w, *w);
		close_buf(&b);
		json_error_t err;
		json_t *j = json_loads(b.text, JSON_DECODE_ANY, &err);
		assert_non_null(j);
		assert_string_equal(json_string_value(j), *w);
		json_decref(j);
		free(b.text);
	}
}

static void test_invalid_utf8_stays_valid_json(void **state)
{
	(void)state;
	/* a lone continuation byte, a truncated sequence, an overlong '/',
	 * a surrogate, and 0xff: each becomes U+FFFD */
	static const char *const bad[] = {
		"a\x80z", "a\xc3", "a\xc0\xafz", "a\xed\xa0\x80z", "a\xffz", NULL,
	};
	for (const char *const *w = bad; *w; w++) {
		struct buf b;
		open_buf(&b);
		jw_string(&b.w, *w);
		close_buf(&b);
		assert_non_null(strstr(b.text, "\\ufffd"));
		json_t *j = json_loads(b.text, JSON_DECODE_ANY, NULL);
		assert_non_null(j);
		json_decref(j);
		free(b.text);
	}
	struct buf b;
	open_buf(&b);
	jw_string(&b.w, "\x01");
	close_buf(&b);
	assert_string_equal(b.text, "\"\\u0001\"");
	free(b.text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nesting_and_commas),
		cmocka_unit_test(test_escaping_round_trips),
		cmocka_unit_test(test_invalid_utf8_stays_valid_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
