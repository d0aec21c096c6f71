/* SPDX-License-Identifier: MIT */
/* The proxy's log (proxy/log.c) and kjail's line about it
 * (proxy/summary.c): one JSON line per connection; every refusal counted
 * by destination with the --allow-host value its refusal named; a cap
 * that drops the oldest lines (keeping the newest half, or starting over
 * on a descriptor it cannot read) and keeps every count; the summary line
 * the log ends with, and nothing after it; kjail's line from that line
 * alone, and nothing from a last line that is not a summary as the proxy
 * writes one. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proxy/proxy.h"
#include "proxy/log.h"
#include "proxy/summary.h"
#include "proxy/tally.h"
#include "util.h"

static int memfile(void)
{
	int fd = memfd_create("kjail-test-log", MFD_CLOEXEC);
	assert_true(fd >= 0);
	return fd;
}

static off_t size_of(int fd)
{
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	return st.st_size;
}

/* The whole file, NUL-terminated. */
static char *slurp(int fd)
{
	off_t n = size_of(fd);
	char *b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(pread(fd, b, (size_t)n, 0), n);
	b[n] = '\0';
	return b;
}

static void refuse(struct proxy_log *l, const char *host, unsigned port, const char *allow)
{
	struct proxy_record r = { .proto = "http", .host = host, .port = port,
				  .verdict = "refused", .reason = "not an allowed host",
				  .allow = allow };
	assert_int_equal(proxy_log_write(l, &r), 0);
}

static json_t *last_json(int fd)
{
	_cleanup_free_ char *all = slurp(fd);
	size_t n = strlen(all);
	assert_true(n > 0 && all[n - 1] == '\n');
	all[n - 1] = '\0';
	char *nl = strrchr(all, '\n');
	json_t *o = json_loads(nl ? nl + 1 : all, JSON_REJECT_DUPLICATES, NULL);
	assert_non_null(o);
	return o;
}

static void test_counts_and_summary(void **state)
{
	(void)state;
	int fd = memfile();
	struct proxy_log *l = proxy_log_open(fd, 0);
	assert_non_null(l);
	refuse(l, "b.test", 8080, "b.test:8080");
	for (int i = 0; i < 3; i++)
		refuse(l, "a.test", 80, NULL); /* the web ports: HOST alone */
	refuse(l, "b.test", 8080, "b.test:8080");
	refuse(l, "::1", 443, NULL);
	refuse(l, "loop.test", 80, "127.0.0.1:80"); /* resolved to loopback */
	struct proxy_record ok = { .proto = "connect", .host = "c.test", .port = 443,
				   .verdict = "allowed" };
	struct proxy_record bad = { .proto = "http", .verdict = "failed", .reason = "bad" };
	assert_int_equal(proxy_log_write(l, &ok), 0);
	assert_int_equal(proxy_log_write(l, &bad), 0);
	assert_int_equal(proxy_log_finish(l), 0);
	/* nothing after the summary */
	refuse(l, "late.test", 80, NULL);
	assert_int_equal(proxy_log_finish(l), 0);
	proxy_log_free(l);

	_cleanup_free_ char *all = slurp(fd);
	size_t lines = 0;
	for (char *p = all; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 10);
	assert_null(strstr(all, "late.test"));
	json_t *o = last_json(fd);
	assert_string_equal(json_string_value(json_object_get(o, "type")), "summary");
	assert_int_equal(json_integer_value(json_object_get(o, "refused")), 7);
	assert_int_equal(json_integer_value(json_object_get(o, "allowed")), 1);
	assert_int_equal(json_integer_value(json_object_get(o, "failed")), 1);
	assert_int_equal(json_integer_value(json_object_get(o, "dropped_lines")), 0);
	json_t *top = json_object_get(o, "refused_top");
	assert_int_equal(json_array_size(top), 4);
	json_decref(o);

	char sum[4096];
	assert_int_equal(proxy_summary(fd, sum, sizeof sum), 7);
	/* most first, ties in the order first seen; a bad request is the
	 * client's own failure, counted in the log alone */
	assert_string_equal(sum, "refused 7 connections: a.test:80 (3), b.test:8080 (2), "
				 "[::1]:443 (1), loop.test:80 (1); add --allow-host a.test "
				 "--allow-host b.test:8080 --allow-host [::1] --allow-host "
				 "127.0.0.1:80 to allow them");
	close(fd);
}

/* Failures (a 502: refused by the server, unreachable) are counted by
 * destination and reason, and summed up even when nothing was refused. */
