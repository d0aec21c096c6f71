/* SPDX-License-Identifier: MIT */
/* What kjail hands its proxy program (proxy/handoff.c): a configuration
 * with rules of every kind (a name, a suffix, IPv4 and IPv6 literals, any
 * port, a group's member with its origin, an origin with a newline in its
 * path), the log's cap and the upstream proxy's URLs and NO_PROXY comes
 * back field for field, each rule as
 * allow_parse() makes it; and the reader refuses every damaged form:
 * another version (the one before log_cap), a bad or missing field, a
 * number with a sign or leading zero, a count or length past the end, a
 * NUL inside a text, a text allow_parse refuses, a group, an upstream
 * URL upstream_parse refuses, a NO_PROXY it cannot read, a byte too many, and each prefix of a good message. Then the same through a
 * socket. */
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
#include <sys/socket.h>
#include <unistd.h>

#include "proxy/handoff.h"
#include "proxy/rules.h"

static const struct {
	const char *text, *origin;
} rules[] = {
	{ "api.example.org", "--allow-host" },
	{ "*.npmjs.org:443", "/home/u/.config/kjail/config.ini:3" },
	{ "10.0.0.5:*", "--allow-host" },
	{ "[2001:db8::1]:8443", "/etc/kjail/config.ini:12" },
	{ "api.anthropic.com", "/srv/a b/kjail.ini:7 (@models)" },
	{ "git.example.org:22", "/tmp/odd\nname.ini:1" },
};
#define NRULES (sizeof rules / sizeof rules[0])

static void make(struct allow_rule *r, struct proxy_config *c)
{
	for (size_t i = 0; i < NRULES; i++) {
		const char *why;
		assert_true(allow_parse(rules[i].text, &r[i], &why));
		r[i].text = rules[i].text;
		r[i].origin = rules[i].origin;
	}
	*c = (struct proxy_config){ .rules = r, .nrules = NRULES, .log_fd = 9, .log_cap = 65536,
				    .max_conns = 77,
				    .connect_timeout_ms = 1500, .idle_timeout_ms = 60000,
				    .header_timeout_ms = 2500,
				    .upstream_tunnel = "http://u%3A:p%40ss@proxy.corp:8080",
				    .upstream_http = "socks5h://[::1]:1080",
				    .no_proxy = "localhost, .corp,10.0.0.0/8" };
}

static void same(const struct proxy_handoff *h, const struct proxy_config *c)
{
	assert_int_equal(h->parent, 4242);
	assert_true(h->log);
	assert_int_equal(h->c.log_fd, -1);
	assert_int_equal(h->c.log_cap, 65536);
	assert_int_equal(h->c.max_conns, 77);
	assert_int_equal(h->c.connect_timeout_ms, 1500);
	assert_int_equal(h->c.idle_timeout_ms, 60000);
	assert_int_equal(h->c.header_timeout_ms, 2500);
	assert_string_equal(h->c.upstream_tunnel, c->upstream_tunnel);
	assert_string_equal(h->c.upstream_http, c->upstream_http);
	assert_string_equal(h->c.no_proxy, c->no_proxy);
	assert_int_equal(h->c.nrules, NRULES);
	for (size_t i = 0; i < NRULES; i++) {
		const struct allow_rule *a = &c->rules[i], *b = &h->c.rules[i];
		assert_int_equal(a->kind, b->kind);
		assert_string_equal(a->host, b->host);
		assert_memory_equal(a->addr, b->addr, sizeof a->addr);
		assert_int_equal(a->port, b->port);
		assert_string_equal(a->text, b->text);
		assert_string_equal(a->origin, b->origin);
	}
}

static void test_roundtrip(void **state)
{
	(void)state;
	struct allow_rule r[NRULES];
	struct proxy_config c;
	make(r, &c);
	size_t len;
	char *b = proxy_handoff_encode(&c, 4242, &len);
	struct proxy_handoff h;
	char err[256];
	if (!proxy_handoff_decode(b, len, &h, err, sizeof err))
		fail_msg("%s", err);
	same(&h, &c);
	proxy_handoff_free(&h);

	/* no log, no rules, defaults */
	struct proxy_config none = { .log_fd = -1 };
	free(b);
	b = proxy_handoff_encode(&none, 1, &len);
	assert_true(proxy_handoff_decode(b, len, &h, err, sizeof err));
	assert_false(h.log);
	assert_int_equal(h.c.nrules, 0);
	assert_int_equal(h.c.log_cap, 0);
	assert_null(h.c.upstream_tunnel);
	assert_null(h.c.upstream_http);
	assert_null(h.c.no_proxy);
	assert_int_equal(h.c.max_conns, 0);
	proxy_handoff_free(&h);
	free(b);
}

static void refused(const char *what, const char *b, size_t len)
{
	struct proxy_handoff h;
	char err[256] = "";
	if (proxy_handoff_decode(b, len, &h, err, sizeof err))
		fail_msg("accepted: %s", what);
	assert_true(err[0] != '\0');
	assert_null(h.rules_buf);
	assert_null(h.bytes);
}

#define V "kjail-proxy-handoff 3\n"
#define HEAD0 V "parent 7\nlog 1\nlog_cap 0\nmax_conns 0\nconnect_ms 0\nidle_ms 0\nheader_ms 0\n"
#define NOUP "upstream_tunnel 0\n\nupstream_http 0\n\nno_proxy 0\n\n"
#define HEAD HEAD0 NOUP

