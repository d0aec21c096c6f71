/* SPDX-License-Identifier: MIT */
/* The Seatbelt generator: golden profiles and argv for representative plans
 * (tests/unit/golden/seatbelt/; KJ_UPDATE_GOLDEN=1 rewrites them), and the
 * proof that no path can change the profile text. */
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
#include <sys/wait.h>
#include <unistd.h>

#include "entry/entry.h"
#include "build/seatbelt.h"
#include "run/seatbelt-run.h"
#include "path.h"

#include "../plan-fixture.h"

/* ----------------------------------------------------------- fixtures */

#define HOME "/Users/u"
#define WS HOME "/proj"
#define USER_TMP "/private/var/folders/zz/abc123/T"

/* A plan as plan_build makes it for user u on a Mac, in a git workspace. */
static void mac_plan(struct plan *pl, const char *ws, bool network)
{
	plan_defaults(pl, BACKEND_SEATBELT, ws, network);
	_cleanup_free_ char *git = path_join(ws, ".git");
	plan_add(pl, OP_PIN, git, "pinned: ancestor of a protected path", "built-in protection");
	static const char *const present[] = { ".git/config", ".git/hooks", NULL };
	for (const char *const *r = present; *r; r++) {
		_cleanup_free_ char *p = path_join(ws, *r);
		plan_add(pl, OP_PROTECT, p, "protected", "built-in protection");
	}
	static const char *const absent[] = { ".gitmodules", ".envrc", ".vscode", ".idea", NULL };
	for (const char *const *r = absent; *r; r++) {
		_cleanup_free_ char *p = path_join(ws, *r);
		entry_add(&pl->unguarded, p, "protected name");
	}
	plan_add(pl, OP_MASK_FILE, HOME "/.docker/run/docker.sock", "masked",
		 "built-in: container engine socket");
	plan_add(pl, OP_MASK_DIR, HOME "/.aws", "masked", "built-in credential store");
	plan_add(pl, OP_MASK_FILE, HOME "/.netrc", "masked", "built-in credential store");
	plan_add(pl, OP_MASK_DIR, HOME "/.ssh", "masked", "built-in credential store");
	plan_add(pl, OP_MASK_FILE, "/private/tmp/com.apple.launchd.AbC/Listeners", "masked",
		 "built-in: ssh agent socket");
	strv_push(&pl->env, "PATH=/usr/bin:/bin");
	strv_push(&pl->env, "HOME=" HOME);
	entry_add(&pl->env_removed, "AWS_SECRET_ACCESS_KEY", "built-in scrub AWS_*");
}

static struct seatbelt_host mac_host(bool defaults)
{
	struct seatbelt_host h = { .defaults = defaults };
	h.user_tmp = xstrdup(USER_TMP);
	h.homes[0] = xstrdup(HOME);
	return h;
}

/* The tree a test builds a plan over (tree-fixture.h), empty to start. */
static int setup(void **state)
{
	(void)state;
	tree_make("test_seatbelt");
	return 0;
}

/* ------------------------------------------------------------ golden */

/* Replace every occurrence of from in s by to (fresh string). */
static char *subst(const char *s, const char *from, const char *to)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	size_t fl = strlen(from);
	const char *hit;
	while ((hit = strstr(s, from))) {
		fwrite(s, 1, (size_t)(hit - s), f);
		fputs(to, f);
		s = hit + fl;
	}
	fputs(s, f);
	fclose(f);
	return out;
}


/* One argv element per line, escaped so that every byte shows; the
 * profile itself stands as <profile>. */
static char *render_argv(const struct strv *argv)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	for (size_t i = 0; i < argv->n; i++) {
		if (i == 2 && strcmp(argv->v[1], "-p") == 0) {
			fputs("<profile>\n", f);
			continue;
		}
		for (const unsigned char *c = (const unsigned char *)argv->v[i]; *c; c++) {
			if (*c == '\\')
				fputs("\\\\", f);
			else if (*c == '\n')
				fputs("\\n", f);
			else if (*c < 0x20 || *c >= 0x7f)
				fprintf(f, "\\x%02x", *c);
			else
				fputc(*c, f);
		}
		fputc('\n', f);
	}
	fclose(f);
	return out;
}

static void check_golden(const char *name, const char *got)
{
	golden_check("seatbelt", name, got);
}

struct out {
	char *profile;
	struct strv params;
	struct strv argv;
};

