/* SPDX-License-Identifier: MIT */
/* The egress allowlist (proxy/rules.c): a table of --allow-host values, good
 * and bad, parsed to exactly what the rule must hold or refused with the
 * phrase that says why; matching names, suffixes, literals and ports; the
 * groups; and which addresses are internal, v4-mapped and NAT64 forms
 * included. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "proxy/rules.h"

static const struct {
	const char *value;
	enum allow_kind kind;
	const char *host;
	int port;
} good[] = {
	{ "api.openai.com", ALLOW_NAME, "api.openai.com", ALLOW_PORT_WEB },
	{ "API.OpenAI.com", ALLOW_NAME, "api.openai.com", ALLOW_PORT_WEB },
	{ "api.openai.com.", ALLOW_NAME, "api.openai.com", ALLOW_PORT_WEB },
	{ "api.openai.com:443", ALLOW_NAME, "api.openai.com", 443 },
	{ "git.example.org:22", ALLOW_NAME, "git.example.org", 22 },
	{ "db.example.org:65535", ALLOW_NAME, "db.example.org", 65535 },
	{ "db.example.org:1", ALLOW_NAME, "db.example.org", 1 },
	{ "db.example.org:*", ALLOW_NAME, "db.example.org", ALLOW_PORT_ANY },
	{ "localhost:8080", ALLOW_NAME, "localhost", 8080 },
	{ "LOCALHOST.:1024", ALLOW_NAME, "localhost", 1024 },
	{ "127.0.0.2:2000", ALLOW_IPV4, "127.0.0.2", 2000 },
	{ "[::1]:3128", ALLOW_IPV6, "::1", 3128 },
	{ "127.0.0.2:3128", ALLOW_IPV4, "127.0.0.2", 3128 },
	{ "model.test:8080", ALLOW_NAME, "model.test", 8080 },
	{ "my_host.internal", ALLOW_NAME, "my_host.internal", ALLOW_PORT_WEB },
	{ "a-b.c-d.example", ALLOW_NAME, "a-b.c-d.example", ALLOW_PORT_WEB },
	{ "*.npmjs.org", ALLOW_SUFFIX, "npmjs.org", ALLOW_PORT_WEB },
	{ "*.NPMJS.org.", ALLOW_SUFFIX, "npmjs.org", ALLOW_PORT_WEB },
	{ "*.example.org:8443", ALLOW_SUFFIX, "example.org", 8443 },
	{ "*.org", ALLOW_SUFFIX, "org", ALLOW_PORT_WEB },
	{ "127.0.0.1:8080", ALLOW_IPV4, "127.0.0.1", 8080 },
	{ "10.0.0.5:22", ALLOW_IPV4, "10.0.0.5", 22 },
	{ "93.184.216.34", ALLOW_IPV4, "93.184.216.34", ALLOW_PORT_WEB },
	{ "[2001:db8::1]", ALLOW_IPV6, "2001:db8::1", ALLOW_PORT_WEB },
	{ "[2001:DB8:0::1]:443", ALLOW_IPV6, "2001:db8::1", 443 },
	{ "[::1]:8080", ALLOW_IPV6, "::1", 8080 },
	{ "[::ffff:127.0.0.1]:8000", ALLOW_IPV4, "127.0.0.1", 8000 },
	{ "[fd00:ec2::254]:*", ALLOW_IPV6, "fd00:ec2::254", ALLOW_PORT_ANY },
	{ "x.y", ALLOW_NAME, "x.y", ALLOW_PORT_WEB },
	{ "xn--bcher-kva.example", ALLOW_NAME, "xn--bcher-kva.example", ALLOW_PORT_WEB },
};

static const struct {
	const char *value;
	const char *why; /* a word of the phrase */
} bad[] = {
	{ "", "empty" },
	{ "*", "every host" },
	{ "*.", "names no domain" },
	{ "*..", "names no domain" },
	{ "*:443", "every host" },
	{ "a.*.example.org", "only lead" },
	{ "*example.org", "only lead" },
	{ "api.*", "only lead" },
	{ "https://api.openai.com", "scheme" },
	{ "http://api.openai.com:80", "scheme" },
	{ "api.openai.com/v1", "path" },
	{ "api.openai.com?x=1", "path or query" },
	{ "api.openai.com#x", "path or query" },
	{ "user@api.openai.com", "user part" },
	{ "@nosuchgroup", "not a group" },
	{ "@models", "expanded by the caller" },
	{ "api.openai.com:0", "port of 0" },
	{ "api.openai.com:70000", "over 65535" },
	{ "api.openai.com:65536", "over 65535" },
	{ "api.openai.com:99999999999999999999", "over 65535" },
	{ "api.openai.com:", "empty port" },
	{ "api.openai.com:http", "a number" },
	{ "api.openai.com:-1", "a number" },
	{ "api.openai.com:44 3", "spaces" },
	{ "2001:db8::1", "brackets" },
	{ "::1", "brackets" },
	{ "[2001:db8::1", "closing bracket" },
	{ "[]", "empty IPv6" },
	{ "[fe80::1%eth0]", "no zone" },
	{ "[not:v6]", "not an IPv6" },
	{ "[2001:db8::1]443", "only :PORT" },
	{ "[127.0.0.1]", "not an IPv6" },
	{ "api..openai.com", "empty label" },
	{ ".openai.com", "empty label" },
	{ ".", "empty" },
	{ "api openai.com", "spaces" },
	{ "api\topenai.com", "control" },
	{ "bücher.example", "non-ASCII" },
	{ "exa$mple.org", "letters, digits" },
	{ "1.2.3", "last label is a number" },
	{ "0x7f.1", "last label is a number" },
	{ "2130706433", "last label is a number" },
	{ "999.1.1.1", "last label is a number" },
	{ "a.b:22:33", "brackets" },
};

