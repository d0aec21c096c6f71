/* SPDX-License-Identifier: MIT */
/* A unit test's output against a golden file under tests/unit/golden/DIR/,
 * shared by the builders' tests (test_explain, test_seatbelt). With
 * KJ_UPDATE_GOLDEN set, the file is written instead. Include after
 * <cmocka.h>. */
#ifndef KJ_TEST_GOLDEN_H
#define KJ_TEST_GOLDEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static inline char *golden_path(const char *dir, const char *name)
{
	const char *s = getenv("top_srcdir");
	return xasprintf("%s/tests/unit/golden/%s/%s", s && s[0] ? s : ".", dir, name);
}

static inline void golden_check(const char *dir, const char *name, const char *got)
{
	_cleanup_free_ char *path = golden_path(dir, name);
	if (getenv("KJ_UPDATE_GOLDEN")) {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(got, f);
		assert_int_equal(fclose(f), 0);
		return;
	}
	size_t len;
	_cleanup_free_ char *want = read_file_capped(path, 1 << 22, &len);
	if (!want) {
		print_error("cannot read %s (run with KJ_UPDATE_GOLDEN=1 to make it)\n", path);
		fail();
	}
	if (strcmp(want, got) == 0)
		return;
	/* The first line that differs, rather than two long strings. */
	const char *a = want, *b = got;
	int line = 1;
	while (*a && *a == *b) {
		if (*a == '\n')
			line++;
		a++;
		b++;
	}
	while (a > want && a[-1] != '\n')
		a--, b--;
	print_error("%s differs from the golden file at line %d:\n  want: %.*s\n  got:  %.*s\n", name,
		    line, (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
	fail();
}

#endif
