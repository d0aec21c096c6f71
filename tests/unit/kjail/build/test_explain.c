/* SPDX-License-Identifier: MIT */
/* --explain: the verdict on a path, its rule and origin, in words and as
 * JSON, over plans built by hand (as bwrap.c's tests do) and by plan_build
 * over a real tree (made under the build directory, like test_host's); the
 * jail described in full (--verbose, golden) and on one screen (golden,
 * and nothing left out without a count). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include "golden.h"
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build/explain.h"
#include "build/seccomp.h"
#include "entry/landlock.h"
#include "policy/egress.h"
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
	explain_policy(c.f, &p, &pl, "/usr/bin/bwrap", EXPLAIN_JSON);
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
	explain_policy(c.f, &p, &pl, "/usr/bin/bwrap", EXPLAIN_VERBOSE);
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

/* -n: no network, said plainly; with bwrap the proxy is there all the
 * same, with no rule, and the policy names it (hosts empty) so a reader
 * knows why a client is refused at once; without the proxy, none of it. */
static void test_no_network_proxy(void **state)
{
	(void)state;
	struct plan pl;
	hand_plan(&pl);
	pl.network = false;
	pl.net = NET_NONE;
	pl.net_origin = "--no-network";
	pl.proxied = true;
	struct policy p;
	policy_init(&p);
	struct capture c;
	cap_open(&c);
	explain_policy(c.f, &p, &pl, "/usr/bin/bwrap", EXPLAIN_SHORT);
	_cleanup_free_ char *got = cap_close(&c);
	static const char *const want[] = {
		"\nnetwork: cut: no network; own network namespace, loopback only (DNS does not "
		"resolve), where kjail's proxy refuses every host (--allow-host HOST allows one) "
		"(--no-network)\n",
		"\nproxy: http://127.0.0.1:3128 (HTTP, CONNECT), socks5h://127.0.0.1:1080 (SOCKS5) "
		"inside the jail; log /tmp/.kjail/net.log\n",
	};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		if (!strstr(got, want[i]))
			fail_msg("no line \"%s\" in:\n%s", want[i] + 1, got);
	assert_null(strstr(got, "allow-host: "));

	_cleanup_free_ char *jail = explain_policy_for_jail(&p, &pl, "/usr/bin/bwrap");
	json_t *doc = json_loads(jail, 0, NULL);
	json_t *net = json_object_get(doc, "network");
	assert_string_equal(json_string_value(json_object_get(net, "mode")), "none");
	assert_true(json_is_false(json_object_get(net, "enabled")));
	assert_int_equal(json_array_size(json_object_get(net, "hosts")), 0);
	assert_true(json_is_array(json_object_get(net, "hosts")));
	assert_string_equal(json_string_value(json_object_get(net, "http_proxy")),
			    "http://127.0.0.1:3128");
	assert_string_equal(json_string_value(json_object_get(net, "log")), "/tmp/.kjail/net.log");
	json_decref(doc);

	/* no proxy (Seatbelt, or its log would lie in a writable root) */
	pl.proxied = false;
	cap_open(&c);
	explain_policy(c.f, &p, &pl, "/usr/bin/bwrap", EXPLAIN_SHORT);
	_cleanup_free_ char *bare = cap_close(&c);
	assert_non_null(strstr(bare, "\nnetwork: cut: own network namespace, loopback only (DNS "
				     "does not resolve) (--no-network)\n"));
	assert_null(strstr(bare, "\nproxy: "));
	_cleanup_free_ char *jail2 = explain_policy_for_jail(&p, &pl, "/usr/bin/bwrap");
	doc = json_loads(jail2, 0, NULL);
	assert_null(json_object_get(json_object_get(doc, "network"), "hosts"));
	json_decref(doc);
	policy_free(&p);
	plan_free(&pl);
}

/* ------------------------------------------------------------ golden */
/* --explain --verbose, byte for byte, for three plans built by hand over
 * made-up paths (rendering reads none): tests/unit/golden/explain/NAME.txt,
 * captured from --explain before it learned to summarise (issue 37);
 * KJ_UPDATE_GOLDEN=1 rewrites them. What depends on the kernel or the
 * build stands as @LANDLOCK@ and @SECCOMP@. */

