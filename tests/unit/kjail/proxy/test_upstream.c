/* SPDX-License-Identifier: MIT */
/* The upstream proxy's URL, NO_PROXY and handshakes (proxy/upstream.c),
 * and kjail's reading of them from its environment (policy/egress.c's
 * egress_upstream): the URLs company proxies are given as (with a
 * password, percent-encoded; bare host:port; SOCKS5; IPv6), every form
 * kjail refuses with a phrase that never holds the password; NO_PROXY as
 * curl matches it (a name and every name under it, never a partial
 * label; addresses, CIDRs, ports, "*"); the exact bytes of CONNECT (Basic
 * credentials) and of SOCKS5's messages; the upstream's answers whole,
 * in pieces, and malformed; the variables' order (lower case first,
 * HTTPS_PROXY for tunnels, HTTP_PROXY for requests, ALL_PROXY behind
 * both). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/egress.h"
#include "proxy/upstream.h"
#include "strpool.h"

static void test_urls(void **state)
{
	(void)state;
	static const struct {
		const char *url, *host, *user, *pass, *shown;
		unsigned port;
		enum upstream_kind kind;
	} good[] = {
		{ "http://proxy.corp:8080", "proxy.corp", "", "", "http://proxy.corp:8080", 8080,
		  UPSTREAM_HTTP },
		{ "http://user:pw@127.0.0.1:3128/", "127.0.0.1", "user", "pw",
		  "http://***@127.0.0.1:3128", 3128, UPSTREAM_HTTP },
		{ "HTTP://Proxy.Corp.", "proxy.corp", "", "", "http://proxy.corp:1080", 1080,
		  UPSTREAM_HTTP },
		{ "proxy.corp:3128", "proxy.corp", "", "", "http://proxy.corp:3128", 3128,
		  UPSTREAM_HTTP },
		{ "http://d%40m%3Ain:p%40ss%2F@proxy:80", "proxy", "d@m:in", "p@ss/",
		  "http://***@proxy:80", 80, UPSTREAM_HTTP },
		{ "http://user@proxy:80", "proxy", "user", "", "http://***@proxy:80", 80,
		  UPSTREAM_HTTP },
		{ "socks5://[2001:db8::1]:1080", "2001:db8::1", "", "", "socks5://[2001:db8::1]:1080",
		  1080, UPSTREAM_SOCKS5 },
		{ "socks5h://u:p@10.0.0.1:9050", "10.0.0.1", "u", "p", "socks5://***@10.0.0.1:9050",
		  9050, UPSTREAM_SOCKS5 },
	};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		struct upstream u;
		const char *why = NULL;
		if (!upstream_parse(good[i].url, &u, &why))
			fail_msg("%s: %s", good[i].url, why);
		assert_string_equal(u.host, good[i].host);
		assert_string_equal(u.user, good[i].user);
		assert_string_equal(u.pass, good[i].pass);
		assert_string_equal(u.shown, good[i].shown);
		assert_int_equal(u.port, good[i].port);
		assert_int_equal(u.kind, good[i].kind);
		assert_int_equal(u.auth, good[i].user[0] != '\0');
		upstream_clear(&u);
		assert_string_equal(u.pass, "");
	}
	static const char *const bad[] = {
		"", "https://user:secret@proxy:443", "ftp://proxy:21", "socks4://proxy:1080",
		"http://proxy:0", "http://proxy:65536", "http://proxy:80x", "http://proxy:",
		"http://proxy/path", "http://proxy:80/?q", "http://proxy#f", "http://:80",
		"http://user:secret@", "http://2001:db8::1:80", "http://[2001:db8::1",
		"http://[::1]x:80", "http://pro xy:80", "http://proxy\n:80",
		"http://u:sec%zzret@proxy", "http://u:sec%00ret@proxy", "http://u:secret%4@proxy",
		"http://:secret@proxy", "http://*.corp:80", "http://@models:80", "http://pro_xy!:80",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct upstream u;
		const char *why = NULL;
		if (upstream_parse(bad[i], &u, &why))
			fail_msg("accepted: %s", bad[i]);
		assert_non_null(why);
		assert_null(strstr(why, "secret"));
		assert_string_equal(u.pass, "");
	}
}

static void test_no_proxy(void **state)
{
	(void)state;
	static const char np[] = " localhost, .example.org,*.corp.test ,intra.test:8080,"
				 "10.0.0.0/8,192.0.2.7,[2001:db8::1]:22,fd00::/8,,";
	const char *why = NULL;
	assert_true(upstream_no_proxy_check(np, &why));
	static const struct {
		const char *host;
		unsigned port;
		bool direct;
	} t[] = {
		{ "localhost", 80, true },         { "LOCALHOST.", 80, true },
		{ "example.org", 443, true },      { "a.b.example.org", 443, true },
		{ "badexample.org", 443, false },  { "corp.test", 443, true },
		{ "x.corp.test", 443, true },      { "intra.test", 8080, true },
		{ "intra.test", 443, false },      { "10.1.2.3", 443, true },
		{ "11.1.2.3", 443, false },        { "192.0.2.7", 1, true },
		{ "192.0.2.8", 1, false },         { "2001:db8::1", 22, true },
		{ "2001:db8::1", 443, false },     { "fd12::5", 443, true },
		{ "fe80::1", 443, false },         { "api.example.com", 443, false },
		{ "10.example.org.evil", 443, false },
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		if (upstream_no_proxy_match(np, t[i].host, t[i].port) != t[i].direct)
			fail_msg("%s:%u: %s", t[i].host, t[i].port, t[i].direct ? "not direct" : "direct");
	assert_true(upstream_no_proxy_match("*", "anything.test", 1));
	assert_true(upstream_no_proxy_match("a.test, *", "anything.test", 1));
	assert_false(upstream_no_proxy_match("", "anything.test", 1));
	assert_false(upstream_no_proxy_match(NULL, "anything.test", 1));
	static const char *const bad[] = { "a b", "a.test:0", "10.0.0.0/33", "fd00::/129",
					   "[::1", "a/b", "a!b", "*x.test", "10.0.0.0/" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		why = NULL;
		if (upstream_no_proxy_check(bad[i], &why))
			fail_msg("accepted: %s", bad[i]);
		assert_non_null(why);
		/* a value that does not check matches nothing */
		assert_false(upstream_no_proxy_match(bad[i], "a.test", 80));
	}
}

