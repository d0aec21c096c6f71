/* SPDX-License-Identifier: MIT */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <stdbool.h>
#include <string.h>

#include "policy/credfile.h"

#define GHP "ghp_0123456789abcdefABCDEF0123456789abcd"
#define TOK "aB3dE5gH7jK9mN1pQ2rS4tU6"

static void found(const char *text, const char *key, size_t line)
{
	struct credfile_hit h;
	if (!credfile_find(text, strlen(text), &h))
		fail_msg("nothing found in:\n%s", text);
	if (strcmp(h.key, key) != 0 || h.line != line)
		fail_msg("found key '%s' line %zu (%s), expected '%s' line %zu in:\n%s", h.key,
			 h.line, h.why, key, line, text);
}

static void clean(const char *text)
{
	struct credfile_hit h;
	if (credfile_find(text, strlen(text), &h))
		fail_msg("found key '%s' line %zu (%s) in a clean file:\n%s", h.key, h.line, h.why,
			 text);
}

static void test_formats(void **state)
{
	(void)state;
	/* JSON, nested, escapes decoded */
	found("{\n  \"name\": \"x\",\n  \"api_key\": \"" TOK "\"\n}\n", "api_key", 3);
	found("{\"claudeAiOauth\": {\n \"accessToken\": \"sk-ant-oat01-abcdefghijklmnopqrstuvwxyz\"}}",
	      "accessToken", 2);
	found("{\"tokens\": {\"id\": \"0123456789abcdef0123456789abcdef\"}}", "id", 1);
	found("{\"t\": \"gh\\u0070_0123456789abcdefABCDEF0123456789abcd\"}", "t", 1);
	found("[{\"password\": \"hunter22\"}]", "password", 1);
	/* INI / TOML / .env */
	found("[server]\nhost = x\ntoken = " TOK "\n", "token", 3);
	found("[credentials]\nvalue = 0123456789abcdef0123456789abcdef\n", "value", 2);
	found("# cfg\nexport MY_SECRET=\"" TOK "\"\n", "MY_SECRET", 2);
	found("password=hunter22 # inline\n", "password", 1);
	/* YAML, nesting */
	found("auth:\n  user: bob\n  value: " TOK "\n", "value", 3);
	found("hosts:\n  - name: a\n    api_key: '" TOK "'\n", "api_key", 3);
	/* a line's own shape, whatever the format: a comment too */
	found("some text\n# ghp " GHP "\n", "", 2);
	found("-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n", "", 1);
	found("remote: https://me:pw@example.com/x\n", "remote", 1);
	found(TOK "\n", "", 1 /* a bare token file */);
}

static void test_clean(void **state)
{
	(void)state;
	clean("{\"theme\": \"dark\", \"token\": \"${GITHUB_TOKEN}\", \"fontSize\": 14}\n");
	clean("{\"machineId\": \"" TOK "\", \"credsStore\": \"desktop\"}\n");
	clean("[core]\neditor = vim\ntoken_path = /home/u/.tok\npassword_command = pass show x\n");
	clean("npmAuthToken: \"${NPM_TOKEN}\"\nnpmRegistryServer: https://registry.example\n");
	clean("TOKEN=$TOKEN\nAPI_KEY=env:API_KEY\nSECRET=op://vault/item/secret\n");
	clean("auth: oauth\npassword: prompt\nkey: value\n");
	clean("url = https://example.com/path?q=1\ncommit = 0123456789abcdef0123456789abcdef01234567\n");
	clean("");
	clean("{\"a\": [1, 2, {\"b\": null}], \"c\": \"");
	clean("\n\n[\n}\n]]\"\\");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_clean),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