static void generate(const struct plan *pl, const struct seatbelt_host *h, char *const *cmd,
		     struct out *o)
{
	memset(o, 0, sizeof *o);
	o->profile = seatbelt_profile(pl, h, &o->params);
	seatbelt_argv(o->profile, &o->params, cmd, &o->argv);
}

static void out_free(struct out *o)
{
	free(o->profile);
	strv_free(&o->params);
	strv_free(&o->argv);
}

/* The SBPL reader (tests/helpers/sbpl-check) must accept the argv as it
 * stands; make check exports HELPERS, a direct run without it skips this. */
static void sbpl_check(const struct strv *argv)
{
	const char *helpers = getenv("HELPERS");
	if (!helpers || !helpers[0])
		return;
	_cleanup_free_ char *prog = xasprintf("%s/sbpl-check", helpers);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct strv a = STRV_INIT;
		strv_push(&a, prog);
		for (size_t i = 0; i < argv->n; i++)
			strv_push(&a, argv->v[i]);
		execv(prog, strv_argv(&a));
		_exit(127);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		print_error("sbpl-check refused the generated profile (status %d)\n", st);
		fail();
	}
}

static void golden(const char *name, const char *sb_name, const struct out *o)
{
	sbpl_check(&o->argv);
	_cleanup_free_ char *sb = xasprintf("%s.sb", sb_name);
	_cleanup_free_ char *av = xasprintf("%s.argv", name);
	_cleanup_free_ char *rendered = render_argv(&o->argv);
	check_golden(sb, o->profile);
	check_golden(av, rendered);
}

static char *make_cmd[] = { "make", "-j2", NULL };

/* ---------------------------------------------------- acceptance 1 */

static void test_golden_defaults(void **state)
{
	(void)state;
	struct plan pl;
	mac_plan(&pl, WS, true);
	struct seatbelt_host h = mac_host(true);
	struct out o;
	generate(&pl, &h, make_cmd, &o);
	golden("defaults", "defaults", &o);
	out_free(&o);
	seatbelt_host_free(&h);
	plan_free(&pl);
}

/* --allow-socket: the agent's socket in the masked ~/.ssh is allowed by
 * its literal path after the rule that denies the masked directory (the
 * last matching rule wins); the directory stays masked */
static void test_golden_allow_socket(void **state)
{
	(void)state;
	struct plan pl;
	mac_plan(&pl, WS, false);
	plan_add(&pl, OP_SOCKET, HOME "/.ssh/agent.sock", "allowed socket: ssh-agent",
		 "--allow-socket");
	struct seatbelt_host h = mac_host(true);
	struct out o;
	generate(&pl, &h, make_cmd, &o);
	golden("allow-socket", "allow-socket", &o);
	const char *deny = strstr(o.profile, "(deny network-outbound\n");
	const char *allow = strstr(o.profile, "(allow network-outbound\n  (remote unix-socket "
					      "(literal (param \"SOCKET_0\"))))\n");
	assert_non_null(deny);
	assert_non_null(allow);
	assert_true(allow > deny);
	assert_non_null(strstr(o.profile, "(remote unix-socket (subpath (param \"MASKED_DIR_"));
	out_free(&o);
	seatbelt_host_free(&h);
	plan_free(&pl);
}

/* The workspace's cache directory inside the masked directory of every
 * workspace's: read and written after the rule that denies the masked
 * directory (the last matching rule wins); the directory stays masked */
static void test_inner_root(void **state)
{
	(void)state;
	struct plan pl;
	mac_plan(&pl, WS, false);
	plan_add(&pl, OP_MASK_DIR, HOME "/.cache/kjail/ws", "masked", "x");
	plan_add(&pl, OP_BIND, HOME "/.cache/kjail/ws/w-1", "toolchain caches", "x")->inner = true;
	struct seatbelt_host h = mac_host(true);
	struct out o;
	generate(&pl, &h, make_cmd, &o);
	const char *deny = strstr(o.profile, "(deny file-read* file-write* file-link file-clone");
	const char *allow = strstr(o.profile, "(allow file-read* file-write*\n  (subpath (param "
					      "\"INNER_0\")))\n");
	assert_non_null(deny);
	assert_non_null(allow);
	assert_true(allow > deny);
	assert_non_null(strstr(o.profile, "(allow network-bind\n  (local unix-socket (subpath "
					  "(param \"INNER_0\"))))\n"));
	out_free(&o);
	seatbelt_host_free(&h);
	plan_free(&pl);
}