static void test_good_values(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		struct allow_rule r;
		const char *why = NULL;
		if (!allow_parse(good[i].value, &r, &why))
			fail_msg("%s: refused: %s", good[i].value, why);
		assert_int_equal(r.kind, good[i].kind);
		assert_string_equal(r.host, good[i].host);
		assert_int_equal(r.port, good[i].port);
		assert_null(r.text);
		assert_null(r.origin);
	}
}

static void test_bad_values(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct allow_rule r;
		const char *why = NULL;
		if (allow_parse(bad[i].value, &r, &why))
			fail_msg("%s: accepted as %s", bad[i].value, r.host);
		assert_non_null(why);
		if (!strstr(why, bad[i].why))
			fail_msg("%s: \"%s\" does not say \"%s\"", bad[i].value, why, bad[i].why);
	}
	/* labels and names at and over their limits */
	char name[300];
	memset(name, 'a', 63);
	strcpy(name + 63, ".example");
	struct allow_rule r;
	const char *why;
	assert_true(allow_parse(name, &r, &why));
	memset(name, 'a', 64);
	strcpy(name + 64, ".example");
	assert_false(allow_parse(name, &r, &why));
	assert_non_null(strstr(why, "63"));
	for (int i = 0; i < 254; i += 2)
		name[i] = 'a', name[i + 1] = '.';
	strcpy(name + 252, "bc");
	assert_false(allow_parse(name, &r, &why));
	assert_non_null(strstr(why, "253"));
	name[250] = '\0';
	strcat(name, "b");
	assert_true(allow_parse(name, &r, &why));
}

static struct allow_rule rules[16];
static size_t nrules;

static void add(const char *v)
{
	const char *why;
	assert_true(allow_parse(v, &rules[nrules], &why));
	rules[nrules].text = v;
	nrules++;
}

static void load(void)
{
	nrules = 0;
	add("api.openai.com");         /* 0 */
	add("*.npmjs.org");            /* 1 */
	add("git.example.org:22");     /* 2 */
	add("db.example.org:*");       /* 3 */
	add("127.0.0.1:8080");         /* 4 */
	add("[2001:db8::1]:443");      /* 5 */
	add("10.0.0.5:*");             /* 6 */
}