static void test_http(void **state)
{
	(void)state;
	struct upstream u;
	const char *why = NULL;
	char out[512];
	assert_true(upstream_parse("http://user:pw@proxy:3128", &u, &why));
	size_t n = upstream_http_request(&u, "192.0.2.1", 443, out, sizeof out);
	static const char want[] = "CONNECT 192.0.2.1:443 HTTP/1.1\r\nHost: 192.0.2.1:443\r\n"
				   "Proxy-Authorization: Basic dXNlcjpwdw==\r\n\r\n";
	assert_int_equal(n, sizeof want - 1);
	assert_memory_equal(out, want, n);
	assert_int_equal(upstream_http_request(&u, "192.0.2.1", 443, out, 40), 0);
	assert_true(upstream_parse("http://proxy:3128", &u, &why));
	n = upstream_http_request(&u, "2001:db8::1", 22, out, sizeof out);
	static const char want6[] = "CONNECT [2001:db8::1]:22 HTTP/1.1\r\nHost: [2001:db8::1]:22\r\n\r\n";
	assert_int_equal(n, sizeof want6 - 1);
	assert_memory_equal(out, want6, n);

	static const char ok[] = "HTTP/1.1 200 Connection established\r\nVia: x\r\n\r\nSSH-2.0";
	size_t head = 0;
	int status = 0;
	for (size_t k = 0; k < sizeof ok - 8; k++)
		assert_int_equal(upstream_http_reply(ok, k, 8192, &head, &status, &why), PP_NEED_MORE);
	assert_int_equal(upstream_http_reply(ok, sizeof ok - 1, 8192, &head, &status, &why), PP_OK);
	assert_int_equal(head, sizeof ok - 8);
	assert_int_equal(status, 200);
	assert_int_equal(upstream_http_reply("HTTP/1.0 407 Auth\n\n", 19, 8192, &head, &status, &why),
			 PP_OK);
	assert_int_equal(status, 407);
	assert_int_equal(head, 19);
	static const char *const bad[] = { "SSH-2.0-x\r\n\r\n", "HTTP/2 200\r\n\r\n",
					   "HTTP/1.1 20\r\n\r\n", "HTTP/1.1 099 x\r\n\r\n",
					   "HTTP/1.1 200x\r\n\r\n", "HTTP/1.1 200 a\0b\r\n\r\n" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		size_t len = i == 5 ? 20 : strlen(bad[i]);
		why = NULL;
		if (upstream_http_reply(bad[i], len, 8192, &head, &status, &why) != PP_ERROR)
			fail_msg("accepted: %s", bad[i]);
		assert_non_null(why);
	}
	char big[100];
	memcpy(big, "HTTP/1.1 200 OK\r\n", 17);
	memset(big + 17, 'a', sizeof big - 17);
	assert_int_equal(upstream_http_reply(big, sizeof big, 64, &head, &status, &why), PP_ERROR);
}