/* --allow-host: no network but the proxy's two loopback ports */
static void test_golden_allow_host(void **state)
{
	(void)state;
	struct plan pl;
	mac_plan(&pl, WS, false);
	pl.net = NET_ALLOWLIST;
	struct seatbelt_host h = mac_host(true);
	struct out o;
	generate(&pl, &h, make_cmd, &o);
	golden("allow-host", "allow-host", &o);
	assert_non_null(strstr(o.profile, "(deny network*)\n"));
	assert_non_null(strstr(o.profile, "(allow network-outbound (remote tcp \"localhost:3128\"))\n"));
	assert_non_null(strstr(o.profile, "(allow network-outbound (remote tcp \"localhost:1080\"))\n"));
	assert_non_null(strstr(o.profile, "com.apple.dnssd.service"));
	out_free(&o);
	seatbelt_host_free(&h);
	plan_free(&pl);
}

/* --allow-host 127.0.0.1:PORT on macOS: the host's loopback is the jail's,
 * so the port is reached directly; a name rule opens nothing there */
static void test_allow_host_loopback(void **state)
{
	(void)state;
	struct plan pl;
	mac_plan(&pl, WS, false);
	pl.net = NET_ALLOWLIST;
	static const char *const v[] = { "api.example.org", "127.0.0.1:8080", "localhost:9000" };
	pl.allow = xcalloc(ARRAY_SIZE(v), sizeof *pl.allow);
	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		const char *why = NULL;
		assert_true(allow_parse(v[i], &pl.allow[i], &why));
		pl.allow[i].text = v[i];
	}
	pl.nallow = ARRAY_SIZE(v);
	struct seatbelt_host h = mac_host(true);
	struct out o;
	generate(&pl, &h, make_cmd, &o);
	assert_non_null(strstr(o.profile, "(allow network-outbound (remote tcp \"localhost:8080\"))\n"));
	assert_non_null(strstr(o.profile, "(allow network-outbound (remote tcp \"localhost:9000\"))\n"));
	assert_null(strstr(o.profile, ":443\""));
	out_free(&o);
	seatbelt_host_free(&h);
	plan_free(&pl);
}

static void test_golden_no_network(void **state)
{
	(void)state;
	struct plan pl;
	mac_plan(&pl, WS, false);
	struct seatbelt_host h = mac_host(true);
	struct out o;
	generate(&pl, &h, make_cmd, &o);
	golden("no-network", "no-network", &o);
	assert_non_null(strstr(o.profile, "(deny network*)\n"));
	assert_non_null(strstr(o.profile, "mDNSResponder"));
	out_free(&o);
	seatbelt_host_free(&h);
	plan_free(&pl);
}

/* File and directory masks, inside the workspace (their directories get
 * pinned) and outside it; built-in masks off. */
static void test_golden_masks(void **state)
{
	(void)state;
	struct plan pl;
	plan_empty(&pl, BACKEND_SEATBELT, WS);
	pl.network = true;
	plan_add(&pl, OP_RO_ROOT, "/", "read-only", "host root");
	plan_add(&pl, OP_BIND, WS, "workspace", "--workspace");
	plan_add(&pl, OP_BIND, HOME "/.cache/kli", "writable path", "--writable");
	plan_add(&pl, OP_MASK_DIR, HOME "/.kube", "masked", "--deny-read");
	plan_add(&pl, OP_MASK_FILE, WS "/config/prod/db.env", "masked", "--deny-read");
	plan_add(&pl, OP_MASK_DIR, WS "/secrets", "masked", "--deny-read");
	plan_add(&pl, OP_MASK_FILE, HOME "/.pypirc", "masked", "--deny-read");
	struct seatbelt_host h = { 0 };
	char *cmd[] = { "cat", "config/prod/db.env", NULL };
	struct out o;
	generate(&pl, &h, cmd, &o);
	golden("masks", "masks", &o);
	/* No built-in services, no keychain, no temporary directory given. */
	assert_null(strstr(o.profile, "pasteboard"));
	assert_null(strstr(o.profile, "TMPDIR_"));
	out_free(&o);
	plan_free(&pl);
}

/* The odd-paths policy has the same shape as the defaults one, so its
 * profile must be the defaults golden byte for byte. */
