/* SPDX-License-Identifier: MIT */
/* Unit tests for the growable, always NULL-terminated argv (src/common/strv). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "unit-skip.h"

#include "strv.h"

/* The invariant every caller relies on: v[n] is NULL whenever v exists. */
static void assert_terminated(const struct strv *s)
{
	assert_non_null(s->v);
	assert_null(s->v[s->n]);
	assert_true(s->n < s->cap);
}

static void test_empty_argv_is_one_null(void **state)
{
	struct strv s = STRV_INIT;
	char *const *argv = strv_argv(&s);
	assert_non_null(argv);
	assert_null(argv[0]);
	assert_int_equal(s.n, 0);
	assert_terminated(&s);
	strv_free(&s);
}

static void test_free_of_never_used_strv(void **state)
{
	struct strv s = STRV_INIT;
	strv_free(&s);
	assert_null(s.v);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.cap, 0);
}

static void test_push_copies(void **state)
{
	struct strv s = STRV_INIT;
	char buf[] = "bwrap";
	strv_push(&s, buf);
	buf[0] = 'X';
	assert_int_equal(s.n, 1);
	assert_string_equal(s.v[0], "bwrap");
	assert_true(s.v[0] != buf);
	assert_terminated(&s);
	strv_free(&s);
}

static void test_push_empty_string(void **state)
{
	struct strv s = STRV_INIT;
	strv_push(&s, "");
	assert_int_equal(s.n, 1);
	assert_string_equal(s.v[0], "");
	assert_terminated(&s);
	strv_free(&s);
}

static void test_take_owns(void **state)
{
	struct strv s = STRV_INIT;
	char *p = strdup("owned");
	assert_non_null(p);
	strv_take(&s, p);
	assert_ptr_equal(s.v[0], p); /* not copied; strv_free releases it */
	assert_terminated(&s);
	strv_free(&s);
}

static void test_pushf(void **state)
{
	struct strv s = STRV_INIT;
	strv_pushf(&s, "%d", 3);
	strv_pushf(&s, "--%s=%s", "chdir", "/srv/work dir");
	strv_pushf(&s, "%s", "");
	assert_int_equal(s.n, 3);
	assert_string_equal(s.v[0], "3");
	assert_string_equal(s.v[1], "--chdir=/srv/work dir");
	assert_string_equal(s.v[2], "");
	assert_terminated(&s);
	strv_free(&s);
}

static void test_pushn(void **state)
{
	struct strv s = STRV_INIT;
	strv_pushn(&s, "--ro-bind", "/");
	strv_pushn(&s, "/", "x");
	assert_int_equal(s.n, 4);
	assert_string_equal(s.v[0], "--ro-bind");
	assert_string_equal(s.v[1], "/");
	assert_string_equal(s.v[2], "/");
	assert_string_equal(s.v[3], "x");
	assert_terminated(&s);
	strv_free(&s);
}

static void test_pushv(void **state)
{
	struct strv s = STRV_INIT;
	const char *const cmd[] = { "sh", "-c", "echo hi", NULL };
	const char *const none[] = { NULL };
	strv_push(&s, "--");
	strv_pushv(&s, cmd);
	strv_pushv(&s, none);
	strv_pushv(&s, NULL);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.v[0], "--");
	assert_string_equal(s.v[1], "sh");
	assert_string_equal(s.v[2], "-c");
	assert_string_equal(s.v[3], "echo hi");
	assert_true(s.v[1] != cmd[0]); /* copies */
	assert_terminated(&s);
	strv_free(&s);
}

static void test_pushv_empty_into_empty_still_terminated(void **state)
{
	struct strv s = STRV_INIT;
	strv_pushv(&s, NULL);
	char *const *argv = strv_argv(&s);
	assert_null(argv[0]);
	strv_free(&s);
}

