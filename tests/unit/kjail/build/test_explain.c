/* SPDX-License-Identifier: MIT */
/* --explain: the verdict on a path, its rule and origin, in words and as
 * JSON, over plans built by hand (as bwrap.c's tests do) and by plan_build
 * over a real tree (made under the build directory, like test_host's). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build/explain.h"
#include "path.h"

/* A top-level directory no host has: paths under it resolve to themselves
 * and fall under no mount but the read-only root. */
#define NX "/kjail-test-nonexistent"

#include "../plan-fixture.h"

static int setup(void **state)
{
	(void)state;
	tree_make("test_explain");
	static const char *const dirs[] = { "home", "home/.aws", "home/proj", "ws", "ws/.git",
					    "ws/.git/hooks", "cache" };
	static const char *const files[] = { "home/.aws/credentials", "home/.netrc", "home/.bashrc",
					     "home/proj/secret.txt", "ws/secret.txt", "cache/.envrc" };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		mk(dirs[i], true);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		mk(files[i], false);
	_cleanup_free_ char *link = at("ws/link-to-aws");
	_cleanup_free_ char *aws = at("home/.aws");
	assert_int_equal(symlink(aws, link), 0);
	return 0;
}

/* What plan_build makes of the defaults with workspace ws, --writable cache
 * and --deny-read ws/secret.txt, in its order, with its rules and origins. */
static void hand_plan(struct plan *pl)
{
	_cleanup_free_ char *ws = at("ws"), *cache = at("cache"), *git = at("ws/.git");
	_cleanup_free_ char *hooks = at("ws/.git/hooks"), *envrc = at("cache/.envrc");
	_cleanup_free_ char *aws = at("home/.aws"), *netrc = at("home/.netrc");
	_cleanup_free_ char *secret = at("ws/secret.txt");
	_cleanup_free_ char *in_ws = xasprintf("built-in protection inside writable %s", ws);
	_cleanup_free_ char *in_cache = xasprintf("built-in protection inside writable %s", cache);
	plan_empty(pl, BACKEND_BWRAP, ws);
	pl->network = true;
	plan_jail_mounts(pl);
	plan_add(pl, OP_POLICY, "/tmp/.kjail", "kjail's own policy, as JSON", "built-in");
	plan_add_workspace(pl);
	plan_add(pl, OP_BIND, cache, "writable path", "--writable");
	plan_add(pl, OP_PIN, git, "pinned: ancestor of a protected path", in_ws);
	plan_add(pl, OP_PROTECT, hooks, "protected: git hooks", in_ws);
	plan_add(pl, OP_PROTECT, envrc, "protected: direnv script", in_cache);
	plan_add(pl, OP_MASK_DIR, aws, "masked", "built-in credential store");
	plan_add(pl, OP_MASK_FILE, netrc, "masked", "built-in credential store");
	plan_add(pl, OP_MASK_FILE, secret, "masked", "--deny-read");
}

struct want {
	const char *path;     /* under root, or as asked when it starts with '/' or "./" (ws) */
	const char *resolved; /* relative to root, or absolute when it starts with '/' */
	const char *what, *rule, *origin;
	bool origin_at;       /* origin is "built-in protection inside writable " + root/origin */
};

static void check_verdicts(const struct plan *pl, const struct want *w, size_t n)
{
	_cleanup_free_ char *ws = at("ws");
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *asked = w[i].path[0] == '/' || w[i].path[0] == '.'
						     ? xstrdup(w[i].path)
						     : at(w[i].path);
		_cleanup_free_ char *resolved = w[i].resolved[0] == '/' ? xstrdup(w[i].resolved)
									: at(w[i].resolved);
		_cleanup_free_ char *origin = w[i].origin_at
						      ? xasprintf("built-in protection inside writable %s/%s",
								  root, w[i].origin)
						      : xstrdup(w[i].origin);
		struct verdict v;
		explain_verdict(pl, asked, ws, &v);
		if (strcmp(v.path, resolved) != 0 || strcmp(v.what, w[i].what) != 0 ||
		    strcmp(v.rule, w[i].rule) != 0 || strcmp(v.origin, origin) != 0)
			fail_msg("%s: got %s: %s (%s; %s), expected %s: %s (%s; %s)", w[i].path,
				 v.path, v.what, v.rule, v.origin, resolved, w[i].what, w[i].rule,
				 origin);
		free(v.path);
	}
}