static void test_match(void **state)
{
	(void)state;
	load();
	static const struct {
		const char *host;
		unsigned port;
		long rule;
	} m[] = {
		{ "api.openai.com", 443, 0 },
		{ "api.openai.com", 80, 0 },
		{ "API.OPENAI.COM.", 443, 0 },
		{ "api.openai.com", 8443, -1 },
		{ "api.openai.com", 0, -1 },
		{ "x.api.openai.com", 443, -1 },
		{ "openai.com", 443, -1 },
		{ "evilapi.openai.com", 443, -1 },
		{ "registry.npmjs.org", 443, 1 },
		{ "a.b.npmjs.org", 443, 1 },
		{ "REGISTRY.NPMJS.ORG.", 80, 1 },
		{ "npmjs.org", 443, -1 },
		{ "evilnpmjs.org", 443, -1 },
		{ "npmjs.org.evil", 443, -1 },
		{ ".npmjs.org", 443, -1 },
		{ "git.example.org", 22, 2 },
		{ "git.example.org", 443, -1 },
		{ "db.example.org", 5432, 3 },
		{ "db.example.org", 1, 3 },
		{ "db.example.org", 65536, -1 },
		{ "127.0.0.1", 8080, 4 },
		{ "127.0.0.1", 8081, -1 },
		{ "::ffff:127.0.0.1", 8080, 4 },
		{ "[::ffff:127.0.0.1]", 8080, 4 },
		{ "localhost", 8080, 4 },      /* but for localhost and a loopback rule */
		{ "localhost", 8081, -1 },
		{ "other.localhost", 8080, -1 },
		{ "127.1", 8080, -1 },         /* not a literal, not a name */
		{ "2130706433", 8080, -1 },
		{ "2001:db8::1", 443, 5 },
		{ "[2001:DB8::1]", 443, 5 },
		{ "2001:db8::2", 443, -1 },
		{ "10.0.0.5", 22, 6 },
		{ "", 443, -1 },
		{ "api.openai.com\n", 443, -1 },
		{ "api openai.com", 443, -1 },
	};
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
		long got = allow_match(rules, nrules, m[i].host, m[i].port);
		if (got != m[i].rule)
			fail_msg("%s:%u: rule %ld, want %ld", m[i].host, m[i].port, got, m[i].rule);
	}
	assert_int_equal(allow_match_any_port(rules, nrules, "git.example.org"), 2);
	assert_int_equal(allow_match_any_port(rules, nrules, "evil.example"), -1);
	assert_int_equal(allow_match(rules, nrules, NULL, 443), -1);
}

static void sa4(struct sockaddr_in *a, const char *ip)
{
	memset(a, 0, sizeof *a);
	a->sin_family = AF_INET;
	assert_int_equal(inet_pton(AF_INET, ip, &a->sin_addr), 1);
}

static void sa6(struct sockaddr_in6 *a, const char *ip)
{
	memset(a, 0, sizeof *a);
	a->sin6_family = AF_INET6;
	assert_int_equal(inet_pton(AF_INET6, ip, &a->sin6_addr), 1);
}

static const char *classify(const char *ip)
{
	struct sockaddr_in a4;
	struct sockaddr_in6 a6;
	if (strchr(ip, ':')) {
		sa6(&a6, ip);
		return addr_internal((struct sockaddr *)&a6);
	}
	sa4(&a4, ip);
	return addr_internal((struct sockaddr *)&a4);
}

static void test_match_addr(void **state)
{
	(void)state;
	load();
	struct sockaddr_in a4;
	struct sockaddr_in6 a6;
	sa4(&a4, "127.0.0.1");
	assert_int_equal(allow_match_addr(rules, nrules, (struct sockaddr *)&a4, 8080), 4);
	assert_int_equal(allow_match_addr(rules, nrules, (struct sockaddr *)&a4, 80), -1);
	sa6(&a6, "::ffff:127.0.0.1");
	assert_int_equal(allow_match_addr(rules, nrules, (struct sockaddr *)&a6, 8080), 4);
	sa6(&a6, "2001:db8::1");
	assert_int_equal(allow_match_addr(rules, nrules, (struct sockaddr *)&a6, 443), 5);
	sa6(&a6, "::1");
	assert_int_equal(allow_match_addr(rules, nrules, (struct sockaddr *)&a6, 8080), -1);
	sa4(&a4, "10.0.0.5");
	assert_int_equal(allow_match_addr(rules, nrules, (struct sockaddr *)&a4, 5432), 6);
	sa4(&a4, "10.0.0.6");
	assert_int_equal(allow_match_addr(rules, nrules, (struct sockaddr *)&a4, 5432), -1);
}

