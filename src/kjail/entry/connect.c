/* SPDX-License-Identifier: MIT */
/* kjail-entry --connect (connect.h): what ssh's ProxyCommand runs in a
 * jail with kjail's proxy. It is kjail's own program, at a fixed path in
 * the jail (KJ_ENTRY_IN_JAIL), so ssh needs no nc, socat or corkscrew
 * that may be missing. The proxy decides: this only asks, and relays. A
 * server that speaks first (ssh's banner) is not held: the proxy passes a
 * tunnel that does not open with TLS or HTTP on at once, and bytes that
 * came with the proxy's answer go to ssh before anything is read. */
#include "config.h"
#include "entry/connect.h"
#include "entry/tunnel.h"
#include "proxy/proxy.h"
#include "util.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* The proxy answers once it connected, or gave up (its connect timeout). */
#define CONNECT_REPLY_TIMEOUT_MS (PROXY_CONNECT_TIMEOUT_MS + 20000)
#define RELAY_CHUNK 65536

/* Reads into buf after *n, waiting at most ms; the bytes read, 0 at the
 * end, -1 on an error or the time running out. */
static ssize_t read_some(int fd, char *buf, size_t cap, size_t n, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r;
	do
		r = poll(&p, 1, ms);
	while (r < 0 && errno == EINTR);
	if (r <= 0)
		return -1;
	ssize_t got;
	do
		got = read(fd, buf + n, cap - n);
	while (got < 0 && errno == EINTR);
	return got;
}

static int proxy_socket(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(PROXY_HTTP_PORT),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0)
		die_errno("--connect: cannot reach kjail's proxy at " PROXY_HTTP_URL
			  " (only a jail with --allow-host or -n has it)");
	return fd;
}

/* A refusal: the proxy's line if its body has one. */
KJ_NORETURN static void refused(int fd, char *buf, size_t n, size_t head, int code,
				const char *dest)
{
	/* the body, as much as came within a moment */
	while (n < TUNNEL_REPLY_MAX) {
		ssize_t r = read_some(fd, buf, TUNNEL_REPLY_MAX, n, 2000);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	char line[512];
	if (tunnel_refusal(buf + head, n - head, line, sizeof line)) {
		fprintf(stderr, "%s\n", line);
		exit(1);
	}
	die("--connect: kjail's proxy answered %d to CONNECT %s", code, dest);
}

void entry_connect(const char *host, const char *port)
{
	char req[TUNNEL_REQUEST_MAX];
	size_t reqlen = 0;
	const char *why = NULL;
	if (!tunnel_request(host, port, req, sizeof req, &reqlen, &why))
		die("--connect %.*s %.*s: %s", TUNNEL_HOST_MAX, host, 8, port, why);
	/* ssh may close its end first: a write there must fail, not kill */
	signal(SIGPIPE, SIG_IGN);
	const char *dest = req + strlen("CONNECT ");
	int len = (int)(strchr(dest, ' ') - dest);
	int fd = proxy_socket();
	if (!fd_write_all(fd, req, reqlen))
		die_errno("--connect: cannot ask kjail's proxy for %.*s", len, dest);
	static char buf[RELAY_CHUNK];
	size_t n = 0, head = 0;
	int code = TUNNEL_MORE;
	while (code == TUNNEL_MORE) {
		ssize_t r = read_some(fd, buf, TUNNEL_REPLY_MAX, n, CONNECT_REPLY_TIMEOUT_MS);
		if (r <= 0)
			die("--connect: kjail's proxy %s for %.*s",
			    r == 0 ? "closed the connection without an answer" : "did not answer", len,
			    dest);
		n += (size_t)r;
		code = tunnel_reply(buf, n, &head);
	}
	if (code == TUNNEL_BAD)
		die("--connect: kjail's proxy answered CONNECT %.*s with no HTTP status", len, dest);
	if (code != 200) {
		char d[TUNNEL_HOST_MAX + 16];
		snprintf(d, sizeof d, "%.*s", len, dest);
		refused(fd, buf, n, head, code, d);
	}
	/* what the server sent with the answer (its banner) first */
	if (n > head && !fd_write_all(STDOUT_FILENO, buf + head, n - head))
		exit(0);
	bool in_open = true;
	for (;;) {
		struct pollfd p[2] = { { .fd = in_open ? STDIN_FILENO : -1, .events = POLLIN },
				       { .fd = fd, .events = POLLIN } };
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			die_errno("--connect: poll");
		}
		if (p[0].revents) {
			ssize_t r = read(STDIN_FILENO, buf, sizeof buf);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				in_open = false;
				shutdown(fd, SHUT_WR);
			} else if (!fd_write_all(fd, buf, (size_t)r)) {
				exit(1);
			}
		}
		if (p[1].revents) {
			ssize_t r = read(fd, buf, sizeof buf);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				exit(r == 0 ? 0 : 1);
			if (!fd_write_all(STDOUT_FILENO, buf, (size_t)r))
				exit(0); /* ssh went away */
		}
	}
}
