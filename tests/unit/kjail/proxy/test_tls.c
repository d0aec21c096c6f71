/* SPDX-License-Identifier: MIT */
/* A ClientHello's names (proxy/tls.c): real hellos captured from python's
 * ssl module, openssl s_client and curl (tests/data/tls, README there),
 * whole, byte by byte (every prefix is NEED_MORE) and spread over records
 * of every size; hellos built here with what a server refuses; and the
 * server's first answer: a HelloRetryRequest or not. */
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

#include "proxy/tls.h"

#define BIG 100000

static const char *srcdir(void)
{
	const char *s = getenv("top_srcdir");
	return s && s[0] ? s : ".";
}

/* tests/data/tls/NAME into a static buffer */
static const unsigned char *capture(const char *name, size_t *n)
{
	static unsigned char b[4][BIG];
	static int next;
	unsigned char *out = b[next++ % 4];
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/data/tls/%s", srcdir(), name);
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("%s: cannot open", path);
	*n = fread(out, 1, BIG, f);
	fclose(f);
	assert_true(*n > 5);
	return out;
}

static enum tls_status parse(const unsigned char *b, size_t n, struct tls_hello *h)
{
	const char *why = NULL;
	enum tls_status st = tls_client_hello(b, n, h, &why);
	if (st == TLS_MALFORMED)
		assert_non_null(why);
	return st;
}

/* Every proper prefix NEED_MORE, the whole st with the name and used. */
static void whole_and_prefixes(const unsigned char *b, size_t n, enum tls_status st,
			       const char *sni)
{
	struct tls_hello h;
	for (size_t i = 0; i < n; i++)
		if (parse(b, i, &h) != TLS_NEED_MORE)
			fail_msg("prefix %zu of %zu not NEED_MORE", i, n);
	assert_int_equal(parse(b, n, &h), st);
	assert_string_equal(h.sni, sni);
	assert_int_equal(h.used, n);
}

/* The handshake message of a one-record hello re-recorded in records of
 * at most rec bytes. */
static size_t rerecord(const unsigned char *b, size_t n, size_t rec, unsigned char *out)
{
	size_t msg = n - 5, o = 0;
	for (size_t off = 0; off < msg; off += rec) {
		size_t k = msg - off < rec ? msg - off : rec;
		out[o++] = 22;
		out[o++] = 3;
		out[o++] = 1;
		out[o++] = (unsigned char)(k >> 8);
		out[o++] = (unsigned char)k;
		memcpy(out + o, b + 5 + off, k);
		o += k;
	}
	return o;
}

static void test_captured(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		enum tls_status st;
		const char *sni;
	} t[] = {
		{ "python-sni.bin", TLS_FOUND, "allowed.test" },
		{ "python-nosni.bin", TLS_NONE, "" },
		{ "python-tls12.bin", TLS_FOUND, "api.example.com" },
		/* python sends no SNI for an address */
		{ "python-ipsni.bin", TLS_NONE, "" },
		{ "openssl-sni.bin", TLS_FOUND, "allowed.test" },
		{ "openssl-nosni.bin", TLS_NONE, "" },
		{ "openssl-tls10.bin", TLS_FOUND, "old.example" },
		{ "curl-sni.bin", TLS_FOUND, "allowed.test" },
		{ "hrr-ch1.bin", TLS_FOUND, "allowed.test" },
	};
	static unsigned char re[BIG];
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		size_t n;
		const unsigned char *b = capture(t[i].file, &n);
		struct tls_hello h;
		whole_and_prefixes(b, n, t[i].st, t[i].sni);
		parse(b, n, &h);
		assert_false(h.ech);
		/* the same message in records of 1, 2, 7, 100 and 512 bytes */
		static const size_t sizes[] = { 1, 2, 7, 100, 512 };
		for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
			size_t m = rerecord(b, n, sizes[j], re);
			if (parse(re, m, &h) != t[i].st || strcmp(h.sni, t[i].sni) || h.used != m)
				fail_msg("%s in %zu-byte records", t[i].file, sizes[j]);
		}
		/* what follows the hello is the client's next data, not the hello's */
		memcpy(re, b, n);
		memcpy(re + n, "\x17\x03\x03", 3);
		assert_int_equal(parse(re, n + 3, &h), t[i].st);
		assert_int_equal(h.used, n);
	}
	/* after a HelloRetryRequest: a ChangeCipherSpec, then the second
	 * hello, with the same name */
	size_t n;
	const unsigned char *b = capture("hrr-client2.bin", &n);
	assert_memory_equal(b, "\x14\x03\x03\x00\x01\x01", 6);
	whole_and_prefixes(b + 6, n - 6, TLS_FOUND, "allowed.test");
}

/* --- hellos built here ------------------------------------------------------- */

struct out {
	unsigned char b[BIG];
	size_t n;
};

static void put(struct out *o, const void *p, size_t n)
{
	memcpy(o->b + o->n, p, n);
	o->n += n;
}

