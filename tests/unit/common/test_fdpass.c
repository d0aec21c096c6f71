/* SPDX-License-Identifier: MIT */
/* fdpass.c over a socketpair: descriptors and their tags arrive together,
 * close-on-exec; malformed messages (no descriptor, a tag without its
 * NUL, more descriptors than asked for) are EPROTO with nothing left
 * open; a hang-up is 0. Then the way kjail uses it: proxy_spawn() starts
 * the built kjail-proxy, which takes a listener over the socket, answers
 * 'k', refuses a host no rule allows, and ends on proxy_stop(), which
 * returns as soon as the proxy has ended. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef SOCK_CLOEXEC
#define SOCK_CLOEXEC 0 /* macOS */
#endif

#include "fdpass.h"
#include "proxy/proxy.h"
#include "proxy/spawn.h"

static bool is_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

static void test_roundtrip(void **state)
{
	(void)state;
	int sp[2], p[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	assert_int_equal(pipe(p), 0);
	int fds[2] = { p[0], p[1] };
	const char *tags[2] = { "http", "socks5" };
	assert_int_equal(fdpass_send(sp[0], fds, tags, 2), 0);
	int got[FDPASS_MAX];
	char gtags[FDPASS_MAX][FDPASS_TAG_MAX];
	assert_int_equal(fdpass_recv(sp[1], got, gtags, FDPASS_MAX), 2);
	assert_string_equal(gtags[0], "http");
	assert_string_equal(gtags[1], "socks5");
	assert_true(fcntl(got[0], F_GETFD) & FD_CLOEXEC);
	/* the received pipe is the pipe sent */
	assert_int_equal(write(got[1], "x", 1), 1);
	char c;
	assert_int_equal(read(p[0], &c, 1), 1);
	assert_int_equal(c, 'x');
	close(got[0]);
	close(got[1]);

	/* tags too long, too many, none */
	const char *longtag[1] = { "a-tag-of-16-byte" };
	assert_int_equal(fdpass_send(sp[0], fds, longtag, 1), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	assert_int_equal(fdpass_send(sp[0], fds, tags, 0), -1);
	assert_int_equal(fdpass_send(sp[0], fds, tags, FDPASS_MAX + 1), -1);

	/* hang-up */
	close(sp[0]);
	assert_int_equal(fdpass_recv(sp[1], got, gtags, FDPASS_MAX), 0);
	close(sp[1]);
	close(p[0]);
	close(p[1]);
}

static void test_malformed(void **state)
{
	(void)state;
	int sp[2], p[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM, 0, sp), 0);
	assert_int_equal(pipe(p), 0);
	int got[FDPASS_MAX];
	char gtags[FDPASS_MAX][FDPASS_TAG_MAX];

	/* bytes and no descriptor */
	char junk[FDPASS_TAG_MAX] = "http";
	assert_int_equal(send(sp[0], junk, sizeof junk, 0), (ssize_t)sizeof junk);
	assert_int_equal(fdpass_recv(sp[1], got, gtags, FDPASS_MAX), -1);
	assert_int_equal(errno, EPROTO);

	/* more descriptors than the receiver takes: none kept open */
	int fds[2] = { p[0], p[1] };
	const char *tags[2] = { "a", "b" };
	assert_int_equal(fdpass_send(sp[0], fds, tags, 2), 0);
	int before = dup(0);
	close(before);
	assert_int_equal(fdpass_recv(sp[1], got, gtags, 1), -1);
	assert_int_equal(errno, EPROTO);
	assert_false(is_open(before)); /* the lowest free number is still free */
	assert_false(is_open(before + 1));

	/* a tag without its NUL */
	memset(junk, 'A', sizeof junk);
	struct iovec iov = { junk, sizeof junk };
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} ctl;
	memset(&ctl, 0, sizeof ctl);
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b,
			    .msg_controllen = sizeof ctl.b };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &p[0], sizeof(int));
	assert_int_equal(sendmsg(sp[0], &m, 0), (ssize_t)sizeof junk);
	assert_int_equal(fdpass_recv(sp[1], got, gtags, FDPASS_MAX), -1);
	assert_int_equal(errno, EPROTO);
	assert_false(is_open(before));
	close(sp[0]);
	close(sp[1]);
	close(p[0]);
	close(p[1]);
}