static void test_failures(void **state)
{
	(void)state;
	int fd = memfile();
	struct proxy_log *l = proxy_log_open(fd, 0);
	struct proxy_record r = { .proto = "connect", .host = "git.test", .port = 22,
				  .verdict = "failed", .reason = "connection refused" };
	assert_int_equal(proxy_log_write(l, &r), 0);
	assert_int_equal(proxy_log_write(l, &r), 0);
	r = (struct proxy_record){ .proto = "socks5", .host = "2001:db8::1", .port = 22,
				   .verdict = "failed", .reason = "No route to host" };
	assert_int_equal(proxy_log_write(l, &r), 0);
	assert_int_equal(proxy_log_finish(l), 0);
	proxy_log_free(l);
	json_t *o = last_json(fd);
	assert_int_equal(json_integer_value(json_object_get(o, "failed")), 3);
	assert_int_equal(json_array_size(json_object_get(o, "failed_top")), 2);
	assert_int_equal(json_integer_value(json_object_get(o, "failed_other")), 0);
	assert_int_equal(json_integer_value(json_object_get(o, "bad_requests")), 0);
	json_decref(o);
	char sum[512];
	assert_int_equal(proxy_summary(fd, sum, sizeof sum), 3);
	assert_string_equal(sum, "3 connections failed: git.test:22 (connection refused, 2), "
				 "[2001:db8::1]:22 (No route to host, 1)");
	close(fd);
}

static void test_one_and_none(void **state)
{
	(void)state;
	int fd = memfile();
	struct proxy_log *l = proxy_log_open(fd, 0);
	refuse(l, "example.test", 80, NULL);
	assert_int_equal(proxy_log_finish(l), 0);
	proxy_log_free(l);
	char sum[512];
	assert_int_equal(proxy_summary(fd, sum, sizeof sum), 1);
	assert_string_equal(sum, "refused 1 connection: example.test:80 (1); add --allow-host "
				 "example.test to allow it");
	close(fd);

	fd = memfile();
	l = proxy_log_open(fd, 0);
	struct proxy_record ok = { .proto = "http", .host = "c.test", .port = 80,
				   .verdict = "allowed" };
	assert_int_equal(proxy_log_write(l, &ok), 0);
	assert_int_equal(proxy_log_finish(l), 0);
	proxy_log_free(l);
	assert_int_equal(proxy_summary(fd, sum, sizeof sum), 0);
	assert_string_equal(sum, "");
	close(fd);

	/* a log that never got its summary (the proxy was killed) */
	fd = memfile();
	l = proxy_log_open(fd, 0);
	refuse(l, "example.test", 80, NULL);
	proxy_log_free(l);
	assert_int_equal(proxy_summary(fd, sum, sizeof sum), -1);
	close(fd);
}

/* The destinations past the top five, and past TALLY_MAX, still count. */
static void test_many_destinations(void **state)
{
	(void)state;
	int fd = memfile();
	struct proxy_log *l = proxy_log_open(fd, 0);
	for (int i = 0; i < 3; i++)
		refuse(l, "heavy.test", 443, NULL);
	for (int i = 0; i < 3 * TALLY_MAX; i++) {
		char h[32];
		snprintf(h, sizeof h, "h%d.test", i);
		refuse(l, h, 80, NULL);
	}
	assert_int_equal(proxy_log_finish(l), 0);
	proxy_log_free(l);
	char sum[4096];
	assert_int_equal(proxy_summary(fd, sum, sizeof sum), 3 + 3 * TALLY_MAX);
	char want[512];
	snprintf(want, sizeof want,
		 "refused %d connections: heavy.test:443 (3), h0.test:80 (1), h1.test:80 (1), "
		 "h2.test:80 (1), h3.test:80 (1), other destinations (%d); add --allow-host "
		 "heavy.test --allow-host h0.test --allow-host h1.test --allow-host h2.test "
		 "--allow-host h3.test to allow them",
		 3 + 3 * TALLY_MAX, 3 * TALLY_MAX - 4);
	assert_string_equal(sum, want);
	close(fd);
}

/* Every line whole and in order, the newest kept. */
static void check_lines(const char *all, int last, int *first)
{
	int prev = -1;
	for (const char *p = all; *p;) {
		const char *nl = strchr(p, '\n');
		assert_non_null(nl);
		json_t *o = json_loadb(p, (size_t)(nl - p), JSON_REJECT_DUPLICATES, NULL);
		assert_non_null(o);
		const char *h = json_string_value(json_object_get(o, "host"));
		if (h) {
			int k = atoi(h + 1);
			assert_true(prev < 0 || k == prev + 1);
			if (prev < 0)
				*first = k;
			prev = k;
		}
		json_decref(o);
		p = nl + 1;
	}
	assert_int_equal(prev, last);
}

