/* SPDX-License-Identifier: MIT */
/* What a tunnel carries (proxy/inspect.c), fed as the relay feeds it: the
 * client's bytes in pieces (each call sees what is not yet decided), the
 * server's first bytes beside them. Every case runs with the client's
 * bytes in one piece and one byte at a time, and must decide the same.
 * TLS: the captured hellos (tests/data/tls) and the retry a real server
 * sent; HTTP: pipelined requests, bodies by length and chunked, the
 * names an origin server would route by; other protocols; the dribble
 * that a timer would have let through. */
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

#include "proxy/inspect.h"

#define BIG 100000

static const char *const rule_text[] = {
	"allowed.test",   /* web: 80, 443 */
	"*.example.io",   /* web */
	"203.0.113.17",   /* web, a literal */
	"allowed.test:8443",
	"ssh.test:22",
	"any.test:*",
	"db.test:5432",
	"both.test",      /* web, and again with a port */
	"both.test:443",
};
#define NRULES (sizeof rule_text / sizeof rule_text[0])
static struct allow_rule rules[NRULES];

static int setup(void **state)
{
	(void)state;
	for (size_t i = 0; i < NRULES; i++) {
		const char *why;
		if (!allow_parse(rule_text[i], &rules[i], &why))
			fail_msg("%s: %s", rule_text[i], why);
		rules[i].text = rule_text[i];
	}
	return 0;
}

static const char *srcdir(void)
{
	const char *s = getenv("top_srcdir");
	return s && s[0] ? s : ".";
}

static size_t capture(const char *name, char *out)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/data/tls/%s", srcdir(), name);
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("%s: cannot open", path);
	size_t n = fread(out, 1, BIG, f);
	fclose(f);
	return n;
}

/* What a run came to. */
struct run {
	long decided;     /* client bytes let through (or dropped), or -1 */
	bool done;        /* unseen from there */
	bool sink;
	const char *why;
	enum inspect_answer answer;
	char sni[TLS_NAME_MAX], http_host[PP_HOST_MAX];
};

/* The client sends c (cn bytes, in pieces of step, then ends if eof);
 * the server's bytes s (sn) arrive once the client has sent srv_after
 * bytes. As the relay does: each call sees the bytes not yet decided. */
static struct run feed(struct inspect *in, const char *c, size_t cn, size_t step, bool eof,
		       const char *s, size_t sn, size_t srv_after)
{
	struct run r = { 0 };
	size_t got = 0, dec = 0;
	bool srv_sent = false;
	for (;;) {
		if (!srv_sent && s && got >= srv_after) {
			inspect_server(in, s, sn, false);
			srv_sent = true;
		}
		bool last = got == cn;
		long k = inspect_client(in, c + dec, got - dec, last && eof);
		if (k < 0) {
			r.decided = -1;
			break;
		}
		dec += (size_t)k;
		if (last)
			break;
		got = got + step < cn ? got + step : cn;
	}
	if (r.decided == 0)
		r.decided = (long)dec;
	r.done = inspect_done(in);
	r.sink = in->sink;
	r.why = in->why;
	r.answer = in->answer;
	memcpy(r.sni, in->sni, sizeof r.sni);
	memcpy(r.http_host, in->http_host, sizeof r.http_host);
	return r;
}

/* A tunnel to host:port; the client's bytes whole and byte by byte must
 * come to the same. */
static struct run tunnel(const char *host, unsigned port, const char *c, size_t cn, bool eof,
			 const char *s, size_t sn, size_t srv_after)
{
	struct inspect a, b;
	inspect_tunnel(&a, rules, NRULES, host, port);
	inspect_tunnel(&b, rules, NRULES, host, port);
	struct run whole = feed(&a, c, cn, cn ? cn : 1, eof, s, sn, srv_after);
	struct run bytes = feed(&b, c, cn, 1, eof, s, sn, srv_after);
	if (whole.decided != bytes.decided || whole.done != bytes.done ||
	    (whole.why == NULL) != (bytes.why == NULL) ||
	    strcmp(whole.sni, bytes.sni) || strcmp(whole.http_host, bytes.http_host))
		fail_msg("%s:%u: whole: %ld %s, byte by byte: %ld %s", host, port, whole.decided,
			 whole.why ? whole.why : "-", bytes.decided, bytes.why ? bytes.why : "-");
	return whole;
}

