/* SPDX-License-Identifier: MIT */
/* The jail of git after a run (planner/gitjail.h): from a run's plan,
 * nothing writable but its own /tmp, the run's masks kept, the home
 * hidden with what git needs bound read-only inside it, no network, no
 * socket, no policy file; and bwrap's argv built from it says so. */
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

#include "build/bwrap.h"
#include "planner/gitjail.h"
#include "util.h"

static void base_plan(struct plan *pl)
{
	memset(pl, 0, sizeof *pl);
	pl->backend = BACKEND_BWRAP;
	pl->workspace = xstrdup("/home/u/ws");
	pl->network = true;
	pl->net = NET_SHARED;
	pl->inside_id = -1;
	plan_add(pl, OP_RO_ROOT, "/", "host", "built-in");
	plan_add(pl, OP_DEV, "/dev", "dev", "built-in");
	plan_add(pl, OP_PROC, "/proc", "proc", "built-in");
	plan_add(pl, OP_TMP, "/tmp", "tmp", "built-in");
	plan_add(pl, OP_BIND, "/home/u/ws", "workspace", "built-in");
	plan_add(pl, OP_PIN, "/home/u/ws/.git", "pinned", "built-in");
	plan_add(pl, OP_PROTECT, "/home/u/ws/.git/config", "protected: git config", "built-in");
	plan_add(pl, OP_MASK_DIR, "/home/u/.ssh", "masked", "built-in");
	struct op *f = plan_add(pl, OP_MASK_FILE, "/home/u/ws/.npmrc", "filtered", "built-in");
	f->data = xstrdup("registry=x\n");
	f->len = strlen(f->data);
	plan_add(pl, OP_MASK_DIR, "/home/u/.cache/kjail/ws", "masked", "built-in");
	plan_add(pl, OP_POLICY, KJ_POLICY_DIR, "policy", "built-in");
	plan_add(pl, OP_BIND, "/home/u/.cache/kjail/ws/K", "cache", "built-in")->inner = true;
	plan_add(pl, OP_SOCKET, "/run/agent.sock", "socket", "--allow-socket");
	strv_push(&pl->env, "SECRET_FROM_RUN=1");
}

