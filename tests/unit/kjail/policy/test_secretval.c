/* SPDX-License-Identifier: MIT */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "policy/secretval.h"

static const char *judge(const char *s, unsigned flags)
{
	return secretval_judge(s, strlen(s), flags);
}

static void expect(const char *s, unsigned flags, const char *why)
{
	const char *got = judge(s, flags);
	if (!why && got)
		fail_msg("'%s': judged a secret (%s)", s, got);
	if (why && (!got || !strstr(got, why)))
		fail_msg("'%s': expected '%s', got '%s'", s, why, got ? got : "(not a secret)");
}

static void test_vendor_formats(void **state)
{
	(void)state;
	static const char *const yes[][2] = {
		{ "ghp_0123456789abcdefABCDEF0123456789abcd", "GitHub" },
		{ "gho_0123456789abcdefABCDEF0123456789abcd", "GitHub" },
		{ "ghu_0123456789abcdefABCDEF0123456789abcd", "GitHub" },
		{ "ghs_0123456789abcdefABCDEF0123456789abcd", "GitHub" },
		{ "ghr_0123456789abcdefABCDEF0123456789abcd", "GitHub" },
		{ "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ",
		  "GitHub" },
		{ "glpat-abcdefghij0123456789", "GitLab" },
		{ "xoxb-1234567890-abcdefghij", "Slack" },
		{ "xoxp-1234567890-abcdefghij", "Slack" },
		{ "AKIAIOSFODNN7EXAMPLE", "AWS" },
		{ "ASIAIOSFODNN7EXAMPLE", "AWS" },
		{ "sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345", "Anthropic" },
		{ "sk-proj-abcdefghijklmnopqrstuvwxyz012345", "OpenAI" },
		{ "sk-abcdefghijklmnopqrstuvwxyz012345", "OpenAI" },
		{ "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234", "Google" },
		{ "ya29.a0AfH6SMBabcdefghijklmnop", "Google" },
		{ "sk_live_abcdefghijklmnop0123", "Stripe" },
		{ "npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm" },
		{ "pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0LXV2d3h5ejAxMjM0NQ", "PyPI" },
		{ "hf_abcdefghijklmnopqrstuvwxyzABCDEF", "Hugging Face" },
		{ "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
		  "JWT" },
		{ "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
		  "private key" },
		{ "-----BEGIN RSA PRIVATE KEY-----", "private key" },
		{ "-----BEGIN PRIVATE KEY-----", "private key" },
		{ "Bearer ghp_0123456789abcdefABCDEF0123456789abcd", "GitHub" },
		{ "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXowMTIzNDU2Nzg5;",
		  "Azure" },
		{ "dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "DigitalOcean" },
	};
	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
		expect(yes[i][0], SV_PLAIN, yes[i][1]);
	/* a prefix inside a word, or too short a body, is not one */
	static const char *const no[] = {
		"ghp_short", "task-abcdefghijklmnopqrstuvwxyz", "mysk-abcdefghijklmnopqrstuvwxyz",
		"AKIA", "sk-ant-short", "eyJhbGci.eyJzdWIi.x", "-----BEGIN PUBLIC KEY-----",
		"-----BEGIN CERTIFICATE-----", "xoxb-", "hf_", "npm_install",
	};
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		expect(no[i], SV_PLAIN, NULL);
}

static void test_urls(void **state)
{
	(void)state;
	expect("postgres://user:hunter2@db:5432/app", SV_PLAIN, "URL with a password");
	expect("https://u:p'w@example.com/x", SV_PLAIN, "URL with a password");
	expect("https://u:p\"w@example.com/x", SV_PLAIN, "URL with a password");
	expect("https://x-access-token:abc@github.com/o/r.git", SV_PLAIN, "URL with a password");
	expect("https://TOKEN123@github.com/o/r", SV_PLAIN, "with a user");
	expect("user:pass@proxy.example:3128", SV_PLAIN, "proxy address");
	expect("user:pass@proxy.example:3128/", SV_PLAIN, "proxy address");
	expect("https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX", SV_PLAIN, "webhook");
	expect("https://discord.com/api/webhooks/123456/abcdefghijkl", SV_PLAIN, "webhook");
	expect("https://acme.webhook.office.com/webhookb2/abcd-efgh@x/IncomingWebhook/1/2",
	       SV_PLAIN, "webhook");
	expect("https://api.telegram.org/bot123456:ABCdefGHIjkl/sendMessage", SV_PLAIN, "webhook");
	expect("https://s3.example/o?X-Amz-Signature=abcdef0123456789&token=abcdefgh12345", SV_PLAIN,
	       "query");
	expect("https://s3.example/o?X-Amz-Credential=AKIDEXAMPLE%2F2024", SV_PLAIN, "query");
	expect("https://x.example/api?foo=1&access_token=abcdefgh12345", SV_PLAIN, "query");
	expect("https://maps.example/api?key=abcdefgh12345", SV_PLAIN, "query");
	expect("https://blob.example/c?sv=2020&sig=abcdEFGH1234%3D", SV_PLAIN, "query");
	expect("https://x.example/a?api_key=abcdefgh12345#frag", SV_PLAIN, "query");
	/* plain URLs, references, short or innocent parameters */
	static const char *const no[] = {
		"https://example.com/path?q=search+words&page=2",
		"https://example.com/a?key=1",
		"https://example.com/a?token=${TOKEN}",
		"https://u:${PASSWORD}@example.com/",
		"ssh://git@github.com/o/r.git",
		"git@github.com:o/r.git",
		"http://proxy.example:3128",
		"proxy.example:3128",
		"user@example.com",
		"https://hooks.slack.com/",
		"https://discord.com/channels/1/2",
		"unix:///run/docker.sock",
	};
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		expect(no[i], SV_PLAIN, NULL);
}

static void test_generic(void **state)
{
	(void)state;
	expect("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", SV_PLAIN, "token");
	expect("Zm9vYmFyQmF6UXV4MTIzNDU2", SV_PLAIN, "token");
	expect("aB3dE5gH7jK9mN1p", SV_PLAIN, "token"); /* 16 */
	static const char *const no[] = {
		"/usr/local/bin:/usr/bin:/bin", "/home/User2/Projects/x", "~/Work/Repo2024x",
		"en_US.UTF-8", "xterm-256color", "0123456789abcdef0123456789abcdef01234567",
		"6f1c7a3e-2b4d-4c8e-9a1f-0e2d3c4b5a69", "6F1C7A3E-2B4D-4C8E-9A1F-0E2D3C4B5A69",
		"aB3dE5gH7jK9mN1", /* 15 */
		"com.Example.App2.Module", "KJPASS-KJ12345x1765094500-plain", "MyProject2024-build", "ip-10-0-1-23.ec2.internal",
		"--max-old-space-size=4096", "truecolor", "A035C8C19219BA821ECEA86B64E628F8D684696D",
		"hello world This Is 2024 text", "${NPM_TOKEN}", "$NPM_TOKEN", "env:NPM_TOKEN",
		"op://vault/item/field", "vault:secret/data/x#token", "desktop", "osxkeychain",
		"ecr-login", "{{ .Token }}", "", "   ",
	};
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		expect(no[i], SV_PLAIN, NULL);
}

static void test_keyed(void **state)
{
	(void)state;
	/* a credential key: hex and long literals count too */
	expect("0123456789abcdef0123456789abcdef01234567", SV_KEYED, "hex");
	expect("6f1c7a3e-2b4d-4c8e-9a1f-0e2d3c4b5a69", SV_KEYED, "hex");
	expect("abcdefghij0123456789", SV_KEYED, "token");
	expect("desktop", SV_KEYED, NULL);
	expect("${TOKEN}", SV_KEYED, NULL);
	expect("oauth", SV_KEYED, NULL);
	expect("basic", SV_KEYED, NULL);
	/* a password key: any literal of 4 bytes or more */
	expect("hunter2", SV_KEYED | SV_PASSWORD, "password");
	expect("correcthorse", SV_KEYED | SV_PASSWORD, "password");
	expect("${PW}", SV_KEYED | SV_PASSWORD, NULL);
	expect("env:PW", SV_KEYED | SV_PASSWORD, NULL);
	expect("true", SV_KEYED | SV_PASSWORD, NULL);
	expect("****", SV_KEYED | SV_PASSWORD, NULL);
	expect("abc", SV_KEYED | SV_PASSWORD, NULL);
	expect("prompt", SV_KEYED | SV_PASSWORD, NULL);
}

static unsigned key(const char *k)
{
	return secretval_key(k, strlen(k));
}

static void test_keys(void **state)
{
	(void)state;
	static const char *const cred[] = {
		"token", "TOKEN", "api_key", "apiKey", "APIKey", "OPENAI_API_KEY", "primaryApiKey",
		"access_token", "accessToken", "refreshToken", "id_token", "client_secret",
		"clientSecret", "secret", "_authToken", "//registry.example/:_authToken", "_auth",
		"auth", "npmAuthToken", "npmAuthIdent", "credentials", "aws_secret_access_key",
		"private_key", "privateKey", "oauth_token", "github.token", "auths.x.auth",
		"x-api-key", "GITHUB_PAT", "bearer", "session_key",
	};
	for (size_t i = 0; i < sizeof cred / sizeof *cred; i++)
		if (!(key(cred[i]) & SV_KEYED))
			fail_msg("key '%s' not credential-shaped", cred[i]);
	static const char *const pw[] = { "password", "Password", "_password", "db_passwd",
					  "smtpPass", "passphrase", "pwd", "dbPassword" };
	for (size_t i = 0; i < sizeof pw / sizeof *pw; i++)
		if (key(pw[i]) != (SV_KEYED | SV_PASSWORD))
			fail_msg("key '%s' not password-like", pw[i]);
	static const char *const no[] = {
		"token_path", "tokenUrl", "auth_type", "password_command", "passwordFile", "author",
		"key", "keyfile", "name", "username", "email", "credsStore", "credential_helper",
		"publicKey", "bypass", "compass", "sshKeyPath", "theme", "", "__",
	};
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		if (key(no[i]))
			fail_msg("key '%s' taken as credential-shaped", no[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vendor_formats),
		cmocka_unit_test(test_urls),
		cmocka_unit_test(test_generic),
		cmocka_unit_test(test_keyed),
		cmocka_unit_test(test_keys),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
