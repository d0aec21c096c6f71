/* SPDX-License-Identifier: MIT */
/* Reaching a checked address: directly, or through the upstream proxy
 * (proxy/dial.h). */
#include "config.h"

#include "proxy/dial.h"
#include "proxy/internal.h"
#include "proxy/relay.h"
#include "proxy/upstream.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* An upstream's answer head is small; a longer one is refused. */
#define ANSWER_MAX 8192

int dial_addr(const struct sockaddr *sa, socklen_t sl, long long deadline, int stop_fd)
{
	/* no SOCK_CLOEXEC/SOCK_NONBLOCK: macOS has neither */
	int fd = socket(sa->sa_family, SOCK_STREAM, 0);
	if (fd < 0)
		return -errno;
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	fcntl(fd, F_SETFL, O_NONBLOCK);
#ifdef SO_NOSIGPIPE
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
	if (connect(fd, sa, sl) == 0)
		return fd;
	int e = errno;
	while (e == EINPROGRESS || e == EINTR) {
		long long left = deadline - proxy_now_ms();
		struct pollfd pf[2] = { { fd, POLLOUT, 0 }, { stop_fd, POLLIN, 0 } };
		int r = left > 0 ? poll(pf, 2, (int)left) : 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || pf[1].revents) {
			e = ECANCELED;
			break;
		}
		if (r == 0) {
			e = ETIMEDOUT;
			break;
		}
		socklen_t el = sizeof e;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) < 0)
			e = errno;
		if (e == 0)
			return fd;
	}
	close(fd);
	return -e;
}

/* One message of the upstream's, parsed as it comes. The bytes are
 * peeked first and only the message's own are taken off the socket:
 * what follows it is the tunnel's, for the relay. */
typedef enum pp_status (*answer_parser)(const unsigned char *b, size_t n, size_t *used,
					void *arg, const char **why);

/* 0, or -1 with *why, -ETIMEDOUT, -ECANCELED */
static int read_answer(int fd, long long deadline, int stop_fd, answer_parser parse, void *arg,
		       const char **why)
{
	unsigned char buf[ANSWER_MAX];
	size_t len = 0;
	for (;;) {
		long long left = deadline - proxy_now_ms();
		struct pollfd pf[2] = { { fd, POLLIN, 0 }, { stop_fd, POLLIN, 0 } };
		int r = left > 0 ? poll(pf, 2, (int)left) : 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || pf[1].revents)
			return -ECANCELED;
		if (r == 0)
			return -ETIMEDOUT;
		ssize_t n = recv(fd, buf + len, sizeof buf - len, MSG_PEEK | MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0) {
			*why = n == 0 ? "it closed the connection" : strerror(errno);
			return -1;
		}
		size_t used = 0;
		enum pp_status st = parse(buf, len + (size_t)n, &used, arg, why);
		if (st == PP_ERROR)
			return -1;
		/* take the message's bytes: all those peeked while it is not
		 * whole (none of them is the tunnel's yet) */
		size_t take = st == PP_OK ? used - len : (size_t)n;
		if (st == PP_NEED_MORE && len + take >= sizeof buf) {
			*why = "an answer over 8 KiB";
			return -1;
		}
		if (recv(fd, buf + len, take, MSG_DONTWAIT) != (ssize_t)take) {
			*why = "its answer could not be read";
			return -1;
		}
		len += take;
		if (st == PP_OK)
			return 0;
	}
}

static enum pp_status http_answer(const unsigned char *b, size_t n, size_t *used, void *arg,
				  const char **why)
{
	return upstream_http_reply((const char *)b, n, ANSWER_MAX, used, arg, why);
}

static enum pp_status socks_method(const unsigned char *b, size_t n, size_t *used, void *arg,
				   const char **why)
{
	const struct upstream *u = arg;
	unsigned char m;
	return upstream_socks_method(b, n, u->auth, used, &m, why);
}

static enum pp_status socks_auth(const unsigned char *b, size_t n, size_t *used, void *arg,
				 const char **why)
{
	(void)arg;
	return upstream_socks_auth_reply(b, n, used, why);
}

static enum pp_status socks_answer(const unsigned char *b, size_t n, size_t *used, void *arg,
				   const char **why)
{
	return upstream_socks_reply(b, n, used, arg, why);
}

static const char *socks_error(unsigned char code)
{
	static const char *const text[] = {
		[1] = "general failure", [2] = "not allowed by its rules",
		[3] = "network unreachable", [4] = "host unreachable",
		[5] = "connection refused", [6] = "TTL expired",
		[7] = "command not supported", [8] = "address type not supported",
	};
	return code < sizeof text / sizeof *text && text[code] ? text[code] : "an unknown error";
}