static void put8(struct out *o, unsigned v)
{
	o->b[o->n++] = (unsigned char)v;
}

static void put16(struct out *o, unsigned v)
{
	put8(o, v >> 8);
	put8(o, v & 0xff);
}

/* An extension of type t with data d (n bytes). */
static void ext(struct out *e, unsigned t, const void *d, size_t n)
{
	put16(e, t);
	put16(e, (unsigned)n);
	put(e, d, n);
}

/* server_name with one host_name. */
static void sni_ext(struct out *e, const char *name)
{
	struct out d = { .n = 0 };
	size_t l = strlen(name);
	put16(&d, (unsigned)(l + 3));
	put8(&d, 0);
	put16(&d, (unsigned)l);
	put(&d, name, l);
	ext(e, 0, d.b, d.n);
}

/* A whole one-record hello around the extensions block e (NULL: none). */
static size_t build(const struct out *e, unsigned char *out)
{
	struct out m = { .n = 0 };
	put16(&m, 0x0303);
	for (int i = 0; i < 32; i++)
		put8(&m, (unsigned)i);
	put8(&m, 0);            /* no session id */
	put16(&m, 2);
	put16(&m, 0x1301);
	put8(&m, 1);
	put8(&m, 0);
	if (e) {
		put16(&m, (unsigned)e->n);
		put(&m, e->b, e->n);
	}
	size_t o = 0;
	size_t body = m.n, rec = body + 4;
	unsigned char h[9] = { 22, 3, 1, (unsigned char)(rec >> 8), (unsigned char)rec, 1,
			       (unsigned char)(body >> 16), (unsigned char)(body >> 8),
			       (unsigned char)body };
	memcpy(out, h, 9);
	o = 9;
	memcpy(out + o, m.b, m.n);
	return o + m.n;
}