static void test_verdicts_on_a_hand_built_plan(void **state)
{
	(void)state;
	struct plan pl;
	hand_plan(&pl);
	static const struct want w[] = {
		/* a credential store: the directory, what lies in it, the file */
		{ "home/.aws", "home/.aws", "masked", "masked", "built-in credential store", false },
		{ "home/.aws/credentials", "home/.aws/credentials", "masked", "masked",
		  "built-in credential store", false },
		{ "home/.netrc", "home/.netrc", "masked", "masked", "built-in credential store", false },
		/* reached through a link in the workspace: the target's verdict */
		{ "ws/link-to-aws/credentials", "home/.aws/credentials", "masked", "masked",
		  "built-in credential store", false },
		/* the workspace, and a path relative to it */
		{ "ws/src/main.c", "ws/src/main.c", "writable", "workspace", "current directory", false },
		{ "./src/main.c", "ws/src/main.c", "writable", "workspace", "current directory", false },
		{ "ws", "ws", "writable", "workspace", "current directory", false },
		/* --deny-read inside the workspace: the mask comes after the bind */
		{ "ws/secret.txt", "ws/secret.txt", "masked", "masked", "--deny-read", false },
		{ "./secret.txt", "ws/secret.txt", "masked", "masked", "--deny-read", false },
		/* protected inside writable roots */
		{ "ws/.git/hooks/pre-commit", "ws/.git/hooks/pre-commit", "read-only",
		  "protected: git hooks", "ws", true },
		{ "ws/.git/HEAD", "ws/.git/HEAD", "writable", "pinned: ancestor of a protected path",
		  "ws", true },
		{ "cache/.envrc", "cache/.envrc", "read-only", "protected: direnv script", "cache", true },
		{ "cache/pip/x", "cache/pip/x", "writable", "writable path", "--writable", false },
		/* the jail's own areas */
		{ "/tmp/kjail-test-nonexistent/x", "/tmp/kjail-test-nonexistent/x", "private",
		  "private", "empty tmpfs", false },
		{ "/dev/kjail-test-nonexistent", "/dev/kjail-test-nonexistent", "private", "private",
		  "minimal /dev", false },
		/* the rest of the host */
		{ NX "/etc/passwd", NX "/etc/passwd", "read-only", "read-only", "host root", false },
		{ NX "/a/../b", NX "/b", "read-only", "read-only", "host root", false },
	};
	check_verdicts(&pl, w, ARRAY_SIZE(w));
	plan_free(&pl);
}

/* A file mask covers its own name only; a directory mask whole components
 * below it. */
static void test_mask_reach(void **state)
{
	(void)state;
	struct plan pl;
	plan_empty(&pl, BACKEND_BWRAP, NULL);
	plan_add(&pl, OP_RO_ROOT, "/", "read-only", "host root");
	plan_add(&pl, OP_MASK_DIR, NX "/home/.aws", "masked", "built-in credential store");
	plan_add(&pl, OP_MASK_FILE, NX "/home/.netrc", "masked", "cfg.ini:3");
	static const struct want w[] = {
		{ NX "/home/.aws/config", NX "/home/.aws/config", "masked", "masked",
		  "built-in credential store", false },
		{ NX "/home/.aws2", NX "/home/.aws2", "read-only", "read-only", "host root", false },
		{ NX "/home/.netrc", NX "/home/.netrc", "masked", "masked", "cfg.ini:3", false },
		{ NX "/home/.netrc.bak", NX "/home/.netrc.bak", "read-only", "read-only", "host root",
		  false },
		{ NX "/home/.netrc/x", NX "/home/.netrc/x", "read-only", "read-only", "host root",
		  false },
		{ NX "/home", NX "/home", "read-only", "read-only", "host root", false },
	};
	check_verdicts(&pl, w, ARRAY_SIZE(w));
	plan_free(&pl);
}

/* No op covers the path (a plan without the root bind): still read-only,
 * and said to be the host root's doing. */
static void test_verdict_outside_every_op(void **state)
{
	(void)state;
	struct plan pl;
	plan_empty(&pl, BACKEND_BWRAP, NULL);
	plan_add(&pl, OP_TMP, "/tmp", "private", "empty tmpfs");
	struct verdict v;
	explain_verdict(&pl, NX "/x", "/", &v);
	assert_string_equal(v.path, NX "/x");
	assert_string_equal(v.what, "read-only");
	assert_string_equal(v.rule, "read-only");
	assert_string_equal(v.origin, "host root");
	free(v.path);
	plan_free(&pl);
}

