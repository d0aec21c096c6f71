/* SPDX-License-Identifier: MIT */
/* kjail --cache-list and --cache-prune (run/caches.h): DAYS, the record,
 * the decision and the size as written, by exact comparison; and the
 * walker (run/tree.h) over a real tree under the build directory with a
 * link out of it, a read-only directory and a chain too deep. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/cache.h"
#include "run/caches.h"
#include "run/tree.h"
#include "util.h"

#include "../tree-fixture.h"

static void test_days(void **state)
{
	(void)state;
	unsigned d = 7;
	assert_true(cache_days_parse("0", &d));
	assert_int_equal(d, 0);
	assert_true(cache_days_parse("30", &d));
	assert_int_equal(d, 30);
	assert_true(cache_days_parse("36500", &d));
	assert_int_equal(d, 36500);
	static const char *const bad[] = { "", "-1", "+3", " 5", "5 ", "1e3", "3.5", "abc",
					   "36501", "999999", "0x10", NULL };
	for (const char *const *b = bad; *b; b++) {
		d = 7;
		if (cache_days_parse(*b, &d))
			fail_msg("'%s' taken as %u days", *b, d);
		assert_int_equal(d, 7);
	}
	assert_false(cache_days_parse(NULL, &d));
}

static void test_record(void **state)
{
	(void)state;
	const char *ws = "/home/u/src/proj";
	_cleanup_free_ char *key = cache_key(ws);
	char *got = cache_record_parse("/home/u/src/proj\n", 17, key);
	assert_non_null(got);
	assert_string_equal(got, ws);
	free(got);
	/* another workspace's path, whatever the jail or a hand wrote */
	assert_null(cache_record_parse("/home/u/src/other\n", 18, key));
	assert_null(cache_record_parse("/home/u/src/proj", 16, key));
	assert_null(cache_record_parse("home/u/src/proj\n", 16, key));
	assert_null(cache_record_parse("/home/u/src/proj\n\n", 18, key));
	assert_null(cache_record_parse("/home/u/\033]0;x\a\n", 15, key));
	assert_null(cache_record_parse("\n", 1, key));
	assert_null(cache_record_parse("", 0, key));
	/* a NUL inside: not the path its key was made of */
	assert_null(cache_record_parse("/home/u/src/proj\0x\n", 19, key));
}

static void test_why(void **state)
{
	(void)state;
	char buf[64];
	time_t now = 1700000000, day = 86400;
	assert_string_equal(cache_prune_why(now, now, 30, true, buf, sizeof buf), "workspace gone");
	assert_null(cache_prune_why(now - day, now, 30, false, buf, sizeof buf));
	assert_null(cache_prune_why(now - 30 * day + 1, now, 30, false, buf, sizeof buf));
	assert_string_equal(cache_prune_why(now - 30 * day, now, 30, false, buf, sizeof buf),
			    "unused for 30 days");
	assert_string_equal(cache_prune_why(now - 40 * day - 5, now, 30, false, buf, sizeof buf),
			    "unused for 40 days");
	/* 0: every cache, but none with a time ahead of now */
	assert_string_equal(cache_prune_why(now, now, 0, false, buf, sizeof buf),
			    "unused for 0 days");
	assert_null(cache_prune_why(now + day, now, 0, false, buf, sizeof buf));
}