static struct run tunnel_s(const char *host, unsigned port, const char *c, bool eof)
{
	return tunnel(host, port, c, strlen(c), eof, NULL, 0, 0);
}

static void refused(struct run r, const char *why_part, enum inspect_answer a)
{
	if (r.decided != -1)
		fail_msg("not refused (%ld decided)", r.decided);
	if (!r.why || !strstr(r.why, why_part))
		fail_msg("refused for \"%s\", not \"%s\"", r.why ? r.why : "", why_part);
	assert_int_equal(r.answer, a);
}

/* --- TLS ------------------------------------------------------------------------ */

/* A hello like the captured one, naming name instead (same length). */
static size_t renamed(const char *file, const char *from, const char *to, char *out)
{
	size_t n = capture(file, out);
	assert_int_equal(strlen(from), strlen(to));
	char *p = memmem(out, n, from, strlen(from));
	assert_non_null(p);
	memcpy(p, to, strlen(to));
	return n;
}

static void test_tls(void **state)
{
	(void)state;
	static char c[BIG], s[BIG];
	size_t sn = capture("server-hello.bin", s);
	size_t n = capture("python-sni.bin", c);
	struct run r;

	/* the name the tunnel was opened for: through once the server answers */
	r = tunnel("allowed.test", 443, c, n, false, s, sn, n);
	assert_int_equal(r.decided, n);
	assert_true(r.done);
	assert_string_equal(r.sni, "allowed.test");
	/* the client's next bytes wait for the server's answer, then go */
	memcpy(c + n, "\x17\x03\x03\x00\x01\x00", 6);
	r = tunnel("allowed.test", 443, c, n + 6, false, NULL, 0, 0);
	assert_int_equal(r.decided, n);
	assert_false(r.done);
	r = tunnel("allowed.test", 443, c, n + 6, false, s, sn, n + 6);
	assert_int_equal(r.decided, n + 6);
	assert_true(r.done);

	/* another site on the same front */
	n = renamed("python-sni.bin", "allowed.test", "evilsite.com", c);
	r = tunnel("allowed.test", 443, c, n, false, s, sn, n);
	refused(r, "TLS name (SNI)", INSPECT_TLS_ALERT);
	assert_string_equal(r.sni, "evilsite.com");
	/* nor on a rule that names the port */
	r = tunnel("db.test", 5432, c, n, false, NULL, 0, 0);
	refused(r, "TLS name (SNI)", INSPECT_TLS_ALERT);
	/* a suffix rule covers its names, not the suffix itself */
	n = renamed("python-sni.bin", "allowed.test", "b.example.io", c);
	assert_int_equal(tunnel("a.example.io", 443, c, n, false, s, sn, n).decided, n);
	n = renamed("python-sni.bin", "allowed.test", "xxexample.io", c);
	refused(tunnel("a.example.io", 443, c, n, false, NULL, 0, 0), "SNI", INSPECT_TLS_ALERT);
	/* a name in any case, with its trailing dot */
	n = renamed("python-sni.bin", "allowed.test", "ALLOWED.TEST", c);
	assert_int_equal(tunnel("allowed.test", 443, c, n, false, s, sn, n).decided, n);

	/* no name: refused for a name rule without a port, not where the
	 * rule names its port or for a literal */
	n = capture("python-nosni.bin", c);
	refused(tunnel("allowed.test", 443, c, n, false, NULL, 0, 0), "without a name",
		INSPECT_TLS_ALERT);
	assert_int_equal(tunnel("any.test", 443, c, n, false, s, sn, n).decided, n);
	assert_int_equal(tunnel("both.test", 443, c, n, false, s, sn, n).decided, n);
	assert_int_equal(tunnel("203.0.113.17", 443, c, n, false, s, sn, n).decided, n);
	/* a literal rule takes no name but its own address */
	n = capture("python-sni.bin", c);
	refused(tunnel("203.0.113.17", 443, c, n, false, NULL, 0, 0), "SNI", INSPECT_TLS_ALERT);
	n = renamed("python-sni.bin", "allowed.test", "203.0.113.17", c);
	assert_int_equal(tunnel("203.0.113.17", 443, c, n, false, s, sn, n).decided, n);
	refused(tunnel("allowed.test", 443, c, n, false, NULL, 0, 0), "SNI", INSPECT_TLS_ALERT);
	/* TLS 1.0 and 1.2 hellos, openssl's and curl's */
	n = capture("openssl-tls10.bin", c);
	refused(tunnel("allowed.test", 443, c, n, false, NULL, 0, 0), "SNI", INSPECT_TLS_ALERT);
	n = capture("curl-sni.bin", c);
	assert_int_equal(tunnel("allowed.test", 443, c, n, false, s, sn, n).decided, n);
	/* a client that ends in the middle of its hello */
	refused(tunnel("allowed.test", 443, c, 100, true, NULL, 0, 0), "incomplete",
		INSPECT_CLOSE);
	/* a malformed hello: an alert */
	n = capture("curl-sni.bin", c);
	c[5] = 2;
	refused(tunnel("any.test", 443, c, n, false, NULL, 0, 0), "not a ClientHello",
		INSPECT_TLS_ALERT);
}

