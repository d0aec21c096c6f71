/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the egress proxy's request parsers
 * (src/kjail/proxy/parse.h), the allowlist (proxy/rules.h), the
 * ClientHello reader (proxy/tls.h) and what watches a tunnel
 * (proxy/inspect.h).
 *
 * The first byte picks the parser (its low 3 bits) and where the input is
 * split: the
 * parser sees the input as the proxy's reads would hand it over, a prefix
 * first, then the whole. Besides crashes and sanitizer reports, it checks
 * what they promise: a prefix of an input answers NEED_MORE or what the
 * whole answers (an error seen early stays an error; OK on a prefix is OK
 * on the whole with the same length); OK consumes no more than it got; a
 * host holds no byte a name or an address cannot; an HTTP head's parts
 * lie inside it; the rewritten head fits, ends in an empty line and
 * carries no bare CR or NUL; a SOCKS5 error carries one of its reply codes.
 * The rest of the input, as a string, goes through allow_parse and
 * allow_match. A ClientHello's name holds only a DNS name's bytes and
 * "used" lies inside the input; a request inside a tunnel is framed one
 * way only (not both a length and chunked). A tunnel's inspector, fed
 * the same client bytes whole or in two pieces (the server's first bytes
 * before either), decides the same: as many bytes, or a refusal with a
 * reason, and never more than it was given. A broken promise aborts. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proxy/rules.h"
#include "proxy/parse.h"
#include "proxy/tls.h"
#include "proxy/inspect.h"

#include "fuzz.h"

#define MAX 4096 /* small, so the cap is reached */

static void check_host(const char *h)
{
	CHECK(strlen(h) < PP_HOST_MAX);
	for (const char *p = h; *p; p++)
		CHECK((unsigned char)*p > 0x20 && (unsigned char)*p < 0x7f);
}

static enum pp_status http(const char *buf, size_t len, struct pp_http *h)
{
	const char *why = NULL;
	enum pp_status st = pp_http_head(buf, len, MAX, h, &why);
	if (st == PP_ERROR)
		CHECK(why && *why);
	if (st != PP_OK)
		return st;
	CHECK(h->head_len <= len && h->head_len <= MAX);
	CHECK(h->port >= 1 && h->port <= 65535);
	CHECK(h->method_len > 0 && h->headers_off <= h->head_len);
	CHECK(h->version_off + 8 <= h->headers_off);
	check_host(h->host);
	if (!h->connect) {
		CHECK(h->path_off + h->path_len <= h->headers_off);
		char out[MAX + PP_HOST_MAX + 64];
		size_t n = pp_http_rewrite(buf, h, out, sizeof out);
		CHECK(n > 4 && n <= sizeof out);
		CHECK(memcmp(out + n - 4, "\r\n\r\n", 4) == 0);
		CHECK(memchr(out, '\0', n) == NULL);
		for (size_t i = 0; i < n; i++)
			CHECK(out[i] != '\r' || (i + 1 < n && out[i + 1] == '\n'));
		CHECK(pp_http_rewrite(buf, h, out, n - 1) == 0);
	}
	return st;
}

static enum pp_status socks(const unsigned char *buf, size_t len, size_t *used,
			    struct pp_socks *q, bool greeting)
{
	const char *why = NULL;
	unsigned char code = 0xee;
	bool noauth;
	enum pp_status st = greeting ? pp_socks_greeting(buf, len, used, &noauth, &why)
				     : pp_socks_request(buf, len, used, q, &code, &why);
	if (st == PP_ERROR) {
		CHECK(why && *why);
		CHECK(greeting || code == 0x01 || code == 0x07 || code == 0x08);
	}
	if (st == PP_OK) {
		CHECK(*used <= len);
		if (!greeting) {
			CHECK(q->port >= 1 && q->port <= 65535);
			CHECK(strlen(q->host) > 0);
			check_host(q->host);
		}
	}
	return st;
}

static void allowlist(const uint8_t *data, size_t size)
{
	char s[600];
	size_t n = size < sizeof s - 1 ? size : sizeof s - 1;
	memcpy(s, data, n);
	s[n] = '\0';
	struct allow_rule r[2];
	const char *why = NULL;
	if (!allow_parse(s, &r[0], &why)) {
		CHECK(why && *why);
		return;
	}
	CHECK(r[0].port == ALLOW_PORT_ANY || r[0].port == ALLOW_PORT_WEB ||
	      (r[0].port >= 1 && r[0].port <= 65535));
	CHECK(strlen(r[0].host) > 0 && strlen(r[0].host) < ALLOW_HOST_MAX);
	check_host(r[0].host);
	unsigned port = r[0].port > 0 ? (unsigned)r[0].port : 443;
	/* a name rule matches its own name; a literal its own address */
	if (r[0].kind == ALLOW_NAME || r[0].kind == ALLOW_IPV4 || r[0].kind == ALLOW_IPV6)
		CHECK(allow_match(r, 1, r[0].host, port) == 0);
	if (r[0].kind == ALLOW_SUFFIX) {
		CHECK(allow_match(r, 1, r[0].host, port) == -1);
		char sub[ALLOW_HOST_MAX + 4];
		snprintf(sub, sizeof sub, "a.%s", r[0].host);
		if (strlen(r[0].host) < 251)
			CHECK(allow_match(r, 1, sub, port) == 0);
	}
	allow_match(r, 1, s, 443);
}