/* Replace every occurrence of from in s by to (fresh string). */
static char *subst(const char *s, const char *from, const char *to)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	size_t fl = strlen(from);
	const char *hit;
	while ((hit = strstr(s, from))) {
		fwrite(s, 1, (size_t)(hit - s), f);
		fputs(to, f);
		s = hit + fl;
	}
	fputs(s, f);
	assert_int_equal(fclose(f), 0);
	return out;
}

static void check_golden(const char *name, const char *got)
{
	/* an upstream proxy's password is never shown */
	assert_null(strstr(got, "s3cret"));
	golden_check("explain", name, got);
}

/* What explain_policy writes, with @LANDLOCK@ and @SECCOMP@ for what
 * this kernel and this build say. */
static char *render(const struct policy *p, const struct plan *pl, enum explain_form form)
{
	struct capture c;
	cap_open(&c);
	explain_policy(c.f, p, pl, "/usr/bin/bwrap", form);
	_cleanup_free_ char *got = cap_close(&c);
	_cleanup_free_ char *a = subst(got, landlock_status(pl->allow_userns), "@LANDLOCK@");
	return subst(a, seccomp_built_in() ? "seccomp: filter on" : "seccomp: NOT built in",
		     "seccomp: @SECCOMP@");
}

/* n entries PREFIX0, PREFIX1, ... */
static void add_entries(struct entry_list *l, const char *prefix, unsigned n, const char *origin)
{
	for (unsigned i = 0; i < n; i++) {
		_cleanup_free_ char *v = xasprintf("%s%u", prefix, i);
		entry_add(l, v, origin);
	}
}

static struct op *add_filtered(struct plan *pl, const char *path, const char *format,
			       unsigned removed, const char *origin)
{
	struct op *o = plan_add(pl, OP_MASK_FILE, path, "filtered", origin);
	o->data = xstrdup("[user]\n");
	o->len = strlen(o->data);
	o->removed = removed;
	o->format = format;
	o->unit = "line";
	return o;
}

/* As plan_build makes it for root in a fresh home (/w/home, inside the
 * workspace /w): the host's devices and /proc read-only, the protected
 * names, masks that exist and dozens that do not, the caches. */