static void test_growth_keeps_order_and_terminator(void **state)
{
	struct strv s = STRV_INIT;
	for (int i = 0; i < 1000; i++) {
		strv_pushf(&s, "arg%d", i);
		assert_int_equal(s.n, (size_t)i + 1);
		assert_terminated(&s);
	}
	for (int i = 0; i < 1000; i++) {
		char want[16];
		snprintf(want, sizeof want, "arg%d", i);
		assert_string_equal(s.v[i], want);
	}
	char *const *argv = strv_argv(&s);
	assert_ptr_equal(argv, s.v);
	assert_null(argv[1000]);
	strv_free(&s);
}

static void test_argv_is_the_storage(void **state)
{
	struct strv s = STRV_INIT;
	strv_push(&s, "a");
	char *const *argv = strv_argv(&s);
	assert_ptr_equal(argv, s.v);
	assert_string_equal(argv[0], "a");
	assert_null(argv[1]);
	strv_free(&s);
}

static void test_find(void **state)
{
	struct strv s = STRV_INIT;
	assert_int_equal(strv_find(&s, "x"), -1);
	strv_push(&s, "--bind");
	strv_push(&s, "/a");
	strv_push(&s, "--bind");
	strv_push(&s, "");
	assert_int_equal(strv_find(&s, "--bind"), 0); /* the first one */
	assert_int_equal(strv_find(&s, "/a"), 1);
	assert_int_equal(strv_find(&s, ""), 3);
	assert_int_equal(strv_find(&s, "/"), -1);
	assert_int_equal(strv_find(&s, "--bin"), -1);
	assert_int_equal(strv_find(&s, "--bind2"), -1);
	strv_free(&s);
}

static void test_free_resets_and_allows_reuse(void **state)
{
	struct strv s = STRV_INIT;
	strv_push(&s, "one");
	strv_push(&s, "two");
	strv_free(&s);
	assert_null(s.v);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.cap, 0);
	strv_free(&s); /* twice is harmless */
	strv_push(&s, "three");
	assert_int_equal(s.n, 1);
	assert_string_equal(s.v[0], "three");
	assert_terminated(&s);
	strv_free(&s);
}

static void expect_quote(const char *in, const char *want)
{
	char *got = shell_quote(in);
	assert_string_equal(got, want);
	free(got);
}

static void test_shell_quote(void **state)
{
	expect_quote("bwrap", "bwrap");
	expect_quote("/usr/bin/bwrap", "/usr/bin/bwrap");
	expect_quote("--ro-bind", "--ro-bind");
	expect_quote("a=b,c:d@e%f+g.h_i", "a=b,c:d@e%f+g.h_i");
	expect_quote("", "''");
	expect_quote("a b", "'a b'");
	expect_quote("it's", "'it'\\''s'");
	expect_quote("'", "''\\'''");
	expect_quote("$HOME", "'$HOME'");
	expect_quote("~", "'~'");
	expect_quote("*", "'*'");
	expect_quote("a\nb", "'a\nb'");
}

static void test_shell_join(void **state)
{
	struct strv s = STRV_INIT;
	char *j = strv_shell_join(&s);
	assert_string_equal(j, "");
	free(j);
	strv_push(&s, "/usr/bin/bwrap");
	strv_push(&s, "--chdir");
	strv_push(&s, "/srv/my work");
	strv_push(&s, "");
	j = strv_shell_join(&s);
	assert_string_equal(j, "/usr/bin/bwrap --chdir '/srv/my work' ''");
	free(j);
	strv_free(&s);
}

/* The quoting of w, written out the slow, obvious way. */
static char *ref_quote(const char *w)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_-+=/.,:@%";
	bool plain = w[0] != '\0';
	for (const char *c = w; *c; c++)
		plain &= strchr(safe, *c) != NULL;
	char *out = malloc(4 * strlen(w) + 3), *o = out;
	assert_non_null(out);
	if (plain)
		return strcpy(out, w);
	*o++ = '\'';
	for (const char *c = w; *c; c++) {
		if (*c == '\'')
			o = stpcpy(o, "'\\''");
		else
			*o++ = *c;
	}
	strcpy(o, "'");
	return out;
}

