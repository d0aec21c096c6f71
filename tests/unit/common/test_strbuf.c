/* SPDX-License-Identifier: MIT */
/* Unit tests for the growable, always NUL-terminated string (src/common/strbuf). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "unit-skip.h"

#include "strbuf.h"

/* The invariant every caller relies on: s[len] is the NUL, inside what
 * was allocated. */
static void assert_terminated(const struct strbuf *sb)
{
	assert_non_null(sb->s);
	assert_int_equal(sb->s[sb->len], '\0');
	if (sb->alloc)
		assert_true(sb->len < sb->alloc);
	else
		assert_int_equal(sb->len, 0);
}

static void test_empty(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	assert_string_equal(sb.s, "");
	assert_terminated(&sb);
	assert_int_equal(sb.alloc, 0);
	sb_release(&sb);
	assert_terminated(&sb);
	sb_init(&sb, 100);
	assert_true(sb.alloc > 100);
	assert_string_equal(sb.s, "");
	assert_int_equal(sb_avail(&sb), sb.alloc - 1);
	sb_release(&sb);
	assert_int_equal(sb.alloc, 0);
}

static void test_appends(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	assert_true(sb_adds(&sb, "ab"));
	assert_true(sb_addc(&sb, 'c'));
	assert_true(sb_add(&sb, "d\0e", 3)); /* bytes, a NUL among them */
	assert_true(sb_add(&sb, NULL, 0));
	assert_int_equal(sb.len, 6);
	assert_memory_equal(sb.s, "abcd\0e", 7);
	assert_terminated(&sb);
	/* past every reallocation, byte for byte */
	sb_reset(&sb);
	assert_string_equal(sb.s, "");
	size_t kept = sb.alloc;
	assert_true(kept > 0);
	for (int i = 0; i < 100000; i++) {
		assert_true(sb_addc(&sb, (char)('a' + i % 26)));
		if (i % 997 == 0)
			assert_terminated(&sb);
	}
	assert_int_equal(sb.len, 100000);
	for (size_t i = 0; i < sb.len; i++)
		if (sb.s[i] != (char)('a' + i % 26))
			fail_msg("byte %zu is %c", i, sb.s[i]);
	assert_terminated(&sb);
	sb_setlen(&sb, 3);
	assert_string_equal(sb.s, "abc");
	sb_release(&sb);
}

/* A strbuf in a zeroed struct takes adds as well. */
static void test_zeroed(void **state)
{
	(void)state;
	struct strbuf sb;
	memset(&sb, 0, sizeof sb);
	assert_true(sb_add(&sb, "", 0));
	assert_true(sb_addf(&sb, "%s", ""));
	assert_true(sb_adds(&sb, "x"));
	assert_string_equal(sb.s, "x");
	sb_release(&sb);
	memset(&sb, 0, sizeof sb);
	assert_true(sb_addf(&sb, "%d", 7));
	assert_string_equal(sb.s, "7");
	sb_release(&sb);
}

static void test_format(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	assert_true(sb_addf(&sb, "%s=%zu", "n", (size_t)42));
	assert_true(sb_addf(&sb, "%s", ""));
	assert_string_equal(sb.s, "n=42");
	/* longer than the room there is: measured, grown, formatted again */
	char big[5000];
	memset(big, 'y', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	assert_true(sb_addf(&sb, "[%s]", big));
	assert_int_equal(sb.len, 4 + 2 + sizeof big - 1);
	assert_int_equal(sb.s[4], '[');
	assert_int_equal(sb.s[sb.len - 1], ']');
	assert_int_equal(strlen(sb.s), sb.len);
	/* fits in place */
	sb_reset(&sb);
	assert_true(sb_addf(&sb, "%05d|%-3s|%c", 12, "a", 'z'));
	assert_string_equal(sb.s, "00012|a  |z");
	assert_terminated(&sb);
	sb_release(&sb);
}

static void test_detach(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "hello");
	char *s = sb_detach(&sb);
	assert_string_equal(s, "hello");
	free(s);
	assert_int_equal(sb.len, 0);
	assert_int_equal(sb.alloc, 0);
	assert_string_equal(sb.s, "");
	/* an empty buffer hands over an allocated "" */
	s = sb_detach(&sb);
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
	/* and goes on after it */
	sb_addf(&sb, "%d", 1);
	s = sb_detach(&sb);
	assert_string_equal(s, "1");
	free(s);
	assert_terminated(&sb);
}