#define ODD "we ird \"q\" (p) \\b\\\nl')(allow default)(\\\"x"

static void test_golden_odd_paths(void **state)
{
	(void)state;
	struct plan pl;
	mac_plan(&pl, HOME "/" ODD, true);
	struct seatbelt_host h = mac_host(true);
	struct out o;
	generate(&pl, &h, make_cmd, &o);
	golden("odd-paths", "defaults", &o);
	assert_null(strstr(o.profile, ODD));
	assert_null(strstr(o.profile, "\")(allow default)("));
	out_free(&o);
	seatbelt_host_free(&h);
	plan_free(&pl);
}

/* /tmp, /var and /etc live under /private: both spellings, both ways. */
static void test_golden_private_aliases(void **state)
{
	(void)state;
	struct plan pl;
	plan_empty(&pl, BACKEND_SEATBELT, "/private/var/tmp/proj");
	pl.network = true;
	plan_add(&pl, OP_BIND, "/private/var/tmp/proj", "workspace", "--workspace");
	plan_add(&pl, OP_BIND, "/tmp/build", "writable path", "--writable");
	plan_add(&pl, OP_PROTECT, "/private/var/tmp/proj/.envrc", "protected", "built-in");
	plan_add(&pl, OP_MASK_FILE, "/private/etc/secret.conf", "masked", "--deny-read");
	struct seatbelt_host h = { .user_tmp = xstrdup(USER_TMP) };
	struct out o;
	generate(&pl, &h, make_cmd, &o);
	golden("private-aliases", "private-aliases", &o);
	static const char *const want[] = {
		"WRITABLE_0=/private/tmp/build",   "WRITABLE_1=/private/var/tmp/proj",
		"WRITABLE_2=/tmp/build",           "WRITABLE_3=/var/tmp/proj",
		"TMPDIR_0=" USER_TMP,              "TMPDIR_1=/var/folders/zz/abc123/T",
		"PIN_0=/private/var/tmp/proj",     "PIN_1=/var/tmp/proj",
		"MASKED_FILE_0=/etc/secret.conf",  "MASKED_FILE_1=/private/etc/secret.conf",
		NULL,
	};
	for (const char *const *w = want; *w; w++)
		if (strv_find(&o.params, *w) < 0) {
			print_error("missing parameter %s\n", *w);
			fail();
		}
	out_free(&o);
	seatbelt_host_free(&h);
	plan_free(&pl);
}

/* A symlinked workspace, through plan_build on a real tree: the parameter
 * is the real path, never the link. */
static void test_golden_symlinked_workspace(void **state)
{
	(void)state;
	mk("real", true);
	mk("real/proj", true);
	mk("real/proj/.git", true);
	_cleanup_free_ char *real = at("real"), *proj = at("real/proj");
	_cleanup_free_ char *link = at("link"), *via = at("link/proj");
	assert_int_equal(symlink(real, link), 0);

	struct fixture f;
	fx_init_bare(&f);
	f.p.workspace = xstrdup(via);
	bool_set(&f.p.defaults, false, "test");
	char *env[] = { "PATH=/usr/bin:/bin", NULL };
	assert_true(fx_build(&f, env));
	assert_string_equal(f.pl.workspace, proj);

	/* The real path, never the link, everywhere in the plan. Then the
	 * fixture's location (which varies, and may itself have a /private
	 * spelling) becomes /FIXTURE, so the golden holds anywhere. */
	for (size_t i = 0; i < f.pl.nops; i++) {
		assert_null(strstr(f.pl.ops[i].path, "/link"));
		char *moved = subst(f.pl.ops[i].path, root, "/FIXTURE");
		free(f.pl.ops[i].path);
		f.pl.ops[i].path = moved;
	}
	for (size_t i = 0; i < f.pl.unguarded.n; i++) {
		char *moved = subst(f.pl.unguarded.v[i].value, root, "/FIXTURE");
		free(f.pl.unguarded.v[i].value);
		f.pl.unguarded.v[i].value = moved;
	}
	struct seatbelt_host h = { 0 };
	struct out o;
	generate(&f.pl, &h, make_cmd, &o);
	_cleanup_free_ char *rendered = render_argv(&o.argv);
	sbpl_check(&o.argv);
	check_golden("symlinked-workspace.sb", o.profile);
	check_golden("symlinked-workspace.argv", rendered);
	out_free(&o);
	fx_free(&f);
}