static void root_plan(struct policy *p, struct plan *pl)
{
	static const char cache[] = "/root/.cache/kjail/ws/w-0123456789abcdef";
	static const char *const devs[] = { "/dev/null", "/dev/zero", "/dev/full",
					    "/dev/random", "/dev/urandom", "/dev/tty" };
	static const char *const shadow[] = { "/etc/gshadow", "/etc/gshadow-", "/etc/shadow",
					      "/etc/shadow-" };
	static const char *const names[] = { "hooks", "config", "info/attributes", "HEAD" };
	policy_init(p);
	memset(pl, 0, sizeof *pl);
	pl->backend = BACKEND_BWRAP;
	pl->workspace = xstrdup("/w");
	pl->network = true;
	pl->inside_id = -1;
	pl->proc_read_only = true;
	for (size_t i = 0; i < ARRAY_SIZE(devs); i++)
		strv_push(&pl->host_devices, devs[i]);
	plan_add(pl, OP_RO_ROOT, "/", "read-only", "host root");
	plan_add(pl, OP_DEV, "/dev", "private", "minimal /dev");
	plan_add(pl, OP_PROC, "/proc", "private", "the jail's own processes");
	plan_add(pl, OP_TMP, "/tmp", "private", "empty tmpfs");
	plan_add(pl, OP_POLICY, "/tmp/.kjail", "kjail's own policy, as JSON", "built-in");
	plan_add(pl, OP_BIND, "/w", "workspace", "current directory");
	plan_add(pl, OP_PIN, "/w/home", "pinned: ancestor of a protected path", "built-in protection");
	plan_add(pl, OP_PIN, "/w/home/.config", "pinned: ancestor of a protected path",
		 "built-in protection");
	plan_add(pl, OP_PROTECT, "/w/home/.config/kjail",
		 "protected: kjail and kli configuration", "built-in protection inside writable /w");
	plan_add(pl, OP_PROTECT, "/w/home/.config/kli", "protected: kjail and kli configuration",
		 "built-in protection inside writable /w");
	/* more protected names than a short --explain shows */
	for (unsigned r = 0; r < 3; r++)
		for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
			_cleanup_free_ char *path = xasprintf("/w/r%u/.git/%s", r, names[i]);
			_cleanup_free_ char *rule = xasprintf("protected: git %s", names[i]);
			plan_add(pl, OP_PROTECT, path, rule, "built-in protection inside writable /w");
		}
	for (size_t i = 0; i < ARRAY_SIZE(shadow); i++)
		plan_add(pl, OP_MASK_FILE, shadow[i], "masked", "built-in, as root: password hashes");
	plan_add(pl, OP_MASK_DIR, "/etc/ssl/private", "masked", "built-in, as root: TLS keys");
	plan_add(pl, OP_MASK_DIR, "/root/.cache/kjail/ws", "masked",
		 "the other workspaces' toolchain caches");
	add_filtered(pl, "/root/.gitconfig", "gitconfig", 0, "built-in credential store");
	add_filtered(pl, "/root/.npmrc", "npmrc", 1, "built-in credential store");
	plan_add(pl, OP_BIND, cache, "toolchain caches of this workspace", "built-in default")
		->inner = true;
	entry_add(&pl->created, "/w/home/.config/kjail", "kjail and kli configuration");
	entry_add(&pl->created, "/w/home/.config/kli", "kjail and kli configuration");
	add_entries(&pl->unguarded, "/w/.unguarded-", 30, "coding agent config");
	entry_add(&pl->unguarded, "/w/.git/hooks", "git hooks");
	add_entries(&pl->skipped, "/root/.store-", 40,
		    "missing, nothing to mask (built-in credential store)");
	add_entries(&pl->skipped, "/run/engine-", 3,
		    "missing, nothing to mask (built-in: container engine socket)");
	entry_add(&pl->skipped, "/etc/ssh/ssh_host_rsa_key",
		  "missing, nothing to mask (built-in, as root: the host's SSH keys)");
	entry_add(&pl->env_removed, "AWS_CA_BUNDLE", "built-in secret scrub, pattern AWS_*");
	pl->cache = CACHE_WORKSPACE;
	pl->cache_dir = xstrdup(cache);
	static const char *const vars[][2] = {
		{ "npm_config_cache", "npm" }, { "XDG_CACHE_HOME", "xdg" },
		{ "PIP_CACHE_DIR", "pip" },    { "GOCACHE", "go" },
		{ "GOMODCACHE", "go" },        { "CCACHE_DIR", "ccache" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
		_cleanup_free_ char *v = xasprintf("%s=%s/%s", vars[i][0], cache, vars[i][1]);
		entry_add(&pl->cache_env, v, vars[i][1]);
	}
	pl->history = xasprintf("%s/history", cache);
}

/* A user's jail with most of what a config file and flags can ask for: an
 * allowlist behind a company proxy (its password hidden), a socket, a
 * GPU, user namespaces, its own masks among more
 * built-in ones than a short --explain shows, a missing --deny-read, a
 * protected name that is a symlink, a watched directory, no caches. */
