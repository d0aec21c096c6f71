/* SPDX-License-Identifier: MIT */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <stdbool.h>
#include <string.h>

#include "policy/credcache.h"

static bool parses(const char *text)
{
	struct credcache c = { 0 };
	bool ok = credcache_parse(text, strlen(text), &c);
	if (!ok)
		assert_int_equal(c.n, 0);
	credcache_free(&c);
	return ok;
}

static void test_grammar(void **state)
{
	(void)state;
	assert_true(parses("kjail-credscan 1\n"));
	assert_true(parses("kjail-credscan 1\n1 2 3 4 5 0 - -\n"));
	assert_true(parses("kjail-credscan 1\n1 2 3 4 5 7 api_key value looks like a token\n"));
	assert_true(parses("kjail-credscan 1\n1 2 3 4 5 2 - value holds a private key\n"));
	static const char *const bad[] = {
		"", "kjail-credscan 2\n", "kjail-credscan 1", "kjail-credscan 1\n1 2 3 4 5 0 - -",
		"kjail-credscan 1\n01 2 3 4 5 0 - -\n", "kjail-credscan 1\n-1 2 3 4 5 0 - -\n",
		"kjail-credscan 1\n1 2 3 1000000000 5 0 - -\n",
		"kjail-credscan 1\n1 2 3 4 5 0 token -\n", "kjail-credscan 1\n1 2 3 4 5 0 - why\n",
		"kjail-credscan 1\n1 2 3 4 5 3 token -\n", "kjail-credscan 1\n1 2 3 4 5 3 to`k why\n",
		"kjail-credscan 1\n1 2 3 4 5 3 token wh\ty\n",
		"kjail-credscan 1\n1  2 3 4 5 0 - -\n",
		"kjail-credscan 1\n99999999999999999999 2 3 4 5 0 - -\n",
		/* one entry an identity */
		"kjail-credscan 1\n1 2 3 4 5 0 - -\n1 2 9 9 9 0 - -\n",
		"kjail-credscan 1\n1 2 3 4 5 0 - -\nx\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		if (parses(bad[i]))
			fail_msg("accepted: '%s'", bad[i]);
}

static void test_round_trip(void **state)
{
	(void)state;
	struct credcache c = { 0 };
	struct credcache_entry e = { .dev = 9, .ino = 7, .ctime_s = 100, .ctime_ns = 5, .size = 42,
				     .line = 3 };
	strcpy(e.key, "to ken`");
	strcpy(e.why, "value\nlooks");
	assert_true(credcache_add(&c, &e));
	e.ino = 3;
	e.line = 0;
	assert_true(credcache_add(&c, &e));
	assert_true(credcache_add(&c, &e)); /* a second name of one file */
	credcache_settle(&c);
	assert_int_equal(c.n, 2);
	struct strbuf out = STRBUF_INIT;
	credcache_format(&c, &out);
	assert_string_equal(out.s, "kjail-credscan 1\n9 3 100 5 42 0 - -\n"
				   "9 7 100 5 42 3 to?ken? value?looks\n");
	struct credcache d = { 0 };
	assert_true(credcache_parse(out.s, out.len, &d));
	const struct credcache_entry *f = credcache_find(&d, 9, 7, 100, 5, 42);
	assert_non_null(f);
	assert_int_equal(f->line, 3);
	assert_string_equal(f->key, "to?ken?");
	/* any other identity: not known */
	assert_null(credcache_find(&d, 9, 7, 100, 6, 42));
	assert_null(credcache_find(&d, 9, 7, 100, 5, 43));
	assert_null(credcache_find(&d, 8, 7, 100, 5, 42));
	sb_release(&out);
	credcache_free(&c);
	credcache_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grammar),
		cmocka_unit_test(test_round_trip),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