/* The same verdicts from the plan kjail builds: home as the workspace (so
 * its masks lie in a writable root, and the test holds wherever the build
 * directory is), a --writable directory and a --deny-read file. */
static void test_verdicts_on_a_built_plan(void **state)
{
	(void)state;
	struct fixture f;
	fx_init_in(&f, true, "home");
	_cleanup_free_ char *cache = at("cache");
	_cleanup_free_ char *secret = at("home/proj/secret.txt");
	f.p.workspace = xstrdup(f.ws);
	str_set(&f.p.workspace_origin, "--workspace");
	entry_add(&f.p.writable, cache, "--writable");
	entry_add(&f.p.deny_read, secret, "--deny-read");
	char *envp[] = { NULL };
	if (!fx_build(&f, envp))
		fail_msg("plan_build: %s", f.err);
	static const struct want w[] = {
		{ "home/.aws/credentials", "home/.aws/credentials", "masked", "masked",
		  "built-in credential store", false },
		{ "home/.netrc", "home/.netrc", "masked", "masked", "built-in credential store", false },
		{ "home/proj/secret.txt", "home/proj/secret.txt", "masked", "masked", "--deny-read",
		  false },
		{ "home/proj/main.c", "home/proj/main.c", "writable", "workspace", "--workspace", false },
		{ "home/.bashrc", "home/.bashrc", "read-only", "protected: shell startup file", "home",
		  true },
		{ "cache/.envrc", "cache/.envrc", "read-only", "protected: direnv script", "cache", true },
		{ "cache/new", "cache/new", "writable", "writable path", "--writable", false },
		{ "/tmp/kjail-test-nonexistent", "/tmp/kjail-test-nonexistent", "private", "private",
		  "empty tmpfs", false },
		{ "/proc/kjail-test-nonexistent", "/proc/kjail-test-nonexistent", "private", "private",
		  "the jail's own processes", false },
		{ "/tmp/.kjail/policy.json", "/tmp/.kjail/policy.json", "read-only",
		  "kjail's own policy, as JSON", "built-in", false },
		{ NX "/etc/passwd", NX "/etc/passwd", "read-only", "read-only", "host root", false },
	};
	check_verdicts(&f.pl, w, ARRAY_SIZE(w));
	fx_free(&f);
}

/* What a FILE* received, as a string the caller frees. */
struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

static void cap_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
}

static char *cap_close(struct capture *c)
{
	assert_int_equal(fclose(c->f), 0);
	return c->buf;
}

/* The text form: "PATH: VERDICT (ORIGIN)" when the rule only repeats the
 * verdict, "(RULE; ORIGIN)" otherwise, "-> RESOLVED" when that differs. */
static void test_paths_text(void **state)
{
	(void)state;
	struct plan pl;
	hand_plan(&pl);
	_cleanup_free_ char *ws = at("ws"), *secret = at("ws/secret.txt");
	_cleanup_free_ char *hooks = at("ws/.git/hooks"), *link = at("ws/link-to-aws");
	char *paths[] = { secret, "src/main.c", hooks, link, NX, NULL };
	struct capture c;
	cap_open(&c);
	explain_paths(c.f, &pl, ws, paths, false);
	_cleanup_free_ char *got = cap_close(&c);
	_cleanup_free_ char *want = xasprintf(
		"%s/ws/secret.txt: masked (--deny-read)\n"
		"src/main.c: writable (workspace; current directory) -> %s/ws/src/main.c\n"
		"%s/ws/.git/hooks: read-only (protected: git hooks; "
		"built-in protection inside writable %s/ws)\n"
		"%s/ws/link-to-aws: masked (built-in credential store) -> %s/home/.aws\n"
		NX ": read-only (host root)\n",
		root, root, root, root, root, root);
	assert_string_equal(got, want);
	plan_free(&pl);
}

static void expect_verdict(json_t *o, const char *path, const char *resolved, const char *verdict,
			   const char *rule, const char *origin)
{
	assert_true(json_is_object(o));
	assert_int_equal(json_object_size(o), 5);
	assert_string_equal(json_string_value(json_object_get(o, "path")), path);
	assert_string_equal(json_string_value(json_object_get(o, "resolved")), resolved);
	assert_string_equal(json_string_value(json_object_get(o, "verdict")), verdict);
	assert_string_equal(json_string_value(json_object_get(o, "rule")), rule);
	assert_string_equal(json_string_value(json_object_get(o, "origin")), origin);
}

