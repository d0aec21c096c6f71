/* SPDX-License-Identifier: MIT */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <fnmatch.h>
#include <stdbool.h>
#include <string.h>

#include "policy/defaults.h"
#include "policy/env.h"
#include "git/env.h"
#include <stdio.h>

static char *envp[] = {
	"PATH=/usr/bin", "HOME=/home/u", "AWS_SECRET_ACCESS_KEY=a", "AWS_REGION=eu",
	"GITHUB_TOKEN=t", "MY_SECRET=s", "DB_SECRET_VALUE=v", "PGPASSWORD=no-underscore",
	"DB_PASSWORD=p", "SSH_AUTH_SOCK=/run/x", "OPENAI_API_KEY=k", "AZURE_X=1",
	"DBUS_SESSION_BUS_ADDRESS=unix:x", "GPG_AGENT_INFO=g", "GOOGLE_APPLICATION_CREDENTIALS=c",
	"TOKEN=bare", "noequals", "=novalue", "EMPTY=", "BORG_PASSPHRASE=b",
	"DEPLOY_PRIVATE_KEY=k", "GOOGLE_CREDENTIALS=c", "MYSQL_PWD=m", "SSHPASS=s",
	"DOCKER_AUTH_CONFIG={}", "OP_SESSION_acme=o", "PASSPHRASE=bare", "MY_CREDENTIALS_FILE=f",
	NULL,
};

static bool kept(const struct strv *s, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < s->n; i++)
		if (strncmp(s->v[i], name, n) == 0 && s->v[i][n] == '=')
			return true;
	return false;
}

static const char *removed_origin(const struct entry_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].value, name) == 0)
			return l->v[i].origin;
	return NULL;
}

static void test_builtin_scrub(void **state)
{
	(void)state;
	struct policy p;
	policy_init(&p);
	struct strv k = STRV_INIT;
	struct entry_list r = { 0 };
	env_filter(envp, &p, &k, &r);
	const char *gone[] = { "AWS_SECRET_ACCESS_KEY", "AWS_REGION", "GITHUB_TOKEN", "MY_SECRET",
			       "DB_SECRET_VALUE", "DB_PASSWORD", "SSH_AUTH_SOCK", "AZURE_X",
			       "DBUS_SESSION_BUS_ADDRESS", "GPG_AGENT_INFO",
			       "GOOGLE_APPLICATION_CREDENTIALS", "PGPASSWORD", "BORG_PASSPHRASE",
			       "DEPLOY_PRIVATE_KEY", "GOOGLE_CREDENTIALS", "MYSQL_PWD", "SSHPASS",
			       "DOCKER_AUTH_CONFIG", "OP_SESSION_acme" };
	for (size_t i = 0; i < sizeof gone / sizeof *gone; i++) {
		assert_false(kept(&k, gone[i]));
		assert_non_null(removed_origin(&r, gone[i]));
	}
	/* Not *_KEY: the model key passes. Patterns need their underscore. */
	const char *stay[] = { "PATH", "HOME", "OPENAI_API_KEY", "TOKEN", "EMPTY", "PASSPHRASE",
			       "MY_CREDENTIALS_FILE" };
	for (size_t i = 0; i < sizeof stay / sizeof *stay; i++)
		assert_true(kept(&k, stay[i]));
	assert_string_equal(removed_origin(&r, "GITHUB_TOKEN"),
			    "built-in secret scrub, pattern *_TOKEN");
	/* malformed entries are dropped, not passed */
	assert_int_equal(k.n, 7);
	strv_free(&k);
	policy_free(&p);
	entry_list_free(&r);
}

/* The built-in patterns in any case: a lower-case or mixed-case name is
 * the same secret; keep-env names a variable as it is spelled. */
