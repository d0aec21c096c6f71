/* SPDX-License-Identifier: MIT */
/* Which commands are interactive shells that keep a history file
 * (planner/shell.h): the names, the arguments, and the program PATH finds
 * over a real tree of links (made under the build directory). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "planner/shell.h"
#include "util.h"

#include "../tree-fixture.h"

static void test_names(void **state)
{
	(void)state;
	static const char *const yes[] = { "bash", "zsh", "ksh", "ksh93", "mksh", "lksh", "oksh",
					   "pdksh", "yash", "zsh5", "bash-5.2", "zsh-5.9", NULL };
	static const char *const no[] = { "sh", "dash", "fish", "busybox", "tcsh", "csh", "rbash",
					  "bashful", "xbash", "5", "", "-", "nu", "python3", NULL };
	for (const char *const *n = yes; *n; n++)
		if (!shell_keeps_history(*n))
			fail_msg("%s: expected a shell that keeps a history file", *n);
	for (const char *const *n = no; *n; n++)
		if (shell_keeps_history(*n))
			fail_msg("%s: expected no shell that keeps a history file", *n);
}

struct args_case {
	const char *argv[6];
	bool interactive;
};

static void test_arguments(void **state)
{
	(void)state;
	static const struct args_case cases[] = {
		{ { "bash", NULL }, true },
		{ { "bash", "-i", NULL }, true },
		{ { "bash", "-l", NULL }, true },
		{ { "bash", "--login", NULL }, true },
		{ { "bash", "-il", "--noprofile", NULL }, true },
		{ { "bash", "--rcfile", "my.rc", NULL }, true },
		{ { "bash", "--init-file", "my.rc", "-i", NULL }, true },
		{ { "bash", "-o", "vi", NULL }, true },
		{ { "bash", "+O", "extglob", NULL }, true },
		{ { "bash", "-s", "arg1", "arg2", NULL }, true },
		{ { "bash", "-is", "--", "arg", NULL }, true },
		{ { "zsh", "--emulate", "sh", NULL }, true },
		{ { "bash", "--", NULL }, true },
		{ { "bash", "-", NULL }, true },
		{ { "bash", "-c", "echo hi", NULL }, false },
		{ { "bash", "-lc", "echo hi", NULL }, false },
		{ { "bash", "-i", "-c", "echo hi", NULL }, false },
		{ { "bash", "script.sh", NULL }, false },
		{ { "bash", "-l", "script.sh", "-i", NULL }, false },
		{ { "bash", "--", "script.sh", NULL }, false },
		{ { "bash", "-", "script.sh", NULL }, false },
		{ { "bash", "-o", "vi", "script.sh", NULL }, false },
		{ { "bash", "--rcfile", "my.rc", "script.sh", NULL }, false },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		bool got = shell_args_interactive((char *const *)cases[i].argv);
		if (got != cases[i].interactive)
			fail_msg("case %zu (%s %s %s ...): got %s", i, cases[i].argv[0],
				 cases[i].argv[1] ? cases[i].argv[1] : "",
				 cases[i].argv[1] && cases[i].argv[2] ? cases[i].argv[2] : "",
				 got ? "interactive" : "not interactive");
	}
}

/* root/rel: an executable file (a stand-in program) */
static void mk_exec(const char *rel)
{
	mk(rel, false);
	_cleanup_free_ char *p = at(rel);
	assert_int_equal(chmod(p, 0755), 0);
}

/* root/rel: a symbolic link to target */
static void mk_link(const char *target, const char *rel)
{
	_cleanup_free_ char *p = at(rel);
	assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state)
{
	(void)state;
	tree_make("test_shell");
	mk("bin", true);
	mk("alt", true);
	mk("ws", true);
	mk_exec("bin/bash");
	mk_exec("bin/dash");
	mk_exec("bin/ksh93");
	mk_link("dash", "bin/sh");          /* Debian's /bin/sh */
	mk_link("../bin/bash", "alt/sh");   /* Fedora's, macOS's */
	mk_link("../bin/ksh93", "alt/ksh"); /* an alternatives link */
	mk("bin/zsh", false);               /* not executable */
	mk_exec("ws/bash");                 /* found only through "." */
	return 0;
}

static void test_resolve(void **state)
{
	(void)state;
	_cleanup_free_ char *bin = at("bin"), *alt = at("alt"), *ws = at("ws");
	_cleanup_free_ char *bash = at("bin/bash"), *dash = at("bin/dash");
	_cleanup_free_ char *ksh = at("bin/ksh93"), *wsbash = at("ws/bash");
	_cleanup_free_ char *path = xasprintf("%s:%s", bin, alt);
	_cleanup_free_ char *alt_first = xasprintf("%s:%s", alt, bin);
	_cleanup_free_ char *dot_last = xasprintf("%s::%s", alt, bin);

	_cleanup_free_ char *a = shell_resolve("sh", path, ws);
	assert_string_equal(a, dash);
	_cleanup_free_ char *b = shell_resolve("sh", alt_first, ws);
	assert_string_equal(b, bash);
	_cleanup_free_ char *c = shell_resolve("ksh", path, ws);
	assert_string_equal(c, ksh);
	/* not executable: the search goes on, and finds nothing */
	assert_null(shell_resolve("zsh", path, ws));
	/* an empty entry is the current directory, in its place */
	_cleanup_free_ char *d = shell_resolve("bash", dot_last, ws);
	assert_string_equal(d, wsbash);
	_cleanup_free_ char *e = shell_resolve("bash", path, ws);
	assert_string_equal(e, bash);
	/* a name with a slash is not searched: relative to cwd */
	_cleanup_free_ char *f = shell_resolve("../alt/sh", path, ws);
	assert_string_equal(f, bash);
	assert_null(shell_resolve("./sh", path, ws));
	assert_null(shell_resolve("", path, ws));
}

static void test_commands(void **state)
{
	(void)state;
	_cleanup_free_ char *bin = at("bin"), *alt = at("alt"), *ws = at("ws");
	_cleanup_free_ char *debian = xasprintf("%s:%s", bin, alt);
	_cleanup_free_ char *fedora = xasprintf("%s:%s", alt, bin);
	_cleanup_free_ char *bash = at("bin/bash"), *altsh = at("alt/sh");
	char *sh[] = { "sh", NULL };
	char *bash_l[] = { "bash", "-l", NULL };
	char *bash_c[] = { "bash", "-c", "true", NULL };
	char *by_path[] = { bash, NULL };
	char *link_path[] = { altsh, "-i", NULL };
	char *ksh[] = { "ksh", NULL };
	char *zsh[] = { "zsh", NULL };
	char *none[] = { NULL };
	/* judged by the program found: sh is dash here, bash there */
	assert_false(shell_interactive_command(sh, debian, ws));
	assert_true(shell_interactive_command(sh, fedora, ws));
	assert_true(shell_interactive_command(bash_l, debian, ws));
	assert_false(shell_interactive_command(bash_c, debian, ws));
	assert_true(shell_interactive_command(by_path, debian, ws));
	assert_true(shell_interactive_command(link_path, debian, ws));
	assert_true(shell_interactive_command(ksh, debian, ws));
	assert_false(shell_interactive_command(zsh, debian, ws)); /* none to run */
	assert_false(shell_interactive_command(none, debian, ws));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_commands),
	};
	return unit_status(cmocka_run_group_tests(tests, setup, teardown));
}