static void expect_ref_quote(const char *w)
{
	char *want = ref_quote(w);
	expect_quote(w, want);
	free(want);
}

/* Every byte, alone and between safe ones: only the documented set goes
 * out bare. */
static void test_shell_quote_every_byte(void **state)
{
	for (int c = 1; c < 256; c++) {
		char one[] = { (char)c, '\0' };
		char mid[] = { 'a', (char)c, 'b', '\0' };
		expect_ref_quote(one);
		expect_ref_quote(mid);
	}
	expect_quote("\x80", "'\x80'");
	expect_quote("caf\xc3\xa9", "'caf\xc3\xa9'");
	expect_quote("\x7f", "'\x7f'");
}

/* An unsafe byte or a quote at every position of words of 1 to 12 bytes:
 * the scan must not stop early nor miss the last bytes. */
static void test_shell_quote_every_position(void **state)
{
	char w[16];
	for (size_t len = 1; len <= 12; len++) {
		memset(w, 'x', len);
		w[len] = '\0';
		expect_quote(w, w);
		for (size_t i = 0; i < len; i++) {
			w[i] = ' ';
			expect_ref_quote(w);
			w[i] = '\'';
			expect_ref_quote(w);
			w[i] = 'x';
		}
	}
	expect_quote("''", "''\\'''\\'''");
	expect_quote("a''b'", "'a'\\'''\\''b'\\'''");
	expect_quote("'a b'", "''\\''a b'\\'''");
}

/* The join is each word quoted, one space between, in one exact buffer. */
static void test_shell_join_matches_quote(void **state)
{
	static const char *const words[] = {
		"", "plain", "a b", "'", "it's", "x'y'z", "caf\xc3\xa9", "\x01", "\xff",
		"/var/tmp/f0", "--ro-bind-data", "12345678", "a'''''''''b", "",
		NULL,
	};
	struct strv s = STRV_INIT;
	char *want = NULL;
	size_t want_len = 0;
	FILE *f = open_memstream(&want, &want_len);
	assert_non_null(f);
	for (size_t r = 0; r < 500; r++) {
		for (const char *const *w = words; *w; w++) {
			char *q = shell_quote(*w);
			fprintf(f, "%s%s", s.n ? " " : "", q);
			free(q);
			strv_push(&s, *w);
		}
		if (r == 0 || r == 499) {
			assert_int_equal(fflush(f), 0);
			char *j = strv_shell_join(&s);
			assert_string_equal(j, want);
			free(j);
		}
	}
	fclose(f);
	free(want);
	strv_free(&s);

	strv_push(&s, "");
	char *j = strv_shell_join(&s);
	assert_string_equal(j, "''");
	free(j);
	strv_free(&s);
}

/* Runs cmd with popen (/bin/sh -c) and checks that it printed words, each
 * NUL-terminated (printf '%s\0' WORD...); line is the quoted line, for
 * the message. */
static void expect_read_back(const char *cmd, const char *const *words, const char *line)
{
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	char out[4096];
	size_t len = fread(out, 1, sizeof out, f);
	assert_int_equal(pclose(f), 0);
	size_t pos = 0;
	for (size_t i = 0; words[i]; i++) {
		assert_true(pos < len);
		if (strcmp(out + pos, words[i]) != 0)
			fail_msg("word %zu: sent \"%s\", the shell read \"%s\" from: %s",
				 i, words[i], out + pos, line);
		pos += strlen(words[i]) + 1;
	}
	assert_int_equal(pos, len);
}

/* kjail --print's line: one line whatever the words hold, a word with a
 * control byte as $'...'; bash reads it back as the same words. */