/* ------------------------------------------- acceptance 2: injection */

static const char *const evil_names[] = {
	"\")(allow default)(",
	"x\")\n(allow default)\n(deny file-write* (subpath \"",
	"a b\tc",
	"q\"u'o`te",
	"back\\slash\\",
	"(paren) )(",
	"new\nline\n",
	"; comment",
	"#\"regex\"",
	"(param \"WRITABLE_0\")",
	"\xc3\xa9t\xc3\xa9",
	NULL,
};

/* The same policy over a plain path and over each odd one: the profile text
 * is identical and the parameters differ only in the path they carry. */
static void test_paths_cannot_change_the_profile(void **state)
{
	(void)state;
	struct seatbelt_host h = mac_host(true);
	struct plan plain;
	mac_plan(&plain, HOME "/plain", false);
	plan_add(&plain, OP_MASK_FILE, HOME "/plain/m", "masked", "--deny-read");
	plan_add(&plain, OP_BIND, HOME "/w-plain", "writable path", "--writable");
	struct out want;
	generate(&plain, &h, make_cmd, &want);
	for (const char *const *e = evil_names; *e; e++) {
		_cleanup_free_ char *ws = xasprintf(HOME "/plain%s", *e);
		_cleanup_free_ char *mask = xasprintf("%s/m", ws);
		_cleanup_free_ char *w = xasprintf(HOME "/w-plain%s", *e);
		struct plan pl;
		mac_plan(&pl, ws, false);
		plan_add(&pl, OP_MASK_FILE, mask, "masked", "--deny-read");
		plan_add(&pl, OP_BIND, w, "writable path", "--writable");
		struct out got;
		generate(&pl, &h, make_cmd, &got);
		assert_string_equal(got.profile, want.profile);
		assert_null(strstr(got.profile, ws));
		sbpl_check(&got.argv);
		assert_int_equal(got.params.n, want.params.n);
		/* Sorting may order the odd paths differently: compare as sets. */
		for (size_t i = 0; i < got.params.n; i++) {
			_cleanup_free_ char *a = subst(got.params.v[i], ws, HOME "/plain");
			_cleanup_free_ char *b = subst(a, w, HOME "/w-plain");
			const char *eq = strchr(b, '=');
			bool found = false;
			for (size_t j = 0; j < want.params.n && !found; j++) {
				const char *weq = strchr(want.params.v[j], '=');
				found = strcmp(eq, weq) == 0 &&
					strncmp(b, want.params.v[j], (size_t)(eq - b)) == 0;
			}
			if (!found) {
				/* Names may be renumbered within a family, values not. */
				for (size_t j = 0; j < want.params.n && !found; j++)
					found = strcmp(eq, strchr(want.params.v[j], '=')) == 0;
			}
			if (!found) {
				print_error("odd name %zu: parameter %s has no plain twin\n",
					    (size_t)(e - evil_names), got.params.v[i]);
				fail();
			}
		}
		/* The odd workspace arrives intact as a value of its own. */
		_cleanup_free_ char *def = xasprintf("=%s", ws);
		bool carried = false;
		for (size_t i = 0; i < got.params.n && !carried; i++)
			carried = strcmp(strchr(got.params.v[i], '='), def) == 0;
		assert_true(carried);
		out_free(&got);
		plan_free(&pl);
	}
	out_free(&want);
	plan_free(&plain);
	seatbelt_host_free(&h);
}

/* ----------------------------------------------------- invariants */

/* A rule without filters applies to everything: only these may be bare. */
static void test_no_bare_rules(void **state)
{
	(void)state;
	static const char *const bare_ok[] = {
		"(version 1)", "(allow default)", "(allow process-exec process-fork)", "(deny appleevent-send)",
		"(deny lsopen)", "(deny user-preference-write)", "(deny signal)",
		"(deny file-write*)", "(deny network*)", NULL,
	};
	struct plan pl;
	plan_empty(&pl, BACKEND_SEATBELT, "/w");
	plan_add(&pl, OP_BIND, "/w", "workspace", "x");
	for (int net = 0; net < 2; net++) {
		pl.network = net;
		struct seatbelt_host h = { 0 };
		struct strv params = STRV_INIT;
		_cleanup_free_ char *prof = seatbelt_profile(&pl, &h, &params);
		for (char *line = prof; *line;) {
			size_t n = strcspn(line, "\n");
			if (line[0] == '(' && line[n - 1] == ')' && !memchr(line + 1, '(', n - 1)) {
				bool ok = false;
				for (const char *const *b = bare_ok; *b && !ok; b++)
					ok = strlen(*b) == n && strncmp(line, *b, n) == 0;
				if (!ok) {
					print_error("bare rule: %.*s\n", (int)n, line);
					fail();
				}
			}
			line += n + (line[n] == '\n');
		}
		/* Nothing to mask or protect here: no such rules at all. */
		assert_null(strstr(prof, "file-read*"));
		assert_null(strstr(prof, "PROTECTED_"));
		strv_free(&params);
	}
	plan_free(&pl);
}

