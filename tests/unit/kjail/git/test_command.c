/* SPDX-License-Identifier: MIT */
/* git_command_is_worktree_add: git worktree add in its plain forms, and
 * nothing that could run in another repository or is not that command. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"

#include "git/command.h"

#define IS(...) git_command_is_worktree_add((char *const[]){ __VA_ARGS__, NULL })

static void test_recognised(void **state)
{
	(void)state;
	assert_true(IS("git", "worktree", "add", "../w2"));
	assert_true(IS("/usr/bin/git", "worktree", "add", "-b", "x", "../w2"));
	assert_true(IS("git", "-c", "user.name=x", "--no-pager", "worktree", "add", "w"));
	assert_true(IS("git", "--config-env=core.editor=ED", "worktree", "add", "w"));
	assert_true(IS("git", "--config-env", "core.editor=ED", "-P", "worktree", "add"));
}

static void test_not_recognised(void **state)
{
	(void)state;
	assert_false(git_command_is_worktree_add(NULL));
	assert_false(IS("sh", "-c", "git worktree add w"));
	assert_false(IS("gitx", "worktree", "add", "w"));
	assert_false(IS("git", "worktree", "list"));
	assert_false(IS("git", "worktree"));
	assert_false(IS("git", "add", "worktree"));
	assert_false(IS("git", "status", "worktree", "add"));
	/* another repository, or an option this reader does not know */
	assert_false(IS("git", "-C", "/elsewhere", "worktree", "add", "w"));
	assert_false(IS("git", "--git-dir=/r/.git", "worktree", "add", "w"));
	assert_false(IS("git", "--work-tree", "/t", "worktree", "add", "w"));
	assert_false(IS("git", "--bare", "worktree", "add", "w"));
	assert_false(IS("git", "-c"));
	assert_false(IS("git", "-c", "a=b"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recognised),
		cmocka_unit_test(test_not_recognised),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