static void test_socks(void **state)
{
	(void)state;
	struct upstream u;
	const char *why = NULL;
	unsigned char m[600];
	assert_true(upstream_parse("socks5://ab:cde@proxy:1080", &u, &why));
	assert_int_equal(upstream_socks_greeting(&u, m, sizeof m), 4);
	assert_memory_equal(m, "\x05\x02\x00\x02", 4);
	assert_int_equal(upstream_socks_auth(&u, m, sizeof m), 8);
	assert_memory_equal(m, "\x01\x02" "ab" "\x03" "cde", 8);
	static const unsigned char v4[4] = { 192, 0, 2, 1 };
	assert_int_equal(upstream_socks_request(v4, 4, 443, m, sizeof m), 10);
	assert_memory_equal(m, "\x05\x01\x00\x01\xc0\x00\x02\x01\x01\xbb", 10);
	assert_true(upstream_parse("socks5://proxy", &u, &why));
	assert_int_equal(upstream_socks_greeting(&u, m, sizeof m), 3);
	assert_memory_equal(m, "\x05\x01\x00", 3);

	size_t used = 0;
	unsigned char c = 0;
	assert_int_equal(upstream_socks_method((const unsigned char *)"\x05", 1, true, &used, &c, &why),
			 PP_NEED_MORE);
	assert_int_equal(upstream_socks_method((const unsigned char *)"\x05\x02", 2, true, &used, &c,
					       &why), PP_OK);
	assert_int_equal(upstream_socks_method((const unsigned char *)"\x05\x02", 2, false, &used, &c,
					       &why), PP_ERROR);
	assert_int_equal(upstream_socks_method((const unsigned char *)"\x05\xff", 2, true, &used, &c,
					       &why), PP_ERROR);
	assert_int_equal(upstream_socks_method((const unsigned char *)"\x04\x00", 2, true, &used, &c,
					       &why), PP_ERROR);
	assert_int_equal(upstream_socks_auth_reply((const unsigned char *)"\x01\x00", 2, &used, &why),
			 PP_OK);
	assert_int_equal(upstream_socks_auth_reply((const unsigned char *)"\x01\x01", 2, &used, &why),
			 PP_ERROR);
	static const unsigned char r4[] = { 5, 0, 0, 1, 127, 0, 0, 1, 0x04, 0x38, 'x' };
	for (size_t k = 0; k < 10; k++)
		assert_int_equal(upstream_socks_reply(r4, k, &used, &c, &why), PP_NEED_MORE);
	assert_int_equal(upstream_socks_reply(r4, sizeof r4, &used, &c, &why), PP_OK);
	assert_int_equal(used, 10);
	assert_int_equal(c, 0);
	static const unsigned char rn[] = { 5, 5, 0, 3, 1, 'a', 0, 80 };
	assert_int_equal(upstream_socks_reply(rn, sizeof rn, &used, &c, &why), PP_OK);
	assert_int_equal(used, 8);
	assert_int_equal(c, 5);
	static const unsigned char bad[] = { 5, 0, 0, 9, 0 };
	assert_int_equal(upstream_socks_reply(bad, sizeof bad, &used, &c, &why), PP_ERROR);
}

static void test_env(void **state)
{
	(void)state;
	struct strpool pool = { 0 };
	struct egress_upstream e;
	char err[512];
	char *none[] = { "PATH=/bin", "HTTPS_PROXY=", NULL };
	assert_true(egress_upstream(none, &pool, &e, err, sizeof err));
	assert_null(e.tunnel);
	assert_null(e.http);
	assert_null(e.no_proxy);
	char *env[] = { "HTTPS_PROXY=http://upper:1", "https_proxy=http://u:secret@lower:2",
			"ALL_PROXY=socks5://all:3", "NO_PROXY=.corp", "no_proxy=", NULL };
	assert_true(egress_upstream(env, &pool, &e, err, sizeof err));
	assert_string_equal(e.tunnel, "http://u:secret@lower:2");
	assert_string_equal(e.tunnel_var, "https_proxy");
	assert_string_equal(e.tunnel_shown, "http://***@lower:2");
	assert_string_equal(e.http, "socks5://all:3");
	assert_string_equal(e.http_var, "ALL_PROXY");
	assert_string_equal(e.no_proxy, ".corp");
	assert_string_equal(e.no_proxy_var, "NO_PROXY");
	char *bad[] = { "HTTP_PROXY=https://u:secret@proxy:443", NULL };
	assert_false(egress_upstream(bad, &pool, &e, err, sizeof err));
	assert_non_null(strstr(err, "HTTP_PROXY in kjail's environment"));
	assert_null(strstr(err, "secret"));
	char *badnp[] = { "ALL_PROXY=http://proxy:1", "no_proxy=a b", NULL };
	assert_false(egress_upstream(badnp, &pool, &e, err, sizeof err));
	assert_non_null(strstr(err, "no_proxy in kjail's environment"));
	/* NO_PROXY alone names no upstream: nothing to check */
	char *onlynp[] = { "NO_PROXY=a b", NULL };
	assert_true(egress_upstream(onlynp, &pool, &e, err, sizeof err));
	strpool_free(&pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_urls),
		cmocka_unit_test(test_no_proxy),
		cmocka_unit_test(test_http),
		cmocka_unit_test(test_socks),
		cmocka_unit_test(test_env),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
