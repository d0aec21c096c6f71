/* SPDX-License-Identifier: MIT */
/* proc_children_read: the pid list of a /proc children file, parsed with
 * system calls only (kli calls it from a signal handler). Fed files of the
 * same form, and the real file of a process with children; read again
 * from one descriptor, it lists the children of the moment.
 * dir_names_present, dir_names_linked: which names a real directory holds,
 * and which of them are symlinks. */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <signal.h>
#include <sys/wait.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "path.h"

static int parse(const char *text, int *out, int max)
{
	char path[] = "test_util.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	int n = proc_children_read(path, out, max);
	unlink(path);
	return n;
}

static void test_lists(void **state)
{
	(void)state;
	int p[8];
	assert_int_equal(parse("", p, 8), 0);
	assert_int_equal(parse("12 345 6 ", p, 8), 3);
	assert_int_equal(p[0], 12);
	assert_int_equal(p[1], 345);
	assert_int_equal(p[2], 6);
	/* a last number without its space, a newline, no zero pid */
	assert_int_equal(parse("7 0 8\n9", p, 8), 3);
	assert_int_equal(p[0], 7);
	assert_int_equal(p[1], 8);
	assert_int_equal(p[2], 9);
	/* cut at max */
	assert_int_equal(parse("1 2 3 4 ", p, 2), 2);
	assert_int_equal(p[1], 2);
	/* a number too large for a pid is dropped, not wrapped */
	assert_int_equal(parse("99999999999999999999 5 ", p, 8), 1);
	assert_int_equal(p[0], 5);
	/* a list longer than one read buffer */
	char big[4000] = "";
	for (int i = 0; i < 400; i++)
		snprintf(big + strlen(big), sizeof big - strlen(big), "%d ", 1000 + i);
	int many[400];
	assert_int_equal(parse(big, many, 400), 400);
	assert_int_equal(many[399], 1399);
	assert_int_equal(proc_children_read("/nonexistent/children", p, 8), -1);
}

static void test_real_file(void **state)
{
	(void)state;
	pid_t kid = fork();
	assert_true(kid >= 0);
	if (kid == 0) {
		pause();
		_exit(0);
	}
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%ld/children", (long)getpid());
	int p[8];
	int n = proc_children_read(path, p, 8);
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	if (n == -1)
		skip(); /* a kernel without CONFIG_PROC_CHILDREN */
	assert_int_equal(n, 1);
	assert_int_equal(p[0], kid);
}

/* One descriptor of a children file, read twice: the second read sees the
 * child made after the first. */
static void test_children_fd_rereads(void **state)
{
	(void)state;
	int fd = open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		skip();
	int pids[8];
	int before = proc_children_read_fd(fd, pids, 8);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		pause();
		_exit(0);
	}
	int after = proc_children_read_fd(fd, pids, 8);
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	close(fd);
	assert_int_equal(after, before + 1);
	bool found = false;
	for (int i = 0; i < after; i++)
		found |= pids[i] == c;
	assert_true(found);
}

/* A fresh directory (dir: a mkdtemp template) holding an empty .envrc. */
static void dir_with_envrc(char *dir)
{
	assert_non_null(mkdtemp(dir));
	char p[128];
	snprintf(p, sizeof p, "%s/.envrc", dir);
	int fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	close(fd);
}

