/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the egress proxy's request parsers
 * (src/kjail/proxy/parse.h) and the allowlist (proxy/rules.h).
 *
 * The first byte picks the parser and where the input is split: the
 * parser sees the input as the proxy's reads would hand it over, a prefix
 * first, then the whole. Besides crashes and sanitizer reports, it checks
 * what they promise: a prefix of an input answers NEED_MORE or what the
 * whole answers (an error seen early stays an error; OK on a prefix is OK
 * on the whole with the same length); OK consumes no more than it got; a
 * host holds no byte a name or an address cannot; an HTTP head's parts
 * lie inside it; the rewritten head fits, ends in an empty line and
 * carries no bare CR or NUL; a SOCKS5 error carries one of its reply codes.
 * The rest of the input, as a string, goes through allow_parse and
 * allow_match. A broken promise aborts. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proxy/rules.h"
#include "proxy/parse.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned mode = data[0] & 3;
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
	} else {
		allowlist(data, size);
	}
	return 0;
}