static void test_builtin_scrub_any_case(void **state)
{
	(void)state;
	static char *mixed[] = { "github_token=t", "Aws_Region=eu", "db_Password=p",
				 "ssh_auth_sock=/run/x", "op_session_acme=o", "path=/x",
				 "openai_api_key=k", "token=bare", NULL };
	struct policy p;
	policy_init(&p);
	struct strv k = STRV_INIT;
	struct entry_list r = { 0 };
	env_filter(mixed, &p, &k, &r);
	const char *gone[] = { "github_token", "Aws_Region", "db_Password", "ssh_auth_sock",
			       "op_session_acme" };
	for (size_t i = 0; i < sizeof gone / sizeof *gone; i++) {
		assert_false(kept(&k, gone[i]));
		assert_non_null(removed_origin(&r, gone[i]));
	}
	assert_string_equal(removed_origin(&r, "github_token"),
			    "built-in secret scrub, pattern *_TOKEN");
	assert_true(kept(&k, "path"));
	assert_true(kept(&k, "openai_api_key"));
	/* a long name (past the stack copy) in any case too */
	{
		char *longv[] = { NULL, NULL };
		char name[200];
		memset(name, 'a', 150);
		memcpy(name + 150, "_token=s", 9);
		longv[0] = name;
		struct strv lk = STRV_INIT;
		struct entry_list lr = { 0 };
		env_filter(longv, &p, &lk, &lr);
		assert_int_equal(lk.n, 0);
		assert_int_equal(lr.n, 1);
		strv_free(&lk);
		entry_list_free(&lr);
	}
	assert_true(kept(&k, "token"));
	assert_int_equal(k.n, 3);
	strv_free(&k);
	entry_list_free(&r);

	/* keep-env as spelled: the exact name passes, another spelling not */
	entry_add(&p.keep_env, "github_token", "--keep-env");
	entry_add(&p.keep_env, "AWS_REGION", "--keep-env");
	k = (struct strv)STRV_INIT;
	r = (struct entry_list){ 0 };
	env_filter(mixed, &p, &k, &r);
	assert_true(kept(&k, "github_token"));
	assert_false(kept(&k, "Aws_Region"));
	strv_free(&k);
	entry_list_free(&r);
	policy_free(&p);
}

static void test_keep_and_deny(void **state)
{
	(void)state;
	struct policy p;
	policy_init(&p);
	entry_add(&p.keep_env, "GITHUB_TOKEN", "--keep-env");
	entry_add(&p.keep_env, "OPENAI_*", "--keep-env");
	entry_add(&p.deny_env, "OPENAI_API_KEY", "cfg:3");
	entry_add(&p.deny_env, "HO?E", "--deny-env");
	struct strv k = STRV_INIT;
	struct entry_list r = { 0 };
	env_filter(envp, &p, &k, &r);
	assert_true(kept(&k, "GITHUB_TOKEN"));           /* exempted */
	assert_false(kept(&k, "OPENAI_API_KEY"));        /* explicit deny beats keep */
	assert_string_equal(removed_origin(&r, "OPENAI_API_KEY"), "cfg:3, pattern OPENAI_API_KEY");
	assert_false(kept(&k, "HOME"));
	assert_string_equal(removed_origin(&r, "HOME"), "--deny-env, pattern HO?E");
	assert_false(kept(&k, "MY_SECRET"));
	strv_free(&k);
	policy_free(&p);
	entry_list_free(&r);
}

/* Names of any length: short ones are matched from a stack copy, long
 * ones from the heap; both are judged alike. */
static const char *const *git_secret(void)
{
	for (const struct cred_store *c = cred_stores; c->tool; c++)
		if (c->format == CF_GITCONFIG)
			return c->secret;
	fail();
	return NULL;
}

/* GIT_CONFIG_PARAMETERS as git writes it (sq_quote): the new 'K'='V'
 * form, a key alone, the older 'K=V', quotes and bangs inside */