static void test_paths_json(void **state)
{
	(void)state;
	struct plan pl;
	hand_plan(&pl);
	_cleanup_free_ char *ws = at("ws"), *aws = at("home/.aws"), *link = at("ws/link-to-aws");
	_cleanup_free_ char *main_c = at("ws/src/main.c");
	char *paths[] = { "src/main.c", link, "/tmp", NULL };
	struct capture c;
	cap_open(&c);
	explain_paths(c.f, &pl, ws, paths, true);
	_cleanup_free_ char *got = cap_close(&c);
	/* one line */
	assert_non_null(strchr(got, '\n'));
	assert_string_equal(strchr(got, '\n'), "\n");
	json_error_t jerr;
	json_t *doc = json_loads(got, 0, &jerr);
	if (!doc)
		fail_msg("not JSON (%s): %s", jerr.text, got);
	assert_string_equal(json_string_value(json_object_get(doc, "type")), "verdicts");
	json_t *v = json_object_get(doc, "verdicts");
	assert_true(json_is_array(v));
	assert_int_equal(json_array_size(v), 3);
	expect_verdict(json_array_get(v, 0), "src/main.c", main_c, "writable", "workspace",
		       "current directory");
	expect_verdict(json_array_get(v, 1), link, aws, "masked", "masked",
		       "built-in credential store");
	expect_verdict(json_array_get(v, 2), "/tmp", "/tmp", "private", "private", "empty tmpfs");
	json_decref(doc);
	plan_free(&pl);
}

/* The mount with this path in a policy document's "mounts". */
static json_t *mount_at(json_t *doc, const char *path)
{
	json_t *m = json_object_get(doc, "mounts");
	assert_true(json_is_array(m));
	for (size_t i = 0; i < json_array_size(m); i++) {
		json_t *o = json_array_get(m, i);
		if (strcmp(json_string_value(json_object_get(o, "path")), path) == 0)
			return o;
	}
	fail_msg("no mount at %s", path);
	return NULL;
}

static void expect_mount(json_t *doc, const char *path, const char *verdict, const char *rule,
			 const char *origin, const char *kind)
{
	json_t *o = mount_at(doc, path);
	assert_string_equal(json_string_value(json_object_get(o, "verdict")), verdict);
	assert_string_equal(json_string_value(json_object_get(o, "rule")), rule);
	assert_string_equal(json_string_value(json_object_get(o, "origin")), origin);
	assert_string_equal(json_string_value(json_object_get(o, "kind")), kind);
}

