/* SPDX-License-Identifier: MIT */
/* kli's config layers, profiles and reports, on fixture files written into
 * a temporary directory under the build tree. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "unit-skip.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "authority/authority.h"
#include "authority/constraint.h"
#include "authority/grant.h"
#include "authority/report.h"
#include "settings/settings.h"
#include "path.h"
#include "util.h"

struct fx {
	char *dir;  /* resolved */
	char *ws;   /* DIR/ws: the workspace */
	struct auth_ctx ctx;
};

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static int fx_setup(void **state)
{
	char tmpl[] = "test_kli_settings.tmp.XXXXXX";
	if (!mkdtemp(tmpl))
		return -1;
	char *cwd = getcwd(NULL, 0);
	struct fx *t = xcalloc(1, sizeof *t);
	t->dir = path_resolve(tmpl, cwd);
	free(cwd);
	t->ws = path_join(t->dir, "ws");
	if (mkdir(t->ws, 0755) != 0)
		return -1;
	t->ctx = (struct auth_ctx){ .workspace = t->ws, .home = t->dir, .resolve = NULL };
	*state = t;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *t = *state;
	int rc = nftw(t->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(t->ws);
	free(t->dir);
	free(t);
	return rc;
}

/* Write DIR/REL (parents made) and return its path, or NULL for NULL text. */
static char *put(struct fx *t, const char *rel, const char *text)
{
	if (!text)
		return NULL;
	char *p = path_join(t->dir, rel);
	for (char *s = p + strlen(t->dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	FILE *f = fopen(p, "w");
	if (!f)
		fail_msg("fopen %s: %s", p, strerror(errno));
	fputs(text, f);
	fclose(f);
	return p;
}

static const struct kli_options print_opts = { .default_profile = KLI_PROFILE_PRINT };

static bool load(struct fx *t, const char *sys, const char *user, const char *proj,
		 const struct kli_options *o, struct kli_settings *s, char *err, size_t errlen)
{
	char *fs = put(t, "sys.ini", sys), *fu = put(t, "user.ini", user),
	     *fp = put(t, "ws/.kli/config.ini", proj);
	const struct kli_files files = { fs, fu, fp, NULL };
	err[0] = '\0';
	bool ok = settings_load(&files, o ? o : &print_opts, &t->ctx, s, err, errlen);
	/* Leave no file behind for the next load in the same test. */
	if (fs)
		unlink(fs);
	if (fu)
		unlink(fu);
	if (fp)
		unlink(fp);
	free(fs);
	free(fu);
	free(fp);
	return ok;
}

/* The text report with the workspace path written as "WS". */
static char *text_of(const struct fx *t, const struct grant *g)
{
	char *r = report_text(g), *out = xstrdup("");
	size_t n = strlen(t->ws);
	for (char *p = r; *p;) {
		char *hit = strstr(p, t->ws);
		size_t keep = hit ? (size_t)(hit - p) : strlen(p);
		char *next = xasprintf("%s%.*s%s", out, (int)keep, p, hit ? "WS" : "");
		free(out);
		out = next;
		p += keep + (hit ? n : 0);
	}
	free(r);
	return out;
}

static void expect_grant(struct fx *t, const char *sys, const char *user, const char *proj,
			 const struct kli_options *o, const char *want_text)
{
	struct kli_settings s;
	char err[600];
	if (!load(t, sys, user, proj, o, &s, err, sizeof err))
		fail_msg("load failed: %s", err);
	char *got = text_of(t, s.grant);
	assert_string_equal(got, want_text);
	free(got);
	settings_clear(&s);
}

/* The error with the fixture directory written as "DIR". */
static void expect_error(struct fx *t, const char *sys, const char *user, const char *proj,
			 const struct kli_options *o, const char *want)
{
	struct kli_settings s;
	char err[600];
	if (load(t, sys, user, proj, o, &s, err, sizeof err)) {
		settings_clear(&s);
		fail_msg("load succeeded, expected: %s", want);
	}
	/* Nothing is granted by a config that failed. */
	assert_null(s.grant);
	assert_null(s.profile);
	assert_int_equal(s.nsources, 0);
	char *w = xstrdup(want);
	for (char *d; (d = strstr(w, "DIR"));) {
		*d = '\0';
		char *n = xasprintf("%s%s%s", w, t->dir, d + 3);
		free(w);
		w = n;
	}
	assert_string_equal(err, w);
	free(w);
}

#define UNIVERSAL "authority: universal (every capability, unconstrained)\n"
#define NONE "authority: none (no capability is granted)\n"
#define READ_ONLY_TEXT "authority:\n  file/read\n  result/read\n"

/* ------------------------------------------------------------- layers */

static void test_no_config(void **state)
{
	struct fx *t = *state;
	struct kli_settings s;
	char err[300];
	assert_true(load(t, NULL, NULL, NULL, NULL, &s, err, sizeof err));
	assert_int_equal(s.grant->scope, GRANT_UNIVERSAL);
	assert_string_equal(s.profile, "print");
	assert_int_equal(s.nsources, 0);
	assert_null(s.model.base_url);
	assert_int_equal(s.model.timeout, 0);
	assert_int_equal(s.model.idle_timeout, 0);
	assert_int_equal(s.model.connect_timeout, 0);
	assert_int_equal(s.model.retries, -1);
	settings_clear(&s);
	/* Files named but absent are no config either. */
	const struct kli_files none = { "/nonexistent/kli/sys.ini", "/nonexistent/kli/user.ini", NULL, NULL };
	assert_true(settings_load(&none, &print_opts, &t->ctx, &s, err, sizeof err));
	assert_int_equal(s.grant->scope, GRANT_UNIVERSAL);
	settings_clear(&s);
	/* Sections without the key leave the root universal. */
	expect_grant(t, "[kli]\nprofile = print\n", "[model]\nmodel = m\n", NULL, NULL, UNIVERSAL);
}

static void test_root_grant(void **state)
{
	struct fx *t = *state;
	expect_grant(t, "[kli]\ncapabilities = file/read\n", NULL, NULL, NULL, READ_ONLY_TEXT);
	/* The user's key replaces the system's, wider or not. */
	expect_grant(t, "[kli]\ncapabilities = file/read\n", "[kli]\ncapabilities = process/exec\n",
		     NULL, NULL, "authority:\n  process/exec\n  result/read\n");
	expect_grant(t, "[kli]\ncapabilities = file/read\n", "[kli]\nprofile = print\n", NULL, NULL,
		     READ_ONLY_TEXT);
	/* An empty value is none. */
	expect_grant(t, NULL, "[kli]\ncapabilities =\n", NULL, NULL, NONE);
	expect_grant(t, "[kli]\ncapabilities = tools/standard\n", "[kli]\ncapabilities =   \n",
		     NULL, NULL, NONE);
	/* A long list continues on more lines of the same section. */
	expect_grant(t, NULL, "[kli]\ncapabilities = file/read\ncapabilities = x/n in 1..5\n"
			      "capabilities =\n", NULL, NULL,
		     "authority:\n  file/read\n  result/read\n  x/n  [in [1..5]]\n");
	/* Relative paths are the workspace's, not the config file's. */
	expect_grant(t, NULL, "[kli]\ncapabilities = file/write under src/, file/read\n", NULL,
		     NULL, "authority:\n  file/read\n  file/write  [path under WS/src]\n"
			   "  result/read\n");
	expect_grant(t, NULL, "[kli]\ncapabilities = tools/standard\n", NULL, NULL,
		     "authority:\n  file/edit\n  file/read\n  file/write\n  process/exec\n"
		     "  result/read\n  tools/standard\n");
}

static void test_project_narrows(void **state)
{
	struct fx *t = *state;
	const char *user = "[kli]\ncapabilities = file/read, file/write under src\n";
	/* Asking for more grants nothing more. */
	expect_grant(t, NULL, user, "[kli]\ncapabilities = tools/standard\n", NULL,
		     "authority:\n  file/read\n  file/write  [path under WS/src]\n  result/read\n");
	expect_grant(t, NULL, NULL, "[kli]\ncapabilities = file/read\n", NULL, READ_ONLY_TEXT);
	expect_grant(t, NULL, user, "[kli]\ncapabilities = file/read, file/write under src/gen\n",
		     NULL, "authority:\n  file/read\n  file/write  [path under WS/src/gen]\n"
			   "  result/read\n");
	expect_grant(t, NULL, user, "[kli]\ncapabilities = file/write under other\n", NULL, NONE);
	expect_grant(t, NULL, NULL, "[kli]\ncapabilities =\n", NULL, NONE);
	/* Its profile sections only narrow too. */
	expect_grant(t, NULL, user, "[profile print]\ncapabilities = tools/standard\n", NULL,
		     "authority:\n  file/read\n  file/write  [path under WS/src]\n  result/read\n");
	/* What a project may not set at all. */
	expect_error(t, NULL, NULL, "[model]\nbase-url = http://evil.example/v1\n", NULL,
		     "DIR/ws/.kli/config.ini:2: [model] is not accepted in a project config, only "
		     "[kli] and [profile NAME]");
	expect_error(t, NULL, NULL, "[kli]\ncapabilities = file/read\n[bash]\nenv-allowlist = AWS_SECRET\n",
		     NULL, "DIR/ws/.kli/config.ini:4: [bash] is not accepted in a project config, "
			   "only [kli] and [profile NAME]");
}

static void test_project_profile_choice(void **state)
{
	struct fx *t = *state;
	/* The user runs with a narrow profile; a project naming a wider one
	 * does not swap it out. */
	const char *user = "[kli]\nprofile = reviewer\n[profile reviewer]\ncapabilities = file/read\n";
	expect_grant(t, NULL, user, "[kli]\nprofile = interactive\n", NULL, READ_ONLY_TEXT);
	struct kli_settings s;
	char err[300];
	assert_true(load(t, NULL, user, "[kli]\nprofile = interactive\n", NULL, &s, err, sizeof err));
	assert_string_equal(s.profile, "reviewer");
	settings_clear(&s);
	/* Nor does it get around --profile. */
	const struct kli_options o = { .profile = "reviewer", .default_profile = "print" };
	expect_grant(t, NULL, user, "[kli]\nprofile = print\n", &o, READ_ONLY_TEXT);
	/* A project choice that narrows applies on top. */
	expect_grant(t, NULL, "[kli]\ncapabilities = tools/standard\n",
		     "[kli]\nprofile = tight\n[profile tight]\ncapabilities = file/read\n", NULL,
		     READ_ONLY_TEXT);
	expect_grant(t, NULL, "[kli]\ncapabilities = tools/standard\n[profile reviewer]\n"
			      "capabilities = file/read, process/exec\n",
		     "[kli]\nprofile = reviewer\n", NULL,
		     "authority:\n  file/read\n  process/exec\n  result/read\n");
	expect_error(t, NULL, NULL, "[kli]\nprofile = nope\n", NULL,
		     "DIR/ws/.kli/config.ini:2: unknown profile 'nope'");
}

/* ----------------------------------------------------------- profiles */

static void test_profiles(void **state)
{
	struct fx *t = *state;
	const char *user = "[kli]\ncapabilities = tools/standard\n"
			   "[profile print]\ncapabilities = file/read, process/exec\n"
			   "[profile reviewer]\nextends = print\ncapabilities = file/read, file/write\n"
			   "[profile solo]\ncapabilities = file/write\n";
	const char *std = "authority:\n  file/edit\n  file/read\n  file/write\n  process/exec\n"
			  "  result/read\n  tools/standard\n";
	/* The built-in print is narrowed by its section; interactive is not. */
	expect_grant(t, NULL, user, NULL, NULL, "authority:\n  file/read\n  process/exec\n  result/read\n");
	const struct kli_options inter = { .default_profile = "interactive" };
	expect_grant(t, NULL, user, NULL, &inter, std);
	const struct kli_options headless = { .profile = "headless", .default_profile = "print" };
	expect_grant(t, NULL, user, NULL, &headless, std);
	/* extends: the parent's narrowing applies as well. */
	const struct kli_options rev = { .profile = "reviewer", .default_profile = "print" };
	expect_grant(t, NULL, user, NULL, &rev, READ_ONLY_TEXT);
	const struct kli_options solo = { .profile = "solo", .default_profile = "print" };
	expect_grant(t, NULL, user, NULL, &solo, "authority:\n  file/write\n");
	/* [kli] profile selects, --profile overrides it. */
	char *with_choice = xasprintf("%s[kli]\nprofile = solo\n", user);
	expect_grant(t, NULL, with_choice, NULL, NULL, "authority:\n  file/write\n");
	free(with_choice);
	expect_error(t, NULL, "[kli]\nprofile = solo\nprofile = print\n[profile solo]\n"
			      "extends = print\n", NULL, NULL,
		     "DIR/user.ini:3: key 'profile' repeated in [kli]");
	const char *chooser = "[kli]\nprofile = solo\ncapabilities = tools/standard\n"
			      "[profile solo]\ncapabilities = file/write\n";
	expect_grant(t, NULL, chooser, NULL, NULL, "authority:\n  file/write\n");
	expect_grant(t, NULL, chooser, NULL, &headless, std);
	expect_grant(t, "[kli]\nprofile = solo\n", "[kli]\ncapabilities = tools/standard\n"
		     "[profile solo]\ncapabilities = file/write\n", NULL, NULL, "authority:\n  file/write\n");
	/* Definitions in several layers all narrow (meet). */
	expect_grant(t, "[profile print]\ncapabilities = file/read, file/write\n",
		     "[profile print]\ncapabilities = file/read, process/exec\n", NULL, NULL,
		     READ_ONLY_TEXT);
	/* A profile with no capabilities of its own narrows through its parent. */
	expect_grant(t, NULL, "[profile a]\nextends = b\n[profile b]\ncapabilities = file/read\n",
		     NULL, &(struct kli_options){ .profile = "a", .default_profile = "print" },
		     READ_ONLY_TEXT);
}

static void test_profile_errors(void **state)
{
	struct fx *t = *state;
	const struct kli_options nope = { .profile = "nope", .default_profile = "print" };
	expect_error(t, NULL, NULL, NULL, &nope,
		     "unknown profile 'nope' (not built in, not in any config)");
	expect_error(t, NULL, "[kli]\nprofile = nope\n", NULL, NULL,
		     "DIR/user.ini:2: unknown profile 'nope'");
	/* A bad choice in the config fails even when --profile overrides it. */
	const struct kli_options pr = { .profile = "print", .default_profile = "print" };
	expect_error(t, "[kli]\nprofile = nope\n", NULL, NULL, &pr,
		     "DIR/sys.ini:2: unknown profile 'nope'");
	expect_error(t, NULL, "[profile a]\nextends = ghost\n", NULL, NULL,
		     "DIR/user.ini:2: profile 'a' extends unknown profile 'ghost'");
	expect_error(t, NULL, "[profile a]\nextends = b\n[profile b]\nextends = a\n", NULL, NULL,
		     "DIR/user.ini:4: extends cycle: profile 'b' extends 'a', which leads back to 'b'");
	expect_error(t, NULL, "[profile a]\nextends = a\n", NULL, NULL,
		     "DIR/user.ini:2: extends cycle: profile 'a' extends 'a', which leads back to 'a'");
	/* A cycle across layers, built by the project. */
	expect_error(t, NULL, "[profile a]\nextends = print\n", "[profile print]\nextends = a\n", NULL,
		     "DIR/ws/.kli/config.ini:2: extends cycle: profile 'print' extends 'a', which "
		     "leads back to 'print'");
	expect_error(t, NULL, "[profile bad name!]\ncapabilities = file/read\n", NULL, NULL,
		     "DIR/user.ini:2: profile name 'bad name!' must be letters, digits, '-', '_' or '.'");
	expect_error(t, NULL, "[kli]\nprofile =\n", NULL, NULL,
		     "DIR/user.ini:2: profile needs a profile name");
	expect_error(t, NULL, "[profile a]\nextends =\n", NULL, NULL,
		     "DIR/user.ini:2: extends needs a profile name");
}

/* --------------------------------------------------------- bad input */

static void test_bad_input(void **state)
{
	struct fx *t = *state;
	expect_error(t, NULL, "[kli]\ncapabilities = file/read, file/write benath src\n", NULL, NULL,
		     "DIR/user.ini:2: bad capability 'file/write benath src': after the atom, "
		     "expected 'under PATH', 'in LO..HI' or 'one of A|B'");
	expect_error(t, NULL, "[kli]\ncapabilities = x/n in 5..1\n", NULL, NULL,
		     "DIR/user.ini:2: bad capability 'x/n in 5..1': empty range (5 is greater than 1)");
	expect_error(t, NULL, "[kli]\ncapabilities = x/n in 1..z\n", NULL, NULL,
		     "DIR/user.ini:2: bad capability 'x/n in 1..z': 'z' is not an integer");
	expect_error(t, NULL, "[kli]\ncapabilitys = file/read\n", NULL, NULL,
		     "DIR/user.ini:2: unknown key 'capabilitys' in [kli]");
	expect_error(t, NULL, "[kli]\n[agent]\n", NULL, NULL, "DIR/user.ini:2: unknown section [agent]");
	char *long_line = xasprintf("[kli]\ncapabilities = file/read under /%0*d\n", 400, 0);
	struct kli_settings s;
	char err[600];
	assert_false(load(t, NULL, long_line, NULL, NULL, &s, err, sizeof err));
	free(long_line);
	char *want = xasprintf("%s/user.ini:2: line longer than ", t->dir);
	assert_true(str_has_prefix(err, want));
	free(want);
	assert_null(s.grant);
	/* A fault in a later layer voids the earlier ones. */
	expect_error(t, "[kli]\ncapabilities = file/read\n", "[kli]\n capabilities = x\n", NULL, NULL,
		     "DIR/user.ini:2: line starts with white space (continuation lines are not "
		     "accepted)");
	expect_error(t, NULL, "[kli]\ncapabilities = file/read\n",
		     "[kli]\ncapabilities = file/read\ncapabilities = x/y under /a, x/y in 1..2\n",
		     NULL, "DIR/ws/.kli/config.ini:3: x/y is listed twice: 'path under /a' and "
			   "'in [1..2]' do not combine into one constraint");
	/* A conflict reports the line of the entry at fault. */
	expect_error(t, NULL, "[kli]\ncapabilities = x/n in 1..2\n\ncapabilities = x/n in 5..6\n",
		     NULL, NULL, "DIR/user.ini:4: x/n is listed twice: 'in [1..2]' and 'in [5..6]' "
				 "do not combine into one constraint");
	expect_error(t, NULL, "[profile p]\ncapabilities = a/b,\n", NULL, NULL,
		     "DIR/user.ini:2: empty capability entry (a stray comma?)");
	/* A project file found but unreadable is an error, not skipped. */
	char *dir = path_join(t->ws, ".kli/config.ini"), *kli_dir = path_join(t->ws, ".kli");
	mkdir(kli_dir, 0755);
	free(kli_dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	const struct kli_files files = { NULL, NULL, dir, NULL };
	assert_false(settings_load(&files, &print_opts, &t->ctx, &s, err, sizeof err));
	want = xasprintf("%s: cannot read: Is a directory", dir);
	assert_string_equal(err, want);
	free(want);
	rmdir(dir);
	free(dir);
}

static void test_model_and_bash(void **state)
{
	struct fx *t = *state;
	struct kli_settings s;
	char err[600];
	assert_true(load(t, "[model]\nbase-url = http://127.0.0.1:8080/v1\nmodel = base\ntimeout = 5\n"
			 "idle-timeout = 4\nconnect-timeout = 3\n",
			 "[model]\nmodel = qwen2.5-coder  ; the one we use\napi-key-file = ~/.config/kli/key\n"
			 "api-key-env = OPENAI_API_KEY\nretries = 0\n[bash]\nenv-allowlist = PATH, LANG\n"
			 "env-allowlist = LC_*\nenv-allowlist =\ntimeout = 7\n",
			 NULL, NULL, &s, err, sizeof err));
	assert_string_equal(s.model.base_url, "http://127.0.0.1:8080/v1");
	assert_string_equal(s.model.model, "qwen2.5-coder");
	assert_string_equal(s.model.api_key_file, "~/.config/kli/key");
	assert_string_equal(s.model.api_key_env, "OPENAI_API_KEY");
	assert_int_equal(s.model.timeout, 5);
	assert_int_equal(s.model.idle_timeout, 4);
	assert_int_equal(s.model.connect_timeout, 3);
	assert_int_equal(s.model.retries, 0);
	assert_int_equal(s.bash_env.n, 3);
	assert_string_equal(s.bash_env.v[0], "PATH");
	assert_string_equal(s.bash_env.v[1], "LANG");
	assert_string_equal(s.bash_env.v[2], "LC_*");
	assert_int_equal(s.bash_timeout, 7);
	settings_clear(&s);
	assert_true(load(t, NULL, "[model]\nbase-url = unix:/run/llm.sock\n", NULL, NULL, &s, err,
			 sizeof err));
	assert_string_equal(s.model.base_url, "unix:/run/llm.sock");
	assert_int_equal(s.bash_timeout, 0);
	settings_clear(&s);
	static const struct { const char *text, *msg; } bad[] = {
		{ "[model]\nbase-url = ftp://x\n", "base-url must start with http://, https:// or unix:/" },
		{ "[model]\ntimeout = 0\n", "timeout must be whole seconds from 1 to 86400" },
		{ "[model]\ntimeout = 10s\n", "timeout must be whole seconds from 1 to 86400" },
		{ "[model]\ntimeout = -5\n", "timeout must be whole seconds from 1 to 86400" },
		{ "[model]\nidle-timeout = 0\n", "idle-timeout must be whole seconds from 1 to 86400" },
		{ "[model]\nidle-timeout = 3s\n", "idle-timeout must be whole seconds from 1 to 86400" },
		{ "[model]\nconnect-timeout = 301\n",
		  "connect-timeout must be whole seconds from 1 to 300" },
		{ "[model]\nretries = 101\n", "retries must be a whole number from 0 to 100" },
		{ "[model]\nretries = 99999999999999999999999\n",
		  "retries must be a whole number from 0 to 100" },
		{ "[model]\napi-key-file = key.txt\n", "api-key-file must be absolute or start with ~/" },
		{ "[model]\napi-key-env = 1KEY\n", "api-key-env must be a variable name" },
		{ "[model]\nmodel =\n", "model needs a value" },
		{ "[bash]\nenv-allowlist = PATH, A-B\n",
		  "env-allowlist: 'A-B' is not a variable name (or a NAME* prefix)" },
		{ "[bash]\nenv-allowlist = *\n",
		  "env-allowlist: '*' is not a variable name (or a NAME* prefix)" },
		{ "[bash]\ntimeout = 0\n", "timeout must be whole seconds from 1 to 86400" },
		{ "[bash]\ntimeout = 1h\n", "timeout must be whole seconds from 1 to 86400" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char *want = xasprintf("DIR/user.ini:2: %s", bad[i].msg);
		expect_error(t, NULL, bad[i].text, NULL, NULL, want);
		free(want);
	}
}

/* -------------------------------------------------- flags and sources */

static void test_flags_and_sources(void **state)
{
	struct fx *t = *state;
	const struct kli_options ro = { .default_profile = "print", .read_only = true };
	expect_grant(t, NULL, NULL, NULL, &ro,
		     "authority: universal except (every capability but those listed)\n"
		     "  file/edit\n  file/write\n  process/exec\n  tools/standard\n");
	const struct kli_options nb = { .default_profile = "print", .no_bash = true };
	expect_grant(t, NULL, "[kli]\ncapabilities = tools/standard\n", NULL, &nb,
		     "authority:\n  file/edit\n  file/read\n  file/write\n  result/read\n");
	expect_grant(t, NULL, "[kli]\ncapabilities = tools/standard\n", NULL, &ro, READ_ONLY_TEXT);

	struct kli_settings s;
	char err[600];
	const struct kli_options both = { .default_profile = "print", .read_only = true,
					  .no_bash = true };
	assert_true(load(t, "[kli]\ncapabilities = tools/standard\n",
			 "[kli]\ncapabilities = tools/standard, x/n in 1..9\n"
			 "[profile print]\ncapabilities = file/read, x/n in 1..3\n",
			 "[kli]\ncapabilities = file/read, x/n\n", &both, &s, err, sizeof err));
	char *json = report_json(s.grant, s.profile, s.sources, s.nsources, NULL);
	char *want = xasprintf(
		"{\"type\":\"authority\",\"scope\":\"bounded\",\"capabilities\":["
		"{\"atom\":\"file/read\",\"constraint\":\"any\"},"
		"{\"atom\":\"result/read\",\"constraint\":\"any\"},"
		"{\"atom\":\"x/n\",\"constraint\":\"in [1..3]\"}],"
		"\"profile\":\"print\",\"sources\":["
		"{\"origin\":\"%1$s/user.ini:2\",\"what\":\"[kli] capabilities\",\"effect\":\"set\"},"
		"{\"origin\":\"%1$s/ws/.kli/config.ini:2\",\"what\":\"[kli] capabilities\",\"effect\":\"narrow\"},"
		"{\"origin\":\"%1$s/user.ini:4\",\"what\":\"[profile print] capabilities\",\"effect\":\"narrow\"},"
		"{\"origin\":\"--read-only\",\"what\":\"--read-only\",\"effect\":\"narrow\"},"
		"{\"origin\":\"--no-bash\",\"what\":\"--no-bash\",\"effect\":\"narrow\"}]}\n",
		t->dir);
	assert_string_equal(json, want);
	free(json);
	free(want);
	settings_clear(&s);
	assert_null(s.grant);
}

/* ------------------------------------------------------------ reports */

static void test_reports(void **state)
{
	(void)state;
	struct grant *u = grant_universal(), *n = grant_none();
	static const char *const ro[] = { "file/write", "file/edit", "process/exec" };
	struct grant *e = grant_without(u, ro, 3);
	struct grant_cap caps[2] = { { .atom = "file/read" }, { .atom = "process/exec" } };
	constraint_path(&caps[0].c, "/srv/data");
	constraint_any(&caps[1].c);
	char err[300];
	struct grant *b = grant_from_caps(caps, 2, NULL, err, sizeof err);
	constraint_clear(&caps[0].c);

	const struct { struct grant **g; const char *text, *json; } cases[] = {
		{ &u, UNIVERSAL,
		  "{\"type\":\"authority\",\"scope\":\"universal\",\"capabilities\":[]}\n" },
		{ &n, NONE, "{\"type\":\"authority\",\"scope\":\"none\",\"capabilities\":[]}\n" },
		{ &e, "authority: universal except (every capability but those listed)\n"
		      "  file/edit\n  file/write\n  process/exec\n  tools/standard\n",
		  "{\"type\":\"authority\",\"scope\":\"universal-except\",\"excluded\":[\"file/edit\","
		  "\"file/write\",\"process/exec\",\"tools/standard\"]}\n" },
		{ &b, "authority:\n  file/read  [path under /srv/data]\n  process/exec\n"
		      "  result/read\n",
		  "{\"type\":\"authority\",\"scope\":\"bounded\",\"capabilities\":["
		  "{\"atom\":\"file/read\",\"constraint\":\"path under /srv/data\"},"
		  "{\"atom\":\"process/exec\",\"constraint\":\"any\"},"
		  "{\"atom\":\"result/read\",\"constraint\":\"any\"}]}\n" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *text = report_text(*cases[i].g), *json = report_json(*cases[i].g, NULL, NULL, 0, NULL);
		assert_string_equal(text, cases[i].text);
		assert_string_equal(json, cases[i].json);
		free(text);
		free(json);
	}
	char *json = report_json(u, "interactive", NULL, 0, NULL);
	assert_string_equal(json, "{\"type\":\"authority\",\"scope\":\"universal\",\"capabilities\":[],"
				  "\"profile\":\"interactive\",\"sources\":[]}\n");
	free(json);

	/* Values needing JSON escapes, and bytes that are not UTF-8. */
	struct grant_cap odd[2] = { { .atom = "x/e" }, { .atom = "x/p" } };
	static const char *const vals[] = { "tab\there", "caf\xc3\xa9" };
	constraint_enum(&odd[0].c, vals, 2);
	constraint_path(&odd[1].c, "/a/\xff\"b");
	struct grant *o = grant_from_caps(odd, 2, NULL, err, sizeof err);
	json = report_json(o, NULL, NULL, 0, NULL);
	assert_string_equal(json, "{\"type\":\"authority\",\"scope\":\"bounded\",\"capabilities\":["
				  "{\"atom\":\"x/e\",\"constraint\":\"one of \\\"caf\xc3\xa9\\\", "
				  "\\\"tab\\there\\\"\"},"
				  "{\"atom\":\"x/p\",\"constraint\":\"path under /a/?\\\"b\"}]}\n");
	free(json);
	constraint_clear(&odd[0].c);
	constraint_clear(&odd[1].c);
	grant_free(o);
	grant_free(u);
	grant_free(n);
	grant_free(e);
	grant_free(b);
}

/* kli's own files in the report (issue 27): each with its path and what
 * it is, the reason in the text's header and in every JSON entry. */
static void test_report_exclusions(void **state)
{
	(void)state;
	struct kli_exclusion v[] = {
		{ .path = "/h/.config/kli/api-key", .why = "the API key file" },
		{ .path = "/w/.kli/con\nfig.ini", .why = "kli's project config" },
		{ .path = "/h/.cache/kli", .why = "kli's cache (fault log, job output)", .tree = true },
	};
	struct kli_exclusions x = { .v = v, .n = ARRAY_SIZE(v) };
	char *text = report_exclusions_text(&x);
	assert_string_equal(text, "excluded (kli's own files: no grant reaches them):\n"
				  "  /h/.config/kli/api-key  [the API key file]\n"
				  "  /w/.kli/con?fig.ini  [kli's project config]\n"
				  "  /h/.cache/kli  [kli's cache (fault log, job output), and "
				  "everything under it]\n");
	free(text);
	struct kli_exclusions none = { 0 };
	text = report_exclusions_text(&none);
	assert_string_equal(text, "");
	free(text);
	text = report_exclusions_text(NULL);
	assert_string_equal(text, "");
	free(text);

	struct grant *u = grant_universal();
	x.n = 1;
	char *json = report_json(u, "print", NULL, 0, &x);
	assert_string_equal(json, "{\"type\":\"authority\",\"scope\":\"universal\",\"capabilities\":[],"
				  "\"profile\":\"print\",\"sources\":[],\"excluded_files\":["
				  "{\"path\":\"/h/.config/kli/api-key\",\"what\":\"the API key file\","
				  "\"why\":\"kli's own file: no grant reaches it\",\"tree\":false}]}\n");
	free(json);
	json = report_json(u, NULL, NULL, 0, &none);
	assert_string_equal(json, "{\"type\":\"authority\",\"scope\":\"universal\",\"capabilities\":[],"
				  "\"excluded_files\":[]}\n");
	free(json);
	grant_free(u);
}

/* ---------------------------------------------------- where the files are */

static void test_user_config_path(void **state)
{
	(void)state;
	char *p = settings_user_config("/x/cfg", "/home/u");
	assert_string_equal(p, "/x/cfg/kli/config.ini");
	free(p);
	p = settings_user_config("relative/cfg", "/home/u");
	assert_string_equal(p, "/home/u/.config/kli/config.ini");
	free(p);
	p = settings_user_config("", "/home/u/");
	assert_string_equal(p, "/home/u/.config/kli/config.ini");
	free(p);
	assert_null(settings_user_config(NULL, NULL));
	assert_null(settings_user_config(NULL, "relative"));
}

static char *mkpath(struct fx *t, const char *rel)
{
	char *p = path_join(t->dir, rel);
	for (char *s = p + strlen(t->dir) + 1;; s++) {
		char *slash = strchr(s, '/');
		if (slash)
			*slash = '\0';
		mkdir(p, 0755);
		if (!slash)
			break;
		*slash = '/';
		s = slash;
	}
	return p;
}

/* settings_project_config from WS_REL with the git root found from there,
 * or ROOT_REL when given ("-": none). */
static void expect_project(struct fx *t, const char *ws_rel, const char *root_rel,
			   const char *want_rel)
{
	char *ws = path_join(t->dir, ws_rel);
	char *root = !root_rel ? settings_git_root(ws)
		   : strcmp(root_rel, "-") == 0 ? NULL : path_join(t->dir, root_rel);
	char *got = settings_project_config(ws, root);
	if (!want_rel) {
		if (got)
			fail_msg("from %s: expected none, got %s", ws_rel, got);
	} else {
		char *want = path_join(t->dir, want_rel);
		if (!got || strcmp(got, want) != 0)
			fail_msg("from %s: expected %s, got %s", ws_rel, want, got ? got : "none");
		free(want);
	}
	free(got);
	free(root);
	free(ws);
}

static void expect_git_root(struct fx *t, const char *ws_rel, const char *want_rel)
{
	char *ws = path_join(t->dir, ws_rel), *want = path_join(t->dir, want_rel);
	char *got = settings_git_root(ws);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
	free(want);
	free(ws);
}

static void test_project_config_path(void **state)
{
	struct fx *t = *state;
	/* repo/.git, repo/.kli/config.ini, repo/a/b/c (the workspace) */
	free(mkpath(t, "repo/.git"));
	free(mkpath(t, "repo/a/b/c"));
	free(put(t, "repo/.kli/config.ini", "[kli]\n"));
	free(put(t, ".kli/config.ini", "[kli]\n")); /* above the git root: never read */
	expect_git_root(t, "repo/a/b/c", "repo");
	expect_git_root(t, "repo", "repo");
	expect_project(t, "repo/a/b/c", NULL, "repo/.kli/config.ini");
	expect_project(t, "repo", NULL, "repo/.kli/config.ini");
	/* The nearest one wins. */
	free(put(t, "repo/a/.kli/config.ini", "[kli]\n"));
	expect_project(t, "repo/a/b/c", NULL, "repo/a/.kli/config.ini");
	/* A nested repository (.git as a file, as in worktrees) stops the walk. */
	free(put(t, "repo/a/b/.git", "gitdir: elsewhere\n"));
	expect_git_root(t, "repo/a/b/c", "repo/a/b");
	expect_project(t, "repo/a/b/c", NULL, NULL);
	/* No git root: only the workspace itself. */
	free(mkpath(t, "plain/sub"));
	free(put(t, "plain/.kli/config.ini", "[kli]\n"));
	expect_project(t, "plain/sub", "-", NULL);
	expect_project(t, "plain", "-", "plain/.kli/config.ini");
	/* A "root" that is not above the workspace limits to the workspace. */
	expect_project(t, "plain/sub", "repo", NULL);
	/* Present but not a file still counts (reading it will fail). */
	free(mkpath(t, "plain/sub/.kli/config.ini"));
	expect_project(t, "plain/sub", "-", "plain/sub/.kli/config.ini");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_no_config),
		T(test_root_grant),
		T(test_project_narrows),
		T(test_project_profile_choice),
		T(test_profiles),
		T(test_profile_errors),
		T(test_bad_input),
		T(test_model_and_bash),
		T(test_flags_and_sources),
		cmocka_unit_test(test_reports),
		cmocka_unit_test(test_report_exclusions),
		cmocka_unit_test(test_user_config_path),
		T(test_project_config_path),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
