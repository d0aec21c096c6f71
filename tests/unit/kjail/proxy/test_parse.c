/* SPDX-License-Identifier: MIT */
/* The proxy's request parsers (proxy/parse.c): HTTP heads, the requests
 * inside a tunnel and SOCKS5 messages, whole and byte by byte (every
 * prefix of a good message is NEED_MORE), the garbage they must refuse,
 * and the head an absolute-form request is sent on with. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <stdio.h>
#include <string.h>

#include "proxy/parse.h"

#define MAX 16384

static enum pp_status head(const char *s, struct pp_http *h, const char **why)
{
	return pp_http_head(s, strlen(s), MAX, h, why);
}

/* Every proper prefix of s is NEED_MORE, s itself OK. */
static void incremental(const char *s)
{
	struct pp_http h;
	const char *why = NULL;
	size_t n = strlen(s);
	for (size_t i = 0; i < n; i++)
		if (pp_http_head(s, i, MAX, &h, &why) != PP_NEED_MORE)
			fail_msg("prefix %zu of %s: %s", i, s, why ? why : "OK");
	assert_int_equal(pp_http_head(s, n, MAX, &h, &why), PP_OK);
	assert_int_equal(h.head_len, n);
}

static void test_http_good(void **state)
{
	(void)state;
	static const struct {
		const char *req;
		bool connect;
		const char *host;
		unsigned port;
		const char *path;
	} t[] = {
		{ "CONNECT api.openai.com:443 HTTP/1.1\r\nHost: api.openai.com:443\r\n\r\n", true,
		  "api.openai.com", 443, "" },
		{ "CONNECT [2001:db8::1]:8443 HTTP/1.1\r\n\r\n", true, "2001:db8::1", 8443, "" },
		{ "CONNECT 127.0.0.1:22 HTTP/1.0\n\n", true, "127.0.0.1", 22, "" },
		{ "GET http://example.org/ HTTP/1.1\r\nHost: example.org\r\nAccept: */*\r\n\r\n",
		  false, "example.org", 80, "/" },
		{ "GET http://EXAMPLE.org:8080/a/b?c=d HTTP/1.1\r\n\r\n", false, "EXAMPLE.org", 8080,
		  "/a/b?c=d" },
		{ "POST HTTP://example.org HTTP/1.1\r\nContent-Length: 3\r\n\r\n", false,
		  "example.org", 80, "" },
		{ "GET http://example.org?q HTTP/1.1\r\n\r\n", false, "example.org", 80, "?q" },
		{ "GET http://[::1]:8080/x HTTP/1.1\r\nX-Tab:\tv\r\nX-Empty:\r\n\r\n", false, "::1",
		  8080, "/x" },
		{ "DELETE http://a.b/c HTTP/1.1\r\nX: caf\xc3\xa9\r\n\r\n",
		  false, "a.b", 80, "/c" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct pp_http h;
		const char *why = NULL;
		if (head(t[i].req, &h, &why) != PP_OK)
			fail_msg("%s: %s", t[i].req, why);
		assert_int_equal(h.connect, t[i].connect);
		assert_string_equal(h.host, t[i].host);
		assert_int_equal(h.port, t[i].port);
		assert_int_equal(h.path_len, strlen(t[i].path));
		assert_memory_equal(t[i].req + h.path_off, t[i].path, h.path_len);
		assert_int_equal(h.head_len, strlen(t[i].req));
		incremental(t[i].req);
	}
	/* what follows the head is the client's, not the head's */
	struct pp_http h;
	const char *why;
	const char *s = "CONNECT a.b:443 HTTP/1.1\r\n\r\n\x16\x03\x01";
	assert_int_equal(pp_http_head(s, strlen(s), MAX, &h, &why), PP_OK);
	assert_int_equal(h.head_len, strlen(s) - 3);
	/* a TLS hello sent ahead has NULs: the head is still a head */
	static const char hello[] = "CONNECT a.b:443 HTTP/1.1\r\n\r\n\x16\x03\x01\x00\x05";
	assert_int_equal(pp_http_head(hello, sizeof hello - 1, MAX, &h, &why), PP_OK);
	assert_int_equal(h.head_len, sizeof hello - 1 - 5);
}

static void test_http_bad(void **state)
{
	(void)state;
	static const struct {
		const char *req, *why;
	} t[] = {
		{ "\x16\x03\x01\x02", "request line" },
		{ "GET / HTTP/1.1\r\n\r\n", "not a proxy request" },
		{ "GET https://a.b/ HTTP/1.1\r\n\r\n", "CONNECT" },
		{ "GET ftp://a.b/ HTTP/1.1\r\n\r\n", "not a proxy request" },
		{ "CONNECT a.b HTTP/1.1\r\n\r\n", "HOST:PORT" },
		{ "CONNECT a.b:0 HTTP/1.1\r\n\r\n", "port" },
		{ "CONNECT a.b:65536 HTTP/1.1\r\n\r\n", "port" },
		{ "CONNECT a.b:44x HTTP/1.1\r\n\r\n", "port" },
		{ "CONNECT :443 HTTP/1.1\r\n\r\n", "empty host" },
		{ "CONNECT [::1:443 HTTP/1.1\r\n\r\n", "']'" },
		{ "CONNECT [nope]:443 HTTP/1.1\r\n\r\n", "IPv6" },
		{ "CONNECT a%2eb:443 HTTP/1.1\r\n\r\n", "letters" },
		{ "GET http://user:pw@a.b/ HTTP/1.1\r\n\r\n", "user part" },
		{ "GET http://a.b/#x HTTP/1.1\r\n\r\n", "fragment" },
		{ "GET http:///x HTTP/1.1\r\n\r\n", "empty host" },
		{ "GET http://a.b/ HTTP/2.0\r\n\r\n", "HTTP/1.0" },
		{ "GET http://a.b/ HTTP/1.1 \r\n\r\n", "HTTP/1.0" },
		{ "GET  http://a.b/ HTTP/1.1\r\n\r\n", "request line" },
		{ "GET http://a.b/\x01 HTTP/1.1\r\n\r\n", "control" },
		{ "G\x01T http://a.b/ HTTP/1.1\r\n\r\n", "request line" },
		{ "GET http://a.b/ HTTP/1.1\r\nX: a\rb\r\n\r\n", "bare CR" },
		{ "GET http://a.b/ HTTP/1.1\rX: a\r\n\r\n", "bare CR" },
		{ "GET http://a.b/ HTTP/1.1\r\nX: a\r\n folded\r\n\r\n", "obs-fold" },
		{ "GET http://a.b/ HTTP/1.1\r\nX : a\r\n\r\n", "NAME:" },
		{ "GET http://a.b/ HTTP/1.1\r\n: a\r\n\r\n", "NAME:" },
		{ "GET http://a.b/ HTTP/1.1\r\nno colon\r\n\r\n", "NAME:" },
		{ "GET http://a.b/ HTTP/1.1\r\nX: a\x7f\r\n\r\n", "control" },
		{ "GET http://a.b/ HTTP/1.1\r\nX: a\x1b[2J\r\n\r\n", "control" },
		{ "GET http://a.b/ HTTP/1.1\r\nHost: a.b\r\nhost: c.d\r\n\r\n", "Host" },
		{ "AVERYVERYLONGMETHODNAME http://a.b/ HTTP/1.1\r\n\r\n", "request line" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct pp_http h;
		const char *why = NULL;
		if (head(t[i].req, &h, &why) != PP_ERROR)
			fail_msg("%s: accepted", t[i].req);
		if (!strstr(why, t[i].why))
			fail_msg("%s: \"%s\" does not say \"%s\"", t[i].req, why, t[i].why);
	}
	/* a NUL anywhere */
	struct pp_http h;
	const char *why;
	static const char nul[] = "GET http://a.b/ HTTP/1.1\r\nX: a\0b\r\n\r\n";
	assert_int_equal(pp_http_head(nul, sizeof nul - 1, MAX, &h, &why), PP_ERROR);
	/* too long: at the cap without an end, and a head past the cap */
	char big[MAX + 64];
	memset(big, 'a', sizeof big);
	memcpy(big, "GET http://a.b/ HTTP/1.1\r\nX: ", 29);
	assert_int_equal(pp_http_head(big, MAX - 1, MAX, &h, &why), PP_NEED_MORE);
	assert_int_equal(pp_http_head(big, MAX, MAX, &h, &why), PP_ERROR);
	memcpy(big + MAX - 2, "\r\n\r\n", 4);
	assert_int_equal(pp_http_head(big, MAX + 2, MAX, &h, &why), PP_ERROR);
	/* too many header lines */
	char many[8192] = "GET http://a.b/ HTTP/1.1\r\n";
	for (int i = 0; i < 300; i++)
		strcat(many, "X: y\r\n");
	strcat(many, "\r\n");
	assert_int_equal(head(many, &h, &why), PP_ERROR);
	assert_non_null(strstr(why, "too many"));
}

/* A request inside a tunnel, as the origin server reads it. */
static void test_request(void **state)
{
	(void)state;
	static const struct {
		const char *req;
		const char *host;
		unsigned host_port;
		const char *url_host;
		unsigned url_port;
		unsigned long long length;
		bool chunked, upgrade, websocket;
	} t[] = {
		{ "GET / HTTP/1.1\r\nHost: allowed.test\r\n\r\n",
		  "allowed.test", 0, "", 0, 0, false, false, false },
		{ "GET /a?b HTTP/1.1\r\nhost:\tAllowed.Test.:8080 \r\n\r\n",
		  "Allowed.Test.", 8080, "", 0, 0, false, false, false },
		{ "GET / HTTP/1.1\r\nHost: [2001:db8::1]:443\r\n\r\n",
		  "2001:db8::1", 443, "", 0, 0, false, false, false },
		{ "GET / HTTP/1.0\n\n", "", 0, "", 0, 0, false, false, false },
		{ "GET / HTTP/1.1\r\nHost:\r\n\r\n", "", 0, "", 0, 0, false, false, false },
		{ "OPTIONS * HTTP/1.1\r\nHost: a.b\r\n\r\n",
		  "a.b", 0, "", 0, 0, false, false, false },
		{ "GET http://other.test/x HTTP/1.1\r\nHost: allowed.test\r\n\r\n",
		  "allowed.test", 0, "other.test", 80, 0, false, false, false },
		{ "GET HTTPS://other.test:8443 HTTP/1.1\r\n\r\n",
		  "", 0, "other.test", 8443, 0, false, false, false },
		{ "POST / HTTP/1.1\r\nContent-Length:  0012 \r\n\r\n",
		  "", 0, "", 0, 12, false, false, false },
		{ "POST / HTTP/1.1\r\nTransfer-Encoding: CHUNKED\r\n\r\n",
		  "", 0, "", 0, 0, true, false, false },
		{ "GET / HTTP/1.1\r\nUpgrade: WebSocket\r\n\r\n",
		  "", 0, "", 0, 0, false, true, true },
		{ "GET / HTTP/1.1\r\nUpgrade: h2c\r\n\r\n", "", 0, "", 0, 0, false, true, false },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct pp_request q;
		const char *why = NULL;
		size_t n = strlen(t[i].req);
		for (size_t j = 0; j < n; j++)
			if (pp_http_request(t[i].req, j, MAX, &q, &why) != PP_NEED_MORE)
				fail_msg("prefix %zu of %s: %s", j, t[i].req, why ? why : "OK");
		if (pp_http_request(t[i].req, n, MAX, &q, &why) != PP_OK)
			fail_msg("%s: %s", t[i].req, why);
		assert_int_equal(q.head_len, n);
		assert_string_equal(q.host, t[i].host);
		assert_int_equal(q.host_port, t[i].host_port);
		assert_string_equal(q.url_host, t[i].url_host);
		assert_int_equal(q.url_port, t[i].url_port);
		assert_int_equal(q.length, t[i].length);
		assert_int_equal(q.chunked, t[i].chunked);
		assert_int_equal(q.upgrade, t[i].upgrade);
		assert_int_equal(q.websocket, t[i].websocket);
	}
	static const char *const bad[] = {
		"CONNECT a.b:443 HTTP/1.1\r\n\r\n",
		"GET a.b HTTP/1.1\r\n\r\n",
		"GET ftp://a.b/ HTTP/1.1\r\n\r\n",
		"GET http://u@a.b/ HTTP/1.1\r\n\r\n",
		"GET /#f HTTP/1.1\r\n\r\n",
		"GET * HTTP/1.1\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a b\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a.b:\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a.b:0\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a.b\r\nHost: a.b\r\n\r\n",
		"GET / HTTP/1.1\r\nContent-Length: 1,1\r\n\r\n",
		"GET / HTTP/1.1\r\nContent-Length: +1\r\n\r\n",
		"GET / HTTP/1.1\r\nContent-Length:\r\n\r\n",
		"GET / HTTP/1.1\r\nContent-Length: 1234567890123456789\r\n\r\n",
		"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n",
		"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n",
		"GET / HTTP/1.1\r\nTransfer-Encoding: identity\r\n\r\n",
		"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
		"GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
		"GET / HTTP/1.1\r\nUpgrade: websocket\r\nUpgrade: websocket\r\n\r\n",
		"GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct pp_request q;
		const char *why = NULL;
		if (pp_http_request(bad[i], strlen(bad[i]), MAX, &q, &why) != PP_ERROR)
			fail_msg("accepted: %s", bad[i]);
		assert_non_null(why);
	}
}

static void test_rewrite(void **state)
{
	(void)state;
	static const struct {
		const char *req, *want;
	} t[] = {
		{ "GET http://example.org/a?b HTTP/1.1\r\nHost: evil.example\r\nAccept: */*\r\n"
		  "Proxy-Connection: keep-alive\r\nProxy-Authorization: Basic eA==\r\n"
		  "Connection: keep-alive\r\nKeep-Alive: 5\r\nUser-Agent: t\r\n\r\n",
		  "GET /a?b HTTP/1.1\r\nAccept: */*\r\nUser-Agent: t\r\nHost: example.org\r\n"
		  "Connection: close\r\n\r\n" },
		{ "POST http://example.org:8080 HTTP/1.0\nContent-Length: 2\n\n",
		  "POST / HTTP/1.0\r\nContent-Length: 2\r\nHost: example.org:8080\r\n"
		  "Connection: close\r\n\r\n" },
		{ "GET http://[::1]:81?x HTTP/1.1\r\n\r\n",
		  "GET /?x HTTP/1.1\r\nHost: [::1]:81\r\nConnection: close\r\n\r\n" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct pp_http h;
		const char *why;
		char out[1024];
		assert_int_equal(head(t[i].req, &h, &why), PP_OK);
		size_t n = pp_http_rewrite(t[i].req, &h, out, sizeof out);
		assert_int_equal(n, strlen(t[i].want));
		assert_memory_equal(out, t[i].want, n);
		assert_int_equal(pp_http_rewrite(t[i].req, &h, out, n - 1), 0);
	}
}

static void test_socks(void **state)
{
	(void)state;
	size_t used = 0;
	bool noauth = false;
	const char *why = NULL;
	static const unsigned char g1[] = { 5, 2, 2, 0 };
	for (size_t i = 0; i < sizeof g1; i++)
		assert_int_equal(pp_socks_greeting(g1, i, &used, &noauth, &why), PP_NEED_MORE);
	assert_int_equal(pp_socks_greeting(g1, sizeof g1, &used, &noauth, &why), PP_OK);
	assert_int_equal(used, 4);
	assert_true(noauth);
	static const unsigned char g2[] = { 5, 1, 2 };
	assert_int_equal(pp_socks_greeting(g2, sizeof g2, &used, &noauth, &why), PP_OK);
	assert_false(noauth);
	static const unsigned char g3[] = { 4, 1, 0 };
	assert_int_equal(pp_socks_greeting(g3, 1, &used, &noauth, &why), PP_ERROR);
	static const unsigned char g4[] = { 5, 0 };
	assert_int_equal(pp_socks_greeting(g4, 2, &used, &noauth, &why), PP_ERROR);

	struct pp_socks q;
	unsigned char code = 0;
	static const unsigned char r4[] = { 5, 1, 0, 1, 127, 0, 0, 1, 0x1f, 0x90, 0xaa };
	for (size_t i = 0; i < 10; i++)
		assert_int_equal(pp_socks_request(r4, i, &used, &q, &code, &why), PP_NEED_MORE);
	assert_int_equal(pp_socks_request(r4, sizeof r4, &used, &q, &code, &why), PP_OK);
	assert_int_equal(used, 10);
	assert_string_equal(q.host, "127.0.0.1");
	assert_true(q.is_addr);
	assert_int_equal(q.port, 8080);

	unsigned char r3[5 + 255 + 2] = { 5, 1, 0, 3, 14 };
	memcpy(r3 + 5, "api.openai.com\x01\xbb", 16);
	for (size_t i = 0; i < 21; i++)
		assert_int_equal(pp_socks_request(r3, i, &used, &q, &code, &why), PP_NEED_MORE);
	assert_int_equal(pp_socks_request(r3, 21, &used, &q, &code, &why), PP_OK);
	assert_string_equal(q.host, "api.openai.com");
	assert_false(q.is_addr);
	assert_int_equal(q.port, 443);
	r3[4] = 255;
	memset(r3 + 5, 'a', 255);
	r3[260] = 0;
	r3[261] = 22;
	assert_int_equal(pp_socks_request(r3, sizeof r3, &used, &q, &code, &why), PP_OK);
	assert_int_equal(strlen(q.host), 255);

	static const unsigned char r6[] = { 5, 1, 0, 4, 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
					    0,    0, 0, 0, 0,    0,    0,    1, 0, 80 };
	assert_int_equal(pp_socks_request(r6, sizeof r6, &used, &q, &code, &why), PP_OK);
	assert_string_equal(q.host, "2001:db8::1");
	assert_int_equal(q.port, 80);

	static const struct {
		unsigned char m[12];
		size_t n;
		unsigned char code;
	} bad[] = {
		{ { 4, 1, 0, 1 }, 1, 0x01 },            /* not 5 */
		{ { 5, 2, 0, 1 }, 2, 0x07 },            /* BIND */
		{ { 5, 3, 0, 1 }, 2, 0x07 },            /* UDP ASSOCIATE */
		{ { 5, 1, 1, 1 }, 3, 0x01 },            /* reserved byte */
		{ { 5, 1, 0, 2 }, 4, 0x08 },            /* ATYP 2 */
		{ { 5, 1, 0, 3, 0 }, 5, 0x01 },         /* empty name */
		{ { 5, 1, 0, 3, 3, 'a', 0, 'b', 0, 80 }, 10, 0x01 }, /* NUL */
		/* a terminal escape, a newline, a non-ASCII byte: the name
		 * reaches the log and kjail's summary line on the terminal */
		{ { 5, 1, 0, 3, 3, 'a', 0x1b, 'b', 0, 80 }, 10, 0x01 },
		{ { 5, 1, 0, 3, 3, 'a', '\n', 'b', 0, 80 }, 10, 0x01 },
		{ { 5, 1, 0, 3, 3, 'a', 0xff, 'b', 0, 80 }, 10, 0x01 },
		{ { 5, 1, 0, 3, 3, 'a', ' ', 'b', 0, 80 }, 10, 0x01 },
		{ { 5, 1, 0, 1, 1, 2, 3, 4, 0, 0 }, 10, 0x01 },      /* port 0 */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		code = 0xee;
		if (pp_socks_request(bad[i].m, bad[i].n, &used, &q, &code, &why) != PP_ERROR)
			fail_msg("bad SOCKS5 request %zu accepted", i);
		assert_int_equal(code, bad[i].code);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_http_good),
		cmocka_unit_test(test_http_bad),
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_rewrite),
		cmocka_unit_test(test_socks),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
