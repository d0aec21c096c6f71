/* SPDX-License-Identifier: MIT */
/* git's small files read as a jail left them (git/small-files.h), over a
 * real tree made under the build directory: no symlink followed at any
 * component, no FIFO or directory read, the size cap, "." and ".."
 * refused, refs loose and packed, malformed object names refused. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "git/small-files.h"
#include "util.h"

static char dir[4096];

static void put(const char *rel, const char *text)
{
	char p[8192];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void sub(const char *rel)
{
	char p[8192];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "%s/test_small_files.%ld",
		 getenv("top_builddir") ? getenv("top_builddir") : ".", (long)getpid());
	char cmd[8300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0 || mkdir(dir, 0755) != 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[8300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char A[] = "1111111111111111111111111111111111111111";
static const char B[] = "2222222222222222222222222222222222222222";

static void test_reads(void **state)
{
	(void)state;
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	sub("refs");
	sub("refs/heads");
	put("plain", "hello\nworld\n");
	put("refs/heads/main", "1111111111111111111111111111111111111111\n");
	size_t len;
	char *t = read_small_at(fd, "plain", 100, &len);
	assert_non_null(t);
	assert_int_equal(len, 12);
	free(t);
	/* the cap: a larger file is not read at all */
	assert_null(read_small_at(fd, "plain", 5, &len));
	/* a symlink, at the end or on the way, leads nowhere */
	char p[8192], q[8192];
	snprintf(p, sizeof p, "%s/link", dir);
	assert_int_equal(symlink("plain", p), 0);
	assert_null(read_small_at(fd, "link", 100, &len));
	snprintf(p, sizeof p, "%s/dirlink", dir);
	assert_int_equal(symlink("refs", p), 0);
	assert_null(read_small_at(fd, "dirlink/heads/main", 100, &len));
	assert_true(exists_at(fd, "dirlink")); /* the link itself is there */
	/* a FIFO, a directory: not read (and no hang) */
	snprintf(q, sizeof q, "%s/fifo", dir);
	assert_int_equal(mkfifo(q, 0644), 0);
	assert_null(read_small_at(fd, "fifo", 100, &len));
	assert_null(read_small_at(fd, "refs", 100, &len));
	/* "." and ".." and empty components are refused */
	assert_null(read_small_at(fd, "refs/../plain", 100, &len));
	assert_null(read_small_at(fd, "./plain", 100, &len));
	assert_null(read_small_at(fd, "refs//heads/main", 100, &len));
	assert_null(read_small_at(fd, "/plain", 100, &len));
	t = first_line_at(fd, "plain");
	assert_string_equal(t, "hello");
	free(t);
	close(fd);
}

static void test_refs(void **state)
{
	(void)state;
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_true(is_oid(A));
	assert_false(is_oid("111"));
	assert_false(is_oid("ref: refs/heads/main"));
	assert_false(is_oid("111111111111111111111111111111111111111G"));
	put("HEAD", "ref: refs/heads/main\n");
	char *o = head_oid(fd, fd);
	assert_string_equal(o, A);
	free(o);
	/* packed, when there is no loose file */
	put("packed-refs", "# pack-refs with: peeled\n2222222222222222222222222222222222222222 "
			   "refs/heads/packed\n^3333333333333333333333333333333333333333\n");
	o = ref_oid(fd, fd, "refs/heads/packed");
	assert_string_equal(o, B);
	free(o);
	/* a detached HEAD; a malformed one; a ref outside refs/ */
	put("HEAD", "2222222222222222222222222222222222222222\n");
	o = head_oid(fd, fd);
	assert_string_equal(o, B);
	free(o);
	put("HEAD", "not an object name\n");
	assert_null(head_oid(fd, fd));
	put("HEAD", "ref: ../../etc/passwd\n");
	assert_null(head_oid(fd, fd));
	put("HEAD", "ref: refs/../plain\n");
	assert_null(head_oid(fd, fd));
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads),
		cmocka_unit_test(test_refs),
	};
	return unit_status(cmocka_run_group_tests(tests, setup, teardown));
}