static void test_gitenv_parse(void **state)
{
	(void)state;
	struct gitenv_setting *s;
	size_t n;
	assert_true(gitenv_parse_params("'a.b'='x y' 'c.d'\t'e.f=g=h' 'i.j'='it'\\''s'\\!'!'", &s, &n));
	assert_int_equal(n, 4);
	assert_string_equal(s[0].key, "a.b");
	assert_string_equal(s[0].value, "x y");
	assert_string_equal(s[1].key, "c.d");
	assert_null(s[1].value);
	assert_string_equal(s[2].key, "e.f");
	assert_string_equal(s[2].value, "g=h");
	assert_string_equal(s[3].key, "i.j");
	assert_string_equal(s[3].value, "it's!!");
	gitenv_settings_free(s, n);
	/* what git 2.39 itself put there for -c alias.p='!/tmp/x' -c "x.y=it's!" -c core.z */
	assert_true(gitenv_parse_params("'alias.p'=''\\!'/tmp/x' 'x.y'='it'\\''s'\\!'' 'core.z'=", &s,
					&n));
	assert_int_equal(n, 3);
	assert_string_equal(s[0].value, "!/tmp/x");
	assert_string_equal(s[1].value, "it's!");
	assert_string_equal(s[2].key, "core.z");
	assert_null(s[2].value);
	gitenv_settings_free(s, n);
	assert_true(gitenv_parse_params("  ", &s, &n));
	assert_int_equal(n, 0);
	assert_true(gitenv_parse_params("'k.v'=", &s, &n)); /* bare, as git reads it */
	assert_int_equal(n, 1);
	assert_null(s[0].value);
	gitenv_settings_free(s, n);
	static const char *const bad[] = { "a.b=c", "'a.b", "'a.b'x", "'a.b'='c", "'a'='b'c" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_false(gitenv_parse_params(bad[i], &s, &n));
		assert_null(s);
		assert_int_equal(n, 0);
	}
}

static void test_gitenv_secret(void **state)
{
	(void)state;
	const char *const *sec = git_secret();
	struct gitenv_setting ok[] = { { "safe.directory", "*" }, { "core.pager", "cat" },
				       { "url.https://example/.insteadOf", "gh:" },
				       { "core.bare", NULL } };
	assert_false(gitenv_has_secret(ok, 4, sec));
	struct gitenv_setting hdr[] = { { "http.https://github.com/.extraheader",
					  "AUTHORIZATION: basic eA==" } };
	assert_true(gitenv_has_secret(hdr, 1, sec));
	struct gitenv_setting cred[] = { { "credential.helper", "!echo password=x" } };
	assert_true(gitenv_has_secret(cred, 1, sec));
	struct gitenv_setting url[] = { { "remote.origin.url", "https://u:pw@host/r" } };
	assert_true(gitenv_has_secret(url, 1, sec));
	/* what cannot be written as a config file cannot be judged: it goes */
	struct gitenv_setting odd[] = { { "nosection", "x" } };
	assert_true(gitenv_has_secret(odd, 1, sec));
	struct gitenv_setting nl[] = { { "a.b\nc.d", "x" } };
	assert_true(gitenv_has_secret(nl, 1, sec));
	/* a section that would write lines of its own into the file */
	struct gitenv_setting inject[] = { { "a]\n[core.x", "v" } };
	assert_true(gitenv_has_secret(inject, 1, sec));
	struct gitenv_setting quote[] = { { "a.\"b\\.c", "x\"y\\z\nw" } };
	assert_false(gitenv_has_secret(quote, 1, sec));
}

/* env_filter: the group with a credential goes whole, the other stays;
 * --keep-env keeps a name; --no-defaults keeps them all */