static void user_plan(struct policy *p, struct plan *pl)
{
	policy_init(p);
	entry_add(&p->sources, "/home/u/.config/kjail/config.ini", "config file");
	bool_set(&p->allow_userns, true, "--allow-userns");
	str_set(&p->backend_origin, "--backend");
	str_set(&p->cache_origin, "/home/u/.config/kjail/config.ini:2");
	memset(pl, 0, sizeof *pl);
	pl->backend = BACKEND_BWRAP;
	pl->workspace = xstrdup("/home/u/src/proj");
	pl->net = NET_ALLOWLIST;
	pl->proxied = true;
	pl->net_origin = "--allow-host";
	char err[256];
	struct entry_list hosts = { 0 };
	assert_true(egress_add(&hosts, "--allow-host", "api.example.org", "--allow-host", err,
			       sizeof err));
	assert_true(egress_add(&hosts, "allow-host", "*.example.net:8443",
			       "/home/u/.config/kjail/config.ini:3", err, sizeof err));
	assert_true(egress_add(&hosts, "--allow-host", "localhost:11434", "--allow-host", err,
			       sizeof err));
	pl->allow = egress_rules(&hosts, &pl->strings, &pl->nallow);
	entry_list_free(&hosts);
	char *env[] = { "HTTPS_PROXY=http://alice:s3cret@proxy.corp.example:8080",
			"NO_PROXY=.corp.example", NULL };
	assert_true(egress_upstream(env, &pl->strings, &pl->upstream, err, sizeof err));
	pl->sockets = xcalloc(2, sizeof *pl->sockets);
	pl->nsockets = 2;
	pl->sockets[0] = (struct plan_socket){ .path = "/run/user/1000/ssh-agent.sock",
					       .name = "ssh-agent",
					       .given = "/tmp/ssh-XXXX/agent.1",
					       .origin = "--allow-socket",
					       .gives = "signing with every key the agent holds",
					       .relay = true,
					       .agent = "/run/user/1000/ssh-agent.sock",
					       .refuses = "adding, removing and locking keys" };
	pl->sockets[1] = (struct plan_socket){ .path = "/home/u/.gnupg/S.gpg-agent",
					       .name = "gpg-agent",
					       .given = "/run/user/1000/gnupg/S.gpg-agent",
					       .source = "/run/user/1000/gnupg/S.gpg-agent.extra",
					       .origin = "--allow-socket",
					       .gives = "signing and decrypting",
					       .refuses = "EXPORT_KEY" };
	pl->allow_userns = true;
	pl->inside_id = 0;
	pl->devices = xcalloc(2, sizeof *pl->devices);
	pl->ndevices = 2;
	pl->devices[0] = (struct dev_bind){ .path = xstrdup("/dev/dri/card0"), .cls = "gpu",
					    .origin = "--device=gpu" };
	pl->devices[1] = (struct dev_bind){ .path = xstrdup("/dev/dri/by-path/pci-card"),
					    .target = xstrdup("../card0"), .cls = "gpu",
					    .origin = "--device=gpu" };
	plan_add(pl, OP_RO_ROOT, "/", "read-only", "host root");
	plan_add(pl, OP_DEV, "/dev", "private", "minimal /dev");
	plan_add(pl, OP_PROC, "/proc", "private", "the jail's own processes");
	plan_add(pl, OP_TMP, "/tmp", "private", "empty tmpfs");
	plan_add(pl, OP_POLICY, "/tmp/.kjail", "kjail's own policy, as JSON", "built-in");
	plan_add(pl, OP_BIND, "/home/u/src/proj", "workspace", "current directory");
	plan_add(pl, OP_BIND, "/home/u/build", "writable path", "--writable");
	plan_add(pl, OP_PIN, "/home/u/src/proj/.git", "pinned: ancestor of a protected path",
		 "built-in protection");
	plan_add(pl, OP_PROTECT, "/home/u/src/proj/.git/hooks", "protected: git hooks",
		 "built-in protection inside writable /home/u/src/proj");
	plan_add(pl, OP_PROTECT, "/home/u/src/proj/.git/config", "protected: git config",
		 "built-in protection inside writable /home/u/src/proj");
	plan_add(pl, OP_MASK_DIR, "/home/u/.aws", "masked", "built-in credential store");
	plan_add(pl, OP_MASK_FILE, "/home/u/src/proj/.env", "masked",
		 "/home/u/.config/kjail/config.ini:4");
	for (unsigned i = 0; i < 12; i++) {
		_cleanup_free_ char *path = xasprintf("/home/u/.store-%u", i);
		plan_add(pl, OP_MASK_DIR, path, "masked", "built-in credential store");
	}
	plan_add(pl, OP_MASK_FILE, "/home/u/secret.txt", "masked", "--deny-read");
	/* the socket scan's: one socket alone, one with its directory (issue 39) */
	plan_add(pl, OP_MASK_DIR, "/home/u/.docker/run", "masked",
		 "built-in socket scan: a directory that holds sockets only");
	plan_add(pl, OP_MASK_FILE, "/home/u/.rd/docker.sock", "masked",
		 "built-in socket scan: Rancher Desktop engine socket");
	pl->scanned_host = true;
	pl->scan_entries = 1234;
	pl->scanned = xcalloc(2, sizeof *pl->scanned);
	pl->nscanned = 2;
	pl->scanned[0] = (struct plan_scanned){ .path = "/home/u/.docker/run/docker.sock",
						.what = "Docker Desktop engine socket",
						.mask = "/home/u/.docker/run" };
	pl->scanned[1] = (struct plan_scanned){ .path = "/home/u/.rd/docker.sock",
						.what = "Rancher Desktop engine socket",
						.mask = "/home/u/.rd/docker.sock" };
	add_filtered(pl, "/home/u/.npmrc", "npmrc", 2, "built-in credential store");
	plan_add(pl, OP_SOCKET, "/run/user/1000/ssh-agent.sock", "allowed socket: ssh-agent",
		 "--allow-socket");
	plan_add(pl, OP_SHOW, "/home/u/.gnupg/pubring.kbx",
		 "allowed socket: gpg-agent (public keyring, read-only)", "--allow-socket");
	plan_add(pl, OP_SOCKET, "/home/u/.gnupg/S.gpg-agent", "allowed socket: gpg-agent",
		 "--allow-socket");
	entry_add(&pl->unguarded, "/home/u/src/proj/.envrc", "direnv script");
	entry_add(&pl->watched, "/home/u/src/proj/.git/modules",
		  "where git keeps submodules' repositories");
	entry_add(&pl->skipped, "/home/u/gone", "missing, nothing to mask (--deny-read)");
	entry_add(&pl->skipped, "/home/u/src/proj/.vscode",
		  "symlink, cannot be pinned (built-in protection inside writable /home/u/src/proj)");
	add_entries(&pl->skipped, "/home/u/.absent-", 5,
		    "missing, nothing to mask (built-in credential store)");
	entry_add(&pl->env_removed, "MY_TOKEN", "--deny-env");
	entry_add(&pl->env_removed, "http_proxy",
		  "a proxy the jail cannot reach (allow-host: the jail's own proxy is HTTP_PROXY)");
	add_entries(&pl->env_removed, "AWS_SECRET_", 12, "built-in secret scrub, pattern AWS_*");
	pl->cache = CACHE_OFF;
	pl->cache_note = "home directory /home/u: Permission denied";
}