static void test_damaged(void **state)
{
	(void)state;
	static const struct {
		const char *what, *bytes;
	} bad[] = {
		{ "empty", "" },
		{ "another version", "kjail-proxy-handoff 1\nparent 7\nlog 1\nmax_conns 0\n"
				     "connect_ms 0\nidle_ms 0\nheader_ms 0\nrules 0\nend\n" },
		{ "parent 0", V "parent 0\nlog 1\nlog_cap 0\nmax_conns 0\nconnect_ms 0\n"
			      "idle_ms 0\nheader_ms 0\nrules 0\nend\n" },
		{ "a signed number", V "parent -7\n" },
		{ "a leading zero", V "parent 07\n" },
		{ "log 2", V "parent 7\nlog 2\nlog_cap 0\nmax_conns 0\nconnect_ms 0\n"
			   "idle_ms 0\nheader_ms 0\nrules 0\nend\n" },
		{ "no log_cap", V "parent 7\nlog 1\nmax_conns 0\nconnect_ms 0\n"
				"idle_ms 0\nheader_ms 0\nrules 0\nend\n" },
		{ "a log_cap past SIZE_MAX", V "parent 7\nlog 1\nlog_cap 999999999999999999999999\n"
					     "max_conns 0\nconnect_ms 0\nidle_ms 0\nheader_ms 0\n"
					     "rules 0\nend\n" },
		{ "a field one past its largest", V "parent 2147483648\nlog 1\nlog_cap 0\n"
						  "max_conns 0\nconnect_ms 0\nidle_ms 0\nheader_ms 0\n"
						  "rules 0\nend\n" },
		{ "a field out of order", V "log 1\nparent 7\n" },
		{ "a field too large", V "parent 7\nlog 1\nlog_cap 0\nmax_conns 99999999999\n" },
		{ "no rules line", HEAD "end\n" },
		{ "version 2 (no upstream)", "kjail-proxy-handoff 2\nparent 7\nlog 1\nlog_cap 0\n"
					     "max_conns 0\nconnect_ms 0\nidle_ms 0\nheader_ms 0\n"
					     "rules 0\nend\n" },
		{ "no upstream lines", HEAD0 "rules 0\nend\n" },
		{ "an https:// upstream", HEAD0 "upstream_tunnel 9\nhttps://x\nupstream_http 0\n\n"
					  "no_proxy 0\n\nrules 0\nend\n" },
		{ "an upstream with a path", HEAD0 "upstream_tunnel 0\n\nupstream_http 10\nhttp://x/y\n"
					     "no_proxy 0\n\nrules 0\nend\n" },
		{ "a NO_PROXY with a blank", HEAD0 "upstream_tunnel 0\n\nupstream_http 0\n\n"
					     "no_proxy 3\na b\nrules 0\nend\n" },
		{ "an upstream length past its line", HEAD0 "upstream_tunnel 3\nhttp://x\n"
						     "upstream_http 0\n\nno_proxy 0\n\nrules 0\nend\n" },
		{ "more rules than bytes", HEAD "rules 5\n3 0\nabc\nend\n" },
		{ "a length past the end", HEAD "rules 1\n300 0\nabc\nend\n" },
		{ "a NUL in a text", HEAD "rules 1\n3 0\na\0c\nend\n" },
		{ "a text allow_parse refuses", HEAD "rules 1\n5 0\nhttp:\nend\n" },
		{ "a group", HEAD "rules 1\n7 0\n@models\nend\n" },
		{ "an empty text", HEAD "rules 1\n0 0\n\nend\n" },
		{ "no end", HEAD "rules 0\n" },
		{ "a byte after the end", HEAD "rules 0\nend\nx" },
		{ "a space too many", HEAD "rules 1\n3  0\nabc\nend\n" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		size_t len = strlen(bad[i].bytes);
		if (strcmp(bad[i].what, "a NUL in a text") == 0)
			len = sizeof HEAD - 1 + strlen("rules 1\n3 0\na") + 1 + strlen("c\nend\n");
		refused(bad[i].what, bad[i].bytes, len);
	}
	/* and every prefix of a good message */
	struct allow_rule r[NRULES];
	struct proxy_config c;
	make(r, &c);
	size_t len;
	char *b = proxy_handoff_encode(&c, 4242, &len);
	for (size_t n = 0; n < len; n++)
		refused("a prefix", b, n);
	free(b);
}

static void test_socket(void **state)
{
	(void)state;
	struct allow_rule r[NRULES];
	struct proxy_config c;
	make(r, &c);
	int sp[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	assert_int_equal(proxy_handoff_send(sp[0], &c, 4242), 0);
	close(sp[0]);
	struct proxy_handoff h;
	char err[256];
	if (!proxy_handoff_recv(sp[1], &h, err, sizeof err))
		fail_msg("%s", err);
	close(sp[1]);
	same(&h, &c);
	proxy_handoff_free(&h);

	/* a reader that is gone: -1, no SIGPIPE */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	close(sp[1]);
	assert_int_equal(proxy_handoff_send(sp[0], &c, 4242), -1);
	close(sp[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_socket),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