static void test_gitenv_filter(void **state)
{
	(void)state;
	char *e1[] = { "GIT_CONFIG_PARAMETERS='http.extraheader'='AUTHORIZATION: basic x'",
		       "GIT_CONFIG_COUNT=2", "GIT_CONFIG_KEY_0=safe.directory",
		       "GIT_CONFIG_VALUE_0=*", "GIT_CONFIG_KEY_1=core.pager",
		       "GIT_CONFIG_VALUE_1=cat", "PATH=/bin", NULL };
	struct policy p;
	policy_init(&p);
	struct strv k = STRV_INIT;
	struct entry_list r = { 0 };
	env_filter(e1, &p, &k, &r);
	assert_false(kept(&k, "GIT_CONFIG_PARAMETERS"));
	assert_non_null(strstr(removed_origin(&r, "GIT_CONFIG_PARAMETERS"), "git settings"));
	assert_true(kept(&k, "GIT_CONFIG_COUNT") && kept(&k, "GIT_CONFIG_KEY_1") &&
		    kept(&k, "GIT_CONFIG_VALUE_1"));
	strv_free(&k);
	entry_list_free(&r);

	char *e2[] = { "GIT_CONFIG_PARAMETERS='safe.directory'='*'", "GIT_CONFIG_COUNT=2",
		       "GIT_CONFIG_KEY_0=safe.directory", "GIT_CONFIG_VALUE_0=*",
		       "GIT_CONFIG_KEY_1=http.https://h/.extraHeader",
		       "GIT_CONFIG_VALUE_1=Authorization: Bearer x", NULL };
	k = (struct strv)STRV_INIT;
	r = (struct entry_list){ 0 };
	env_filter(e2, &p, &k, &r);
	assert_true(kept(&k, "GIT_CONFIG_PARAMETERS"));
	static const char *const pair[] = { "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0",
					    "GIT_CONFIG_VALUE_0", "GIT_CONFIG_KEY_1",
					    "GIT_CONFIG_VALUE_1" };
	for (size_t i = 0; i < sizeof pair / sizeof *pair; i++)
		assert_false(kept(&k, pair[i]));
	strv_free(&k);
	entry_list_free(&r);

	/* unparsable, and a value without its key: both go */
	char *e3[] = { "GIT_CONFIG_PARAMETERS='a.b'=oops", "GIT_CONFIG_VALUE_3=x", NULL };
	k = (struct strv)STRV_INIT;
	r = (struct entry_list){ 0 };
	env_filter(e3, &p, &k, &r);
	assert_false(kept(&k, "GIT_CONFIG_PARAMETERS"));
	assert_false(kept(&k, "GIT_CONFIG_VALUE_3"));
	strv_free(&k);
	entry_list_free(&r);

	/* judged as git's lexer reads the settings: imap.pass; a URL password
	 * with quotes in it (git -c's value is taken as it is) */
	char *e4[] = { "GIT_CONFIG_PARAMETERS='imap.pass'='x'", NULL };
	char *e5[] = { "GIT_CONFIG_PARAMETERS='remote.o.url'='https://u:p\"\"@h/r'", NULL };
	char **e45[] = { e4, e5 };
	for (size_t i = 0; i < 2; i++) {
		k = (struct strv)STRV_INIT;
		r = (struct entry_list){ 0 };
		env_filter(e45[i], &p, &k, &r);
		assert_false(kept(&k, "GIT_CONFIG_PARAMETERS"));
		strv_free(&k);
		entry_list_free(&r);
	}

	entry_add(&p.keep_env, "GIT_CONFIG_PARAMETERS", "--keep-env");
	k = (struct strv)STRV_INIT;
	r = (struct entry_list){ 0 };
	env_filter(e1, &p, &k, &r);
	assert_true(kept(&k, "GIT_CONFIG_PARAMETERS"));
	strv_free(&k);
	entry_list_free(&r);
	policy_free(&p);

	policy_init(&p);
	bool_set(&p.defaults, false, "--no-defaults");
	k = (struct strv)STRV_INIT;
	r = (struct entry_list){ 0 };
	env_filter(e2, &p, &k, &r);
	assert_true(kept(&k, "GIT_CONFIG_KEY_1"));
	strv_free(&k);
	entry_list_free(&r);
	policy_free(&p);
}

/* a value holding a URL with a password (or an http(s) URL with a user)
 * goes, whatever the name; --keep-env keeps it; --no-defaults too */