/* What kjail requires of a loopback rule (allow_loopback_check): one port
 * of 1024 or more, not kjail's own; the proxy's matching takes them all. */
static const struct {
	const char *value;
	const char *why; /* a word of the phrase, or NULL: kjail takes it */
} loopback_checked[] = {
	{ "localhost", "needs its port" },
	{ "127.0.0.1", "needs its port" },
	{ "127.9.9.9", "needs its port" },
	{ "[::1]", "needs its port" },
	{ "127.0.0.1:*", "one port" },
	{ "[::1]:*", "one port" },
	{ "localhost:*", "one port" },
	{ "127.0.0.1:80", "below 1024" },
	{ "localhost:1023", "below 1024" },
	{ "[::ffff:127.0.0.1]:443", "below 1024" },
	{ "127.0.0.1:3128", "kjail's proxy" },
	{ "localhost:1080", "kjail's proxy" },
	{ "localhost:1024", NULL },
	{ "127.0.0.1:65535", NULL },
	{ "[::1]:3128", NULL },
	{ "127.0.0.2:1080", NULL },
	{ "10.0.0.1:80", NULL },
	{ "10.0.0.1:*", NULL },
	{ "example.org", NULL },
};

static void test_loopback_check(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof loopback_checked / sizeof loopback_checked[0]; i++) {
		struct allow_rule r;
		const char *why = NULL;
		if (!allow_parse(loopback_checked[i].value, &r, &why))
			fail_msg("%s: %s", loopback_checked[i].value, why);
		const char *c = allow_loopback_check(&r);
		const char *want = loopback_checked[i].why;
		if (want ? !c || !strstr(c, want) : c != NULL)
			fail_msg("%s: \"%s\", want %s", loopback_checked[i].value, c ? c : "(taken)",
				 want ? want : "taken");
		assert_int_equal(allow_forwarded(&r), allow_loopback(&r) && !want);
	}
}

/* Loopback rules: "localhost" and its two addresses are one another,
 * other loopback addresses only themselves. */
static void test_loopback(void **state)
{
	(void)state;
	struct allow_rule r[3];
	const char *why = NULL;
	assert_true(allow_parse("localhost:9000", &r[0], &why));
	assert_true(allow_parse("[::1]:9100", &r[1], &why));
	assert_true(allow_parse("127.0.0.2:9200", &r[2], &why));
	for (size_t i = 0; i < 3; i++)
		assert_true(allow_loopback(&r[i]));
	struct allow_rule o;
	assert_true(allow_parse("10.0.0.1:9000", &o, &why));
	assert_false(allow_loopback(&o));
	assert_true(allow_parse("local.host:9000", &o, &why));
	assert_false(allow_loopback(&o));
	static const struct {
		const char *host;
		unsigned port;
		long rule;
	} m[] = {
		{ "localhost", 9000, 0 },  { "127.0.0.1", 9000, 0 }, { "::1", 9000, 0 },
		{ "[::1]", 9000, 0 },      { "127.0.0.2", 9000, -1 }, { "localhost", 9100, 1 },
		{ "::1", 9100, 1 },        { "127.0.0.1", 9100, -1 }, { "127.0.0.2", 9200, 2 },
		{ "localhost", 9200, -1 }, { "localhost", 9001, -1 }, { "x.localhost", 9000, -1 },
	};
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
		long got = allow_match(r, 3, m[i].host, m[i].port);
		if (got != m[i].rule)
			fail_msg("%s:%u: rule %ld, want %ld", m[i].host, m[i].port, got, m[i].rule);
	}
	struct sockaddr_in a4;
	struct sockaddr_in6 a6;
	sa4(&a4, "127.0.0.1");
	assert_int_equal(allow_match_addr(r, 3, (struct sockaddr *)&a4, 9000), 0);
	assert_int_equal(allow_match_addr(r, 3, (struct sockaddr *)&a4, 9100), -1);
	sa6(&a6, "::1");
	assert_int_equal(allow_match_addr(r, 3, (struct sockaddr *)&a6, 9000), 0);
	assert_int_equal(allow_match_addr(r, 3, (struct sockaddr *)&a6, 9100), 1);
	sa4(&a4, "127.0.0.2");
	assert_int_equal(allow_match_addr(r, 3, (struct sockaddr *)&a4, 9000), -1);
	assert_int_equal(allow_match_addr(r, 3, (struct sockaddr *)&a4, 9200), 2);
}

