/* SPDX-License-Identifier: MIT */
/* cf_filter: each format's exact output for a corpus of tricky files
 * (continuation lines, quotes, comments, CRLF, a secret key in odd case,
 * duplicate keys, URLs with credentials), with the patterns of the real
 * table's rows (defaults.c); and the files each refuses (masked whole). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "unit-skip.h"

#include "cfgfilter/cfgfilter.h"
#include "policy/defaults.h"

/* The row of tool at path: its format and patterns. */
static const struct cred_store *row(const char *tool, const char *path)
{
	for (const struct cred_store *c = cred_stores; c->tool; c++)
		if (strcmp(c->tool, tool) == 0 && strcmp(c->path, path) == 0)
			return c;
	fail_msg("no row %s %s", tool, path);
	return NULL;
}

static void expect(const struct cred_store *c, const char *in, const char *want,
		   unsigned removed)
{
	struct cf_result r;
	if (!cf_filter(c->format, c->secret, in, strlen(in), &r))
		fail_msg("%s: refused (%s):\n%s", cf_format_name(c->format), r.err, in);
	if (r.len != strlen(r.data) || strcmp(r.data, want) != 0)
		fail_msg("%s:\n--- in\n%s--- got\n%s--- want\n%s", cf_format_name(c->format), in,
			 r.data, want);
	if (r.removed != removed)
		fail_msg("%s: removed %u, want %u:\n%s", cf_format_name(c->format), r.removed,
			 removed, in);
	free(r.data);
}

static void refused(const struct cf_result *r0, const struct cred_store *c, const char *in,
		    size_t len, const char *err)
{
	(void)r0;
	struct cf_result r;
	if (cf_filter(c->format, c->secret, in, len, &r)) {
		fail_msg("%s: taken, want refused (%s):\n%s", cf_format_name(c->format), err, in);
	}
	assert_null(r.data);
	assert_string_equal(r.err, err);
}
#define REFUSED(c, in, err) refused(NULL, (c), (in), strlen(in), (err))

static void test_npmrc(void **state)
{
	(void)state;
	const struct cred_store *c = row("npm", ".npmrc");
	assert_int_equal(c->format, CF_NPMRC);
	expect(c,
	       "; comment with _authToken=x\n"
	       "//registry.example/:_authToken=SECRET\n"
	       "nodedir=/x\n"
	       "  //other.example/:_AUTHTOKEN = SECRET2\n"
	       "_auth=dXNlcjpwYXNz\n"
	       "//r.example/:_password=cGFzcw==\n"
	       "//r.example/:username=me\n"
	       "email=me@example\n"
	       "\"//q.example/:_authToken\"=SECRET3\n"
	       "registry=https://user:pw@registry.example/\n"
	       "proxy=http://proxy.example:3128/\n"
	       "ca[]=cert1\n"
	       "[section]\n"
	       "key=value\n",
	       "; comment with _authToken=x\n"
	       "nodedir=/x\n"
	       "//r.example/:username=me\n"
	       "email=me@example\n"
	       "proxy=http://proxy.example:3128/\n"
	       "ca[]=cert1\n"
	       "[section]\n"
	       "key=value\n",
	       6);
	/* CRLF kept as it is; a duplicate key: both lines go */
	expect(c, "nodedir=/x\r\n_authToken=A\r\n_authToken=B\r\nx=y", "nodedir=/x\r\nx=y", 2);
	/* an http URL with a token as its user */
	expect(c, "registry=https://TOKEN@r.example/\nfoo=bar\n", "foo=bar\n", 1);
	/* an ssh-like user with no password is no secret */
	expect(c, "git=ssh://git@host/x\n", "git=ssh://git@host/x\n", 0);
	expect(c, "", "", 0);
	REFUSED(c, "nodedir=/x\nbare-line\n",
		"line 2: neither a setting (key = value) nor a section");
	REFUSED(c, "[unclosed\n", "line 1: neither a setting (key = value) nor a section");
	/* as npm's ini decodes: a key up to an unescaped ';', a JSON-quoted
	 * key, JS trim() (U+00A0), a bare CR, a single-quoted JSON string, a
	 * URL password behind a JSON escape, an array key */
	expect(c,
	       "//r.example/:_authToken;note=SECRET\n"
	       "\"//r.example/:_auth\\u0054oken\"=SECRET\n"
	       "//r.example/:_authToken\xc2\xa0=SECRET\n"
	       "nodedir=/x\r//r.example/:_authToken=SECRET\n"
	       "'\"//r.example/:_password\"'=SECRET\n"
	       "registry = \"https://u:SECRET\\u0040r.example/\"\n"
	       "//r.example/:_authToken[]=SECRET\n"
	       "a\\;b=c\n",
	       "nodedir=/x\r"
	       "a\\;b=c\n",
	       7);
	REFUSED(c, "'[\"_authToken\"]'=x\n", "line 1: a quoted text that is not a JSON string");
	REFUSED(c, "\"_auth\\ud800\"=x\n",
		"line 1: a quoted text with an escape JSON.parse may read differently");
	REFUSED(c, "a=b\xe2\x80\xa8" "c\n", "line 1: U+2028 or U+2029, where npm's reading is in doubt");
}