static void test_argv_shape(void **state)
{
	(void)state;
	struct plan pl;
	mac_plan(&pl, WS, true);
	struct seatbelt_host h = mac_host(false);
	char *cmd[] = { "-rf", "--", "x", NULL };
	struct strv argv = STRV_INIT, params = STRV_INIT;
	seatbelt_build(&pl, &h, cmd, &argv);
	_cleanup_free_ char *prof = seatbelt_profile(&pl, &h, &params);
	assert_string_equal(argv.v[0], "/usr/bin/sandbox-exec");
	assert_string_equal(argv.v[1], "-p");
	assert_string_equal(argv.v[2], prof);
	size_t i = 3;
	for (size_t k = 0; k < params.n; k++, i += 2) {
		assert_string_equal(argv.v[i], "-D");
		assert_string_equal(argv.v[i + 1], params.v[k]);
		/* Names: a fixed family word and a number. */
		const char *eq = strchr(params.v[k], '=');
		assert_non_null(eq);
		assert_true(strspn(params.v[k], "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") ==
			    (size_t)(eq - params.v[k]));
		/* Each one is used, by name, in the profile. */
		_cleanup_free_ char *ref = xasprintf("(param \"%.*s\")", (int)(eq - params.v[k]),
						     params.v[k]);
		assert_non_null(strstr(prof, ref));
	}
	assert_string_equal(argv.v[i], "--");
	assert_string_equal(argv.v[i + 1], "-rf");
	assert_string_equal(argv.v[i + 2], "--");
	assert_string_equal(argv.v[i + 3], "x");
	assert_null(argv.v[i + 4]);
	strv_free(&argv);
	strv_free(&params);
	seatbelt_host_free(&h);
	plan_free(&pl);
}

static bool has_param(const struct strv *params, const char *family, const char *value)
{
	for (size_t i = 0; i < params->n; i++) {
		const char *eq = strchr(params->v[i], '=');
		if (str_has_prefix(params->v[i], family) && strcmp(eq + 1, value) == 0)
			return true;
	}
	return false;
}

/* Absent protected names are denied (not just warned about), and so is
 * creating the directories that would hold them: an absent .git included. */
static void test_absent_names_protected(void **state)
{
	(void)state;
	struct plan pl;
	plan_empty(&pl, BACKEND_SEATBELT, "/w");
	plan_add(&pl, OP_BIND, "/w", "workspace", "x");
	entry_add(&pl.unguarded, "/w/.git/hooks", "git hooks");
	entry_add(&pl.unguarded, "/w/.envrc", "direnv script");
	struct seatbelt_host h = { 0 };
	struct strv params = STRV_INIT;
	_cleanup_free_ char *prof = seatbelt_profile(&pl, &h, &params);
	assert_true(has_param(&params, "PROTECTED_", "/w/.git/hooks"));
	assert_true(has_param(&params, "PROTECTED_", "/w/.envrc"));
	assert_true(has_param(&params, "PIN_", "/w/.git"));
	assert_true(has_param(&params, "PIN_", "/w"));
	assert_non_null(strstr(prof, "(deny file-write* file-link\n  (subpath (param \"PROTECTED_0\"))"));
	assert_non_null(strstr(prof, "(deny file-write-create file-write-unlink\n  (literal (param \"PIN_0\"))"));
	strv_free(&params);
	plan_free(&pl);
}

/* Rules come in "deny broad, allow holes, deny exceptions" order: Seatbelt
 * applies the last matching rule. */