/* An encrypted ClientHello: the hello python sends, its padding
 * extension (21) turned into encrypted_client_hello (0xfe0d). */
static void test_ech(void **state)
{
	(void)state;
	static char c[BIG], s[BIG];
	size_t sn = capture("server-hello.bin", s);
	size_t n = capture("python-sni.bin", c);
	char *pad = memmem(c, n, "\x00\x15", 2);
	assert_non_null(pad);
	pad[0] = (char)0xfe;
	pad[1] = 0x0d;
	struct run r = tunnel("allowed.test", 443, c, n, false, NULL, 0, 0);
	refused(r, "encrypted ClientHello", INSPECT_TLS_ALERT);
	assert_string_equal(r.sni, "allowed.test");
	/* a rule that names the port lets it through (Chromium's GREASE
	 * looks the same), if the outer name is one it allows */
	r = tunnel("allowed.test", 8443, c, n, false, s, sn, n);
	assert_int_equal(r.decided, n);
	assert_true(r.done);
	refused(tunnel("both.test", 443, c, n, false, NULL, 0, 0), "SNI", INSPECT_TLS_ALERT);
}

static void test_retry(void **state)
{
	(void)state;
	static char c[BIG], s[BIG];
	size_t n1 = capture("hrr-ch1.bin", c);
	size_t n2 = capture("hrr-client2.bin", c + n1);
	size_t sn = capture("hrr-server.bin", s);
	/* the second hello waits for the server's retry, then is read */
	struct run r = tunnel("allowed.test", 443, c, n1 + n2, false, NULL, 0, 0);
	assert_int_equal(r.decided, n1);
	r = tunnel("allowed.test", 443, c, n1 + n2, false, s, sn, n1);
	assert_int_equal(r.decided, n1 + n2);
	assert_true(r.done);
	/* a second hello naming another site, even sent ahead */
	char *second = memmem(c + n1, n2, "allowed.test", 12);
	assert_non_null(second);
	memcpy(second, "evilsite.com", 12);
	r = tunnel("allowed.test", 443, c, n1 + n2, false, s, sn, n1);
	refused(r, "SNI", INSPECT_TLS_ALERT);
	assert_string_equal(r.sni, "evilsite.com");
	r = tunnel("allowed.test", 443, c, n1 + n2, false, s, sn, n1 + n2);
	refused(r, "SNI", INSPECT_TLS_ALERT);
	/* after a retry, only a ChangeCipherSpec or a ClientHello */
	memcpy(c + n1, "\x17\x03\x03\x00\x01\x00", 6);
	refused(tunnel("allowed.test", 443, c, n1 + 6, false, s, sn, n1), "HelloRetryRequest",
		INSPECT_TLS_ALERT);
	/* a ServerHello: the rest unseen */
	sn = capture("server-hello12.bin", s);
	r = tunnel("allowed.test", 443, c, n1 + 6, false, s, sn, n1);
	assert_int_equal(r.decided, n1 + 6);
	assert_true(r.done);
	/* the server ends without an answer: nothing more to read */
	struct inspect in;
	inspect_tunnel(&in, rules, NRULES, "allowed.test", 443);
	assert_int_equal(inspect_client(&in, c, n1 + 6, false), n1);
	assert_true(inspect_wants_server(&in));
	inspect_server(&in, NULL, 0, true);
	assert_int_equal(inspect_client(&in, c + n1, 6, false), 6);
	assert_true(inspect_done(&in));
	assert_false(inspect_wants_server(&in));
}