static void test_ini(void **state)
{
	(void)state;
	const struct cred_store *c = row("twine", ".pypirc");
	assert_int_equal(c->format, CF_INI);
	expect(c,
	       "[distutils]\n"
	       "index-servers =\n"
	       "    pypi\n"
	       "    private\n"
	       "\n"
	       "[pypi]\n"
	       "repository: https://upload.pypi.org/legacy/\n"
	       "username = __token__\n"
	       "PassWord = pypi-SECRET\n"
	       "# password = commented\n"
	       "[private]\n"
	       "password =\n"
	       "    continued-SECRET\n"
	       "\n"
	       "    more-SECRET\n"
	       "username = me\n",
	       "[distutils]\n"
	       "index-servers =\n"
	       "    pypi\n"
	       "    private\n"
	       "\n"
	       "[pypi]\n"
	       "repository: https://upload.pypi.org/legacy/\n"
	       "username = __token__\n"
	       "# password = commented\n"
	       "[private]\n"
	       "username = me\n",
	       4);
	const struct cred_store *pip = row("pip", ".pip/pip.conf");
	/* a continued extra-index-url with a password in one of its URLs:
	 * the whole entry goes */
	expect(pip,
	       "[global]\r\n"
	       "timeout = 60\r\n"
	       "extra-index-url =\r\n"
	       "    https://pypi.example/simple\r\n"
	       "    https://ci:SECRET@private.example/simple\r\n"
	       "index-url = https://pypi.org/simple\r\n",
	       "[global]\r\n"
	       "timeout = 60\r\n"
	       "index-url = https://pypi.org/simple\r\n",
	       3);
	REFUSED(pip, "timeout = 60\n", "line 1: a setting before the first section");
	REFUSED(pip, "  indented\n", "line 1: a setting before the first section");
	/* as configparser reads: str.strip() (U+00A0), a bare CR, an indented
	 * option line, a password line continuing another value, lower()
	 * (the Kelvin sign) */
	expect(c,
	       "[pypi]\n"
	       "password\xc2\xa0= SECRET\n"
	       "username = a\rpassword = SECRET\n"
	       "  repository = https://r.example/ (continues password)\n"
	       "password = SECRET\n"
	       "user = me\n"
	       "    password = SECRET\n"
	       "TO\xe2\x84\xaa" "EN = SECRET\n"
	       "[b] password = header-line\n",
	       "[pypi]\n"
	       "username = a\r"
	       "[b] password = header-line\n",
	       7);
	/* a URL's user part as urllib splits it: a backslash, a quote */
	expect(pip, "[global]\nindex-url = https://u\\:SECRET@h/\nx = https://u:S\"@h/\ny = 1\n",
	       "[global]\ny = 1\n", 2);
	REFUSED(c, "[pypi]\npassword\f= SECRET\n",
		"line 2: a form feed, vertical tab or Unicode line separator (a line break to "
		"str.splitlines(), not to a file read)");
	REFUSED(pip, "[global]\nno delimiter\n",
		"line 2: neither a setting (key = value) nor a section");
}