/* Nested (--nested-userns), no network, shared caches whose variables
 * replace the caller's. */
static void nested_plan(struct policy *p, struct plan *pl)
{
	policy_init(p);
	bool_set(&p->network, false, "--no-network");
	bool_set(&p->nested_userns, true, "--nested-userns");
	str_set(&p->cache_origin, "--cache");
	str_set(&p->workspace_origin, "--workspace");
	memset(pl, 0, sizeof *pl);
	pl->backend = BACKEND_BWRAP;
	pl->workspace = xstrdup("/srv/ws");
	pl->net = NET_NONE;
	pl->proxied = true; /* bwrap: kjail's proxy, no rule */
	pl->nested_userns = true;
	pl->inside_id = -1;
	plan_add(pl, OP_RO_ROOT, "/", "read-only", "host root");
	plan_add(pl, OP_DEV, "/dev", "private", "minimal /dev");
	plan_add(pl, OP_PROC_BIND, "/proc", "read-only", "the host's /proc (--nested-userns)");
	plan_add(pl, OP_TMP, "/tmp", "private", "empty tmpfs");
	plan_add(pl, OP_BIND, "/srv/ws", "workspace", "--workspace");
	for (unsigned i = 0; i < 5; i++) {
		_cleanup_free_ char *path = xasprintf("/srv/ws/sub%u", i);
		plan_add(pl, OP_PIN, path, "pinned: ancestor of a protected path",
			 "built-in protection");
	}
	plan_add(pl, OP_PROTECT, "/srv/ws/sub0/.envrc", "protected: direnv script",
		 "built-in protection inside writable /srv/ws");
	plan_add(pl, OP_BIND, "/home/n/.cache/pip", "toolchain cache, shared", "--cache");
	entry_add(&pl->env_removed, "GITHUB_TOKEN", "built-in secret scrub, pattern *_TOKEN");
	pl->cache = CACHE_SHARED;
	entry_add(&pl->cache_env, "PIP_CACHE_DIR=/home/n/.cache/pip", "pip");
	entry_add(&pl->cache_overridden, "PIP_CACHE_DIR", "/elsewhere/pip");
}

