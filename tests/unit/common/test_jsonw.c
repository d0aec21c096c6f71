/* SPDX-License-Identifier: MIT */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
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

/* jw_string(s) alone, as text the caller frees. */
static char *json_of(const char *s)
{
	struct buf b;
	open_buf(&b);
	jw_string(&b.w, s);
	close_buf(&b);
	return b.text;
}

static void expect_json(const char *in, const char *want)
{
	char *got = json_of(in);
	assert_string_equal(got, want);
	free(got);
}

/* How one ASCII byte goes out, written out the slow, obvious way. */
static void ref_ascii(char *out, size_t len, unsigned char c)
{
	switch (c) {
	case '"': snprintf(out, len, "\\\""); break;
	case '\\': snprintf(out, len, "\\\\"); break;
	case '\n': snprintf(out, len, "\\n"); break;
	case '\t': snprintf(out, len, "\\t"); break;
	case '\r': snprintf(out, len, "\\r"); break;
	case '\b': snprintf(out, len, "\\b"); break;
	case '\f': snprintf(out, len, "\\f"); break;
	default:
		if (c < 0x20)
			snprintf(out, len, "\\u%04x", c);
		else
			snprintf(out, len, "%c", c);
	}
}

static void test_every_ascii_byte(void **state)
{
	(void)state;
	for (int c = 1; c < 0x80; c++) {
		char esc[8], in[] = { 'a', (char)c, 'b', '\0' }, want[16];
		ref_ascii(esc, sizeof esc, (unsigned char)c);
		snprintf(want, sizeof want, "\"a%sb\"", esc);
		expect_json(in, want);
		char alone[] = { (char)c, '\0' };
		snprintf(want, sizeof want, "\"%s\"", esc);
		expect_json(alone, want);
	}
	expect_json("\x7f", "\"\x7f\"");
	expect_json("\x1f\x1e", "\"\\u001f\\u001e\"");
	expect_json("\"\"", "\"\\\"\\\"\"");
}

/* Every byte 0x80-0xff alone is invalid UTF-8: one U+FFFD each. */
static void test_every_high_byte_alone(void **state)
{
	(void)state;
	for (int c = 0x80; c < 0x100; c++) {
		char in[] = { 'x', (char)c, (char)c, '\0' };
		expect_json(in, "\"x\\ufffd\\ufffd\"");
	}
}

static void test_utf8_edges_exact(void **state)
{
	(void)state;
	/* valid: the bounds of each length, copied as they are */
	expect_json("\xc2\x80\xdf\xbf", "\"\xc2\x80\xdf\xbf\"");
	expect_json("\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf",
		    "\"\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf\"");
	expect_json("\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", "\"\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\"");
	expect_json("caf\xc3\xa9\n", "\"caf\xc3\xa9\\n\"");
	/* invalid: every byte of the broken sequence becomes U+FFFD */
	expect_json("a\x80z", "\"a\\ufffdz\"");
	expect_json("a\xc3", "\"a\\ufffd\"");
	expect_json("\xc3z", "\"\\ufffdz\"");
	expect_json("a\xc0\xafz", "\"a\\ufffd\\ufffdz\"");
	expect_json("\xe0\x9f\xbf", "\"\\ufffd\\ufffd\\ufffd\"");
	expect_json("a\xed\xa0\x80z", "\"a\\ufffd\\ufffd\\ufffdz\"");
	expect_json("\xe2\x82", "\"\\ufffd\\ufffd\"");
	expect_json("\xe2\x82\n", "\"\\ufffd\\ufffd\\n\"");
	expect_json("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	expect_json("\xf8\x88\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"");
	expect_json("\xf0\x9f\x94", "\"\\ufffd\\ufffd\\ufffd\"");
	expect_json("\xf0\x9f\x94\x92\xff", "\"\xf0\x9f\x94\x92\\ufffd\"");
}

/* An escape at every position of strings of 1 to 12 bytes: runs of every
 * length, ending anywhere. */
static void test_escape_at_every_position(void **state)
{
	(void)state;
	char in[16], want[64];
	for (size_t len = 1; len <= 12; len++) {
		memset(in, 'x', len);
		in[len] = '\0';
		snprintf(want, sizeof want, "\"%s\"", in);
		expect_json(in, want);
		for (size_t i = 0; i < len; i++) {
			in[i] = '\t';
			snprintf(want, sizeof want, "\"%.*s\\t%s\"", (int)i, in, in + i + 1);
			expect_json(in, want);
			in[i] = 'x';
		}
	}
}