static void remove_tree(const char *dir)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_dir_names_present(void **state)
{
	(void)state;
	char dir[] = "test_util.d.XXXXXX";
	dir_with_envrc(dir);
	char p[64];
	snprintf(p, sizeof p, "%s/.git", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	const char *names[] = { ".envrc", ".git/hooks", ".vscode", ".env", ".envrc.bak" };
	size_t len[] = { 6, 4, 7, 4, 10 };
	bool present[5];
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_true(dir_names_present(fd, names, len, 5, present));
	/* a second read of the same descriptor starts again */
	assert_true(dir_names_present(fd, names, len, 5, present));
	close(fd);
	assert_true(present[0]);  /* .envrc */
	assert_true(present[1]);  /* .git, the first component */
	assert_false(present[2]); /* .vscode */
	assert_false(present[3]); /* .env: a prefix of .envrc is no match */
	assert_false(present[4]); /* .envrc.bak: nor is a longer name */
	/* and which of them are symlinks */
	char l[64];
	snprintf(l, sizeof l, "%s/.vscode", dir);
	assert_int_equal(symlink(".git", l), 0);
	bool link[5];
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_true(dir_names_linked(fd, names, len, 5, present, link));
	close(fd);
	assert_true(present[2] && link[2]);  /* .vscode, a symlink */
	assert_true(present[0] && !link[0]); /* .envrc, a file */
	assert_true(present[1] && !link[1]); /* .git, a directory */
	assert_false(link[3]);
	remove_tree(dir);
}

/* dir_read_one: a whole small listing in one call, whose matches are
 * dir_names_linked's; -1 for one that does not fit, so the caller reads it
 * in full instead. */
static void test_dir_read_one(void **state)
{
	(void)state;
	char dir[] = "test_util.r.XXXXXX";
	dir_with_envrc(dir);
	char p[128];
	snprintf(p, sizeof p, "%s/.vscode", dir);
	assert_int_equal(symlink(".envrc", p), 0);
	const char *names[] = { ".envrc", ".vscode", ".git", "x" };
	size_t len[] = { 6, 7, 4, 1 };
	char buf[4096];
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	ssize_t n = dir_read_one(fd, buf, sizeof buf);
	assert_true(n > 0);
	bool present[4] = { false }, link[4] = { false }, p2[4], l2[4];
	dirents_match(buf, (size_t)n, names, len, 4, present, link);
	assert_true(dir_names_linked(fd, names, len, 4, p2, l2)); /* the same descriptor again */
	assert_memory_equal(present, p2, sizeof present);
	assert_memory_equal(link, l2, sizeof link);
	assert_true(present[0] && !link[0]);
	assert_true(present[1] && link[1]);
	assert_false(present[2] || present[3]);
	/* a buffer too small for the listing: not one call's worth */
	assert_int_equal(dir_read_one(fd, buf, 48), -1);
	close(fd);
	/* a directory of more than a page of entries */
	for (int i = 0; i < 200; i++) {
		snprintf(p, sizeof p, "%s/a-rather-long-name-to-fill-the-page-%03d", dir, i);
		close(open(p, O_CREAT | O_WRONLY, 0600));
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_int_equal(dir_read_one(fd, buf, sizeof buf), -1);
	const char *last[] = { "a-rather-long-name-to-fill-the-page-199" };
	size_t llen[] = { strlen(last[0]) };
	bool lp[1];
	assert_true(dir_names_linked(fd, last, llen, 1, lp, NULL));
	assert_true(lp[0]);
	close(fd);
	remove_tree(dir);
}

static void test_utf8_printable(void **state)
{
	(void)state;
	assert_true(utf8_printable(""));
	assert_true(utf8_printable("/srv/data"));
	assert_true(utf8_printable("/srv/caf\xc3\xa9/\xe2\x82\xac/\xf0\x9f\x98\x80"));
	assert_false(utf8_printable("/a\nb"));
	assert_false(utf8_printable("/a\tb"));
	assert_false(utf8_printable("/a\x1b[31m"));
	assert_false(utf8_printable("/a\x7f"));
	assert_false(utf8_printable("/a\xff" "b"));         /* not UTF-8 at all */
	assert_false(utf8_printable("/a\xc3"));             /* cut short */
	assert_false(utf8_printable("/a\xc0\xaf"));         /* overlong "/" */
	assert_false(utf8_printable("/a\xed\xa0\x80"));     /* a surrogate */
	assert_false(utf8_printable("/a\xf4\x90\x80\x80")); /* above U+10FFFF */
}

static void test_ctrl_scrub(void **state)
{
	(void)state;
	char s[] = "/a\nallowed\t\x1b[2J\x7f/caf\xc3\xa9";
	ctrl_scrub(s);
	assert_string_equal(s, "/a?allowed??[2J?/caf\xc3\xa9");
}

/* ---- file_owned_safely: ssh's rule for a config file -------------------- */

static void expect_unsafe(const char *path, uid_t uid, const char *why_want)
{
	char why[PATH_MAX + 64];
	struct stat st;
	errno = 0;
	assert_false(file_owned_safely(path, uid, 0, &st, why, sizeof why));
	assert_int_equal(errno, EPERM);
	assert_string_equal(why, why_want);
}

/* fd_write_all: a write larger than a pipe's buffer arrives whole (short
 * writes are resumed), and one to a pipe nobody reads fails with EPIPE. */
static void test_fd_write_all(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	size_t n = 256 * 1024;
	char *buf = malloc(n), *got = calloc(1, n);
	assert_non_null(buf);
	assert_non_null(got);
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)(i * 7);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		_exit(fd_write_all(p[1], buf, n) ? 0 : 1);
	}
	close(p[1]);
	size_t have = 0;
	while (have < n) {
		ssize_t r = read(p[0], got + have, n - have);
		if (r <= 0)
			break;
		have += (size_t)r;
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(have, n);
	assert_memory_equal(buf, got, n);
	close(p[0]);
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	errno = 0;
	assert_false(fd_write_all(p[1], "x", 1));
	assert_int_equal(errno, EPIPE);
	signal(SIGPIPE, old);
	close(p[1]);
	free(buf);
	free(got);
}

static void test_file_owned_safely(void **state)
{
	(void)state;
	/* under /tmp: sticky and root's, so what is above passes */
	char tmpl[] = "/tmp/test_util.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char *d = realpath(tmpl, NULL), *f = xconcat(d, "/config.ini", NULL),
	     *open_dir = xconcat(d, "/open", NULL), *in_open = xconcat(d, "/open/c.ini", NULL),
	     *to_open = xconcat(d, "/to-open.ini", NULL), *link_in_open = xconcat(d, "/open/l.ini", NULL);
	char why[PATH_MAX + 64], want[PATH_MAX + 64];
	struct stat st;
	uid_t me = getuid();
	int fd = open(f, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_true(file_owned_safely(f, me, 0, &st, why, sizeof why));

	assert_int_equal(chmod(f, 0664), 0);
	snprintf(want, sizeof want, "%s is writable by its group", f);
	expect_unsafe(f, me, want);
	assert_int_equal(chmod(f, 0646), 0);
	snprintf(want, sizeof want, "%s is writable by everyone", f);
	expect_unsafe(f, me, want);
	assert_int_equal(chmod(f, 0444), 0);
	assert_true(file_owned_safely(f, me, 0, &st, why, sizeof why));

	/* a directory above it others can write: unless sticky */
	assert_int_equal(chmod(d, 0777), 0);
	snprintf(want, sizeof want, "%s is writable by everyone", d);
	expect_unsafe(f, me, want);
	assert_int_equal(chmod(d, 01777), 0);
	assert_true(file_owned_safely(f, me, 0, &st, why, sizeof why));
	assert_int_equal(chmod(d, 0700), 0);

	/* someone else's: as root a file given away, as a user the same file
	 * judged for another uid */
	if (me == 0) {
		assert_int_equal(chown(f, 12345, 0), 0);
		snprintf(want, sizeof want, "%s belongs to uid 12345", f);
		expect_unsafe(f, 0, want);
		assert_int_equal(chown(f, 0, 0), 0);
	} else {
		snprintf(want, sizeof want, "%s belongs to uid %lu", f, (unsigned long)me);
		expect_unsafe(f, me + 1, want);
	}

	/* a link: both where it is and where it leads count */
	assert_int_equal(mkdir(open_dir, 0777), 0);
	assert_int_equal(chmod(open_dir, 0777), 0);
	fd = open(in_open, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(symlink(in_open, to_open), 0);
	snprintf(want, sizeof want, "%s is writable by everyone", open_dir);
	expect_unsafe(to_open, me, want);
	assert_int_equal(symlink(f, link_in_open), 0);
	expect_unsafe(link_in_open, me, want);

	errno = 0;
	assert_false(file_owned_safely("/nonexistent-kjail-test/x.ini", me, 0, &st, why, sizeof why));
	assert_int_equal(errno, ENOENT);
	/* missing where someone else could make it: refused too */
	char *gone = xconcat(open_dir, "/later/c.ini", NULL);
	snprintf(want, sizeof want, "%s is writable by everyone", open_dir);
	expect_unsafe(gone, me, want);
	free(gone);
	gone = xconcat(d, "/later.ini", NULL);
	errno = 0;
	assert_false(file_owned_safely(gone, me, 0, &st, why, sizeof why));
	assert_int_equal(errno, ENOENT);
	free(gone);
	/* a link someone else owns, on the way, in a directory anyone may
	 * write with the sticky bit (as /tmp): they could swap it */
	char *sticky = xconcat(d, "/sticky", NULL), *sl = xconcat(d, "/sticky/cfg", NULL),
	     *via = xconcat(d, "/sticky/cfg/config.ini", NULL), *inner = xconcat(d, "/inner", NULL);
	assert_int_equal(mkdir(sticky, 0700), 0);
	assert_int_equal(chmod(sticky, 01777), 0);
	assert_int_equal(mkdir(inner, 0755), 0);
	char *inner_f = xconcat(inner, "/config.ini", NULL);
	fd = open(inner_f, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(symlink(inner, sl), 0);
	assert_true(file_owned_safely(via, me, 0, &st, why, sizeof why));
	if (me == 0) {
		assert_int_equal(lchown(sl, 12345, 0), 0);
		snprintf(want, sizeof want, "%s belongs to uid 12345", sl);
		expect_unsafe(via, 0, want);
		/* the overflow uid is the real "nobody" in the first namespace:
		 * not taken for root, even for a path fixed at build time */
		assert_int_equal(lchown(sl, 0, 0), 0);
		assert_int_equal(chown(inner_f, 65534, 0), 0);
		errno = 0;
		assert_false(file_owned_safely(inner_f, 0, OWNED_UNMAPPED_OK, &st, why, sizeof why));
		assert_int_equal(errno, EPERM);
		assert_int_equal(chown(inner_f, 0, 0), 0);
	} else {
		snprintf(want, sizeof want, "%s belongs to uid %lu", sl, (unsigned long)me);
		expect_unsafe(via, me + 1, want);
	}
	unlink(sl);
	unlink(inner_f);
	rmdir(inner);
	rmdir(sticky);
	free(inner_f);
	free(inner);
	free(via);
	free(sl);
	free(sticky);

	unlink(link_in_open);
	unlink(to_open);
	unlink(in_open);
	rmdir(open_dir);
	unlink(f);
	rmdir(d);
	free(link_in_open);
	free(to_open);
	free(in_open);
	free(open_dir);
	free(f);
	free(d);
}

/* hex_value: both cases, and nothing else is a digit */
static void test_hex_value(void **state)
{
	(void)state;
	static const char digits[] = "0123456789abcdef";
	for (int i = 0; i < 16; i++) {
		assert_int_equal(hex_value(digits[i]), i);
		assert_int_equal(hex_value((char)toupper((unsigned char)digits[i])), i);
	}
	int n = 0;
	for (int c = -128; c < 128; c++)
		n += hex_value((char)c) >= 0;
	assert_int_equal(n, 22);
	assert_int_equal(hex_value('g'), -1);
	assert_int_equal(hex_value('\0'), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_real_file),
		cmocka_unit_test(test_children_fd_rereads),
		cmocka_unit_test(test_dir_names_present),
		cmocka_unit_test(test_dir_read_one),
		cmocka_unit_test(test_file_owned_safely),
		cmocka_unit_test(test_utf8_printable),
		cmocka_unit_test(test_ctrl_scrub),
		cmocka_unit_test(test_fd_write_all),
		cmocka_unit_test(test_hex_value),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