static void test_rule_order(void **state)
{
	(void)state;
	struct plan pl;
	mac_plan(&pl, WS, false);
	struct seatbelt_host h = mac_host(true);
	struct strv params = STRV_INIT;
	_cleanup_free_ char *prof = seatbelt_profile(&pl, &h, &params);
	static const char *const order[] = {
		"(allow default)",
		"(allow process-exec process-fork)\n",
		"(deny process-exec (require-any (file-mode #o4000) (file-mode #o2000)))\n",
		"(allow process-exec (literal \"/bin/ps\"))\n",
		"(deny signal)\n(allow signal (target same-sandbox))\n",
		"(deny file-write*)\n",
		"(allow file-write*\n  (subpath (param \"WRITABLE_0\"))",
		"(allow file-write*\n  (literal \"/dev/null\")",
		"(deny file-write-create file-write-unlink\n",
		"(deny file-write* file-link\n",
		"(deny file-read* file-write* file-link file-clone\n",
		"(deny network*)\n",
		"(allow network-outbound (remote unix-socket))\n",
		"(allow network-inbound (local unix-socket))\n",
		"(deny network-bind (local unix-socket))\n",
		"(allow network-bind\n",
		"(deny network-bind\n",
		"(deny network-outbound\n  (remote unix-socket (subpath \"/private/tmp\"))",
		"(allow network-outbound\n  (remote unix-socket (subpath (param \"WRITABLE_0\")))",
		"(deny network-outbound\n  (remote unix-socket (subpath (param \"MASKED_FILE_0\")))",
		NULL,
	};
	const char *at = prof;
	for (const char *const *o = order; *o; o++) {
		const char *hit = strstr(at, *o);
		if (!hit) {
			print_error("not found in order: %s\n", *o);
			fail();
		}
		at = hit + strlen(*o);
	}
	strv_free(&params);
	seatbelt_host_free(&h);
	plan_free(&pl);
}

static void test_keychains_only_with_defaults(void **state)
{
	(void)state;
	struct plan pl;
	mac_plan(&pl, WS, true);
	for (int d = 0; d < 2; d++) {
		struct seatbelt_host h = mac_host(d);
		struct strv params = STRV_INIT;
		_cleanup_free_ char *prof = seatbelt_profile(&pl, &h, &params);
		assert_int_equal(has_param(&params, "MASKED_DIR_", HOME "/Library/Keychains"), d);
		assert_int_equal(strstr(prof, "com.apple.pasteboard.1") != NULL, d);
		strv_free(&params);
		seatbelt_host_free(&h);
	}
	/* A home of "/" would mask the system's keychains: never. */
	struct seatbelt_host slash = mac_host(true);
	free(slash.homes[0]);
	slash.homes[0] = xstrdup("/");
	struct strv rp = STRV_INIT;
	free(seatbelt_profile(&pl, &slash, &rp));
	assert_false(has_param(&rp, "MASKED_DIR_", "/Library/Keychains"));
	strv_free(&rp);
	seatbelt_host_free(&slash);
	plan_free(&pl);
	/* Never over a writable root: that would hide the workspace. */
	mac_plan(&pl, HOME "/Library/Keychains/ws", true);
	struct seatbelt_host h = mac_host(true);
	struct strv params = STRV_INIT;
	free(seatbelt_profile(&pl, &h, &params));
	assert_false(has_param(&params, "MASKED_DIR_", HOME "/Library/Keychains"));
	strv_free(&params);
	seatbelt_host_free(&h);
	plan_free(&pl);
}

static char *print_to_string(const struct plan *pl, const struct seatbelt_host *h,
			     char *const *cmd, bool json, int *rc)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	*rc = seatbelt_print(pl, h, cmd, json, f);
	fclose(f);
	return out;
}