static void test_policy_json(void **state)
{
	(void)state;
	struct plan pl;
	hand_plan(&pl);
	entry_add(&pl.skipped, NX "/gone", "missing, nothing to mask (--deny-read)");
	entry_add(&pl.env_removed, "AWS_SECRET_ACCESS_KEY", "built-in secret");
	struct policy p;
	policy_init(&p);
	_cleanup_free_ char *ws = at("ws"), *secret = at("ws/secret.txt"), *aws = at("home/.aws");
	_cleanup_free_ char *hooks = at("ws/.git/hooks");
	_cleanup_free_ char *in_ws = xasprintf("built-in protection inside writable %s", ws);

	/* the jail's copy: no seccomp list, no skipped paths */
	_cleanup_free_ char *jail = explain_policy_for_jail(&p, &pl, "/usr/bin/bwrap");
	json_error_t jerr;
	json_t *doc = json_loads(jail, 0, &jerr);
	if (!doc)
		fail_msg("not JSON (%s): %s", jerr.text, jail);
	assert_string_equal(json_string_value(json_object_get(doc, "type")), "policy");
	assert_string_equal(json_string_value(json_object_get(doc, "backend")), "bwrap");
	assert_string_equal(json_string_value(json_object_get(doc, "bwrap")), "/usr/bin/bwrap");
	assert_string_equal(json_string_value(json_object_get(doc, "workspace")), ws);
	assert_true(json_is_true(json_object_get(json_object_get(doc, "network"), "enabled")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(doc, "network"),
							      "origin")),
			    "built-in default");
	assert_int_equal(json_array_size(json_object_get(doc, "mounts")), pl.nops);
	expect_mount(doc, "/", "read-only", "read-only", "host root", "directory");
	expect_mount(doc, "/tmp", "private", "private", "empty tmpfs", "directory");
	expect_mount(doc, ws, "writable", "workspace", "current directory", "directory");
	expect_mount(doc, hooks, "read-only", "protected: git hooks", in_ws, "directory");
	expect_mount(doc, aws, "masked", "masked", "built-in credential store", "directory");
	expect_mount(doc, secret, "masked", "masked", "--deny-read", "file");
	json_t *unset = json_object_get(doc, "env_unset");
	assert_int_equal(json_array_size(unset), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(unset, 0), "name")),
			    "AWS_SECRET_ACCESS_KEY");
	assert_string_equal(json_string_value(json_object_get(json_array_get(unset, 0), "rule")),
			    "built-in secret");
	assert_null(json_object_get(doc, "seccomp"));
	assert_null(json_object_get(doc, "skipped"));
	json_decref(doc);

	/* --explain --json: the same, and those two */
	struct capture c;
	cap_open(&c);
	explain_policy(c.f, &p, &pl, "/usr/bin/bwrap", true);
	_cleanup_free_ char *full = cap_close(&c);
	doc = json_loads(full, 0, &jerr);
	if (!doc)
		fail_msg("not JSON (%s): %s", jerr.text, full);
	expect_mount(doc, secret, "masked", "masked", "--deny-read", "file");
	assert_true(json_is_array(json_object_get(doc, "seccomp")));
	json_t *sk = json_object_get(doc, "skipped");
	assert_int_equal(json_array_size(sk), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(sk, 0), "path")),
			    NX "/gone");
	assert_string_equal(json_string_value(json_object_get(json_array_get(sk, 0), "why")),
			    "missing, nothing to mask (--deny-read)");
	json_decref(doc);
	policy_free(&p);
	plan_free(&pl);
}

/* The text form: one line per mount, "VERDICT: PATH (WHY)". */
static void test_policy_text(void **state)
{
	(void)state;
	struct plan pl;
	hand_plan(&pl);
	struct policy p;
	policy_init(&p);
	struct capture c;
	cap_open(&c);
	explain_policy(c.f, &p, &pl, "/usr/bin/bwrap", false);
	_cleanup_free_ char *got = cap_close(&c);
	_cleanup_free_ char *lines = xasprintf(
		"backend: bwrap (/usr/bin/bwrap; built-in default)\n"
		"workspace: %s/ws (writable; current directory)\n"
		"network: shared with the host (built-in default)\n",
		root);
	if (strncmp(got, lines, strlen(lines)) != 0)
		fail_msg("got:\n%s", got);
	/* VERDICT, the path (under root unless absolute), WHY */
	static const char *const mounts[][3] = {
		{ "read-only", "/", "host root" },
		{ "private", "/tmp", "empty tmpfs" },
		{ "writable", "ws", "workspace; current directory" },
		{ "writable", "cache", "writable path; --writable" },
		{ "masked", "home/.aws", "built-in credential store" },
		{ "masked", "ws/secret.txt", "--deny-read" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(mounts); i++) {
		bool abs = mounts[i][1][0] == '/';
		_cleanup_free_ char *line = xasprintf("\n%s: %s%s%s (%s)\n", mounts[i][0],
						      abs ? "" : root, abs ? "" : "/", mounts[i][1],
						      mounts[i][2]);
		if (!strstr(got, line))
			fail_msg("no line \"%s\" in:\n%s", line + 1, got);
	}
	_cleanup_free_ char *hooks = xasprintf("\nread-only: %s/ws/.git/hooks (protected: git hooks; "
					       "built-in protection inside writable %s/ws)\n",
					       root, root);
	if (!strstr(got, hooks))
		fail_msg("no line \"%s\" in:\n%s", hooks + 1, got);
	policy_free(&p);
	plan_free(&pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts_on_a_hand_built_plan),
		cmocka_unit_test(test_mask_reach),
		cmocka_unit_test(test_verdict_outside_every_op),
		cmocka_unit_test(test_verdicts_on_a_built_plan),
		cmocka_unit_test(test_paths_text),
		cmocka_unit_test(test_paths_json),
		cmocka_unit_test(test_policy_json),
		cmocka_unit_test(test_policy_text),
	};
	return unit_status(cmocka_run_group_tests(tests, setup, teardown));
}