static void golden_of(void (*build)(struct policy *, struct plan *), const char *name,
		      enum explain_form form)
{
	struct policy p;
	struct plan pl;
	build(&p, &pl);
	_cleanup_free_ char *got = render(&p, &pl, form);
	check_golden(name, got);
	plan_free(&pl);
	policy_free(&p);
}

/* --explain --verbose is --explain as it was before issue 37, byte for
 * byte. */
static void test_golden_verbose(void **state)
{
	(void)state;
	golden_of(root_plan, "root.txt", EXPLAIN_VERBOSE);
	golden_of(user_plan, "user.txt", EXPLAIN_VERBOSE);
	golden_of(nested_plan, "nested.txt", EXPLAIN_VERBOSE);
}

/* Plain --explain: the same plans in one screen each (NAME.short). */
static void test_golden_short(void **state)
{
	(void)state;
	golden_of(root_plan, "root.short", EXPLAIN_SHORT);
	golden_of(user_plan, "user.short", EXPLAIN_SHORT);
	golden_of(nested_plan, "nested.short", EXPLAIN_SHORT);
}

/* Whether text holds line as a whole line. */
static bool has_line(const char *text, const char *line, size_t len)
{
	for (const char *at = text; *at;) {
		size_t n = strcspn(at, "\n");
		if (n == len && strncmp(at, line, len) == 0)
			return true;
		at += n + (at[n] == '\n');
	}
	return false;
}

