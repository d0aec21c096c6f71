/* SPDX-License-Identifier: MIT */
/* gitlex_scan: each header and key with its name and value as git reads
 * them (checked against git config --list), and the bytes of its lines. */
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

#include "git/lexer.h"
#include "strbuf.h"

/* "K name=value [start,end)" or "S name [start,end)", one a line */
static bool record(void *ctx, const struct gitlex_item *it)
{
	struct strbuf *out = ctx;
	if (it->kind == GITLEX_SECTION)
		sb_addf(out, "S %s [%zu,%zu)\n", it->name, it->start, it->end);
	else
		sb_addf(out, "K %s%s%s [%zu,%zu)%s%s\n", it->name, it->value ? "=" : "",
			it->value ? it->value : "", it->start, it->end,
			it->after_header ? " after-header" : "",
			it->mixed & GITLEX_MIXED_CR ? " cr" : "");
	return true;
}

static void expect(const char *text, const char *want)
{
	struct strbuf got = STRBUF_INIT;
	unsigned line;
	enum gitlex_result r = gitlex_scan(text, strlen(text), record, &got, &line);
	if (r != GITLEX_OK)
		fail_msg("%s: refused at line %u", text, line);
	if (strcmp(got.s, want) != 0)
		fail_msg("%s:\n--- got\n%s--- want\n%s", text, got.s, want);
	sb_release(&got);
}

static void refused(const char *text, unsigned want_line)
{
	struct strbuf got = STRBUF_INIT;
	unsigned line;
	enum gitlex_result r = gitlex_scan(text, strlen(text), record, &got, &line);
	if (r != GITLEX_REFUSED)
		fail_msg("%s: taken, want refused", text);
	assert_int_equal(line, want_line);
	sb_release(&got);
}

static void test_values(void **state)
{
	(void)state;
	expect("[Remote \"O\"]\n\tURL = https://ci:pa\"\"ss@h/r\n",
	       "S remote.O [0,12)\nK remote.O.url=https://ci:pass@h/r [13,42)\n");
	/* a continued line: one key, two lines */
	expect("[a]\n\tk = x\\\ny\n[b]\n", "S a [0,3)\nK a.k=xy [4,14)\nS b [14,17)\n");
	/* the escapes git knows, a comment after a value, blanks at the ends */
	expect("[a]\nk = \" q\\\"\\\\\\t\" ; c\n", "S a [0,3)\nK a.k= q\"\\\t [4,23)\n");
	/* a key on its header's line, a bare key, CR LF */
	expect("[a] k = v\r\nbare\r\n", "S a [0,3)\nK a.k=v [0,11) after-header\nK a.bare [11,17)\n");
	/* a CR alone inside an unquoted value: a blank to older gits */
	expect("[a]\nk = x\ry\n", "S a [0,3)\nK a.k=x y [4,12) cr\n");
	/* the old [section.sub] in lower case, a subsection's escape */
	expect("[A.B]\nk\n[s \"x\\\\y\\\"\"]\n", "S a.b [0,5)\nK a.b.k [6,8)\nS s.x\\y\" [8,20)\n");
	/* a BOM at the start: skipped */
	expect("\xef\xbb\xbf[a]\nk=v", "S a [0,6)\nK a.k=v [7,10)\n");
}

static void test_refused(void **state)
{
	(void)state;
	refused("[a]\nk = \"open\n", 2);
	refused("[a]\nk = a\\qb\n", 2);
	refused("[a]\n1k = v\n", 2);
	refused("[a\nk = v\n", 1);
	refused("\xef\xbb[a]\n", 1);
	refused("[a]\nk ; comment\n", 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_refused),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