/* --- HTTP ----------------------------------------------------------------------- */

static void test_http(void **state)
{
	(void)state;
	struct run r;
	const char *ok = "GET / HTTP/1.1\r\nHost: allowed.test\r\n\r\n";
	r = tunnel_s("allowed.test", 80, ok, false);
	assert_int_equal(r.decided, strlen(ok));
	assert_false(r.done); /* every request is read */
	assert_string_equal(r.http_host, "allowed.test");

	/* another site on the front: 403, the name logged */
	r = tunnel_s("allowed.test", 80, "GET / HTTP/1.1\r\nHost: other.test\r\n\r\n", false);
	refused(r, "HTTP Host", INSPECT_HTTP_403);
	assert_string_equal(r.http_host, "other.test");
	/* pipelined: the first goes, the second is refused */
	char buf[4096];
	snprintf(buf, sizeof buf, "%sGET /2 HTTP/1.1\r\nHost: other.test\r\n\r\n", ok);
	struct inspect in;
	inspect_tunnel(&in, rules, NRULES, "allowed.test", 80);
	assert_int_equal(inspect_client(&in, buf, strlen(buf), false), INSPECT_REFUSE);
	inspect_tunnel(&in, rules, NRULES, "allowed.test", 80);
	assert_int_equal(inspect_client(&in, buf, strlen(ok) + 5, false), strlen(ok));
	assert_int_equal(inspect_client(&in, buf + strlen(ok), strlen(buf) - strlen(ok), false),
			 INSPECT_REFUSE);
	assert_string_equal(in.http_host, "other.test");
	/* the Host's port, and an absolute-form URL, which a server routes by */
	refused(tunnel_s("allowed.test", 80, "GET / HTTP/1.1\r\nHost: allowed.test:8080\r\n\r\n",
			 false),
		"HTTP Host", INSPECT_HTTP_403);
	const char *dot = "GET / HTTP/1.1\r\nHost: Allowed.Test.:443\r\n\r\n";
	assert_int_equal(tunnel_s("allowed.test", 80, dot, false).decided, strlen(dot));
	refused(tunnel_s("allowed.test", 80,
			 "GET http://other.test/ HTTP/1.1\r\nHost: allowed.test\r\n\r\n", false),
		"HTTP Host", INSPECT_HTTP_403);
	refused(tunnel_s("allowed.test", 80,
			 "GET https://allowed.test:8443/ HTTP/1.1\r\nHost: allowed.test\r\n\r\n",
			 false),
		"HTTP Host", INSPECT_HTTP_403);
	r = tunnel_s("allowed.test", 80, "GET http://allowed.test/x HTTP/1.1\r\n\r\n", false);
	assert_true(r.decided > 0);
	/* no Host: refused for a name rule without a port */
	refused(tunnel_s("allowed.test", 80, "GET / HTTP/1.0\r\n\r\n", false), "without a Host",
		INSPECT_HTTP_403);
	assert_true(tunnel_s("any.test", 80, "GET / HTTP/1.0\r\n\r\n", false).decided > 0);
	r = tunnel_s("203.0.113.17", 80, "GET / HTTP/1.0\r\nHost:\r\n\r\n", false);
	assert_true(r.decided > 0);
	refused(tunnel_s("203.0.113.17", 80, "GET / HTTP/1.1\r\nHost: allowed.test\r\n\r\n", false),
		"HTTP Host", INSPECT_HTTP_403);
	/* empty lines before a request are skipped, as servers do */
	refused(tunnel_s("any.test", 80, "\r\n\nGET / HTTP/1.1\r\nHost: other.test\r\n\r\n", false),
		"HTTP Host", INSPECT_HTTP_403);
	/* what the strict parser refuses */
	static const char *const bad[] = {
		"GET / HTTP/1.1\r\nHost: allowed.test\r\nContent-Length: 1\r\nTransfer-Encoding: "
		"chunked\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: allowed.test\r\nContent-Length: 1\r\n"
		"Content-Length: 1\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: allowed.test\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
		"GET / HTTP/1.0\r\nHost: allowed.test\r\nTransfer-Encoding: chunked\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: allowed.test\r\nContent-Length: -1\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: allowed.test\r\nHost: allowed.test\r\n\r\n",
		"GET / HTTP/1.1\r\nHost : other.test\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: allowed.test\r\n other.test\r\n\r\n",
		"GET  / HTTP/1.1\r\nHost: other.test\r\n\r\n",
		" GET / HTTP/1.1\r\nHost: other.test\r\n\r\n",
		"CONNECT other.test:443 HTTP/1.1\r\nHost: allowed.test\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: allowed.test\r\nUpgrade: h2c\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a@allowed.test\r\n\r\n",
		"GET / HTTP/2.0\r\nHost: allowed.test\r\n\r\n",
		"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
		"GET ftp://allowed.test/ HTTP/1.1\r\nHost: allowed.test\r\n\r\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		r = tunnel_s("allowed.test", 80, bad[i], false);
		if (r.decided != -1)
			fail_msg("accepted: %s", bad[i]);
		/* and where the rule names the port: HTTP is still read */
		r = tunnel_s("any.test", 80, bad[i], false);
		if (r.decided != -1)
			fail_msg("accepted on a port the rule names: %s", bad[i]);
	}
}