/* Strings far larger than the first buffer, and many small ones after
 * them: the buffer grows mid-string and mid-document. */
static void test_long_strings_grow_the_buffer(void **state)
{
	(void)state;
	static const char unit_in[] = "ab\"c\\\x01\xc3\xa9\n\xff" "d/e";
	static const char unit_out[] = "ab\\\"c\\\\\\u0001\xc3\xa9\\n\\ufffd" "d/e";
	enum { REPS = 3000 };
	size_t unit_len = strlen(unit_in);
	char *in = malloc(REPS * unit_len + 1);
	assert_non_null(in);
	for (int i = 0; i < REPS; i++)
		memcpy(in + i * unit_len, unit_in, unit_len);
	in[REPS * unit_len] = '\0';

	char *want = NULL;
	size_t want_len = 0;
	FILE *f = open_memstream(&want, &want_len);
	assert_non_null(f);
	fputc('[', f);
	for (int k = 0; k < 3; k++) {
		fputs(k ? ",\"" : "\"", f);
		for (int i = 0; i < REPS; i++)
			fputs(unit_out, f);
		fputc('"', f);
	}
	for (int k = 0; k < 2000; k++)
		fputs(",{\"k\":\"v\\n\"}", f);
	fputc(']', f);
	fclose(f);

	struct buf b;
	open_buf(&b);
	jw_begin_array(&b.w);
	for (int k = 0; k < 3; k++)
		jw_string(&b.w, in);
	for (int k = 0; k < 2000; k++) {
		jw_begin_object(&b.w);
		jw_kstring(&b.w, "k", "v\n");
		jw_end_object(&b.w);
	}
	jw_end_array(&b.w);
	close_buf(&b);
	assert_int_equal(b.len, want_len);
	assert_string_equal(b.text, want);
	free(b.text);
	free(want);
	free(in);
}

/* Strings that end right at, before and past the end of the first buffer
 * (under ASan or valgrind, a byte written past it shows). */
static void test_string_at_buffer_boundary(void **state)
{
	(void)state;
	char in[4200], want[4210];
	for (size_t n = 4088; n <= 4100; n++) {
		memset(in, 'x', n);
		in[n] = '\0';
		snprintf(want, sizeof want, "\"%s\"", in);
		expect_json(in, want);
		in[n - 1] = '\n';
		snprintf(want, sizeof want, "\"%.*s\\n\"", (int)n - 1, in);
		expect_json(in, want);
	}
}

/* jw_take hands over what was built, with the ending asked for, whatever
 * the size (past the first buffer too), and leaves the writer empty. */
static void test_take(void **state)
{
	(void)state;
	for (size_t n = 0; n < 40000; n = n * 3 + 1) {
		char *big = malloc(n + 1);
		assert_non_null(big);
		memset(big, 'x', n);
		big[n] = '\0';
		struct jsonw w;
		jw_init(&w, NULL);
		jw_begin_object(&w);
		jw_kstring(&w, "k", big);
		jw_end_object(&w);
		char *got = jw_take(&w, "\n");
		assert_int_equal(w.sb.alloc, 0);
		assert_int_equal(w.sb.len, 0);
		assert_int_equal(strlen(got), n + 9); /* {"k":"..."} and the newline */
		assert_int_equal(strncmp(got, "{\"k\":\"", 6), 0);
		assert_string_equal(got + 6 + n, "\"}\n");
		json_error_t err;
		json_t *v = json_loads(got, 0, &err);
		assert_non_null(v);
		assert_string_equal(json_string_value(json_object_get(v, "k")), big);
		json_decref(v);
		free(got);
		free(big);
	}
	struct jsonw w;
	jw_init(&w, NULL);
	char *empty = jw_take(&w, NULL); /* nothing built: an empty string */
	assert_string_equal(empty, "");
	free(empty);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nesting_and_commas),
		cmocka_unit_test(test_escaping_round_trips),
		cmocka_unit_test(test_invalid_utf8_stays_valid_json),
		cmocka_unit_test(test_every_ascii_byte),
		cmocka_unit_test(test_every_high_byte_alone),
		cmocka_unit_test(test_utf8_edges_exact),
		cmocka_unit_test(test_escape_at_every_position),
		cmocka_unit_test(test_long_strings_grow_the_buffer),
		cmocka_unit_test(test_string_at_buffer_boundary),
		cmocka_unit_test(test_take),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