static void test_internal(void **state)
{
	(void)state;
	static const struct {
		const char *ip, *why;
	} t[] = {
		{ "127.0.0.1", "loopback" },       { "127.255.255.254", "loopback" },
		{ "10.1.2.3", "private" },         { "172.16.0.1", "private" },
		{ "172.31.255.255", "private" },   { "172.32.0.1", NULL },
		{ "172.15.255.255", NULL },        { "192.168.1.1", "private" },
		{ "169.254.169.254", "cloud metadata" },
		{ "169.254.1.1", "link-local" },   { "100.64.0.1", "CGNAT" },
		{ "100.127.255.255", "CGNAT" },    { "100.128.0.1", NULL },
		{ "224.0.0.1", "multicast" },      { "239.255.255.250", "multicast" },
		{ "240.0.0.1", "reserved" },       { "255.255.255.255", "reserved" },
		{ "0.0.0.0", "unspecified" },      { "0.1.2.3", "unspecified" },
		{ "8.8.8.8", NULL },               { "93.184.216.34", NULL },
		{ "1.1.1.1", NULL },
		{ "::1", "loopback" },             { "::", "unspecified" },
		{ "fc00::1", "private" },          { "fdff::1", "private" },
		{ "fd00:ec2::254", "cloud metadata" },
		{ "fe80::1", "link-local" },       { "febf::1", "link-local" },
		{ "ff02::1", "multicast" },        { "2001:db8::1", NULL },
		{ "2606:4700::1111", NULL },
		{ "::ffff:127.0.0.1", "loopback" },
		{ "::ffff:169.254.169.254", "cloud metadata" },
		{ "::ffff:8.8.8.8", NULL },
		{ "64:ff9b::7f00:1", "loopback" }, { "64:ff9b::a00:1", "private" },
		{ "64:ff9b::808:808", NULL },
		{ "64:ff9b:1::1", "private" },
		{ "2002:7f00:1::", "loopback" },   { "2002:808:808::", NULL },
		{ "::127.0.0.1", "reserved" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		const char *got = classify(t[i].ip);
		if (!t[i].why ? got != NULL : !got || strcmp(got, t[i].why) != 0)
			fail_msg("%s: %s, want %s", t[i].ip, got ? got : "public",
				 t[i].why ? t[i].why : "public");
	}
	struct sockaddr un = { .sa_family = AF_UNIX };
	assert_non_null(addr_internal(&un));
}

static void test_groups(void **state)
{
	(void)state;
	const char *const *names = allow_group_names();
	assert_string_equal(names[0], "models");
	assert_string_equal(names[1], "registries");
	assert_null(allow_group("nosuch"));
	for (size_t i = 0; names[i]; i++) {
		const char *const *m = allow_group(names[i]);
		assert_non_null(m);
		assert_non_null(m[0]);
		for (; *m; m++) {
			struct allow_rule r;
			const char *why;
			if (!allow_parse(*m, &r, &why))
				fail_msg("@%s: %s: %s", names[i], *m, why);
			assert_int_equal(r.kind, ALLOW_NAME);
		}
	}
	const char *const *models = allow_group("models");
	bool anthropic = false;
	for (; *models; models++)
		anthropic |= strcmp(*models, "api.anthropic.com") == 0;
	assert_true(anthropic);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_values), cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_match),       cmocka_unit_test(test_match_addr),
		cmocka_unit_test(test_internal),    cmocka_unit_test(test_loopback),
		cmocka_unit_test(test_loopback_check),    cmocka_unit_test(test_groups),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