/* The upstream itself, reached: its socket, or -errno. */
static int reach(const struct upstream *u, long long deadline, int stop_fd, const char **why)
{
	char port[8];
	snprintf(port, sizeof port, "%u", u->port);
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_protocol = IPPROTO_TCP };
	struct addrinfo *ai = NULL;
	int e = getaddrinfo(u->host, port, &hints, &ai);
	if (e != 0) {
		*why = e == EAI_SYSTEM ? strerror(errno) : gai_strerror(e);
		return -EHOSTUNREACH;
	}
	int fd = -EHOSTUNREACH;
	for (struct addrinfo *a = ai; a; a = a->ai_next) {
		if (a->ai_family != AF_INET && a->ai_family != AF_INET6)
			continue;
		fd = dial_addr(a->ai_addr, a->ai_addrlen, deadline, stop_fd);
		if (fd >= 0 || fd == -ECANCELED)
			break;
	}
	freeaddrinfo(ai);
	if (fd < 0 && fd != -ECANCELED)
		*why = strerror(-fd);
	return fd;
}

static int handshake(int fd, const struct upstream *u, const struct sockaddr *sa,
		     long long deadline, int stop_fd, char *err, size_t errlen)
{
	const char *why = NULL;
	int r;
	unsigned port;
	const unsigned char *addr;
	size_t alen;
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *v4 = (const void *)sa;
		addr = (const unsigned char *)&v4->sin_addr;
		alen = 4;
		port = ntohs(v4->sin_port);
	} else {
		const struct sockaddr_in6 *v6 = (const void *)sa;
		addr = (const unsigned char *)&v6->sin6_addr;
		alen = 16;
		port = ntohs(v6->sin6_port);
	}
	int timeout = (int)(deadline - proxy_now_ms());
	if (timeout < 1)
		timeout = 1;
	if (u->kind == UPSTREAM_HTTP) {
		char text[INET6_ADDRSTRLEN], req[1024];
		inet_ntop(sa->sa_family, addr, text, sizeof text);
		size_t n = upstream_http_request(u, text, port, req, sizeof req);
		bool sent = n && proxy_send_all(fd, req, n, timeout, stop_fd);
		explicit_bzero(req, sizeof req);
		if (!sent)
			return snprintf(err, errlen, "the request could not be sent"), -1;
		int status = 0;
		r = read_answer(fd, deadline, stop_fd, http_answer, &status, &why);
		if (r == 0 && (status < 200 || status > 299))
			return snprintf(err, errlen, "it refused the tunnel: HTTP %d%s", status,
					status == 407 ? " (proxy authentication required)" : ""),
			       -1;
	} else {
		unsigned char m[600];
		size_t n = upstream_socks_greeting(u, m, sizeof m);
		if (!proxy_send_all(fd, m, n, timeout, stop_fd))
			return snprintf(err, errlen, "the greeting could not be sent"), -1;
		r = read_answer(fd, deadline, stop_fd, socks_method, (void *)u, &why);
		if (r == 0 && u->auth) {
			n = upstream_socks_auth(u, m, sizeof m);
			bool sent = n && proxy_send_all(fd, m, n, timeout, stop_fd);
			explicit_bzero(m, sizeof m);
			if (!sent)
				return snprintf(err, errlen, "the password could not be sent"), -1;
			r = read_answer(fd, deadline, stop_fd, socks_auth, NULL, &why);
		}
		if (r == 0) {
			n = upstream_socks_request(addr, alen, port, m, sizeof m);
			if (!proxy_send_all(fd, m, n, timeout, stop_fd))
				return snprintf(err, errlen, "the request could not be sent"), -1;
			unsigned char code = 1;
			r = read_answer(fd, deadline, stop_fd, socks_answer, &code, &why);
			if (r == 0 && code != 0)
				return snprintf(err, errlen, "it refused the tunnel: SOCKS5 reply %u "
							     "(%s)",
						code, socks_error(code)),
				       -1;
		}
	}
	if (r == -ETIMEDOUT)
		snprintf(err, errlen, "it did not answer in time");
	else if (r < 0 && r != -ECANCELED)
		snprintf(err, errlen, "%s", why ? why : "a bad answer");
	return r;
}

int dial_upstream(const struct upstream *u, const struct sockaddr *sa, long long deadline,
		  int stop_fd, char *why, size_t len, bool *stopped)
{
	const char *rwhy = NULL;
	char err[256] = "";
	*stopped = false;
	int fd = reach(u, deadline, stop_fd, &rwhy);
	if (fd == -ECANCELED)
		return *stopped = true, -1;
	if (fd < 0) {
		snprintf(why, len, "the upstream proxy %s cannot be reached: %s", u->shown,
			 rwhy ? rwhy : "no address");
		return -1;
	}
	int r = handshake(fd, u, sa, deadline, stop_fd, err, sizeof err);
	if (r == 0)
		return fd;
	close(fd);
	if (r == -ECANCELED)
		return *stopped = true, -1;
	snprintf(why, len, "the upstream proxy %s: %s", u->shown, err);
	return -1;
}