static void test_yaml(void **state)
{
	(void)state;
	const struct cred_store *c = row("yarn", ".yarnrc.yml");
	assert_int_equal(c->format, CF_YAML);
	expect(c,
	       "# yarn berry\n"
	       "nodeLinker: node-modules\n"
	       "npmAuthToken: SECRET\n"
	       "npmRegistryServer: \"https://registry.example\"\n"
	       "npmScopes:\n"
	       "  corp:\n"
	       "    NPMAUTHTOKEN: 'SECRET2'\n"
	       "    npmAlwaysAuth: true\n"
	       "npmRegistries:\n"
	       "  \"https://r.example\":\n"
	       "    npmAuthIdent: \"user:pass\"\n"
	       "    npmAlwaysAuth: true\n"
	       "  //other.example:\n"
	       "    npmAuthToken:\n"
	       "      continued SECRET3\n"
	       "plugins:\n"
	       "  - path: .yarn/plugins/x.cjs\n"
	       "    spec: \"@yarnpkg/plugin-x\"\n"
	       "httpProxy: http://u:pw@proxy.example:3128  # a comment\n"
	       "yarnPath: .yarn/releases/yarn.cjs\n",
	       "# yarn berry\n"
	       "nodeLinker: node-modules\n"
	       "npmRegistryServer: \"https://registry.example\"\n"
	       "npmScopes:\n"
	       "  corp:\n"
	       "    npmAlwaysAuth: true\n"
	       "npmRegistries:\n"
	       "  \"https://r.example\":\n"
	       "    npmAlwaysAuth: true\n"
	       "  //other.example:\n"
	       "plugins:\n"
	       "  - path: .yarn/plugins/x.cjs\n"
	       "    spec: \"@yarnpkg/plugin-x\"\n"
	       "yarnPath: .yarn/releases/yarn.cjs\n",
	       6);
	REFUSED(c, "npmAuthToken: &a SECRET\n",
		"line 1: YAML this filter does not read (flow, anchor, alias, tag or block scalar)");
	REFUSED(c, "npmAuthToken: |\n  SECRET\n",
		"line 1: YAML this filter does not read (flow, anchor, alias, tag or block scalar)");
	REFUSED(c, "npmScopes: {corp: {npmAuthToken: x}}\n",
		"line 1: YAML this filter does not read (flow, anchor, alias, tag or block scalar)");
	REFUSED(c, "npmAuthToken: \"open\n  quote\"\n", "line 1: a quoted value over several lines");
	REFUSED(c, "---\na: b\n", "line 1: a document marker (one document only)");
	REFUSED(c, "a:\n\tb: c\n", "line 2: a tab in the indentation");
	REFUSED(c, "list:\n  - npmAuthToken: x\n", "line 2: a secret in a list item");
	REFUSED(c, "just a scalar\n", "line 1: neither \"key: value\" nor a list item");
}

static void test_json(void **state)
{
	(void)state;
	const struct cred_store *c = row("docker", ".docker/config.json");
	assert_int_equal(c->format, CF_JSON);
	expect(c,
	       "{\"auths\": {\"https://index.docker.io/v1/\": {\"auth\": \"U0VDUkVU\"},\n"
	       " \"r.example\": {\"Auth\": \"x\", \"identitytoken\": \"y\", \"email\": \"e\"}},\n"
	       " \"credsStore\": \"desktop\", \"credHelpers\": {\"gcr.io\": \"gcloud\"},\n"
	       " \"HttpHeaders\": {\"Authorization\": \"Bearer z\", \"User-Agent\": \"ua\"},\n"
	       " \"proxies\": {\"default\": {\"httpProxy\": \"http://u:p@proxy:3128\"}}}",
	       "{\n"
	       " \"auths\": {\n"
	       "  \"https://index.docker.io/v1/\": {},\n"
	       "  \"r.example\": {\n"
	       "   \"email\": \"e\"\n"
	       "  }\n"
	       " },\n"
	       " \"credsStore\": \"desktop\",\n"
	       " \"credHelpers\": {\n"
	       "  \"gcr.io\": \"gcloud\"\n"
	       " },\n"
	       " \"HttpHeaders\": {\n"
	       "  \"User-Agent\": \"ua\"\n"
	       " },\n"
	       " \"proxies\": {\n"
	       "  \"default\": {}\n"
	       " }\n"
	       "}\n",
	       5);
	REFUSED(c, "{\"auths\": {}, \"auths\": {\"r\": {\"auth\": \"x\"}}}",
		"line 1: duplicate object key near '\"auths\"'");
	REFUSED(c, "[1, 2]", "not a JSON object");
	REFUSED(c, "{\"a\": ", "line 1: unexpected token near end of file");
}

