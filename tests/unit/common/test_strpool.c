/* SPDX-License-Identifier: MIT */
/* Unit tests for the string pool (src/common/strpool). */
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

#include "strpool.h"

static void test_same_string_one_copy(void **state)
{
	(void)state;
	struct strpool p = STRPOOL_INIT;
	char a[] = "masked", b[] = "masked";
	const char *x = strpool_intern(&p, a);
	const char *y = strpool_intern(&p, b);
	assert_ptr_equal(x, y);
	assert_ptr_not_equal(x, a); /* a copy, not the caller's buffer */
	assert_string_equal(x, "masked");
	assert_int_equal(p.n, 1);
	strpool_free(&p);
}

static void test_copy_outlives_the_source(void **state)
{
	(void)state;
	struct strpool p = STRPOOL_INIT;
	char buf[32];
	snprintf(buf, sizeof buf, "%s", "--deny-read");
	const char *x = strpool_intern(&p, buf);
	memset(buf, 'X', sizeof buf - 1);
	assert_string_equal(x, "--deny-read");
	strpool_free(&p);
}

static void test_distinct_strings_and_empty(void **state)
{
	(void)state;
	struct strpool p = STRPOOL_INIT;
	const char *e = strpool_intern(&p, "");
	const char *a = strpool_intern(&p, "a");
	const char *ab = strpool_intern(&p, "ab");
	assert_string_equal(e, "");
	assert_ptr_not_equal(a, ab);
	assert_ptr_equal(strpool_intern(&p, ""), e);
	assert_int_equal(p.n, 3);
	strpool_free(&p);
	assert_null(p.slot);
	assert_int_equal(p.n, 0);
}

/* Enough strings to grow the table several times: every pointer handed out
 * stays valid and unique per content across the rehashes. */
static void test_growth_keeps_identity(void **state)
{
	(void)state;
	enum { N = 5000 };
	struct strpool p = STRPOOL_INIT;
	const char **got = calloc(N, sizeof *got);
	assert_non_null(got);
	char buf[32];
	for (int i = 0; i < N; i++) {
		snprintf(buf, sizeof buf, "origin %d", i);
		got[i] = strpool_intern(&p, buf);
	}
	assert_int_equal(p.n, N);
	assert_true(p.cap >= 2 * p.n);
	for (int i = N - 1; i >= 0; i--) {
		snprintf(buf, sizeof buf, "origin %d", i);
		assert_ptr_equal(strpool_intern(&p, buf), got[i]);
		assert_string_equal(got[i], buf);
	}
	assert_int_equal(p.n, N);
	free(got);
	strpool_free(&p);
}

static void test_free_of_empty_pool(void **state)
{
	(void)state;
	struct strpool p = STRPOOL_INIT;
	strpool_free(&p);
	strpool_free(&p);
	assert_int_equal(p.cap, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_string_one_copy),
		cmocka_unit_test(test_copy_outlives_the_source),
		cmocka_unit_test(test_distinct_strings_and_empty),
		cmocka_unit_test(test_growth_keeps_identity),
		cmocka_unit_test(test_free_of_empty_pool),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