static void test_url_values(void **state)
{
	(void)state;
	char *e[] = { "DATABASE_URL=postgres://app:pw@db:5432/app",
		      "CI_REPOSITORY_URL=https://gitlab-ci-token:tok@gitlab.example/g/p.git",
		      "ORIGIN=https://ghp_tok@github.com/o/r", "PLAIN_URL=https://example.com/a@b",
		      "DOCKER_HOST=ssh://me@host", "HTTP_PROXY=http://proxy:3128",
		      "MAIL=me@example.com", NULL };
	struct policy p;
	policy_init(&p);
	struct strv k = STRV_INIT;
	struct entry_list r = { 0 };
	env_filter(e, &p, &k, &r);
	assert_false(kept(&k, "DATABASE_URL"));
	assert_non_null(strstr(removed_origin(&r, "DATABASE_URL"), "URL with a password"));
	assert_false(kept(&k, "CI_REPOSITORY_URL"));
	assert_false(kept(&k, "ORIGIN"));
	assert_true(kept(&k, "PLAIN_URL"));   /* the '@' is in the path */
	assert_true(kept(&k, "DOCKER_HOST")); /* a user, no password, not http */
	assert_true(kept(&k, "HTTP_PROXY"));
	assert_true(kept(&k, "MAIL"));
	strv_free(&k);
	entry_list_free(&r);
	entry_add(&p.keep_env, "DATABASE_URL", "--keep-env");
	k = (struct strv)STRV_INIT;
	r = (struct entry_list){ 0 };
	env_filter(e, &p, &k, &r);
	assert_true(kept(&k, "DATABASE_URL"));
	assert_false(kept(&k, "ORIGIN"));
	strv_free(&k);
	entry_list_free(&r);
	policy_free(&p);
	policy_init(&p);
	bool_set(&p.defaults, false, "--no-defaults");
	k = (struct strv)STRV_INIT;
	r = (struct entry_list){ 0 };
	env_filter(e, &p, &k, &r);
	assert_true(kept(&k, "DATABASE_URL"));
	strv_free(&k);
	entry_list_free(&r);
	policy_free(&p);
}

static void test_long_names(void **state)
{
	(void)state;
	struct policy p;
	policy_init(&p);
	for (size_t len = 120; len <= 136; len++) {
		char *tok = xmalloc(len + 8), *plain = xmalloc(len + 8);
		memset(tok, 'X', len - 6);
		memcpy(tok + len - 6, "_TOKEN=v", 9);
		memset(plain, 'Y', len);
		memcpy(plain + len, "=v", 3);
		char *e[] = { tok, plain, NULL };
		struct strv k = STRV_INIT;
		struct entry_list r = { 0 };
		env_filter(e, &p, &k, &r);
		assert_int_equal(k.n, 1);
		assert_string_equal(k.v[0], plain);
		assert_int_equal(r.n, 1);
		assert_int_equal(strlen(r.v[0].value), len);
		strv_free(&k);
		entry_list_free(&r);
		free(tok);
		free(plain);
	}
	policy_free(&p);
}

static void test_no_defaults(void **state)
{
	(void)state;
	struct policy p;
	policy_init(&p);
	bool_set(&p.defaults, false, "--no-defaults");
	entry_add(&p.deny_env, "PATH", "--deny-env");
	struct strv k = STRV_INIT;
	struct entry_list r = { 0 };
	env_filter(envp, &p, &k, &r);
	assert_true(kept(&k, "AWS_SECRET_ACCESS_KEY"));
	assert_true(kept(&k, "GITHUB_TOKEN"));
	assert_false(kept(&k, "PATH"));  /* explicit entries still apply */
	assert_int_equal(r.n, 1);
	strv_free(&k);
	policy_free(&p);
	entry_list_free(&r);
}

/* The fast matcher agrees with fnmatch(3) on every pattern of up to five
 * bytes from {A, B, _, *} against every name of up to five from {A, B, _},
 * and hands the patterns it does not take ('?', '[', '\\') to fnmatch;
 * its first- and last-byte shortcut agrees on every pattern of up to four
 * bytes from {A, ?, [, ], \\, *, !}. */
static void words(const char *alpha, int maxlen, char (*out)[8], size_t *n)
{
	size_t k = strlen(alpha);
	out[(*n)++][0] = '\0';
	for (int len = 1; len <= maxlen; len++) {
		size_t total = 1;
		for (int i = 0; i < len; i++)
			total *= k;
		for (size_t v = 0; v < total; v++) {
			size_t x = v;
			for (int i = 0; i < len; i++, x /= k)
				out[*n][i] = alpha[x % k];
			out[*n][len] = '\0';
			(*n)++;
		}
	}
}