/* What a child's sb_grow says, and its exit status. */
static int die_of_grow(size_t len, size_t extra, char *msg, size_t msglen)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t kid = fork();
	assert_true(kid >= 0);
	if (kid == 0) {
		dup2(p[1], 2);
		/* only the arithmetic is reached: no memory behind len */
		struct strbuf sb = STRBUF_INIT;
		sb.len = len;
		sb_grow(&sb, extra);
		_exit(0);
	}
	close(p[1]);
	read_text(p[0], msg, msglen);
	close(p[0]);
	int status;
	assert_int_equal(waitpid(kid, &status, 0), kid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* len + extra + 1 past SIZE_MAX dies, as out of memory does, rather than
 * wrapping to a small allocation written past its end. */
static void test_size_overflow(void **state)
{
	(void)state;
	char msg[256];
	assert_int_equal(die_of_grow(0, SIZE_MAX, msg, sizeof msg), 1);
	assert_non_null(strstr(msg, "out of memory"));
	assert_int_equal(die_of_grow(SIZE_MAX - 10, 10, msg, sizeof msg), 1);
	assert_non_null(strstr(msg, "out of memory"));
	assert_int_equal(die_of_grow(SIZE_MAX / 2 + 1, SIZE_MAX / 2, msg, sizeof msg), 1);
	/* what an add may bring without a limit: what the arithmetic allows */
	assert_int_equal(sb_room(&(struct strbuf)STRBUF_INIT), SIZE_MAX - 1);
}

/* The limit: an add that would pass it adds nothing and says so. */
static void test_limit(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT_MAX(8);
	assert_true(sb_adds(&sb, "abcd"));
	assert_int_equal(sb_room(&sb), 4);
	assert_false(sb_adds(&sb, "efghi"));
	assert_string_equal(sb.s, "abcd");
	assert_false(sb_addf(&sb, "%s", "efghi"));
	assert_string_equal(sb.s, "abcd");
	assert_true(sb_addf(&sb, "%s", "ef"));
	assert_true(sb_add(&sb, "gh", 2)); /* exactly up to it */
	assert_string_equal(sb.s, "abcdefgh");
	assert_int_equal(sb_room(&sb), 0);
	assert_false(sb_addc(&sb, 'i'));
	assert_false(sb_add(&sb, "i", 1));
	assert_true(sb_add(&sb, "", 0));
	assert_string_equal(sb.s, "abcdefgh");
	/* no memory past what the limit lets in */
	assert_true(sb.alloc <= 9);
	assert_terminated(&sb);
	/* the limit outlives a detach and a release */
	free(sb_detach(&sb));
	assert_int_equal(sb.max, 8);
	assert_false(sb_adds(&sb, "123456789"));
	sb_release(&sb);
	assert_int_equal(sb.max, 8);
	/* the part that fits, for a caller that keeps a prefix */
	sb_adds(&sb, "12345");
	const char *more = "6789";
	size_t keep = strlen(more) < sb_room(&sb) ? strlen(more) : sb_room(&sb);
	assert_true(sb_add(&sb, more, keep));
	assert_string_equal(sb.s, "12345678");
	sb_release(&sb);
}

/* A refused sb_addf that was formatted in place leaves the string as it
 * was, NUL where it was. */
static void test_limit_after_format_in_place(void **state)
{
	(void)state;
	struct strbuf sb;
	sb_init(&sb, 100);
	sb.max = 5;
	sb_adds(&sb, "ab");
	assert_false(sb_addf(&sb, "%s", "cdefgh"));
	assert_int_equal(sb.len, 2);
	assert_string_equal(sb.s, "ab");
	assert_true(sb_addf(&sb, "%c%c%c", 'c', 'd', 'e'));
	assert_string_equal(sb.s, "abcde");
	sb_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_zeroed),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_detach),
		cmocka_unit_test(test_size_overflow),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_limit_after_format_in_place),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