static void test_plan(void **state)
{
	(void)state;
	struct plan base, g;
	base_plan(&base);
	const char *const ro[] = { "/home/u/bin/git", NULL };
	struct gitjail_file file = { .path = "/tmp/.kjail-index-before", .data = "DIRC", .len = 4 };
	char *const env[] = { "HOME=/nonexistent", "GIT_CONFIG_NOSYSTEM=1", NULL };
	gitjail_plan(&base, "/home/u/ws", "/home/u", ro, &file, env, &g);
	assert_false(g.network);
	assert_int_equal(g.net, NET_NONE);
	assert_false(g.proxied);
	assert_string_equal(g.workspace, "/home/u/ws");
	assert_int_equal(g.env.n, 2);
	assert_string_equal(g.env.v[0], "HOME=/nonexistent");
	static const struct {
		enum op_kind kind;
		const char *path;
		bool inner;
	} want[] = {
		{ OP_RO_ROOT, "/", false },
		{ OP_DEV, "/dev", false },
		{ OP_PROC, "/proc", false },
		{ OP_TMP, "/tmp", false },
		{ OP_MASK_DIR, "/home/u", false },
		{ OP_PROTECT, "/home/u/bin/git", true },
		{ OP_PROTECT, "/home/u/ws", true },
		{ OP_PROTECT, "/home/u/ws/.git/config", true },
		{ OP_MASK_DIR, "/home/u/.ssh", true },
		{ OP_MASK_FILE, "/home/u/ws/.npmrc", true },
		{ OP_MASK_DIR, "/home/u/.cache/kjail/ws", true },
		{ OP_PROTECT, "/home/u/.cache/kjail/ws/K", true },
		{ OP_MASK_FILE, "/tmp/.kjail-index-before", true },
	};
	assert_int_equal(g.nops, ARRAY_SIZE(want));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		if (g.ops[i].kind != want[i].kind || strcmp(g.ops[i].path, want[i].path) != 0 ||
		    g.ops[i].inner != want[i].inner)
			fail_msg("op %zu: kind %d %s inner %d, want kind %d %s inner %d", i,
				 g.ops[i].kind, g.ops[i].path, g.ops[i].inner, want[i].kind,
				 want[i].path, want[i].inner);
	}
	/* the filtered copy is not served: masked empty; the index copy is */
	assert_null(g.ops[9].data);
	assert_int_equal(g.ops[12].len, 4);
	assert_memory_equal(g.ops[12].data, "DIRC", 4);

	/* bwrap's argv: nothing bound writable, no network, the home's
	 * tmpfs read-only only after what is bound in it */
	int masks[3] = { 10, 11, 12 };
	struct jail_fds fds = { .status = 3, .user_err = 4, .seccomp = 5, .policy = 6,
				.masks = masks, .nmasks = 3, .sockets = NULL, .nsockets = 0,
				.net_log = -1, .proxy = -1 };
	struct strv a = STRV_INIT;
	char *const cmd[] = { "/usr/bin/git", "ls-files", NULL };
	bwrap_build(&g, "/usr/bin/bwrap", "/usr/lib/kjail-entry", &fds, cmd, &a);
	ssize_t tmpfs_home = -1, ro_ws = -1, remount_home = -1;
	bool unshare_net = false;
	for (size_t i = 0; i < a.n; i++) {
		if (strcmp(a.v[i], "--bind") == 0 || strcmp(a.v[i], "--bind-try") == 0)
			fail_msg("a writable bind: %s %s", a.v[i], i + 1 < a.n ? a.v[i + 1] : "");
		if (str_has_prefix(a.v[i], "--rw=") && strcmp(a.v[i], "--rw=/tmp") != 0 &&
		    strcmp(a.v[i], "--rw=/dev") != 0 && strcmp(a.v[i], "--rw=/proc") != 0)
			fail_msg("writable for Landlock: %s", a.v[i]);
		if (strcmp(a.v[i], "--setenv") == 0 && i + 1 < a.n &&
		    strcmp(a.v[i + 1], "SECRET_FROM_RUN") == 0)
			fail_msg("the run's environment reached git's jail");
		if (strcmp(a.v[i], "--unshare-net") == 0)
			unshare_net = true;
		if (i + 1 < a.n && strcmp(a.v[i], "--tmpfs") == 0 && strcmp(a.v[i + 1], "/home/u") == 0)
			tmpfs_home = (ssize_t)i;
		if (i + 2 < a.n && strcmp(a.v[i], "--ro-bind") == 0 &&
		    strcmp(a.v[i + 1], "/home/u/ws") == 0)
			ro_ws = (ssize_t)i;
		if (i + 1 < a.n && strcmp(a.v[i], "--remount-ro") == 0 &&
		    strcmp(a.v[i + 1], "/home/u") == 0)
			remount_home = (ssize_t)i;
		if (strstr(a.v[i], "agent.sock") || strcmp(a.v[i], KJ_POLICY_DIR) == 0 ||
		    strstr(a.v[i], KJ_POLICY_DIR "/"))
			fail_msg("the run's socket or policy reached git's jail: %s", a.v[i]);
	}
	assert_true(unshare_net);
	assert_true(tmpfs_home >= 0 && ro_ws > tmpfs_home && remount_home > ro_ws);
	strv_free(&a);
	plan_free(&g);
	plan_free(&base);
}

/* No home to hide ("/", or none): nothing marked inner, no mask added. */
static void test_no_home(void **state)
{
	(void)state;
	struct plan base, g;
	base_plan(&base);
	char *const env[] = { NULL };
	gitjail_plan(&base, "/home/u/ws", "/", NULL, NULL, env, &g);
	for (size_t i = 0; i < g.nops; i++) {
		assert_false(g.ops[i].inner);
		assert_true(g.ops[i].kind != OP_BIND && g.ops[i].kind != OP_SOCKET &&
			    g.ops[i].kind != OP_POLICY && g.ops[i].kind != OP_PIN);
		if (g.ops[i].kind == OP_MASK_DIR)
			assert_string_not_equal(g.ops[i].path, "/");
	}
	assert_int_equal(g.env.n, 0);
	plan_free(&g);
	plan_free(&base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_no_home),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