static void test_built(void **state)
{
	(void)state;
	static struct out e;
	static unsigned char b[BIG];
	struct tls_hello h;
	const char *why;
	size_t n;

	e.n = 0;
	sni_ext(&e, "Allowed.Test.");
	ext(&e, 0x000a, "\x00\x02\x00\x1d", 4);
	n = build(&e, b);
	whole_and_prefixes(b, n, TLS_FOUND, "Allowed.Test."); /* as sent: rules canonicalise */

	/* no extensions at all (SSL 3.0 and TLS 1.0 clients) */
	n = build(NULL, b);
	whole_and_prefixes(b, n, TLS_NONE, "");

	/* an encrypted ClientHello beside the outer name, and the draft's ESNI */
	e.n = 0;
	sni_ext(&e, "public.example");
	ext(&e, 0xfe0d, "\x00\x00\x01\x00\x01\x07\x00\x00\x00\x00", 10);
	n = build(&e, b);
	assert_int_equal(parse(b, n, &h), TLS_FOUND);
	assert_true(h.ech);
	assert_string_equal(h.sni, "public.example");
	e.n = 0;
	ext(&e, 0xffce, "\x01\x02", 2);
	n = build(&e, b);
	assert_int_equal(parse(b, n, &h), TLS_NONE);
	assert_true(h.ech);

	/* what a server refuses */
	static const struct {
		const char *what;
		unsigned type;
		const char *data;
		size_t n;
	} bad[] = {
		{ "two host_names", 0, "\x00\x0a\x00\x00\x02\x61\x62\x00\x00\x02\x63\x64", 12 },
		{ "a name type but host_name", 0, "\x00\x05\x01\x00\x02\x61\x62", 7 },
		{ "a list that does not fill", 0, "\x00\x06\x00\x00\x02\x61\x62", 7 },
		{ "an empty name", 0, "\x00\x03\x00\x00\x00", 5 },
		{ "an empty extension", 0, "", 0 },
		{ "a NUL in the name", 0, "\x00\x06\x00\x00\x03\x61\x00\x62", 8 },
		{ "a space in the name", 0, "\x00\x06\x00\x00\x03\x61\x20\x62", 8 },
		{ "a non-ASCII byte", 0, "\x00\x06\x00\x00\x03\x61\xc3\xa9", 8 },
		{ "an escape", 0, "\x00\x06\x00\x00\x03\x61\x1b\x62", 8 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		e.n = 0;
		ext(&e, bad[i].type, bad[i].data, bad[i].n);
		n = build(&e, b);
		if (tls_client_hello(b, n, &h, &why) != TLS_MALFORMED)
			fail_msg("%s: not refused", bad[i].what);
		assert_string_equal(h.sni, "");
	}
	/* server_name, or the encrypted hello, twice */
	e.n = 0;
	sni_ext(&e, "allowed.test");
	sni_ext(&e, "other.test");
	n = build(&e, b);
	assert_int_equal(tls_client_hello(b, n, &h, &why), TLS_MALFORMED);
	e.n = 0;
	ext(&e, 0xfe0d, "\x00", 1);
	ext(&e, 0xfe0d, "\x00", 1);
	n = build(&e, b);
	assert_int_equal(tls_client_hello(b, n, &h, &why), TLS_MALFORMED);
	/* a name of 255 bytes is the most */
	char name[300];
	memset(name, 'a', sizeof name);
	name[255] = '\0';
	e.n = 0;
	sni_ext(&e, name);
	n = build(&e, b);
	assert_int_equal(tls_client_hello(b, n, &h, &why), TLS_FOUND);
	name[254] = '\0';
	e.n = 0;
	sni_ext(&e, name);
	n = build(&e, b);
	assert_int_equal(tls_client_hello(b, n, &h, &why), TLS_FOUND);
	assert_int_equal(strlen(h.sni), 254);
}

/* Changes one byte (or appends) of a good hello and wants MALFORMED. */
static void test_framing(void **state)
{
	(void)state;
	static struct out e;
	static unsigned char b[BIG], c[BIG];
	struct tls_hello h;
	const char *why;
	e.n = 0;
	sni_ext(&e, "allowed.test");
	size_t n = build(&e, b);
	static const struct {
		const char *what;
		size_t at;
		unsigned char to;
	} t[] = {
		{ "an alert record", 0, 21 },
		{ "record version 2.x", 1, 2 },
		{ "a ServerHello", 5, 2 },
		{ "client version 2.x", 9, 2 },
		{ "a session id of 33 bytes", 43, 33 },
		{ "an odd list of cipher suites", 45, 3 },
		{ "no compression method", 48, 0 },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		memcpy(c, b, n);
		c[t[i].at] = t[i].to;
		if (tls_client_hello(c, n, &h, &why) != TLS_MALFORMED)
			fail_msg("%s: not refused", t[i].what);
		assert_non_null(why);
	}
	/* a record of 0 or over 16384 bytes */
	memcpy(c, b, n);
	c[3] = c[4] = 0;
	assert_int_equal(tls_client_hello(c, n, &h, &why), TLS_MALFORMED);
	c[3] = 0x40;
	c[4] = 0x01;
	assert_int_equal(tls_client_hello(c, n, &h, &why), TLS_MALFORMED);
	/* a message over 16384 bytes, whatever the records */
	memcpy(c, b, n);
	c[6] = 0;
	c[7] = 0x40;
	c[8] = 0x01;
	assert_int_equal(tls_client_hello(c, n, &h, &why), TLS_MALFORMED);
	/* more in the record than the message */
	memcpy(c, b, n);
	c[4]++;
	c[n] = 0;
	assert_int_equal(tls_client_hello(c, n + 1, &h, &why), TLS_MALFORMED);
	/* a message longer than its extensions say */
	memcpy(c, b, n);
	c[4]++;
	c[8]++;
	c[n] = 0;
	assert_int_equal(tls_client_hello(c, n + 1, &h, &why), TLS_MALFORMED);
	/* an application data record inside the hello */
	size_t m = rerecord(b, n, 20, c);
	c[25] = 23;
	assert_int_equal(tls_client_hello(c, m, &h, &why), TLS_MALFORMED);
	/* a record that is empty inside the hello */
	m = rerecord(b, n, 20, c);
	memmove(c + 30, c + 25, m - 25);
	memcpy(c + 25, "\x16\x03\x01\x00\x00", 5);
	assert_int_equal(tls_client_hello(c, m + 5, &h, &why), TLS_MALFORMED);
}

static void test_server_first(void **state)
{
	(void)state;
	size_t n;
	const unsigned char *b = capture("hrr-server.bin", &n);
	for (size_t i = 0; i < 43; i++)
		assert_int_equal(tls_server_first(b, i), TLS_SERVER_NEED_MORE);
	assert_int_equal(tls_server_first(b, 43), TLS_SERVER_RETRY);
	assert_int_equal(tls_server_first(b, n), TLS_SERVER_RETRY);
	b = capture("server-hello.bin", &n);
	assert_int_equal(tls_server_first(b, n), TLS_SERVER_OTHER);
	b = capture("server-hello12.bin", &n);
	assert_int_equal(tls_server_first(b, n), TLS_SERVER_OTHER);
	/* an alert, an HTTP answer, a banner: at their first byte */
	assert_int_equal(tls_server_first((const unsigned char *)"\x15", 1), TLS_SERVER_OTHER);
	assert_int_equal(tls_server_first((const unsigned char *)"H", 1), TLS_SERVER_OTHER);
	assert_int_equal(tls_server_first((const unsigned char *)"\x16\x03\x03\x00\x10\x0b", 6),
			 TLS_SERVER_OTHER);
	/* a retry in records too small for its random is not taken for one */
	static unsigned char c[64];
	b = capture("hrr-server.bin", &n);
	memcpy(c, b, 43);
	c[3] = 0;
	c[4] = 10;
	assert_int_equal(tls_server_first(c, 43), TLS_SERVER_OTHER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_captured),
		cmocka_unit_test(test_built),
		cmocka_unit_test(test_framing),
		cmocka_unit_test(test_server_first),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