static void test_bodies(void **state)
{
	(void)state;
	struct run r;
	/* a body that looks like a request is a body */
	const char *cl = "POST / HTTP/1.1\r\nHost: allowed.test\r\nContent-Length: 38\r\n\r\n"
			 "GET / HTTP/1.1\r\nHost: other.test\r\n\r\n";
	r = tunnel_s("allowed.test", 80, cl, false);
	assert_int_equal(r.decided, strlen(cl));
	char buf[4096];
	snprintf(buf, sizeof buf, "%sGET / HTTP/1.1\r\nHost: other.test\r\n\r\n", cl);
	refused(tunnel_s("allowed.test", 80, buf, false), "HTTP Host", INSPECT_HTTP_403);
	/* chunked, with an extension and trailers */
	const char *ch = "POST / HTTP/1.1\r\nHost: allowed.test\r\n"
			 "Transfer-Encoding: Chunked\r\n\r\n"
			 "5;a=b\r\nhello\r\n"
			 "19\r\nGET / HTTP/1.1\r\nHost: oth\r\n"
			 "0\r\nX-T: 1\r\n\r\n";
	r = tunnel_s("allowed.test", 80, ch, false);
	assert_int_equal(r.decided, strlen(ch));
	snprintf(buf, sizeof buf, "%sGET / HTTP/1.1\r\nHost: allowed.test\r\n\r\n", ch);
	assert_int_equal(tunnel_s("allowed.test", 80, buf, false).decided, strlen(buf));
	snprintf(buf, sizeof buf, "%sGET / HTTP/1.1\r\nHost: other.test\r\n\r\n", ch);
	refused(tunnel_s("allowed.test", 80, buf, false), "HTTP Host", INSPECT_HTTP_403);
	/* chunked framing, strictly */
	static const char *const bad[] = {
		"5\nhello\r\n0\r\n\r\n",
		"5 \r\nhello\r\n0\r\n\r\n",
		"x\r\n",
		"5\r\nhelloX\r\n",
		"1000000000000000\r\n",
		"0\r\nX-T 1\r\n\r\n",
		"0\r\nX-T: \x01\r\n\r\n",
	};
	const char *head =
		"POST / HTTP/1.1\r\nHost: allowed.test\r\nTransfer-Encoding: chunked\r\n\r\n";
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(buf, sizeof buf, "%s%s", head, bad[i]);
		if (tunnel_s("allowed.test", 80, buf, false).decided != -1)
			fail_msg("chunked framing accepted: %s", bad[i]);
	}
	/* a client that ends in a chunk-size line or a head */
	snprintf(buf, sizeof buf, "%s5", head);
	refused(tunnel_s("allowed.test", 80, buf, true), "incomplete", INSPECT_HTTP_403);
	refused(tunnel_s("allowed.test", 80, "GET / HTTP/1.1\r\nHost: allowed.test\r\n", true),
		"incomplete", INSPECT_HTTP_403);
	/* and one that ends between requests is done */
	r = tunnel_s("allowed.test", 80, "GET / HTTP/1.1\r\nHost: allowed.test\r\n\r\n", true);
	assert_true(r.done);
}