static void test_print_json(void **state)
{
	(void)state;
	struct plan pl;
	mac_plan(&pl, HOME "/" ODD, false);
	struct seatbelt_host h = mac_host(true);
	int rc;
	_cleanup_free_ char *s = print_to_string(&pl, &h, make_cmd, true, &rc);
	assert_int_equal(rc, 0);
	json_error_t je;
	json_t *o = json_loads(s, 0, &je);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "type")), "invocation");
	assert_string_equal(json_string_value(json_object_get(o, "backend")), "seatbelt");
	struct strv argv = STRV_INIT, params = STRV_INIT;
	seatbelt_build(&pl, &h, make_cmd, &argv);
	_cleanup_free_ char *prof = seatbelt_profile(&pl, &h, &params);
	json_t *a = json_object_get(o, "argv");
	assert_int_equal(json_array_size(a), argv.n);
	for (size_t i = 0; i < argv.n; i++)
		assert_string_equal(json_string_value(json_array_get(a, i)), argv.v[i]);
	assert_string_equal(json_string_value(json_object_get(o, "profile")), prof);
	json_t *ps = json_object_get(o, "params");
	assert_int_equal(json_array_size(ps), params.n);
	for (size_t i = 0; i < params.n; i++) {
		json_t *p = json_array_get(ps, i);
		_cleanup_free_ char *nv = xasprintf("%s=%s",
						    json_string_value(json_object_get(p, "name")),
						    json_string_value(json_object_get(p, "value")));
		assert_string_equal(nv, params.v[i]);
	}
	json_t *env = json_object_get(o, "env_unset");
	assert_string_equal(json_string_value(json_array_get(env, 0)), "AWS_SECRET_ACCESS_KEY");
	json_decref(o);
	strv_free(&argv);
	strv_free(&params);

	/* The text form is one shell command line that reads back as argv. */
	_cleanup_free_ char *line = print_to_string(&pl, &h, make_cmd, false, &rc);
	assert_int_equal(rc, 0);
	assert_true(str_has_prefix(line, "/usr/bin/sandbox-exec -p '(version 1)\n"));
	seatbelt_host_free(&h);
	plan_free(&pl);

	/* A path that is not UTF-8 cannot be JSON: say so, fail. */
	mac_plan(&pl, HOME "/bad\xff", false);
	h = mac_host(false);
	int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
	dup2(null, STDERR_FILENO); /* the one line it prints is expected */
	_cleanup_free_ char *bad = print_to_string(&pl, &h, make_cmd, true, &rc);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(null);
	assert_int_equal(rc, KJ_EXIT_FAIL);
	assert_string_equal(bad, "");
	seatbelt_host_free(&h);
	plan_free(&pl);
}

static void test_host_probe(void **state)
{
	(void)state;
	struct seatbelt_host h;
	seatbelt_host_probe(&h, "/", "/", true);
	assert_string_equal(h.homes[0], "/");
	assert_null(h.homes[1]);
	assert_true(h.defaults);
#ifndef KJ_OS_DARWIN
	assert_null(h.user_tmp); /* $TMPDIR never counts */
#endif
	seatbelt_host_free(&h);
	seatbelt_host_probe(&h, NULL, "relative", false);
	assert_null(h.homes[0]);
	seatbelt_host_free(&h);
}

#ifndef KJ_OS_DARWIN
/* Off macOS the backend fails closed: exit 125, the command never runs. */
static void test_run_fails_closed(void **state)
{
	(void)state;
	char marker[PATH_MAX];
	assert_non_null(getcwd(marker, sizeof marker - 32));
	strcat(marker, "/test_seatbelt.ran");
	unlink(marker);
	struct plan pl;
	mac_plan(&pl, "/", true);
	struct seatbelt_host h = { 0 };
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, STDERR_FILENO);
		char *cmd[] = { "/bin/sh", "-c", "touch \"$0\"", marker, NULL };
		set_fatal_status(125);
		seatbelt_run(&pl, &h, cmd);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 125);
	assert_int_equal(access(marker, F_OK), -1);
	plan_free(&pl);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_defaults),
		cmocka_unit_test(test_golden_no_network),
		cmocka_unit_test(test_golden_allow_host),
		cmocka_unit_test(test_allow_host_loopback),
		cmocka_unit_test(test_golden_allow_socket),
		cmocka_unit_test(test_golden_masks),
		cmocka_unit_test(test_golden_odd_paths),
		cmocka_unit_test(test_golden_private_aliases),
		cmocka_unit_test(test_golden_symlinked_workspace),
		cmocka_unit_test(test_paths_cannot_change_the_profile),
		cmocka_unit_test(test_no_bare_rules),
		cmocka_unit_test(test_argv_shape),
		cmocka_unit_test(test_absent_names_protected),
		cmocka_unit_test(test_rule_order),
		cmocka_unit_test(test_keychains_only_with_defaults),
		cmocka_unit_test(test_print_json),
		cmocka_unit_test(test_inner_root),
		cmocka_unit_test(test_host_probe),
#ifndef KJ_OS_DARWIN
		cmocka_unit_test(test_run_fails_closed),
#endif
	};
	return unit_status(cmocka_run_group_tests(tests, setup, teardown));
}
