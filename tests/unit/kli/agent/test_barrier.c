/* SPDX-License-Identifier: MIT */
/* The fault barrier, with functions that really crash, hang, exit or
 * flood, and the fault log's cap. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "unit-skip.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "agent/barrier.h"
#include "path.h"
#include "util.h"

static void answers(void *arg, struct barrier_out *out)
{
	out->ok = true;
	out->aux = 42;
	out->text = xasprintf("hello %s", (const char *)arg);
}

static void fails(void *arg, struct barrier_out *out)
{
	(void)arg;
	out->fault = true;
	out->text = xstrdup("it went wrong");
}

static void segfaults(void *arg, struct barrier_out *out)
{
	(void)out;
	/* A real invalid access, not a raise(): what a bug in a tool does.
	 * Not at NULL, which UBSan would report and exit on instead. */
	volatile int *volatile p = arg;
	*p = 1;
}

static void aborts(void *arg, struct barrier_out *out)
{
	(void)arg;
	(void)out;
	abort();
}

static void hangs(void *arg, struct barrier_out *out)
{
	(void)arg;
	(void)out;
	for (;;)
		pause();
}

static void exits(void *arg, struct barrier_out *out)
{
	(void)arg;
	(void)out;
	_exit(3);
}

static void floods(void *arg, struct barrier_out *out)
{
	(void)arg;
	out->ok = true;
	out->text = xmalloc(BARRIER_MAX_TEXT + 100);
	memset(out->text, 'x', BARRIER_MAX_TEXT + 99);
	out->text[BARRIER_MAX_TEXT + 99] = '\0';
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static void test_returns(void **state)
{
	(void)state;
	struct barrier_result r;
	barrier_run(answers, (void *)"world", 5000, &r);
	assert_int_equal(r.outcome, BARRIER_RETURNED);
	assert_true(r.out.ok);
	assert_int_equal(r.out.aux, 42);
	assert_string_equal(r.out.text, "hello world");
	assert_null(barrier_describe(&r, 5000));
	barrier_result_clear(&r);

	barrier_run(fails, NULL, 5000, &r);
	assert_int_equal(r.outcome, BARRIER_RETURNED);
	assert_false(r.out.ok);
	assert_true(r.out.fault);
	assert_string_equal(r.out.text, "it went wrong");
	barrier_result_clear(&r);
}

static void test_crashes(void **state)
{
	(void)state;
	struct barrier_result r;
	barrier_run(segfaults, (void *)(uintptr_t)0x1000, 5000, &r);
	assert_int_equal(r.outcome, BARRIER_CRASHED);
	assert_int_equal(r.signal, SIGSEGV);
	char *d = barrier_describe(&r, 5000);
	assert_string_equal(d, "crashed (SIGSEGV)");
	free(d);
	barrier_result_clear(&r);

	barrier_run(aborts, NULL, 5000, &r);
	assert_int_equal(r.outcome, BARRIER_CRASHED);
	assert_int_equal(r.signal, SIGABRT);
	barrier_result_clear(&r);

	/* And the caller is still here, able to run the next one. */
	barrier_run(answers, (void *)"again", 5000, &r);
	assert_string_equal(r.out.text, "hello again");
	barrier_result_clear(&r);
}

static void test_timeout(void **state)
{
	(void)state;
	struct barrier_result r;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	barrier_run(hangs, NULL, 300, &r);
	long took = ms_since(&t0);
	assert_int_equal(r.outcome, BARRIER_TIMED_OUT);
	assert_true(took >= 300 && took < 3000);
	char *d = barrier_describe(&r, 300);
	assert_string_equal(d, "did not finish within 300 ms and was stopped");
	free(d);
	d = barrier_describe(&r, 2000);
	assert_string_equal(d, "did not finish within 2 s and was stopped");
	free(d);
	barrier_result_clear(&r);
}

static void test_lost_and_flood(void **state)
{
	(void)state;
	struct barrier_result r;
	barrier_run(exits, NULL, 5000, &r);
	assert_int_equal(r.outcome, BARRIER_LOST);
	char *d = barrier_describe(&r, 5000);
	assert_string_equal(d, "exited with status 3 without an answer");
	free(d);
	barrier_result_clear(&r);

	barrier_run(floods, NULL, 20000, &r);
	assert_int_equal(r.outcome, BARRIER_RETURNED);
	assert_int_equal(strlen(r.out.text), BARRIER_MAX_TEXT);
	/* Cut, and it says so (the end of a cut answer read as its real end). */
	static const char cut[] = "x\n[cut: the answer was larger than 8 MiB]\n";
	assert_string_equal(r.out.text + BARRIER_MAX_TEXT - (sizeof cut - 1), cut);
	barrier_result_clear(&r);
}

static void test_faultlog(void **state)
{
	(void)state;
	char tmpl[] = "test_kli_barrier.tmp.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	_cleanup_free_ char *dir = path_resolve(tmpl, getcwd((char[4096]){ 0 }, 4096));
	_cleanup_free_ char *cache = path_join(dir, "cache");
	_cleanup_free_ char *log = faultlog_path(cache, "/home/x");
	_cleanup_free_ char *want = path_join(dir, "cache/kli/faults.log");
	assert_string_equal(log, want);
	_cleanup_free_ char *dflt = faultlog_path("relative", "/home/x");
	assert_string_equal(dflt, "/home/x/.cache/kli/faults.log");
	assert_null(faultlog_path(NULL, NULL));

	assert_true(faultlog_append(log, "tool bash:\ttimed\nout", 300));
	size_t len;
	char *text = read_file_capped(log, 4096, &len);
	assert_non_null(strstr(text, "]: tool bash: timed out\n"));
	assert_int_equal(text[len - 1], '\n');
	assert_null(memchr(text, '\t', len));
	free(text);
	for (int i = 0; i < 20; i++)
		assert_true(faultlog_append(log, "another fault, long enough to fill it", 300));
	struct stat st;
	assert_int_equal(stat(log, &st), 0);
	assert_true(st.st_size <= 300);
	_cleanup_free_ char *old = xasprintf("%s.1", log);
	assert_int_equal(stat(old, &st), 0);
	assert_true(st.st_size <= 300);
	unlink(old);
	unlink(log);
	_cleanup_free_ char *kdir = path_join(dir, "cache/kli");
	rmdir(kdir);
	rmdir(cache);
	/* A log under a file cannot be written: false, never a crash. */
	_cleanup_free_ char *file = path_join(dir, "file");
	fclose(fopen(file, "w"));
	_cleanup_free_ char *bad = path_join(dir, "file/kli/faults.log");
	assert_false(faultlog_append(bad, "x", 300));
	unlink(file);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_returns),
		cmocka_unit_test(test_crashes),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_lost_and_flood),
		cmocka_unit_test(test_faultlog),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
