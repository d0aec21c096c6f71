/* SPDX-License-Identifier: MIT */
/* --backend landlock's degradation table (build/landlock-degraded.h): the
 * runtime line and doc/security-model.md's table are both made from it;
 * the document's rows are exactly what the table renders, and the line
 * lists a row only where it applies. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <stdlib.h>
#include <string.h>

#include "build/landlock-degraded.h"
#include "policy/policy.h"
#include "util.h"

#define BEGIN "<!-- BEGIN landlock-degraded -->\n"
#define END "<!-- END landlock-degraded -->"

static void test_doc_matches(void **state)
{
	(void)state;
	const char *s = getenv("top_srcdir");
	_cleanup_free_ char *path = xasprintf("%s/doc/security-model.md", s && s[0] ? s : ".");
	size_t len;
	_cleanup_free_ char *doc = read_file_capped(path, 1 << 22, &len);
	if (!doc) {
		print_error("cannot read %s\n", path);
		fail();
	}
	char *b = strstr(doc, BEGIN), *e = b ? strstr(b, END) : NULL;
	if (!b || !e) {
		print_error("%s: no " BEGIN " ... " END " block\n", path);
		fail();
	}
	b += strlen(BEGIN);
	*e = '\0';
	_cleanup_free_ char *want = ll_degraded_markdown();
	if (strcmp(want, b) != 0)
		print_error("doc/security-model.md's table is not the table's; it should read:\n%s", want);
	assert_string_equal(want, b);
}

static void test_line(void **state)
{
	(void)state;
	_cleanup_free_ char *new_kernel = ll_degraded_line(7);
	_cleanup_free_ char *old_kernel = ll_degraded_line(4);
	assert_true(str_has_prefix(new_kernel, "landlock backend: masked files refuse"));
	assert_null(strstr(new_kernel, "not scoped"));
	assert_non_null(strstr(old_kernel, "not scoped (Landlock ABI < 6)"));
	/* every applicable row, once, separated by "; " */
	size_t rows = 0, seps = 0;
	for (const struct ll_degraded *r = ll_degraded_table; r->id; r++) {
		if (!ll_degraded_applies(r, 7))
			continue;
		rows++;
		assert_non_null(strstr(new_kernel, r->line));
	}
	for (const char *p = new_kernel; (p = strstr(p, "; ")); p += 2)
		seps++;
	assert_true(rows > 0 && seps >= rows - 1);
	assert_null(strchr(new_kernel, '\n'));
}

static void test_fallback_parse(void **state)
{
	(void)state;
	enum backend b = BACKEND_BWRAP;
	assert_true(fallback_parse("landlock", &b));
	assert_int_equal(b, BACKEND_LANDLOCK);
	assert_true(fallback_parse("none", &b));
	assert_int_equal(b, BACKEND_AUTO);
	assert_false(fallback_parse("container", &b));
	assert_false(fallback_parse("", &b));
	assert_true(backend_parse("landlock", &b));
	assert_int_equal(b, BACKEND_LANDLOCK);
	assert_string_equal(backend_name(BACKEND_LANDLOCK), "landlock");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doc_matches),
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_fallback_parse),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