/* strv_print_argv: the argv as one strv_shell_line and a newline */
static void test_print_argv(void **state)
{
	(void)state;
	char buf[128] = { 0 };
	FILE *f = fmemopen(buf, sizeof buf - 1, "w");
	assert_non_null(f);
	char *argv[] = { "echo", "a b", "it's", NULL };
	strv_print_argv(f, argv);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "echo 'a b' 'it'\\''s'\n");
}

static void test_shell_line(void **state)
{
	static const char *const words[] = {
		"plain", "", "a b", "it's", "new\nline", "tab\there", "bs\\x", "q'\n",
		"\x01\x7f", "caf\xc3\xa9", "$HOME", NULL,
	};
	struct strv s = STRV_INIT;
	strv_pushv(&s, words);
	char *line = strv_shell_line(&s);
	assert_string_equal(line, "plain '' 'a b' 'it'\\''s' $'new\\nline' $'tab\\there' "
				  "'bs\\x' $'q\\'\\n' $'\\x01\\x7f' 'caf\xc3\xa9' '$HOME'");
	free(line);
	strv_free(&s);
	/* without a control byte, the same as the POSIX join */
	struct strv t = STRV_INIT;
	strv_pushv(&t, (const char *const[]){ "a b", "it's", "", "x", NULL });
	char *l1 = strv_shell_line(&t), *l2 = strv_shell_join(&t);
	assert_string_equal(l1, l2);
	free(l1);
	free(l2);
	strv_free(&t);
	/* read back by bash: the line, quoted once more for sh -c */
	struct strv c = STRV_INIT;
	strv_pushv(&c, (const char *const[]){ "printf", "%s\\0", NULL });
	strv_pushv(&c, words);
	char *cl = strv_shell_line(&c);
	assert_null(strchr(cl, '\n'));
	char *quoted = shell_quote(cl);
	char *cmd = malloc(strlen(quoted) + 16);
	assert_non_null(cmd);
	strcpy(stpcpy(cmd, "exec bash -c "), quoted);
	expect_read_back(cmd, words, cl);
	free(cmd);
	free(quoted);
	free(cl);
	strv_free(&c);
}

/* What --print shows must be read back by a real shell as the same words. */
static void test_shell_join_round_trip(void **state)
{
	static const char *const words[] = {
		"plain", "", "a b", "it's", "''", "'", "$HOME", "${X:-y}", "`id`",
		"$(id)", "a\"b", "back\\slash", "*", "?", "[a]", "~", "~/x", "-n", "--",
		"new\nline", "tab\there", "!x", "#x", "a;b", "a&b", "a|b", "<x>",
		"caf\xc3\xa9", "%s", "=", NULL,
	};
	struct strv s = STRV_INIT;
	strv_push(&s, "printf");
	strv_push(&s, "%s\\0");
	strv_pushv(&s, words);
	char *cmd = strv_shell_join(&s);
	expect_read_back(cmd, words, cmd);
	free(cmd);
	strv_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_argv_is_one_null),
		cmocka_unit_test(test_free_of_never_used_strv),
		cmocka_unit_test(test_push_copies),
		cmocka_unit_test(test_push_empty_string),
		cmocka_unit_test(test_take_owns),
		cmocka_unit_test(test_pushf),
		cmocka_unit_test(test_pushn),
		cmocka_unit_test(test_pushv),
		cmocka_unit_test(test_pushv_empty_into_empty_still_terminated),
		cmocka_unit_test(test_growth_keeps_order_and_terminator),
		cmocka_unit_test(test_argv_is_the_storage),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_free_resets_and_allows_reuse),
		cmocka_unit_test(test_shell_quote),
		cmocka_unit_test(test_shell_quote_every_byte),
		cmocka_unit_test(test_shell_quote_every_position),
		cmocka_unit_test(test_shell_join),
		cmocka_unit_test(test_shell_join_matches_quote),
		cmocka_unit_test(test_shell_join_round_trip),
		cmocka_unit_test(test_shell_line),
		cmocka_unit_test(test_print_argv),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
