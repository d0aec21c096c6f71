/* SPDX-License-Identifier: MIT */
/* The egress proxy's accept loop (see proxy.h): at most max_conns
 * connections at once, each handed to its own thread (proxy/conn.c); one
 * past the cap is refused at once with a logged reason rather than left in
 * the listen queue, where its client would wait without a word until a
 * slot freed (up to the idle timeout). A stop closes the listeners and
 * waits a while for the connections, which watch the same stop
 * descriptor. */
#include "config.h"

#include "proxy/proxy.h"
#include "proxy/serve.h"
#include "proxy/internal.h"
#include "proxy/conn.h"
#include "proxy/log.h"
#include "fdpass.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0 /* macOS: SO_NOSIGPIPE, and SIGPIPE ignored */
#endif

#define FDS_PER_CONN 4            /* two sockets, the resolver's, one spare */
#define DRAIN_MS 5000             /* how long a stop waits for connections */
#define LISTENERS_MAX FDPASS_MAX
#define ACCEPT_BURST 64           /* then the stop descriptor is looked at again */
/* What a connection holds besides its relay buffers, charged to the
 * budget while it is open: its state (struct conn, 17.6 KiB, its request
 * buffer mostly) and the part of its thread's stack it touches (about
 * 12 KiB). Measured with 1,024 tunnels open and no byte relayed: 40 MiB
 * resident, 8 MiB of it the buffers' first pages. */
#define CONN_COST (32 * 1024)
/* glibc keeps what ended connections freed in its heaps, for the next
 * ones: 26-30 MiB still resident after 1,024 tunnels had closed
 * (measured), memory the budget no longer counts. It is handed back to
 * the system after every TRIM_EVERY ended connections (then 6-11 MiB
 * stayed). Each heap (arena) keeps half a MiB even so, and glibc makes up
 * to 8 per CPU for a thousand threads: ARENAS bounds that on a machine
 * with many CPUs; the proxy's threads allocate little (a connection's
 * state, its two small buffers, a log line), so they hardly wait for one
 * another. */
#define TRIM_EVERY 256
#define ARENAS 4

/* max_conns as far as the descriptor limit lets it be kept. */
static unsigned conn_cap(unsigned want)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return want;
	rlim_t need = (rlim_t)want * FDS_PER_CONN + 64;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ? need : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
		rlim_t fit = rl.rlim_cur > 64 ? (rl.rlim_cur - 64) / FDS_PER_CONN : 1;
		return fit > 0 ? (unsigned)fit : 1;
	}
	return want;
}

/* A connection past the cap: an answer its client understands, one log
 * line, closed. The client's first bytes, if already here, are read
 * first: closed unread, they would turn the close into a reset, which may
 * overtake the answer. */