/* 5,000 refusals through wfd, read back through fd. */
static void flood(int wfd, int fd, size_t cap, bool halves)
{
	struct proxy_log *l = proxy_log_open(wfd, cap);
	off_t most = 0;
	enum { N = 5000 };
	for (int i = 0; i < N; i++) {
		char h[32];
		snprintf(h, sizeof h, "h%d.test", i);
		refuse(l, h, 80, NULL);
		off_t s = size_of(fd);
		most = s > most ? s : most;
	}
	assert_true(most <= (off_t)cap);
	_cleanup_free_ char *all = slurp(fd);
	int first = -1;
	check_lines(all, N - 1, &first);
	if (halves) /* the newest half of the cap at least */
		assert_true(size_of(fd) >= (off_t)cap / 2 - 200);
	assert_int_equal(proxy_log_finish(l), 0);
	proxy_log_free(l);
	assert_true(size_of(fd) <= (off_t)cap);
	json_t *o = last_json(fd);
	assert_int_equal(json_integer_value(json_object_get(o, "refused")), N);
	assert_int_equal(json_integer_value(json_object_get(o, "dropped_lines")), first);
	json_decref(o);
}

static void test_cap(void **state)
{
	(void)state;
	int fd = memfile();
	flood(fd, fd, 64 * 1024, true);
	close(fd);

	/* O_APPEND, as a caller may hand it: cleared, the same result */
	fd = memfile();
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	int app = open(path, O_RDWR | O_APPEND | O_CLOEXEC);
	assert_true(app >= 0);
	flood(app, app, 64 * 1024, true);
	close(app);
	close(fd);

	/* write-only: the log starts over at the cap */
	fd = memfile();
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	int wo = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	assert_true(wo >= 0);
	flood(wo, fd, 64 * 1024, false);
	char sum[4096];
	assert_int_equal(proxy_summary(fd, sum, sizeof sum), 5000);
	close(wo);
	close(fd);
}

/* Only a summary as the proxy writes it becomes a line on the terminal. */
static void test_summary_strict(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"",
		"{\"type\":\"summary\",\"refused\":1,\"refused_top\":[{\"destination\":\"a:80\","
		"\"allow_host\":\"a\",\"count\":1}],\"refused_other\":0}", /* no newline */
		"{\"time\":\"x\",\"proto\":\"http\",\"host\":\"a\",\"port\":80,\"verdict\":"
		"\"refused\"}\n",
		"{\"type\":\"summary\",\"refused\":2,\"refused_top\":[{\"destination\":\"a:80\","
		"\"allow_host\":\"a\",\"count\":1}],\"refused_other\":0}\n", /* 1 + 0 != 2 */
		"{\"type\":\"summary\",\"refused\":1,\"refused_top\":[{\"destination\":\"a\\u001b[2J:80\","
		"\"allow_host\":\"a\",\"count\":1}],\"refused_other\":0}\n",
		"{\"type\":\"summary\",\"refused\":1,\"refused_top\":[{\"destination\":\"a b:80\","
		"\"allow_host\":\"a\",\"count\":1}],\"refused_other\":0}\n",
		"{\"type\":\"summary\",\"type\":\"summary\",\"refused\":0,\"refused_top\":[],"
		"\"refused_other\":0}\n",
		"{\"type\":\"summary\",\"refused\":-1,\"refused_top\":[],\"refused_other\":-1}\n",
		"{\"type\":\"summary\",\"refused\":1,\"refused_top\":[{\"destination\":\"a:80\","
		"\"allow_host\":\"a\",\"count\":0}],\"refused_other\":1}\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		int fd = memfile();
		assert_int_equal(write(fd, bad[i], strlen(bad[i])), (ssize_t)strlen(bad[i]));
		char sum[256] = "x";
		if (proxy_summary(fd, sum, sizeof sum) != -1)
			fail_msg("taken: %s", bad[i]);
		assert_string_equal(sum, "");
		close(fd);
	}
	/* a last line longer than any summary is none, whatever it holds */
	int fd = memfile();
	char *big = malloc(PROXY_SUMMARY_MAX + 100);
	assert_non_null(big);
	memset(big, ' ', PROXY_SUMMARY_MAX + 100);
	static const char good[] = "{\"type\":\"summary\",\"refused\":0,\"refused_top\":[],"
				   "\"refused_other\":0}";
	memcpy(big + PROXY_SUMMARY_MAX + 99 - strlen(good), good, strlen(good));
	big[PROXY_SUMMARY_MAX + 99] = '\n';
	assert_int_equal(write(fd, big, PROXY_SUMMARY_MAX + 100), PROXY_SUMMARY_MAX + 100);
	char sum[64];
	assert_int_equal(proxy_summary(fd, sum, sizeof sum), -1);
	free(big);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_and_summary),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_one_and_none),
		cmocka_unit_test(test_many_destinations),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_summary_strict),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
