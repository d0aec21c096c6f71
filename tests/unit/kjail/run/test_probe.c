/* SPDX-License-Identifier: MIT */
/* bwrap's version as --doctor and a failed start report it: the first line
 * "bwrap --version" prints, over stand-in bwrap scripts (made under the
 * build directory, like test_host's tree). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/probe.h"
#include "util.h"

static char root[PATH_MAX];

/* root/name: a shell script that prints what printf(1) makes of fmt and
 * exits with status; a fresh string the caller frees. */
static char *fake_bwrap(const char *name, const char *fmt, int status)
{
	char *p = xasprintf("%s/%s", root, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n[ \"$1\" = --version ] || exit 9\nprintf '%s'\nexit %d\n", fmt,
		status);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(p, 0755), 0);
	return p;
}

static int setup(void **state)
{
	(void)state;
	char cwd[PATH_MAX / 2];
	assert_non_null(getcwd(cwd, sizeof cwd));
	snprintf(root, sizeof root, "%s/test_probe.XXXXXX", cwd);
	assert_non_null(mkdtemp(root));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	_cleanup_free_ char *cmd = xasprintf("rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void expect_version(const char *fmt, int status, const char *want)
{
	_cleanup_free_ char *bwrap = fake_bwrap("bwrap", fmt, status);
	char out[128];
	memset(out, 'x', sizeof out);
	probe_bwrap_version(bwrap, out, sizeof out);
	if (strcmp(out, want) != 0)
		fail_msg("bwrap printing \"%s\": got \"%s\", expected \"%s\"", fmt, out, want);
}

#ifdef KJ_OS_LINUX
static void test_version(void **state)
{
	(void)state;
	expect_version("bubblewrap 0.8.0\\n", 0, "bubblewrap 0.8.0");
	expect_version("bubblewrap 0.4.1\\n", 0, "bubblewrap 0.4.1");
	/* the first line only, without its newline, or the whole of one unended */
	expect_version("bubblewrap 0.11.0\\nmore\\n", 0, "bubblewrap 0.11.0");
	expect_version("bubblewrap 0.9.0", 0, "bubblewrap 0.9.0");
	/* taken as printed: not parsed, so nothing is made up from garbage */
	expect_version("garbage \\001!\\n", 0, "garbage \001!");
	expect_version("\\nbubblewrap 0.8.0\\n", 0, "");
	/* nothing printed */
	expect_version("", 0, "");
}

static void test_version_unrunnable(void **state)
{
	(void)state;
	char out[64] = "stale";
	_cleanup_free_ char *missing = xasprintf("%s/no-such-bwrap", root);
	probe_bwrap_version(missing, out, sizeof out);
	assert_string_equal(out, "");

	_cleanup_free_ char *plain = fake_bwrap("not-executable", "bubblewrap 0.8.0\\n", 0);
	assert_int_equal(chmod(plain, 0644), 0);
	strcpy(out, "stale");
	probe_bwrap_version(plain, out, sizeof out);
	assert_string_equal(out, "");
}

/* A small buffer holds what fits, still a terminated string. */
static void test_version_truncated(void **state)
{
	(void)state;
	_cleanup_free_ char *bwrap = fake_bwrap("bwrap", "bubblewrap 0.8.0\\n", 0);
	char out[11];
	probe_bwrap_version(bwrap, out, sizeof out);
	assert_string_equal(out, "bubblewrap");
	char one[1] = { 'x' };
	probe_bwrap_version(bwrap, one, sizeof one);
	assert_int_equal(one[0], '\0');
}

static void test_too_old(void **state)
{
	(void)state;
	char fix[256];
	_cleanup_free_ char *old = fake_bwrap("bwrap-old", "bubblewrap 0.4.1\\n", 0);
	probe_bwrap_too_old(old, fix, sizeof fix);
	_cleanup_free_ char *want = xasprintf("%s is too old (bubblewrap 0.4.1); fix: install "
					      "bubblewrap 0.8.0 or later",
					      old);
	assert_string_equal(fix, want);

	_cleanup_free_ char *silent = fake_bwrap("bwrap-silent", "", 0);
	probe_bwrap_too_old(silent, fix, sizeof fix);
	_cleanup_free_ char *want2 = xasprintf("%s is too old (unknown version); fix: install "
					       "bubblewrap 0.8.0 or later",
					       silent);
	assert_string_equal(fix, want2);

	/* a short buffer: cut, never overrun */
	char small[16];
	probe_bwrap_too_old("/usr/bin/bwrap-nonexistent", small, sizeof small);
	assert_string_equal(small, "/usr/bin/bwrap-");
}
#else
/* Elsewhere bwrap is not probed: nothing is reported. */
static void test_not_linux(void **state)
{
	(void)state;
	expect_version("bubblewrap 0.8.0\\n", 0, "");
	char fix[64] = "stale";
	probe_bwrap_too_old("/usr/bin/bwrap", fix, sizeof fix);
	assert_string_equal(fix, "");
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
#ifdef KJ_OS_LINUX
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_version_unrunnable),
		cmocka_unit_test(test_version_truncated),
		cmocka_unit_test(test_too_old),
#else
		cmocka_unit_test(test_not_linux),
#endif
	};
	return unit_status(cmocka_run_group_tests(tests, setup, teardown));
}
