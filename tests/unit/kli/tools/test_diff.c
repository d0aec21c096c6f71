/* SPDX-License-Identifier: MIT */
/* The unified diff an edit or a write shows (tools/diff.h): hunks and their
 * headers, counts, joined context, the line cap, and a diff that applies:
 * the kept and added lines of a whole-file diff give the new text. */
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

#include "tools/diff.h"
#include "agent/show.h"
#include "strbuf.h"
#include "util.h"

static char *d(const char *a, const char *b, size_t max, struct diff_count *n)
{
	return diff_unified("f", a, strlen(a), b, strlen(b), max, n);
}

static void test_equal(void **state)
{
	(void)state;
	struct diff_count n;
	char *s = d("a\nb\n", "a\nb\n", 100, &n);
	assert_string_equal(s, "");
	assert_int_equal(n.added + n.removed, 0);
	free(s);
}

static void test_one_change(void **state)
{
	(void)state;
	struct diff_count n;
	char *s = d("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nFIVE\n6\n7\n8\n9\n", 100, &n);
	assert_string_equal(s, "--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+FIVE\n 6\n 7\n 8\n");
	assert_int_equal(n.added, 1);
	assert_int_equal(n.removed, 1);
	free(s);
}

static void test_new_and_emptied(void **state)
{
	(void)state;
	struct diff_count n;
	char *s = d("", "x\ny\n", 100, &n);
	assert_string_equal(s, "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+x\n+y\n");
	assert_int_equal(n.added, 2);
	free(s);
	s = d("x\ny\n", "", 100, &n);
	assert_string_equal(s, "--- a/f\n+++ b/f\n@@ -1,2 +0,0 @@\n-x\n-y\n");
	assert_int_equal(n.removed, 2);
	free(s);
}

static void test_two_hunks_and_join(void **state)
{
	(void)state;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;
	for (int i = 1; i <= 30; i++) {
		sb_addf(&a, "%d\n", i);
		if (i == 3 || i == 25)
			sb_adds(&b, "X\n");
		else
			sb_addf(&b, "%d\n", i);
		if (i == 3 || i == 9)
			sb_adds(&c, "X\n");
		else
			sb_addf(&c, "%d\n", i);
	}
	struct diff_count n;
	char *s = d(a.s, b.s, 100, &n);
	/* far apart: two hunks */
	assert_non_null(strstr(s, "@@ -1,6 +1,6 @@"));
	assert_non_null(strstr(s, "@@ -22,7 +22,7 @@"));
	free(s);
	s = d(a.s, c.s, 100, &n);
	/* six lines apart: one hunk */
	assert_non_null(strstr(s, "@@ -1,12 +1,12 @@"));
	assert_null(strstr(s + 20, "@@ -"));
	free(s);
	sb_release(&a);
	sb_release(&b);
	sb_release(&c);
}

static void test_cap(void **state)
{
	(void)state;
	struct strbuf b = STRBUF_INIT;
	for (int i = 0; i < 50; i++)
		sb_addf(&b, "line %d\n", i);
	struct diff_count n;
	char *s = d("", b.s, 10, &n);
	assert_int_equal(n.added, 50);
	assert_non_null(strstr(s, "+line 9\n... 40 more diff lines\n"));
	assert_null(strstr(s, "line 10"));
	free(s);
	sb_release(&b);
}

/* The ' ' and '+' lines of a diff with all context (a whole-file hunk) are
 * the new text, the ' ' and '-' lines the old: over generated texts. */
static void test_applies(void **state)
{
	(void)state;
	srand(42);
	for (int round = 0; round < 300; round++) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		int na = rand() % 12, nb = rand() % 12;
		for (int i = 0; i < na; i++)
			sb_addf(&a, "%c\n", 'a' + rand() % 4);
		for (int i = 0; i < nb; i++)
			sb_addf(&b, "%c\n", 'a' + rand() % 4);
		struct diff_count n;
		char *s = d(a.s, b.s, 1000, &n);
		struct strbuf olds = STRBUF_INIT, news = STRBUF_INIT;
		/* rebuild both texts from the diff and the untouched lines around
		 * its hunks: with only 12 lines, the text outside the hunks is
		 * what equal prefix and suffix the hunks leave out */
		const char *p = s;
		long aline = 1;
		const char *ap = a.s;
		while ((p = strstr(p, "\n@@ -")) != NULL) {
			p++;
			long from = strtol(p + 4, NULL, 10), len = 0;
			const char *comma = strchr(p + 4, ',');
			len = strtol(comma + 1, NULL, 10);
			long first = len ? from : from + 1;
			for (; aline < first; aline++) {
				const char *e = strchr(ap, '\n');
				sb_add(&olds, ap, (size_t)(e - ap + 1));
				sb_add(&news, ap, (size_t)(e - ap + 1));
				ap = e + 1;
			}
			p = strchr(p, '\n') + 1;
			while (*p == ' ' || *p == '-' || *p == '+') {
				const char *e = strchr(p, '\n');
				if (*p != '+') {
					sb_add(&olds, p + 1, (size_t)(e - p));
					ap = strchr(ap, '\n') + 1;
					aline++;
				}
				if (*p != '-')
					sb_add(&news, p + 1, (size_t)(e - p));
				p = e + 1;
			}
			p--;
		}
		sb_adds(&olds, ap);
		sb_adds(&news, ap);
		assert_string_equal(olds.s, a.s);
		assert_string_equal(news.s, b.s);
		free(s);
		sb_release(&a);
		sb_release(&b);
		sb_release(&olds);
		sb_release(&news);
	}
}

/* What is shown: one line, neutralised; colours only when asked. */
static void test_show_render(void **state)
{
	(void)state;
	char *paths[] = { (char *)"/ws/src/a.c" };
	struct tool_call c = { .id = TOOL_EDIT, .paths = paths, .npaths = 1 };
	char *s = show_render(&c, "/ws", true, "replaced",
			      "(+1 \u22121)\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\x1b]0;t\a\n+b\n", false);
	assert_string_equal(s, "\u25b8 edit src/a.c (+1 \u22121)\n  --- a/x\n  +++ b/x\n"
			       "  @@ -1 +1 @@\n  -a^[]0;t^G\n  +b\n");
	free(s);
	s = show_render(&c, "/ws", true, "replaced", "(+1 \u22120)\n+b\n", true);
	assert_string_equal(s, "\u25b8 edit src/a.c (+1 \u22120)\n  \x1b[32m+b\x1b[0m\n");
	free(s);
	struct tool_call b = { .id = TOOL_BASH, .command = (char *)"make\ntest\x1b[2J" };
	s = show_render(&b, "/ws", false, "error: x", NULL, true);
	assert_string_equal(s, "\u25b8 bash: make?test?[2J \u2192 error: x\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_one_change),
		cmocka_unit_test(test_new_and_emptied),
		cmocka_unit_test(test_two_hunks_and_join),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_applies),
		cmocka_unit_test(test_show_render),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
