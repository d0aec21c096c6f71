/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the upstream proxy's parsers
 * (src/kjail/proxy/upstream.h): its URL, NO_PROXY, and the upstream's
 * answers (HTTP CONNECT's head, SOCKS5's method, password and CONNECT
 * replies). The first byte picks the parser (low 3 bits) and where the
 * input is split. Besides crashes and sanitizer reports it checks what
 * they promise: a URL accepted has a host, a port in 1..65535, a shown
 * form that holds neither its user nor its password, and a CONNECT
 * request with no bare CR, LF or NUL but its line ends; a NO_PROXY
 * accepted can be matched, "*" alone matches everything; an answer's
 * prefix answers NEED_MORE or what the whole answers (OK with the same
 * length), OK consumes no more than it got, an error names why. A
 * broken promise aborts. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proxy/upstream.h"

#include "fuzz.h"

static void url(const char *s)
{
	struct upstream u;
	const char *why = NULL;
	if (!upstream_parse(s, &u, &why)) {
		CHECK(why && *why);
		return;
	}
	CHECK(u.host[0] && u.port >= 1 && u.port <= 65535);
	/* credentials never shown: the shown form is made of the scheme,
	 * *** and the address alone */
	char expect[sizeof u.shown + 8];
	bool v6 = strchr(u.host, ':') != NULL;
	snprintf(expect, sizeof expect, "%s://%s%s%s%s:%u",
		 u.kind == UPSTREAM_HTTP ? "http" : "socks5", u.auth ? "***@" : "", v6 ? "[" : "",
		 u.host, v6 ? "]" : "", u.port);
	CHECK(strcmp(expect, u.shown) == 0);
	char req[1024];
	size_t n = upstream_http_request(&u, "192.0.2.1", 443, req, sizeof req);
	CHECK(n == 0 || (n < sizeof req && memcmp(req + n - 4, "\r\n\r\n", 4) == 0));
	for (size_t i = 0; i < n; i++) {
		CHECK(req[i] != '\0');
		CHECK(req[i] != '\r' || (i + 1 < n && req[i + 1] == '\n'));
		CHECK(req[i] != '\n' || (i > 0 && req[i - 1] == '\r'));
	}
	unsigned char m[600];
	CHECK(upstream_socks_greeting(&u, m, sizeof m) >= 3);
	if (u.auth && strlen(u.user) <= 255 && strlen(u.pass) <= 255)
		CHECK(upstream_socks_auth(&u, m, sizeof m) > 2);
	upstream_clear(&u);
}

static void no_proxy(const char *s, const char *host)
{
	const char *why = NULL;
	if (!upstream_no_proxy_check(s, &why)) {
		CHECK(why && *why);
		return;
	}
	upstream_no_proxy_match(s, host, 443);
	upstream_no_proxy_match(s, "192.0.2.1", 80);
	upstream_no_proxy_match(s, "2001:db8::1", 22);
	CHECK(upstream_no_proxy_match("*", host, 1));
}

/* One answer parser by k, over buf[0..len): status, *used. */
static enum pp_status answer(int k, const unsigned char *buf, size_t len, size_t *used)
{
	const char *why = NULL;
	enum pp_status st;
	unsigned char c = 0xee;
	int status = -1;
	switch (k) {
	case 0:
		st = upstream_http_reply((const char *)buf, len, 1024, used, &status, &why);
		if (st == PP_OK)
			CHECK(status >= 100 && status <= 999 && *used <= 1024);
		break;
	case 1:
		st = upstream_socks_method(buf, len, true, used, &c, &why);
		if (st == PP_OK)
			CHECK(c == 0 || c == 2);
		break;
	case 2:
		st = upstream_socks_auth_reply(buf, len, used, &why);
		break;
	default:
		st = upstream_socks_reply(buf, len, used, &c, &why);
		/* the reply's code is its second byte (0xee is a code too) */
		if (st == PP_OK)
			CHECK(len >= 2 && c == buf[1]);
		break;
	}
	if (st == PP_ERROR)
		CHECK(why && *why);
	if (st == PP_OK)
		CHECK(*used >= 1 && *used <= len);
	return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned pick = data[0] & 7, cut = data[0] >> 3;
	const uint8_t *d = data + 1;
	size_t n = size - 1;
	char *s = malloc(n + 1);
	memcpy(s, d, n);
	s[n] = '\0';
	if (pick == 0) {
		url(s);
	} else if (pick == 1) {
		char *comma = strchr(s, '|');
		if (comma)
			*comma = '\0';
		no_proxy(s, comma ? comma + 1 : "a.example.org");
	} else {
		int k = (int)(pick - 2) % 4;
		size_t used = 0, pused = 0;
		enum pp_status whole = answer(k, d, n, &used);
		size_t p = n ? (size_t)cut * n / 32 : 0;
		enum pp_status part = answer(k, d, p, &pused);
		if (part == PP_ERROR)
			CHECK(whole == PP_ERROR);
		if (part == PP_OK)
			CHECK(whole == PP_OK && used == pused);
	}
	free(s);
	return 0;
}