static int listener(unsigned short *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t l = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(fd, 8), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &l), 0);
	*port = ntohs(a.sin_port);
	return fd;
}

/* The built kjail-proxy, started and handed one listener of the host's
 * loopback, once it has answered 'k'. */
struct started {
	pid_t pid;
	int stop, ctl;
	unsigned short port;
};

static struct started start(const struct proxy_config *c)
{
	struct started p;
	int sp[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp), 0);
	p.pid = proxy_spawn(KJ_TOP_BUILDDIR "/" PROXY_PROGRAM, c, sp[1], &p.stop);
	assert_true(p.pid > 0);
	close(sp[1]);
	p.ctl = sp[0];
	int l = listener(&p.port);
	const char *tags[1] = { "http" };
	assert_int_equal(fdpass_send(p.ctl, &l, tags, 1), 0);
	close(l);
	char k = 0;
	assert_int_equal(read(p.ctl, &k, 1), 1);
	assert_int_equal(k, 'k');
	return p;
}

static int client(unsigned short port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
	return fd;
}

static void test_spawn(void **state)
{
	(void)state;
	struct allow_rule r;
	const char *why;
	assert_true(allow_parse("api.example.org", &r, &why));
	r.text = "api.example.org";
	r.origin = "--allow-host";
	struct proxy_config c = { .rules = &r, .nrules = 1, .log_fd = -1 };
	struct started p = start(&c);
	int fd = client(p.port);
	static const char req[] = "CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n";
	assert_int_equal(write(fd, req, sizeof req - 1), (ssize_t)(sizeof req - 1));
	char buf[1024];
	size_t n = 0;
	ssize_t got;
	while (n < sizeof buf - 1 && (got = read(fd, buf + n, sizeof buf - 1 - n)) > 0)
		n += (size_t)got;
	buf[n] = '\0';
	close(fd);
	assert_non_null(strstr(buf, "HTTP/1.1 403 "));
	assert_non_null(strstr(buf, "\r\n\r\nkjail: evil.example:443 is not an allowed host "
				    "(add --allow-host evil.example)\n"));
	assert_int_equal(proxy_stop(p.pid, p.stop), 0);
	close(p.ctl);
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* proxy_stop() returns as soon as the proxy has ended, even when the
 * proxy still had a connection to wind down (a client that sent a byte
 * and then nothing): of 15 stops, at most 2 take 90 ms or more (a busy
 * machine may delay one). It slept in 100 ms steps once, and unless the
 * proxy happened to end before its first look, which it did in about 4
 * of 10, a stop took 100 ms: some 9 of 15 stops. */
static void test_stop_prompt(void **state)
{
	(void)state;
	struct proxy_config c = { .log_fd = -1 };
	int slow = 0;
	char took[15 * 8] = "";
	for (int round = 0; round < 15; round++) {
		struct started p = start(&c);
		int fd = client(p.port);
		assert_int_equal(write(fd, "G", 1), 1);
		/* time for the proxy to take the connection */
		struct timespec settle = { 0, 20 * 1000 * 1000 };
		nanosleep(&settle, NULL);
		long long t0 = now_ms();
		assert_int_equal(proxy_stop(p.pid, p.stop), 0);
		long long ms = now_ms() - t0;
		slow += ms >= 90;
		snprintf(took + strlen(took), sizeof took - strlen(took), " %lld", ms);
		close(fd);
		close(p.ctl);
	}
	if (slow > 2)
		fail_msg("%d of 15 stops took 90 ms or more (ms:%s)", slow, took);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_spawn),
		cmocka_unit_test(test_stop_prompt),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
