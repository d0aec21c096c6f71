/* SPDX-License-Identifier: MIT */
/* The hints in words (build/hints.h), over plans built by hand: each
 * line exactly, and none where the plan already gives what it would name. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <string.h>

#include "build/hints.h"
#include "util.h"

/* A top-level directory no host has: nothing here looks at the host. */
#define NX "/kjail-test-nonexistent"

#define AGENT_LINE                                                              \
	"SSH_AUTH_SOCK points at an ssh-agent the jail cannot reach; --allow-socket " \
	"ssh-agent lets git and ssh use it"

/* The jail of the defaults around workspace NX/repo/sub. */
static void base_plan(struct plan *pl)
{
	memset(pl, 0, sizeof *pl);
	pl->backend = BACKEND_BWRAP;
	pl->workspace = xstrdup(NX "/repo/sub");
	pl->inside_id = -1;
	plan_add(pl, OP_RO_ROOT, "/", "read-only", "host root");
	plan_add(pl, OP_DEV, "/dev", "private", "minimal /dev");
	plan_add(pl, OP_PROC, "/proc", "private", "the jail's own processes");
	plan_add(pl, OP_TMP, "/tmp", "private", "empty tmpfs");
	plan_add(pl, OP_BIND, NX "/repo/sub", "workspace", "current directory");
	plan_add(pl, OP_MASK_DIR, NX "/run/user/1000", "masked", "built-in: agent sockets");
}

/* hints_build's lines, joined by newlines; a fresh string */
static char *hints_of(const struct plan *pl)
{
	struct strv v = STRV_INIT;
	hints_build(pl, &v);
	char *all = xstrdup("");
	for (size_t i = 0; i < v.n; i++) {
		char *next = xasprintf("%s%s%s", all, i ? "\n" : "", v.v[i]);
		free(all);
		all = next;
	}
	strv_free(&v);
	return all;
}

static void expect(const struct plan *pl, const char *want)
{
	_cleanup_free_ char *got = hints_of(pl);
	assert_string_equal(got, want);
}

static void test_none(void **state)
{
	(void)state;
	struct plan pl;
	base_plan(&pl);
	expect(&pl, "");
	plan_free(&pl);
}

static void test_agent(void **state)
{
	(void)state;
	struct plan pl;
	/* under a mask, the variable scrubbed: the defaults */
	base_plan(&pl);
	pl.agent_socket = NX "/run/user/1000/ssh-agent.socket";
	expect(&pl, AGENT_LINE);
	/* the variable kept (--keep-env): still masked */
	strv_push(&pl.env, "SSH_AUTH_SOCK=" NX "/run/user/1000/ssh-agent.socket");
	expect(&pl, AGENT_LINE);
	plan_free(&pl);

	/* under the jail's own /tmp (ssh -A, ssh-agent's default) */
	base_plan(&pl);
	strv_push(&pl.env, "SSH_AUTH_SOCK=/tmp/ssh-XXXX/agent.1");
	pl.agent_socket = "/tmp/ssh-XXXX/agent.1";
	expect(&pl, AGENT_LINE);
	plan_free(&pl);

	/* --no-defaults: neither masked nor scrubbed, so it is reached */
	base_plan(&pl);
	strv_push(&pl.env, "SSH_AUTH_SOCK=" NX "/home/u/agent.sock");
	pl.agent_socket = NX "/home/u/agent.sock";
	expect(&pl, "");
	/* a variable of a similar name is not the one */
	free(pl.env.v[0]);
	pl.env.v[0] = xstrdup("SSH_AUTH_SOCKET=" NX "/home/u/agent.sock");
	expect(&pl, AGENT_LINE);
	plan_free(&pl);

	/* --allow-socket ssh-agent: bound through the mask, the variable kept */
	base_plan(&pl);
	pl.agent_socket = NX "/run/user/1000/ssh-agent.socket";
	plan_add(&pl, OP_SOCKET, NX "/run/user/1000/ssh-agent.socket", "allowed socket: ssh-agent",
		 "--allow-socket");
	strv_push(&pl.env, "SSH_AUTH_SOCK=" NX "/run/user/1000/ssh-agent.socket");
	expect(&pl, "");
	plan_free(&pl);

	/* allowed by its path only: bound, but git and ssh do not find it */
	base_plan(&pl);
	pl.agent_socket = NX "/run/user/1000/ssh-agent.socket";
	plan_add(&pl, OP_SOCKET, NX "/run/user/1000/ssh-agent.socket", "allowed socket: ssh-agent",
		 "--allow-socket");
	expect(&pl, AGENT_LINE);
	plan_free(&pl);

	/* no backend jail at all */
	base_plan(&pl);
	pl.agent_socket = NX "/run/user/1000/ssh-agent.socket";
	pl.backend = BACKEND_CONTAINER;
	expect(&pl, "");
	plan_free(&pl);
}

static void test_repository(void **state)
{
	(void)state;
	struct plan pl;
	base_plan(&pl);
	pl.repo_above = NX "/repo";
	expect(&pl, "the workspace is a subdirectory of the git repository " NX "/repo, whose "
		    ".git stays read-only (git commit fails); -C " NX "/repo makes the whole "
		    "repository the workspace");
	/* --writable REPO: its .git is writable already */
	plan_add(&pl, OP_BIND, NX "/repo", "writable path", "--writable");
	expect(&pl, "");
	plan_free(&pl);

	/* a path the shell would split is quoted, to paste as it is */
	base_plan(&pl);
	pl.repo_above = NX "/my repo";
	expect(&pl, "the workspace is a subdirectory of the git repository '" NX "/my repo', "
		    "whose .git stays read-only (git commit fails); -C '" NX "/my repo' makes "
		    "the whole repository the workspace");
	plan_free(&pl);

	/* both, in this order */
	base_plan(&pl);
	pl.repo_above = NX "/repo";
	pl.agent_socket = "/tmp/agent";
	_cleanup_free_ char *got = hints_of(&pl);
	assert_true(str_has_prefix(got, AGENT_LINE "\nthe workspace is a subdirectory"));
	plan_free(&pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_agent),
		cmocka_unit_test(test_repository),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
