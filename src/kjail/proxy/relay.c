/* SPDX-License-Identifier: MIT */
/* Moving a tunnel's bytes: read and write through one buffer per
 * direction, one poll loop per connection for both directions. */
#include "config.h"

#include "proxy/relay.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0 /* macOS: SO_NOSIGPIPE, and SIGPIPE ignored */
#endif

/* A direction starts with a CHUNK buffer; one that has moved BULK_AFTER
 * bytes is a bulk transfer and its buffer grows to BULK, so a long copy
 * makes one system call per megabyte rather than per 64 KiB. Short
 * connections, most of them, keep the small one. A plain copy through
 * user space: on loopback it measured faster than splice(2) through a
 * pipe (bench/proxy-bench: 0.53 of a direct copy against 0.38), and it is
 * the same code on every system. */
#define CHUNK (64 * 1024)
#define BULK_AFTER (1 << 20)
#define BULK (1 << 20)

struct dir {
	int from, to;
	char *buf;
	size_t cap;     /* the buffer's size */
	size_t off;     /* where the unsent bytes start */
	size_t pending; /* read from `from`, not yet written to `to` */
	bool eof;       /* `from` ended */
	bool done;      /* and `to` was shut down for writing */
	unsigned long long moved;
};

static bool again(void)
{
	return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
}

static bool dir_open(struct dir *d)
{
	d->buf = malloc(CHUNK);
	d->cap = CHUNK;
	d->off = 0;
	return d->buf != NULL;
}

static void dir_close(struct dir *d)
{
	free(d->buf);
}

/* Called with the buffer empty; a failed growth keeps the old buffer. */
static void maybe_grow(struct dir *d)
{
	if (d->cap >= BULK || d->moved < BULK_AFTER)
		return;
	char *b = realloc(d->buf, BULK);
	if (b) {
		d->buf = b;
		d->cap = BULK;
	}
}

/* false: the direction failed (the connection ends) */
static bool pump_in(struct dir *d)
{
	maybe_grow(d);
	ssize_t r = recv(d->from, d->buf, d->cap, 0);
	if (r > 0) {
		d->pending = (size_t)r;
		d->off = 0;
	} else if (r == 0) {
		d->eof = true;
	} else if (!again()) {
		return false;
	}
	return true;
}

static bool pump_out(struct dir *d)
{
	ssize_t w = send(d->to, d->buf + d->off, d->pending, MSG_NOSIGNAL);
	if (w > 0) {
		d->pending -= (size_t)w;
		d->off += (size_t)w;
		d->moved += (unsigned long long)w;
	} else if (w < 0 && !again()) {
		return false;
	}
	return true;
}

static size_t room(const struct dir *d)
{
	return d->pending == 0;
}

static void nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool proxy_send_all(int fd, const void *buf, size_t n, int timeout_ms, int stop_fd)
{
	const char *p = buf;
	long long end = now_ms() + timeout_ms;
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && !again())
			return false;
		long long left = end - now_ms();
		struct pollfd pf[2] = { { fd, POLLOUT, 0 }, { stop_fd, POLLIN, 0 } };
		if (left <= 0 || poll(pf, 2, (int)left) <= 0 || pf[1].revents)
			return false;
	}
	return true;
}

/* One direction's poll events on its two ends. */
static void want(const struct dir *d, short *from_ev, short *to_ev)
{
	if (d->done)
		return;
	if (!d->eof && room(d))
		*from_ev |= POLLIN;
	if (d->pending)
		*to_ev |= POLLOUT;
}

/* Moves what it can; false when the connection must end. */
static bool dir_step(struct dir *d)
{
	if (d->done)
		return true;
	if (!d->eof && room(d) && !pump_in(d))
		return false;
	if (d->pending && !pump_out(d))
		return false;
	if (d->eof && d->pending == 0) {
		shutdown(d->to, SHUT_WR);
		d->done = true;
	}
	return true;
}

/* Both directions until neither moves a byte (at most a few rounds, so
 * one busy direction cannot starve the poll): one poll per burst rather
 * than per chunk. false when the connection must end. */
static bool relay_steps(struct dir *up, struct dir *down)
{
	for (int round = 0; round < 8; round++) {
		unsigned long long before = up->moved + down->moved;
		size_t pend = up->pending + down->pending;
		if (!dir_step(up) || !dir_step(down))
			return false;
		if (up->moved + down->moved == before && up->pending + down->pending == pend)
			return true;
	}
	return true;
}

void proxy_relay(int a, int b, const char *pre, size_t n, int idle_ms, int stop_fd,
		 unsigned long long *out, unsigned long long *in)
{
	struct dir up = { .from = a, .to = b }, down = { .from = b, .to = a };
	*out = *in = 0;
	nonblock(a);
	nonblock(b);
	if (n > 0) {
		if (!proxy_send_all(b, pre, n, idle_ms, stop_fd))
			return;
		*out = n;
	}
	if (!dir_open(&up))
		return;
	if (!dir_open(&down)) {
		dir_close(&up);
		return;
	}
	while (!(up.done && down.done)) {
		short aev = 0, bev = 0;
		want(&up, &aev, &bev);
		want(&down, &bev, &aev);
		/* an end nobody waits on is left out: its hang-up would
		 * wake the loop for nothing, over and over */
		struct pollfd pf[3] = {
			{ aev ? a : -1, aev, 0 }, { bev ? b : -1, bev, 0 }, { stop_fd, POLLIN, 0 }
		};
		int r = poll(pf, 3, idle_ms);
		if (r == 0 || pf[2].revents)
			break;
		if (r < 0 && errno != EINTR)
			break;
		if (r < 0)
			continue;
		if (!relay_steps(&up, &down))
			break;
	}
	*out += up.moved;
	*in = down.moved;
	dir_close(&up);
	dir_close(&down);
}
