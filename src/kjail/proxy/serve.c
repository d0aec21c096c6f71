/* SPDX-License-Identifier: MIT */
/* The egress proxy's accept loop (see proxy.h): at most max_conns
 * connections at once (the rest wait in the listen queue), each handed to
 * its own thread (proxy/conn.c); a stop closes the listeners and waits a while
 * for the connections, which watch the same stop descriptor. */
#include "config.h"

#include "proxy/proxy.h"
#include "proxy/serve.h"
#include "proxy/internal.h"
#include "proxy/conn.h"
#include "proxy/log.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define FDS_PER_CONN 6            /* two sockets, two pipes */
#define DRAIN_MS 5000             /* how long a stop waits for connections */
#define LISTENERS_MAX 8

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

/* Accepts what is waiting on one listener while there is room. */
static bool accept_some(struct proxy_serving *s, const struct proxy_listener *l)
{
	while (atomic_load(&s->active) < s->max) {
		int fd = accept(l->fd, NULL, NULL);
		if (fd < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ||
			       errno == ECONNABORTED;
		fcntl(fd, F_SETFD, FD_CLOEXEC);
#ifdef SO_NOSIGPIPE
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
		proxy_conn_start(s, fd, l->proto);
	}
	return true;
}

static void drain(int fd)
{
	char b[256];
	while (read(fd, b, sizeof b) > 0)
		;
}

static void serve_loop(struct proxy_serving *s, const struct proxy_listener *l, size_t n)
{
	struct pollfd pf[2 + LISTENERS_MAX];
	int backoff = -1;
	for (;;) {
		bool room = atomic_load(&s->active) < s->max;
		pf[0] = (struct pollfd){ s->stop_fd, POLLIN, 0 };
		pf[1] = (struct pollfd){ s->done[0], POLLIN, 0 };
		for (size_t i = 0; i < n; i++)
			pf[2 + i] = (struct pollfd){ room && backoff < 0 ? l[i].fd : -1, POLLIN, 0 };
		int r = poll(pf, 2 + n, backoff);
		backoff = -1;
		if (r < 0 && errno != EINTR)
			return;
		if (pf[0].revents)
			return;
		if (pf[1].revents)
			drain(s->done[0]);
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
	for (int i = 0; i < 2; i++) {
		fcntl(s->done[i], F_SETFD, FD_CLOEXEC);
		fcntl(s->done[i], F_SETFL, O_NONBLOCK);
	}
	for (size_t i = 0; i < n; i++)
		fcntl(l[i].fd, F_SETFL, fcntl(l[i].fd, F_GETFL) | O_NONBLOCK);
	s->c = c;
	s->stop_fd = stop_fd;
	s->max = conn_cap(c->max_conns ? c->max_conns : PROXY_MAX_CONNS_DEFAULT);
	s->connect_ms = c->connect_timeout_ms > 0 ? c->connect_timeout_ms : PROXY_CONNECT_TIMEOUT_MS;
	s->idle_ms = c->idle_timeout_ms > 0 ? c->idle_timeout_ms : PROXY_IDLE_TIMEOUT_MS;
	s->header_ms = c->header_timeout_ms > 0 ? c->header_timeout_ms : PROXY_HEADER_TIMEOUT_MS;
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