static size_t count_lines(const char *text)
{
	size_t n = 0;
	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* Nothing silently left out: each line of the short form is a line of the
 * full one or a summary (it sends to --explain --verbose), the last is the
 * tally, and the full form has exactly its verbatim lines, the tally's
 * counts and the seccomp line the summary replaced. */
static void check_folds(const char *name, const char *full, const char *brief)
{
	size_t verbatim = 0, counted = 0;
	const char *last = NULL;
	for (const char *l = brief; *l;) {
		size_t len = strcspn(l, "\n");
		_cleanup_free_ char *line = xstrndup(l, len);
		if (!strstr(line, "--explain --verbose")) {
			if (!has_line(full, l, len))
				fail_msg("%s: \"%s\" is in the short form only", name, line);
			verbatim++;
		}
		last = l;
		l += len + (l[len] == '\n');
	}
	assert_non_null(last);
	if (!str_has_prefix(last, "... and ") || !strstr(last, ": --explain --verbose\n"))
		fail_msg("%s: the short form does not end with the tally: %s", name, last);
	for (const char *c = last + strlen("... and "); c && *c != ':';) {
		char *end;
		unsigned long n = strtoul(c, &end, 10);
		assert_true(end > c);
		counted += n;
		c = strpbrk(end, ",:");
		if (c && *c == ',')
			c += 2;
	}
	assert_int_equal(count_lines(full), verbatim + counted + 1);
}

static void folds_of(void (*build)(struct policy *, struct plan *), const char *name)
{
	struct policy p;
	struct plan pl;
	build(&p, &pl);
	_cleanup_free_ char *full = render(&p, &pl, EXPLAIN_VERBOSE);
	_cleanup_free_ char *brief = render(&p, &pl, EXPLAIN_SHORT);
	check_folds(name, full, brief);
	plan_free(&pl);
	policy_free(&p);
}

static void test_short_leaves_nothing_uncounted(void **state)
{
	(void)state;
	folds_of(root_plan, "root");
	folds_of(user_plan, "user");
	folds_of(nested_plan, "nested");
}

/* The lines of text that start with prefix, in order. */
static char *lines_with(const char *text, const char *prefix)
{
	struct capture c;
	cap_open(&c);
	for (const char *l = text; *l;) {
		size_t len = strcspn(l, "\n");
		if (str_has_prefix(l, prefix))
			fprintf(c.f, "%.*s\n", (int)len, l);
		l += len + (l[len] == '\n');
	}
	return cap_close(&c);
}

/* What the user set keeps its line however many built-in entries of its
 * kind there are, and takes a line of the kind's share; a skip that is no
 * mere absence (a symlink not pinned, a path that does not resolve) keeps
 * its line too, and so does an origin in parentheses of its own. */
static void test_short_keeps_what_the_user_set(void **state)
{
	(void)state;
	struct policy p;
	policy_init(&p);
	struct plan pl;
	memset(&pl, 0, sizeof pl);
	pl.backend = BACKEND_BWRAP;
	pl.workspace = xstrdup("/w");
	pl.network = true;
	pl.inside_id = -1;
	for (unsigned i = 0; i < 12; i++) {
		_cleanup_free_ char *a = xasprintf("/h/.builtin-%02u", i);
		_cleanup_free_ char *b = xasprintf("/h/mine-%02u", i);
		plan_add(&pl, OP_MASK_DIR, a, "masked", "built-in credential store");
		plan_add(&pl, OP_MASK_FILE, b, "masked",
			 i % 2 ? "--deny-read" : "/h/.config/kjail/config.ini:7");
	}
	entry_add(&pl.skipped, "/h/a", "missing, nothing to mask (built-in credential store)");
	entry_add(&pl.skipped, "/h/b", "missing, nothing to mask (--deny-read)");
	entry_add(&pl.skipped, "/h/c", "unresolvable, not masked (built-in credential store)");
	entry_add(&pl.skipped, "/h/d",
		  "missing, nothing to mask (built-in, as root: cloud-init data (user data))");
	entry_add(&pl.skipped, "/h/e", "already masked (an empty read-only file over it) "
				       "(built-in, as root: password hashes)");
	entry_add(&pl.skipped, "/h/f", "already masked (an empty read-only file over it) "
				       "(/h/.config/kjail/config.ini:8)");
	entry_add(&pl.skipped, "/h/g", "missing, nothing to mask (built-in)x");
	pl.cache = CACHE_OFF;
	_cleanup_free_ char *got = render(&p, &pl, EXPLAIN_SHORT);
	_cleanup_free_ char *masked = lines_with(got, "masked: ");
	assert_string_equal(masked, "masked: /h/.builtin-00 (built-in credential store)\n"
				    "masked: /h/mine-00 (/h/.config/kjail/config.ini:7)\n"
				    "masked: /h/.builtin-01 (built-in credential store)\n"
				    "masked: /h/mine-01 (--deny-read)\n"
				    "masked: /h/.builtin-02 (built-in credential store)\n"
				    "masked: /h/mine-02 (/h/.config/kjail/config.ini:7)\n"
				    "masked: /h/.builtin-03 (built-in credential store)\n"
				    "masked: /h/mine-03 (--deny-read)\n"
				    "masked: /h/.builtin-04 (built-in credential store)\n"
				    "masked: /h/mine-04 (/h/.config/kjail/config.ini:7)\n"
				    "masked: /h/mine-05 (--deny-read)\n"
				    "masked: /h/mine-06 (/h/.config/kjail/config.ini:7)\n"
				    "masked: /h/mine-07 (--deny-read)\n"
				    "masked: /h/mine-08 (/h/.config/kjail/config.ini:7)\n"
				    "masked: /h/mine-09 (--deny-read)\n"
				    "masked: /h/mine-10 (/h/.config/kjail/config.ini:7)\n"
				    "masked: /h/mine-11 (--deny-read)\n");
	_cleanup_free_ char *skipped = lines_with(got, "skipped: ");
	assert_string_equal(skipped,
			    "skipped: /h/b (missing, nothing to mask (--deny-read))\n"
			    "skipped: /h/c (unresolvable, not masked (built-in credential store))\n"
			    "skipped: /h/f (already masked (an empty read-only file over it) "
			    "(/h/.config/kjail/config.ini:8))\n"
			    "skipped: /h/g (missing, nothing to mask (built-in)x)\n");
	_cleanup_free_ char *tally = lines_with(got, "... and ");
	assert_string_equal(tally, "... and 66 seccomp rules, 7 more masks, 3 more skipped masks: "
				   "--explain --verbose\n");
	_cleanup_free_ char *full = render(&p, &pl, EXPLAIN_VERBOSE);
	check_folds("user-set", full, got);
	plan_free(&pl);
	policy_free(&p);
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
		cmocka_unit_test(test_no_network_proxy),
		cmocka_unit_test(test_golden_verbose),
		cmocka_unit_test(test_golden_short),
		cmocka_unit_test(test_short_leaves_nothing_uncounted),
		cmocka_unit_test(test_short_keeps_what_the_user_set),
	};
	return unit_status(cmocka_run_group_tests(tests, setup, teardown));
}