static void test_upgrade(void **state)
{
	(void)state;
	static const char up[] = "GET /ws HTTP/1.1\r\nHost: allowed.test\r\nConnection: Upgrade\r\n"
				 "Upgrade: websocket\r\n\r\n";
	static const char frames[] = "\x81\x85\x01\x02\x03\x04hello";
	char c[1024];
	size_t n = strlen(up);
	memcpy(c, up, n);
	memcpy(c + n, frames, sizeof frames - 1);
	size_t cn = n + sizeof frames - 1;
	/* the frames wait for the server's answer: 101 lets them through */
	struct run r = tunnel("allowed.test", 80, c, cn, false, NULL, 0, 0);
	assert_int_equal(r.decided, n);
	const char *sw = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n";
	r = tunnel("allowed.test", 80, c, cn, false, sw, strlen(sw), n);
	assert_int_equal(r.decided, cn);
	assert_true(r.done);
	/* anything else: the server did not switch, they must be requests */
	const char *no = "HTTP/1.1 400 Bad Request\r\n\r\n";
	r = tunnel("allowed.test", 80, c, cn, false, no, strlen(no), n);
	assert_int_equal(r.decided, -1);
	const char *next = "GET / HTTP/1.1\r\nHost: allowed.test\r\n\r\n";
	memcpy(c + n, next, strlen(next));
	r = tunnel("allowed.test", 80, c, n + strlen(next), false, no, strlen(no), n);
	assert_int_equal(r.decided, n + strlen(next));
	assert_false(r.done);
	/* an Upgrade after another request: refused */
	memcpy(c, next, strlen(next));
	memcpy(c + strlen(next), up, n);
	refused(tunnel("allowed.test", 80, c, strlen(next) + n, false, NULL, 0, 0),
		"not the tunnel's first", INSPECT_HTTP_403);
}

/* --- other protocols ---------------------------------------------------------------- */

static void test_other(void **state)
{
	(void)state;
	struct run r;
	/* ssh speaks at once; a rule that names the port lets it by */
	r = tunnel_s("ssh.test", 22, "SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n", false);
	assert_true(r.done);
	assert_int_equal(r.decided, 32);
	/* not on a rule without a port */
	refused(tunnel_s("allowed.test", 443, "SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n", false),
		"neither TLS nor HTTP", INSPECT_CLOSE);
	refused(tunnel_s("both.test", 80, "SSH-2.0-x\r\n", false), "neither", INSPECT_CLOSE);
	assert_true(tunnel_s("both.test", 443, "SSH-2.0-x\r\n", false).done);
	/* a database's binary first message */
	static const char pg[] = "\x00\x00\x00\x08\x04\xd2\x16\x2f";
	r = tunnel("db.test", 5432, pg, 8, false, NULL, 0, 0);
	assert_true(r.done);
	/* server first: its greeting is relayed by the relay, never held
	 * here; the client's answer decides */
	r = tunnel_s("any.test", 25, "EHLO client.example\r\n", false);
	assert_true(r.done);
	/* a short token waits for the byte that decides (no timer) ... */
	struct inspect in;
	inspect_tunnel(&in, rules, NRULES, "any.test", 7);
	assert_int_equal(inspect_client(&in, "Ex", 2, false), 0);
	assert_false(inspect_done(&in));
	/* ... the end of the client's side ... */
	assert_int_equal(inspect_client(&in, "Ex", 2, true), 2);
	assert_true(inspect_done(&in));
	/* ... or a byte no request line has */
	inspect_tunnel(&in, rules, NRULES, "any.test", 7);
	assert_int_equal(inspect_client(&in, "Ex\n", 3, false), 3);
	assert_true(inspect_done(&in));
	/* the dribble: "G", "E", "T", a wait, then a request for another site */
	inspect_tunnel(&in, rules, NRULES, "any.test", 80);
	const char *req = "GET / HTTP/1.1\r\nHost: other.test\r\n\r\n";
	for (size_t i = 1; i <= 3; i++)
		assert_int_equal(inspect_client(&in, req, i, false), 0);
	assert_int_equal(inspect_client(&in, req, strlen(req), false), INSPECT_REFUSE);
	/* a line that never names HTTP/ is not HTTP */
	assert_true(tunnel_s("any.test", 6379, "SET k v\r\n", false).done);
	/* a first byte 22 without version 3 is not TLS */
	assert_true(tunnel("any.test", 9, "\x16\x01zz", 4, false, NULL, 0, 0).done);
	/* a client that sends nothing and ends: nothing to judge */
	r = tunnel_s("allowed.test", 443, "", true);
	assert_true(r.done);
	assert_null(r.why);
}