static enum tls_status hello(const unsigned char *buf, size_t len, struct tls_hello *h)
{
	const char *why = NULL;
	enum tls_status st = tls_client_hello(buf, len, h, &why);
	if (st == TLS_MALFORMED)
		CHECK(why && *why);
	if (st == TLS_FOUND || st == TLS_NONE) {
		CHECK(h->used > 5 && h->used <= len);
		CHECK((st == TLS_FOUND) == (h->sni[0] != '\0'));
		check_host(h->sni);
	} else {
		CHECK(h->sni[0] == '\0' && !h->ech);
	}
	return st;
}

static enum pp_status request(const char *buf, size_t len, struct pp_request *q)
{
	const char *why = NULL;
	enum pp_status st = pp_http_request(buf, len, MAX, q, &why);
	if (st == PP_ERROR)
		CHECK(why && *why);
	if (st != PP_OK)
		return st;
	CHECK(q->head_len <= len && q->head_len <= MAX);
	CHECK(!(q->chunked && q->has_length));
	CHECK(q->host_port <= 65535 && q->url_port <= 65535);
	CHECK(!q->url_host[0] || q->url_port >= 1);
	check_host(q->host);
	check_host(q->url_host);
	return st;
}

static struct allow_rule fuzz_rules[4];
static const char *const fuzz_dest[][2] = {
	{ "allowed.test", "443" }, { "allowed.test", "80" }, { "a.example.org", "443" },
	{ "203.0.113.7", "443" },  { "any.test", "22" },     { "any.test", "443" },
};

/* The client's bytes c (n) in pieces of at most step, the server's s
 * (sn) first: as the relay hands them over. Returns the bytes decided, or
 * -1 when refused. */
static long watch(struct inspect *in, const char *s, size_t sn, const char *c, size_t n,
		  size_t step)
{
	size_t dec = 0, got = 0;
	inspect_server(in, s, sn, false);
	for (;;) {
		got = got + step < n ? got + step : n;
		long k = inspect_client(in, c + dec, got - dec, got == n);
		if (k < 0) {
			CHECK(in->why && *in->why);
			return -1;
		}
		CHECK((size_t)k <= got - dec);
		dec += (size_t)k;
		if (got == n)
			return (long)dec;
	}
}

static void tunnel(const uint8_t *data, size_t size)
{
	if (!fuzz_rules[0].host[0]) {
		static const char *const r[] = { "allowed.test", "*.example.org", "203.0.113.7",
						 "any.test:*" };
		const char *why;
		for (size_t i = 0; i < 4; i++)
			CHECK(allow_parse(r[i], &fuzz_rules[i], &why));
	}
	if (size < 3)
		return;
	const char *host = fuzz_dest[data[0] % 6][0];
	unsigned port = (unsigned)atoi(fuzz_dest[data[0] % 6][1]);
	size_t sn = data[1] % 64 < size - 3 ? data[1] % 64 : size - 3;
	size_t step = (size_t)data[2] + 1;
	const char *s = (const char *)data + 3, *c = s + sn;
	size_t n = size - 3 - sn;
	struct inspect a, b;
	inspect_tunnel(&a, fuzz_rules, 4, host, port);
	inspect_tunnel(&b, fuzz_rules, 4, host, port);
	long whole = watch(&a, s, sn, c, n, n ? n : 1);
	long pieces = watch(&b, s, sn, c, n, step);
	CHECK(whole == pieces);
	CHECK(whole <= (long)n);
	CHECK(inspect_done(&a) == inspect_done(&b));
	check_host(a.sni);
	check_host(a.http_host);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned mode = data[0] & 7;
	data++;
	size--;
	size_t split = size ? (size_t)(data[0]) * size / 256 : 0;
	if (mode == 0) {
		struct pp_http h1, h2;
		enum pp_status a = http((const char *)data, split, &h1);
		enum pp_status b = http((const char *)data, size, &h2);
		if (a == PP_ERROR)
			CHECK(b == PP_ERROR);
		if (a == PP_OK)
			CHECK(b == PP_OK && h1.head_len == h2.head_len);
	} else if (mode == 1 || mode == 2) {
		bool greeting = mode == 1;
		struct pp_socks q1, q2;
		size_t u1 = 0, u2 = 0;
		enum pp_status a = socks(data, split, &u1, &q1, greeting);
		enum pp_status b = socks(data, size, &u2, &q2, greeting);
		if (a == PP_ERROR)
			CHECK(b == PP_ERROR);
		if (a == PP_OK)
			CHECK(b == PP_OK && u1 == u2);
		/* a greeting then a request, as the proxy reads them */
		if (greeting && b == PP_OK)
			socks(data + u2, size - u2, &u1, &q1, false);
	} else if (mode == 3) {
		allowlist(data, size);
	} else if (mode == 4) {
		struct tls_hello h1, h2;
		enum tls_status a = hello(data, split, &h1);
		enum tls_status b = hello(data, size, &h2);
		if (a == TLS_MALFORMED)
			CHECK(b == TLS_MALFORMED);
		if (a == TLS_FOUND || a == TLS_NONE)
			CHECK(b == a && h1.used == h2.used && strcmp(h1.sni, h2.sni) == 0 &&
			      h1.ech == h2.ech);
		tls_server_first(data, size);
	} else if (mode == 5) {
		struct pp_request q1, q2;
		enum pp_status a = request((const char *)data, split, &q1);
		enum pp_status b = request((const char *)data, size, &q2);
		if (a == PP_ERROR)
			CHECK(b == PP_ERROR);
		if (a == PP_OK)
			CHECK(b == PP_OK && q1.head_len == q2.head_len);
	} else {
		tunnel(data, size);
	}
	return 0;
}
