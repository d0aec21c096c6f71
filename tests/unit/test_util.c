/* proc_children_read: the pid list of a /proc children file, parsed with
 * system calls only (kli calls it from a signal handler). Fed files of the
 * same form, and the real file of a process with children. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_real_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