/* An absolute-form request sent on with Connection: close: its body goes,
 * nothing after it. */
static void test_proxy_request(void **state)
{
	(void)state;
	const char *head = "POST http://allowed.test/ HTTP/1.1\r\nContent-Length: 5\r\n\r\n";
	struct pp_request q;
	const char *why;
	assert_int_equal(pp_http_request(head, strlen(head), 16384, &q, &why), PP_OK);
	struct inspect in;
	inspect_proxy_request(&in, &q);
	const char *rest = "helloGET / HTTP/1.1\r\nHost: other.test\r\n\r\n";
	assert_int_equal(inspect_client(&in, rest, strlen(rest), false), 5);
	assert_false(in.sink);
	assert_int_equal(inspect_client(&in, rest + 5, strlen(rest) - 5, false), strlen(rest) - 5);
	assert_true(in.sink);
	/* chunked, the same */
	head = "POST http://allowed.test/ HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
	assert_int_equal(pp_http_request(head, strlen(head), 16384, &q, &why), PP_OK);
	inspect_proxy_request(&in, &q);
	rest = "2\r\nhi\r\n0\r\n\r\nGET";
	assert_int_equal(inspect_client(&in, rest, strlen(rest), false), strlen(rest) - 3);
	assert_int_equal(inspect_client(&in, "GET", 3, false), 3);
	assert_true(in.sink);
	/* no body */
	head = "GET http://allowed.test/ HTTP/1.1\r\n\r\n";
	assert_int_equal(pp_http_request(head, strlen(head), 16384, &q, &why), PP_OK);
	inspect_proxy_request(&in, &q);
	assert_int_equal(inspect_client(&in, "x", 1, false), 1);
	assert_true(in.sink);
}

/* Nothing undecided grows past INSPECT_HOLD_MAX. */
static void test_bounded(void **state)
{
	(void)state;
	static char c[BIG];
	/* a request line with no end */
	memset(c, 'a', sizeof c);
	memcpy(c, "GET /", 5);
	struct run r = tunnel("any.test", 80, c, 20000, false, NULL, 0, 0);
	assert_int_equal(r.decided, -1);
	/* a method that never ends */
	r = tunnel("any.test", 80, c + 5, 20000, false, NULL, 0, 0);
	assert_int_equal(r.decided, -1);
	/* a hello in 1-byte records */
	size_t n = capture("python-sni.bin", c);
	static char re[BIG];
	size_t m = 0;
	for (size_t i = 5; i < n; i++) {
		memcpy(re + m, "\x16\x03\x01\x00\x01", 5);
		re[m + 5] = c[i];
		m += 6;
	}
	struct inspect in;
	inspect_tunnel(&in, rules, NRULES, "allowed.test", 443);
	assert_int_equal(inspect_client(&in, re, m, false), (long)m); /* 3 KiB: fine */
	/* early data while the server has not answered */
	inspect_tunnel(&in, rules, NRULES, "allowed.test", 443);
	memset(c + n, 0x17, 40000);
	assert_int_equal(inspect_client(&in, c, n + 40000, false), INSPECT_REFUSE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tls),
		cmocka_unit_test(test_ech),
		cmocka_unit_test(test_retry),
		cmocka_unit_test(test_http),
		cmocka_unit_test(test_bodies),
		cmocka_unit_test(test_upgrade),
		cmocka_unit_test(test_other),
		cmocka_unit_test(test_proxy_request),
		cmocka_unit_test(test_bounded),
	};
	return unit_status(cmocka_run_group_tests(tests, setup, NULL));
}
