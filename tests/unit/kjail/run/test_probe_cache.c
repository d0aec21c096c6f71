/* SPDX-License-Identifier: MIT */
/* The bwrap probe's cache text (run/probe-cache.h): written and read back
 * exactly; every other text, however close, is no answer. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <stdlib.h>
#include <string.h>

#include "run/probe-cache.h"
#include "util.h"

#define KEY "boot=b1 bwrap=/usr/bin/bwrap:fe00:1:2:3.0:4.0 mnt=1 user=2 uid=0"

static bool parse(const char *text, const char *key, struct bwrap_probe *r)
{
	memset(r, 0x55, sizeof *r);
	return probe_cache_parse(text, strlen(text), key, r);
}

static void test_round_trip(void **state)
{
	(void)state;
	struct bwrap_probe w = { .state = BWRAP_PROBE_WORKS }, r;
	_cleanup_free_ char *t = probe_cache_text(KEY, &w);
	assert_string_equal(t, "kjail-bwrap-probe 1\nkey " KEY "\ndisable-userns works\n");
	assert_true(parse(t, KEY, &r));
	assert_int_equal(r.state, BWRAP_PROBE_WORKS);
	assert_true(r.cached);

	struct bwrap_probe f = { .state = BWRAP_PROBE_NO_DISABLE };
	strcpy(f.why, "cannot open /proc/sys/user/max_user_namespaces: Read-only file system");
	_cleanup_free_ char *u = probe_cache_text(KEY, &f);
	assert_true(parse(u, KEY, &r));
	assert_int_equal(r.state, BWRAP_PROBE_NO_DISABLE);
	assert_string_equal(r.why, f.why);
	assert_true(r.cached);
}

/* only the two answers are kept, and only with a one-line key and reason */
static void test_not_kept(void **state)
{
	(void)state;
	struct bwrap_probe r = { .state = BWRAP_PROBE_BWRAP_FAILS };
	strcpy(r.why, "no user namespaces");
	assert_null(probe_cache_text(KEY, &r));
	r.state = BWRAP_PROBE_UNKNOWN;
	assert_null(probe_cache_text(KEY, &r));
	r.state = BWRAP_PROBE_WORKS;
	assert_null(probe_cache_text("two\nlines", &r));
	assert_null(probe_cache_text("", &r));
	r.state = BWRAP_PROBE_NO_DISABLE;
	strcpy(r.why, "a\tb");
	assert_null(probe_cache_text(KEY, &r));
	r.why[0] = '\0';
	assert_null(probe_cache_text(KEY, &r));
}

static void test_refused(void **state)
{
	(void)state;
	struct bwrap_probe r;
	static const char *const bad[] = {
		"",
		"kjail-bwrap-probe 1\nkey " KEY "\n",
		"kjail-bwrap-probe 2\nkey " KEY "\ndisable-userns works\n",
		"kjail-bwrap-probe 1\nkey " KEY "x\ndisable-userns works\n",
		"kjail-bwrap-probe 1\nkey " KEY "\ndisable-userns works",
		"kjail-bwrap-probe 1\nkey " KEY "\ndisable-userns works\n\n",
		"kjail-bwrap-probe 1\nkey " KEY "\ndisable-userns works\nmore\n",
		"kjail-bwrap-probe 1\nkey " KEY "\ndisable-userns fails \n",
		"kjail-bwrap-probe 1\nkey " KEY "\ndisable-userns fails x",
		"kjail-bwrap-probe 1\nkey " KEY "\ndisable-userns fails a\nb\n",
		"kjail-bwrap-probe 1\nkey " KEY "\ndisable-userns fails a\rb\n",
		"kjail-bwrap-probe 1\nkey " KEY "\ndisable-userns maybe\n",
		" kjail-bwrap-probe 1\nkey " KEY "\ndisable-userns works\n",
		"kjail-bwrap-probe 1\r\nkey " KEY "\ndisable-userns works\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_false(parse(bad[i], KEY, &r));
	/* a key that is a prefix of the file's is another key */
	assert_false(parse("kjail-bwrap-probe 1\nkey " KEY " more\ndisable-userns works\n", KEY, &r));
	/* a reason longer than the cap */
	char *t = xasprintf("kjail-bwrap-probe 1\nkey %s\ndisable-userns fails %0*d\n", KEY,
			    PROBE_REASON_MAX + 1, 0);
	assert_false(parse(t, KEY, &r));
	free(t);
	t = xasprintf("kjail-bwrap-probe 1\nkey %s\ndisable-userns fails %0*d\n", KEY,
		      PROBE_REASON_MAX, 0);
	assert_true(parse(t, KEY, &r));
	assert_int_equal(strlen(r.why), PROBE_REASON_MAX);
	free(t);
	/* a NUL inside is not the text written */
	static const char nul[] = "kjail-bwrap-probe 1\nkey " KEY "\ndisable-userns fails a\0b\n";
	assert_false(probe_cache_parse(nul, sizeof nul - 1, KEY, &r));
}

static void test_reason(void **state)
{
	(void)state;
	char out[PROBE_REASON_MAX + 1];
	probe_cache_reason("bwrap: cannot open X: Read-only file system\nmore\n", out, sizeof out);
	assert_string_equal(out, "cannot open X: Read-only file system");
	probe_cache_reason("", out, sizeof out);
	assert_string_equal(out, "no message");
	probe_cache_reason(NULL, out, sizeof out);
	assert_string_equal(out, "no message");
	probe_cache_reason("a\tb\x1b[31m", out, sizeof out);
	assert_string_equal(out, "a?b?[31m");
	char big[600];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	probe_cache_reason(big, out, sizeof out);
	assert_int_equal(strlen(out), PROBE_REASON_MAX);
	char small[8];
	probe_cache_reason("bwrap: abcdefghij", small, sizeof small);
	assert_string_equal(small, "abcdefg");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_not_kept),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_reason),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