static void test_glob_agrees_with_fnmatch(void **state)
{
	(void)state;
	static char pats[1400][8], names[400][8];
	size_t np = 0, nn = 0;
	words("AB_*", 5, pats, &np);
	words("AB_", 5, names, &nn);
	size_t matches = 0;
	for (size_t i = 0; i < np; i++)
		for (size_t j = 0; j < nn; j++) {
			bool want = fnmatch(pats[i], names[j], 0) == 0;
			if (env_glob_match(pats[i], names[j]) != want)
				fail_msg("pattern '%s', name '%s': fnmatch says %d", pats[i], names[j], want);
			matches += want;
		}
	assert_true(matches > 10000); /* the comparison was not vacuous */
	/* Every pattern of up to four bytes from fnmatch's special ones and
	 * two literals, against names with the same bytes: the first- and
	 * last-byte shortcut must agree with fnmatch too. */
	static char spats[2900][8], snames[400][8];
	size_t nsp = 0, nsn = 0;
	words("A?[]\\*!", 4, spats, &nsp);
	words("A[]\\", 4, snames, &nsn);
	for (size_t i = 0; i < nsp; i++)
		for (size_t j = 0; j < nsn; j++) {
			bool want = fnmatch(spats[i], snames[j], 0) == 0;
			if (env_glob_match(spats[i], snames[j]) != want)
				fail_msg("pattern '%s', name '%s': fnmatch says %d", spats[i],
					 snames[j], want);
		}
	const char *other[][3] = {
		{ "A?B", "AXB", "1" }, { "A?B", "AB", "0" }, { "[AB]_*", "B_X", "1" },
		{ "[!A]*", "A", "0" }, { "A\\*", "A*", "1" }, { "A\\*", "AB", "0" },
		{ "*_TOKEN", "GITHUB_TOKEN", "1" }, { "*_SECRET_*", "DB_SECRET_VALUE", "1" },
		{ "AWS_*", "AWS", "0" }, { "*", "", "1" }, { "", "", "1" }, { "", "A", "0" },
	};
	for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
		bool want = other[i][2][0] == '1';
		assert_int_equal(fnmatch(other[i][0], other[i][1], 0) == 0, want);
		if (env_glob_match(other[i][0], other[i][1]) != want)
			fail_msg("pattern '%s', name '%s'", other[i][0], other[i][1]);
	}
}

/* Each built-in pattern, its stars filled in several ways and its first
 * or last byte changed: env_filter removes exactly the names that
 * env_glob_match gives a built-in pattern, naming the first one (the
 * scrub skips most patterns on a name's first or last byte unasked). */
static void test_builtin_fast_path_agrees(void **state)
{
	(void)state;
	static const char *const fills[] = { "", "X", "AB_SECRET_CD", "N" };
	char names[2048][64];
	size_t nn = 0;
	for (const char *const *pat = default_env_scrub; *pat; pat++)
		for (size_t f = 0; f < sizeof fills / sizeof *fills; f++)
			for (int edit = 0; edit < 3 && nn < 2048; edit++) {
				char *o = names[nn];
				size_t at = 0;
				for (const char *c = *pat; *c && at < 40; c++) {
					if (*c == '*') {
						size_t l = strlen(fills[f]);
						memcpy(o + at, fills[f], l);
						at += l;
					} else {
						o[at++] = *c;
					}
				}
				o[at] = '\0';
				if (!at)
					continue;
				if (edit == 1)
					o[0] = o[0] == 'Q' ? 'R' : 'Q';
				if (edit == 2)
					o[at - 1] = o[at - 1] == 'Q' ? 'R' : 'Q';
				nn++;
			}
	static char env[2048][80];
	char *envv[2049];
	for (size_t i = 0; i < nn; i++) {
		size_t l = strlen(names[i]);
		memcpy(env[i], names[i], l);
		memcpy(env[i] + l, "=v", 3);
		envv[i] = env[i];
	}
	envv[nn] = NULL;
	struct policy p;
	policy_init(&p);
	struct strv k = STRV_INIT;
	struct entry_list r = { 0 };
	env_filter(envv, &p, &k, &r);
	size_t removed = 0;
	for (size_t i = 0; i < nn; i++) {
		const char *want = NULL;
		for (const char *const *pat = default_env_scrub; *pat && !want; pat++)
			if (env_glob_match(*pat, names[i]))
				want = *pat;
		const char *got = removed_origin(&r, names[i]);
		if (!want) {
			assert_true(kept(&k, names[i]));
			continue;
		}
		removed++;
		assert_non_null(got);
		char expect[128];
		snprintf(expect, sizeof expect, "built-in secret scrub, pattern %s", want);
		assert_string_equal(got, expect);
	}
	assert_true(removed > 20);
	assert_true(nn - removed > 20);
	strv_free(&k);
	entry_list_free(&r);
	policy_free(&p);
}

