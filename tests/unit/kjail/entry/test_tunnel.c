/* SPDX-License-Identifier: MIT */
/* kjail-entry --connect's words to kjail's proxy (entry/tunnel.c): the
 * CONNECT it sends for what ssh's %h and %p give, and its reading of the
 * proxy's answer, whole and a byte at a time, with a server's banner
 * behind it. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <string.h>

#include "entry/tunnel.h"

static void test_request(void **state)
{
	(void)state;
	char buf[TUNNEL_REQUEST_MAX];
	size_t n = 0;
	const char *why = NULL;
	assert_true(tunnel_request("git.example.org", "22", buf, sizeof buf, &n, &why));
	assert_string_equal(buf, "CONNECT git.example.org:22 HTTP/1.1\r\nHost: git.example.org:22\r\n\r\n");
	assert_int_equal(n, strlen(buf));
	assert_true(tunnel_request("2001:db8::1", "2222", buf, sizeof buf, &n, &why));
	assert_string_equal(buf, "CONNECT [2001:db8::1]:2222 HTTP/1.1\r\nHost: [2001:db8::1]:2222\r\n\r\n");
	assert_true(tunnel_request("203.0.113.5", "65535", buf, sizeof buf, &n, &why));
	/* what ssh could be handed from a hostile config or command line:
	 * nothing that breaks the request's line */
	static const char *const hosts[] = { "", "a b", "a\r\nX: y", "-oProxy", ".x", "a/b",
					     "a@b", "[::1]", "::1g", "a%b" };
	for (size_t i = 0; i < sizeof hosts / sizeof *hosts; i++) {
		why = NULL;
		assert_false(tunnel_request(hosts[i], "22", buf, sizeof buf, &n, &why));
		assert_string_equal(why, "not a host name or address");
	}
	static const char *const ports[] = { "", "0", "65536", "022", "+22", "22 ", "2x", "123456" };
	for (size_t i = 0; i < sizeof ports / sizeof *ports; i++) {
		why = NULL;
		assert_false(tunnel_request("h.test", ports[i], buf, sizeof buf, &n, &why));
		assert_string_equal(why, "not a port (1 to 65535)");
	}
	char longest[TUNNEL_HOST_MAX + 2];
	memset(longest, 'a', sizeof longest);
	longest[TUNNEL_HOST_MAX] = '\0';
	assert_true(tunnel_request(longest, "65535", buf, sizeof buf, &n, &why));
	/* the longest IPv6 text, bracketed twice, fits as well */
	assert_true(tunnel_request("ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255", "65535", buf,
				   sizeof buf, &n, &why));
	longest[TUNNEL_HOST_MAX] = 'a';
	longest[TUNNEL_HOST_MAX + 1] = '\0';
	assert_false(tunnel_request(longest, "22", buf, sizeof buf, &n, &why));
	assert_false(tunnel_request("h.test", "22", buf, 20, &n, &why));
	assert_string_equal(why, "too long");
}

static void test_reply(void **state)
{
	(void)state;
	static const char ok[] = "HTTP/1.1 200 Connection established\r\n\r\nSSH-2.0-OpenSSH_9.2\r\n";
	size_t head = 0;
	/* every prefix before the blank line asks for more */
	size_t end = strstr(ok, "\r\n\r\n") + 4 - ok;
	for (size_t i = 0; i < end; i++)
		assert_int_equal(tunnel_reply(ok, i, &head), TUNNEL_MORE);
	assert_int_equal(tunnel_reply(ok, sizeof ok - 1, &head), 200);
	/* the banner that came with the answer is the tunnel's */
	assert_int_equal(head, end);
	assert_string_equal(ok + head, "SSH-2.0-OpenSSH_9.2\r\n");
	static const char forbidden[] = "HTTP/1.0 403 Forbidden\r\nContent-Length: 10\r\n\r\nkjail: x\n";
	assert_int_equal(tunnel_reply(forbidden, sizeof forbidden - 1, &head), 403);
	assert_int_equal(tunnel_reply("HTTP/1.1 502\r\n\r\n", 16, &head), 502);
	assert_int_equal(tunnel_reply("HTTP/1.1 200 OK\n\n", 17, &head), 200);
	assert_int_equal(head, 17);
	static const char *const bad[] = { "HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n",
					   "HTTP/1.1 2000 OK\r\n\r\n", "SSH-2.0-x\r\n\r\n",
					   "HTTP/1.1 099 x\r\n\r\n", "HTTP/1.1  200\r\n\r\n",
					   "\r\n\r\n" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_int_equal(tunnel_reply(bad[i], strlen(bad[i]), &head), TUNNEL_BAD);
	/* a header that never ends is bad once it fills the buffer */
	static char junk[TUNNEL_REPLY_MAX];
	memset(junk, 'x', sizeof junk);
	assert_int_equal(tunnel_reply(junk, sizeof junk - 1, &head), TUNNEL_MORE);
	assert_int_equal(tunnel_reply(junk, sizeof junk, &head), TUNNEL_BAD);
}

static void test_refusal(void **state)
{
	(void)state;
	char line[128];
	static const char body[] = "kjail: git.test:22 is not an allowed host (add --allow-host "
				   "git.test:22)\nmore";
	assert_true(tunnel_refusal(body, sizeof body - 1, line, sizeof line));
	assert_string_equal(line, "kjail: git.test:22 is not an allowed host (add --allow-host "
				  "git.test:22)");
	/* cut to the buffer */
	assert_true(tunnel_refusal(body, sizeof body - 1, line, 12));
	assert_string_equal(line, "kjail: git.");
	/* not the proxy's, or not for a terminal */
	assert_false(tunnel_refusal("<html>", 6, line, sizeof line));
	assert_false(tunnel_refusal("kjail: \033[2J", 11, line, sizeof line));
	assert_false(tunnel_refusal("kjail:", 6, line, sizeof line));
	assert_false(tunnel_refusal(body, sizeof body - 1, line, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_reply),
		cmocka_unit_test(test_refusal),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