static void test_gitconfig(void **state)
{
	(void)state;
	const struct cred_store *c = row("git", ".gitconfig");
	assert_int_equal(c->format, CF_GITCONFIG);
	expect(c,
	       "[user]\n"
	       "\tname = \"A ; Person\" # comment\n"
	       "[credential]\n"
	       "\thelper = \"!f() { echo password=SECRET; }; f\"\n"
	       "\tuseHttpPath\n"
	       "[Credential \"https://h.example\"]\n"
	       "\tusername = me\n"
	       "[url \"https://ci:SECRET@git.example/\"]\n"
	       "\tinsteadOf = https://git.example/\n"
	       "[http]\n"
	       "\textraHeader = Authorization: Bearer SECRET \\\n"
	       "continued\n"
	       "\tsslVerify = true\n"
	       "[http \"https://x.example\"]\n"
	       "\tEXTRAHEADER = Authorization: basic SECRET\n"
	       "[remote \"origin\"]\n"
	       "\turl = https://tok@github.com/o/r\n"
	       "\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
	       "[sendemail]\n"
	       "\tsmtpPass = SECRET\n"
	       "\tsmtpUser = me\n"
	       "[core]\n"
	       "\teditor = vi\n",
	       "[user]\n"
	       "\tname = \"A ; Person\" # comment\n"
	       "[credential]\n"
	       "[Credential \"https://h.example\"]\n"
	       "[http]\n"
	       "\tsslVerify = true\n"
	       "[http \"https://x.example\"]\n"
	       "[remote \"origin\"]\n"
	       "\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
	       "[sendemail]\n"
	       "\tsmtpUser = me\n"
	       "[core]\n"
	       "\teditor = vi\n",
	       10);
	/* judged on what git reads: imap.pass; a URL password split by "",
	 * continued on the next line, escaped in a subsection */
	expect(c,
	       "[imap]\n\tfolder = INBOX\n\tpass = SECRET\n"
	       "[remote \"o\"]\n\turl = https://ci:SEC\"\"RET@git.example/r\n"
	       "\turl = https://ci:SEC\\\nRET@git.example/r\n"
	       "\tpushurl = \"https://ci:SECRET\"\\\n\"@git.example/r\"\n"
	       "[url \"https://ci:SECRET\\@git.example/\"]\n\tinsteadOf = https://git.example/\n"
	       "[core]\r\n\teditor = vi\r\n",
	       "[imap]\n\tfolder = INBOX\n"
	       "[remote \"o\"]\n"
	       "[core]\r\n\teditor = vi\r\n",
	       8);
	/* git takes a key on its header's line, and a value continued at the end */
	expect(c, "[core] editor = vi\n", "[core] editor = vi\n", 0);
	expect(c, "[user]\n\tname = a \\\n", "[user]\n\tname = a \\\n", 0);
	REFUSED(c, "[imap] pass = x\n", "line 1: a secret setting on its section header's line");
	REFUSED(c, "[a] [imap]\n", "line 1: a section header on another one's line");
	REFUSED(c, "name = x\n", "line 1: a setting before the first section");
	REFUSED(c, "[user]\n\tname = \"open\n", "line 2: a line git refuses (bad config line)");
	REFUSED(c, "[user]\n\tname = a\\qb\n", "line 2: a line git refuses (bad config line)");
	REFUSED(c, "[user]\n\tname = a\rb\n",
		"line 2: a carriage return inside an unquoted value, which git versions read "
		"differently");
}

static void test_any(void **state)
{
	(void)state;
	const struct cred_store *c = row("npm", ".npmrc");
	struct cf_result r;
	REFUSED(c, "\xef\xbb\xbfnodedir=/x\n", "line 1: a byte order mark");
	REFUSED(c, "a=b\nc=\xff\n", "line 2: not UTF-8");
	REFUSED(c, "a=b\nc=\xc0\xaf\n", "line 2: not UTF-8");
	refused(&r, c, "a=b\n\0c=d\n", 8, "line 2: a NUL byte (not text)");
	char *big = malloc(CF_MAX_SIZE + 2);
	assert_non_null(big);
	memset(big, 'a', CF_MAX_SIZE + 1);
	big[CF_MAX_SIZE + 1] = '\0';
	REFUSED(c, big, "larger than 262144 bytes");
	free(big);
	/* UTF-8 is fine */
	expect(c, "name=J\xc3\xa9r\xc3\xb4me\n", "name=J\xc3\xa9r\xc3\xb4me\n", 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_npmrc),
		cmocka_unit_test(test_ini),
		cmocka_unit_test(test_yaml),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_gitconfig),
		cmocka_unit_test(test_any),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
