/* SPDX-License-Identifier: MIT */
/* What the planner notes for the hints (planner/hints.c; plan.h's
 * agent_socket and repo_above): plan_build over a real tree of
 * repositories and a real socket, made under the build directory. */
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
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "planner/planner.h"
#include "util.h"

#include "../tree-fixture.h"

static int listener = -1;

static int setup(void **state)
{
	(void)state;
	tree_make("test_hints");
	static const char *const dirs[] = {
		"home", "repo", "repo/.git", "repo/sub", "repo/sub/deeper", "plain", "wt", "wt/sub",
		"dots", "dots/.git", "dots/proj", "run",
	};
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		mk(dirs[i], true);
	mk("wt/.git", false); /* a linked worktree's .git file */
	mk("run/stale.socket", false);
	_cleanup_free_ char *sock = at("run/agent.socket");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	if (strlen(sock) < sizeof sa.sun_path) {
		memcpy(sa.sun_path, sock, strlen(sock) + 1);
		listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		assert_true(listener >= 0);
		assert_int_equal(bind(listener, (struct sockaddr *)&sa, sizeof sa), 0);
	}
	return 0;
}

static int done(void **state)
{
	if (listener >= 0)
		close(listener);
	return teardown(state);
}

struct fixture {
	struct policy p;
	struct host h;
	struct plan pl;
	char err[1024];
	char *cwd, *home, *home_env;
};

/* What the host is like: the workspace (and current directory), the
 * account's home and $HOME (NULL: unset) under root, $SSH_AUTH_SOCK, the
 * caller's environment. */
struct host_is {
	const char *ws, *home, *home_env, *sock;
	char **env;
};

static void build(struct fixture *f, const struct host_is *is)
{
	memset(f, 0, sizeof *f);
	policy_init(&f->p);
	f->cwd = at(is->ws);
	f->home = at(is->home ? is->home : "home");
	f->home_env = is->home_env ? at(is->home_env) : NULL;
	f->h.cwd = f->cwd;
	f->h.home = f->home;
	f->h.home_env = f->home_env;
	f->h.ssh_auth_sock = is->sock;
	f->h.uid = 4242;
	f->h.self = "/usr/bin/kjail";
	f->h.dry_run = true;
	f->h.env = is->env;
	assert_true(plan_build(&f->p, &f->h, is->env, &f->pl, f->err, sizeof f->err));
}

static void fx_free(struct fixture *f)
{
	plan_free(&f->pl);
	policy_free(&f->p);
	free(f->cwd);
	free(f->home);
	free(f->home_env);
}

/* pl->repo_above is root/want (want NULL: none) */
static void expect_repo(const struct host_is *is, const char *want)
{
	struct fixture f;
	build(&f, is);
	_cleanup_free_ char *p = want ? at(want) : NULL;
	if (!want && f.pl.repo_above)
		fail_msg("workspace %s: expected no repository above, got %s", is->ws,
			 f.pl.repo_above);
	if (want && (!f.pl.repo_above || strcmp(f.pl.repo_above, p) != 0))
		fail_msg("workspace %s: expected %s, got %s", is->ws, p,
			 f.pl.repo_above ? f.pl.repo_above : "none");
	fx_free(&f);
}

static void test_repo_above(void **state)
{
	(void)state;
	expect_repo(&(struct host_is){ .ws = "repo/sub" }, "repo");
	expect_repo(&(struct host_is){ .ws = "repo/sub/deeper" }, "repo");
	expect_repo(&(struct host_is){ .ws = "repo" }, NULL); /* the top itself */
	expect_repo(&(struct host_is){ .ws = "wt/sub" }, "wt"); /* a .git file counts */
	expect_repo(&(struct host_is){ .ws = "wt" }, NULL);
	/* git searches nothing with $GIT_DIR set */
	char *git_dir[] = { "GIT_DIR=/elsewhere", NULL };
	expect_repo(&(struct host_is){ .ws = "repo/sub", .env = git_dir }, NULL);
	/* nor in a ceiling, nor above it */
	_cleanup_free_ char *c1 = xasprintf("GIT_CEILING_DIRECTORIES=/nowhere:%s/repo", root);
	char *ceiling1[] = { c1, NULL };
	expect_repo(&(struct host_is){ .ws = "repo/sub/deeper", .env = ceiling1 }, NULL);
	_cleanup_free_ char *c2 = xasprintf("GIT_CEILING_DIRECTORIES=%s/repo/sub/", root);
	char *ceiling2[] = { c2, NULL };
	expect_repo(&(struct host_is){ .ws = "repo/sub/deeper", .env = ceiling2 }, NULL);
	_cleanup_free_ char *c3 = xasprintf("GIT_CEILING_DIRECTORIES=%s", root);
	char *ceiling3[] = { c3, NULL };
	expect_repo(&(struct host_is){ .ws = "repo/sub/deeper", .env = ceiling3 }, "repo");
	/* stopped at root: the build tree's own checkout does not count */
	expect_repo(&(struct host_is){ .ws = "plain", .env = ceiling3 }, NULL);
}

/* A repository holding the home (dotfiles): -C there is no advice. */
static void test_repo_holding_home(void **state)
{
	(void)state;
	expect_repo(&(struct host_is){ .ws = "dots/proj" }, "dots");
	expect_repo(&(struct host_is){ .ws = "dots/proj", .home = "dots" }, NULL);
	expect_repo(&(struct host_is){ .ws = "dots/proj", .home_env = "dots" }, NULL);
	expect_repo(&(struct host_is){ .ws = "dots/proj", .home_env = "dots/proj" }, NULL);
}

static void test_agent_socket(void **state)
{
	(void)state;
	if (listener < 0)
		skip(); /* the build directory's path is too long for a socket */
	_cleanup_free_ char *sock = at("run/agent.socket");
	struct fixture f;
	build(&f, &(struct host_is){ .ws = "plain" });
	assert_null(f.pl.agent_socket);
	fx_free(&f);

	build(&f, &(struct host_is){ .ws = "plain", .sock = sock });
	assert_non_null(f.pl.agent_socket);
	assert_string_equal(f.pl.agent_socket, sock);
	fx_free(&f);

	/* relative, as ssh takes it: from the current directory */
	build(&f, &(struct host_is){ .ws = "run", .sock = "agent.socket" });
	assert_non_null(f.pl.agent_socket);
	assert_string_equal(f.pl.agent_socket, sock);
	fx_free(&f);

	/* a stale variable (no socket there, or no socket but a file): none */
	static const char *const stale[] = { "run/gone.socket", "run/stale.socket", "run" };
	for (size_t i = 0; i < ARRAY_SIZE(stale); i++) {
		_cleanup_free_ char *p = at(stale[i]);
		build(&f, &(struct host_is){ .ws = "plain", .sock = p });
		if (f.pl.agent_socket)
			fail_msg("SSH_AUTH_SOCK=%s: expected no agent socket noted", p);
		fx_free(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repo_above),
		cmocka_unit_test(test_repo_holding_home),
		cmocka_unit_test(test_agent_socket),
	};
	return unit_status(cmocka_run_group_tests(tests, setup, done));
}