static void refuse_at_cap(struct proxy_serving *s, int fd, enum proxy_proto proto)
{
	char body[128], msg[320], sink[4096];
	int n;
	if (proto == PROXY_LOCAL) {
		/* no protocol to answer in: a reset, as from a full server */
		struct linger lg = { 1, 0 };
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
		n = 0;
	} else if (proto == PROXY_SOCKS5) {
		/* before the greeting the only reply there is: no method */
		n = 2;
		memcpy(msg, "\x05\xff", 2);
	} else {
		int b = snprintf(body, sizeof body,
				 "kjail: the proxy has %u connections open, its cap; try again\n",
				 s->max);
		n = snprintf(msg, sizeof msg,
			     "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
			     "Content-Length: %d\r\nConnection: close\r\n\r\n%s",
			     b, body);
	}
	for (int i = 0; i < 16 && recv(fd, sink, sizeof sink, MSG_DONTWAIT) > 0; i++)
		;
	if (n > 0) {
		ssize_t w = send(fd, msg, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
		(void)w; /* a new socket's buffer has room; if not, the close says it */
		shutdown(fd, SHUT_WR);
	}
	close(fd);
	struct proxy_record r = {
		.proto = proto == PROXY_SOCKS5 ? "socks5" : proto == PROXY_LOCAL ? "local" : "http",
		.verdict = "refused",
		.reason = PROXY_REASON_CAP,
	};
	proxy_log_write(s->log, &r);
}

/* Accepts a burst of what is waiting on one listener: served while there
 * is room, refused past the cap. */
static bool accept_some(struct proxy_serving *s, const struct proxy_listener *l)
{
	for (int i = 0; i < ACCEPT_BURST; i++) {
		int fd = accept(l->fd, NULL, NULL);
		if (fd < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ||
			       errno == ECONNABORTED;
		fcntl(fd, F_SETFD, FD_CLOEXEC);
#ifdef SO_NOSIGPIPE
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
		if (atomic_load(&s->active) < s->max)
			proxy_conn_start(s, fd, l->proto);
		else
			refuse_at_cap(s, fd, l->proto);
	}
	return true;
}

/* How many bytes it read. */
static unsigned drain(int fd)
{
	char b[256];
	unsigned n = 0;
	ssize_t r;
	while ((r = read(fd, b, sizeof b)) > 0)
		n += (unsigned)r;
	return n;
}

/* Connections have ended (a byte each on s->done). */
static void ended(struct proxy_serving *s, unsigned n)
{
	s->ended += n;
	if (s->ended < TRIM_EVERY)
		return;
	s->ended = 0;
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

static void serve_loop(struct proxy_serving *s, const struct proxy_listener *l, size_t n)
{
	struct pollfd pf[2 + LISTENERS_MAX];
	int backoff = -1;
	for (;;) {
		pf[0] = (struct pollfd){ s->stop_fd, POLLIN, 0 };
		pf[1] = (struct pollfd){ s->done[0], POLLIN, 0 };
		for (size_t i = 0; i < n; i++)
			pf[2 + i] = (struct pollfd){ backoff < 0 ? l[i].fd : -1, POLLIN, 0 };
		int r = poll(pf, 2 + n, backoff);
		backoff = -1;
		if (r < 0 && errno != EINTR)
			return;
		if (pf[0].revents)
			return;
		if (pf[1].revents)
			ended(s, drain(s->done[0]));
		for (size_t i = 0; i < n; i++)
			if (pf[2 + i].revents && !accept_some(s, &l[i]))
				backoff = 100; /* out of descriptors: let some end */
	}
}

int proxy_serve(const struct proxy_config *c, const struct proxy_listener *l, size_t n,
		int stop_fd)
{
	if (n == 0 || n > LISTENERS_MAX) {
		fprintf(stderr, "kjail: proxy: %zu listeners\n", n);
		return -1;
	}
	struct proxy_serving *s = calloc(1, sizeof *s);
	struct proxy_log *log = proxy_log_open(c->log_fd, c->log_cap);
	if (!s || !log || pipe(s->done) < 0) {
		fprintf(stderr, "kjail: proxy: %s\n", strerror(errno));
		proxy_log_free(log);
		free(s);
		return -1;
	}
	s->log = log;
	signal(SIGPIPE, SIG_IGN);
	json_object_seed(0); /* once, before threads make objects */
#ifdef __GLIBC__
	mallopt(M_ARENA_MAX, ARENAS);
#endif
	for (int i = 0; i < 2; i++) {
		fcntl(s->done[i], F_SETFD, FD_CLOEXEC);
		fcntl(s->done[i], F_SETFL, O_NONBLOCK);
	}
	for (size_t i = 0; i < n; i++)
		fcntl(l[i].fd, F_SETFL, fcntl(l[i].fd, F_GETFL) | O_NONBLOCK);
	s->c = c;
	s->stop_fd = stop_fd;
	s->max = conn_cap(c->max_conns ? c->max_conns : PROXY_MAX_CONNS_DEFAULT);
	proxy_budget_init(&s->budget, c->budget ? c->budget : PROXY_BUDGET_DEFAULT, &s->active,
			  CONN_COST);
	s->connect_ms = c->connect_timeout_ms > 0 ? c->connect_timeout_ms : PROXY_CONNECT_TIMEOUT_MS;
	s->idle_ms = c->idle_timeout_ms > 0 ? c->idle_timeout_ms : PROXY_IDLE_TIMEOUT_MS;
	s->header_ms = c->header_timeout_ms > 0 ? c->header_timeout_ms : PROXY_HEADER_TIMEOUT_MS;
	const char *why = NULL;
	const char *urls[2] = { c->upstream_tunnel, c->upstream_http };
	for (int i = 0; i < 2; i++) {
		if (urls[i] && !upstream_parse(urls[i], &s->up[i], &why)) {
			fprintf(stderr, "kjail: proxy: the upstream proxy's URL: %s\n", why);
			proxy_log_free(log);
			free(s);
			return -1;
		}
	}
	s->up_tunnel = urls[0] ? &s->up[0] : NULL;
	s->up_http = urls[1] ? &s->up[1] : NULL;
	serve_loop(s, l, n);
	for (size_t i = 0; i < n; i++)
		close(l[i].fd);
	/* every connection polls stop_fd too; one still resolving a name
	 * is left to the process's exit (and keeps s) */
	long long end = proxy_now_ms() + DRAIN_MS;
	while (atomic_load(&s->active) > 0 && proxy_now_ms() < end) {
		struct pollfd pf = { s->done[0], POLLIN, 0 };
		poll(&pf, 1, 100);
		drain(s->done[0]);
	}
	/* the counts, as the log's last line; a connection still resolving
	 * a name logs nothing after it */
	int rc = proxy_log_finish(s->log);
	if (atomic_load(&s->active) == 0) {
		close(s->done[0]);
		close(s->done[1]);
		proxy_log_free(s->log);
		free(s);
	}
	return rc == 0 ? 0 : -1;
}