/* issue 39 item 4: documented credential variables, and values judged
 * whatever the name (policy/secretval.h); the agents' keys and
 * --keep-env pass */
static void test_secret_values(void **state)
{
	(void)state;
	char *e[] = {
		"SYSTEM_ACCESSTOKEN=a", "CR_PAT=b", "GITHUB_PAT=c", "TF_TOKEN_app_terraform_io=d",
		"POETRY_PYPI_TOKEN_PYPI=e", "YARN_NPM_AUTH_IDENT=f", "npm_config__auth=g",
		"npm_config__authToken=h", "npm_config__password=i",
		"npm_config_//registry.npmjs.org/:_authToken=j", "NPM_CONFIG__AUTH=k",
		"LINK=https://u:p'w@example.com/", "PROXY=user:pw@proxy.example:3128",
		"GIT_CONFIG_PARAMETERS='imap.pass'='secret1'",
		"WEBHOOK=https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX",
		"X=https://s3.example/o?X-Amz-Signature=abcdef0123&token=abcdefgh123",
		"NOTES=ghp_0123456789abcdefABCDEF0123456789abcd",
		"OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz012345",
		"PATH=/usr/bin:/bin", "LANG=en_US.UTF-8", "HOMEPAGE=https://example.com/a?page=2",
		"GITHUB_SHA=0123456789abcdef0123456789abcdef01234567", NULL,
	};
	struct policy p;
	policy_init(&p);
	struct strv k = STRV_INIT;
	struct entry_list r = { 0 };
	env_filter(e, &p, &k, &r);
	for (size_t i = 0; i < 17; i++) {
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)strcspn(e[i], "="), e[i]);
		if (kept(&k, name))
			fail_msg("%s kept", name);
	}
	assert_non_null(strstr(removed_origin(&r, "NOTES"), "GitHub token"));
	assert_non_null(strstr(removed_origin(&r, "WEBHOOK"), "webhook"));
	assert_non_null(strstr(removed_origin(&r, "X"), "query"));
	assert_non_null(strstr(removed_origin(&r, "LINK"), "URL with a password"));
	assert_non_null(strstr(removed_origin(&r, "PROXY"), "proxy address"));
	assert_true(kept(&k, "OPENAI_API_KEY"));
	assert_true(kept(&k, "PATH"));
	assert_true(kept(&k, "LANG"));
	assert_true(kept(&k, "HOMEPAGE"));
	assert_true(kept(&k, "GITHUB_SHA"));
	strv_free(&k);
	entry_list_free(&r);
	/* --keep-env keeps each */
	for (size_t i = 0; i < 17; i++) {
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)strcspn(e[i], "="), e[i]);
		entry_add(&p.keep_env, name, "--keep-env");
	}
	k = (struct strv)STRV_INIT;
	r = (struct entry_list){ 0 };
	env_filter(e, &p, &k, &r);
	for (size_t i = 0; i < 17; i++) {
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)strcspn(e[i], "="), e[i]);
		if (!kept(&k, name))
			fail_msg("%s removed despite --keep-env", name);
	}
	strv_free(&k);
	entry_list_free(&r);
	policy_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_scrub),
		cmocka_unit_test(test_builtin_scrub_any_case),
		cmocka_unit_test(test_keep_and_deny),
		cmocka_unit_test(test_no_defaults),
		cmocka_unit_test(test_glob_agrees_with_fnmatch),
		cmocka_unit_test(test_long_names),
		cmocka_unit_test(test_gitenv_parse),
		cmocka_unit_test(test_gitenv_secret),
		cmocka_unit_test(test_gitenv_filter),
		cmocka_unit_test(test_url_values),
		cmocka_unit_test(test_builtin_fast_path_agrees),
		cmocka_unit_test(test_secret_values),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