static void test_size(void **state)
{
	(void)state;
	static const struct {
		uint64_t bytes;
		bool partial;
		const char *want;
	} cases[] = {
		{ 0, false, "0B" },
		{ 1023, false, "1023B" },
		{ 1024, false, "1.0K" },
		{ 4096, true, ">4.0K" },
		{ 12288, false, "12K" },
		{ 3565158, false, "3.4M" },
		{ 5ULL << 30, false, "5.0G" },
		{ 1536ULL << 40, false, "1.5P" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char buf[32];
		cache_size_text(cases[i].bytes, cases[i].partial, buf, sizeof buf);
		assert_string_equal(buf, cases[i].want);
	}
}

static void put(const char *rel, size_t n)
{
	_cleanup_free_ char *p = at(rel);
	int fd = open(p, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	assert_true(fd >= 0);
	char buf[4096];
	memset(buf, 'x', sizeof buf);
	for (size_t left = n; left > 0;) {
		size_t k = left < sizeof buf ? left : sizeof buf;
		assert_int_equal(write(fd, buf, k), (ssize_t)k);
		left -= k;
	}
	close(fd);
}

static bool exists(const char *rel)
{
	_cleanup_free_ char *p = at(rel);
	struct stat st;
	return lstat(p, &st) == 0;
}

/* A cache as a jail leaves it: files, a read-only directory (go's module
 * cache), links out of it to a directory and a file that must survive. */
static void test_tree(void **state)
{
	(void)state;
	mk("outside", true);
	put("outside/precious", 100);
	mk("c", true);
	mk("c/npm", true);
	put("c/npm/blob", 64 * 1024);
	mk("c/go-mod", true);
	mk("c/go-mod/m@v1", true);
	put("c/go-mod/m@v1/x.go", 10);
	_cleanup_free_ char *ro = at("c/go-mod/m@v1");
	_cleanup_free_ char *ro_parent = at("c/go-mod");
	assert_int_equal(chmod(ro, 0555), 0);
	assert_int_equal(chmod(ro_parent, 0555), 0);
	_cleanup_free_ char *out_dir = at("outside");
	_cleanup_free_ char *out_file = at("outside/precious");
	_cleanup_free_ char *l1 = at("c/npm/to-dir");
	_cleanup_free_ char *l2 = at("c/to-file");
	assert_int_equal(symlink(out_dir, l1), 0);
	assert_int_equal(symlink(out_file, l2), 0);

	int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(rootfd >= 0);
	uint64_t bytes = 0;
	assert_true(tree_size_at(rootfd, "c", &bytes));
	/* the blob and the directories; never what the links lead to */
	assert_true(bytes >= 64 * 1024);
	uint64_t outside = 0;
	assert_true(tree_size_at(rootfd, "outside", &outside));
	char err[512] = "";
	if (!tree_remove_at(rootfd, "c", "CACHE", err, sizeof err))
		fail_msg("not removed: %s", err);
	assert_false(exists("c"));
	assert_true(exists("outside/precious"));
	assert_true(exists("outside"));

	/* the top itself a link: refused, its target untouched */
	_cleanup_free_ char *l3 = at("c2");
	assert_int_equal(symlink(out_dir, l3), 0);
	assert_false(tree_remove_at(rootfd, "c2", "CACHE2", err, sizeof err));
	assert_true(str_has_prefix(err, "CACHE2: "));
	assert_true(exists("outside/precious"));
	assert_int_equal(unlink(l3), 0);

	/* deeper than TREE_DEPTH_MAX: counted in part, and left, saying why */
	mk("d", true);
	int fd = openat(rootfd, "d", O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	for (int i = 0; i < TREE_DEPTH_MAX + 2; i++) {
		assert_int_equal(mkdirat(fd, "s", 0755), 0);
		int next = openat(fd, "s", O_RDONLY | O_DIRECTORY);
		assert_true(next >= 0);
		close(fd);
		fd = next;
	}
	close(fd);
	assert_false(tree_size_at(rootfd, "d", &bytes));
	assert_false(tree_remove_at(rootfd, "d", "DEEP", err, sizeof err));
	assert_non_null(strstr(err, "directories deep"));
	assert_null(strchr(err, '\n'));
	assert_true(exists("d"));
	close(rootfd);
}

/* kjail's record of a start (policy/cache.h): written anew with the
 * workspace, a directory or a link where it goes refused in one line. */
static void test_record_use(void **state)
{
	(void)state;
	mk("h", true);
	_cleanup_free_ char *home = at("h");
	const char *ws = "/srv/proj";
	_cleanup_free_ char *key = cache_key(ws);
	char err[512] = "";
	unsigned uid = (unsigned)getuid();
	assert_true(cache_record_use(home, key, ws, uid, err, sizeof err));
	_cleanup_free_ char *rec = xasprintf("h/.cache/kjail/ws/.used/%s", key);
	_cleanup_free_ char *p = at(rec);
	size_t len = 0;
	_cleanup_free_ char *text = read_file_capped(p, 4096, &len);
	assert_non_null(text);
	assert_string_equal(text, "/srv/proj\n");
	/* again: replaced, not appended */
	assert_true(cache_record_use(home, key, ws, uid, err, sizeof err));
	free(text);
	text = read_file_capped(p, 4096, &len);
	assert_string_equal(text, "/srv/proj\n");
	/* a directory where the record goes */
	assert_int_equal(unlink(p), 0);
	assert_int_equal(mkdir(p, 0700), 0);
	assert_false(cache_record_use(home, key, ws, uid, err, sizeof err));
	assert_non_null(strstr(err, "not a file kjail made"));
	assert_null(strchr(err, '\n'));
	assert_int_equal(rmdir(p), 0);
	/* .used a link (to the outside): refused, nothing written there */
	_cleanup_free_ char *used = at("h/.cache/kjail/ws/.used");
	_cleanup_free_ char *out = at("outside2");
	assert_int_equal(mkdir(out, 0700), 0);
	assert_int_equal(rmdir(used), 0);
	assert_int_equal(symlink(out, used), 0);
	assert_false(cache_record_use(home, key, ws, uid, err, sizeof err));
	assert_non_null(strstr(err, "symbolic link"));
	_cleanup_free_ char *leaked = xasprintf("%s/%s", out, key);
	struct stat st;
	assert_int_equal(lstat(leaked, &st), -1);
}

int main(void)
{
	tree_make("test_caches");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_days),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_why),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_record_use),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, teardown));
}
