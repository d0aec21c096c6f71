/* SPDX-License-Identifier: MIT */
/* Moving a tunnel's bytes: read and write through one buffer per
 * direction, one poll loop per connection for both directions. The
 * client's bytes may first pass a gate (proxy/inspect.h) that reads them
 * in place: what it has not decided stays in the buffer behind what it
 * let through, and more is read after it. */
#include "config.h"

#include "proxy/relay.h"
#include "proxy/inspect.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
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
	size_t held;    /* after them: read, not yet decided by the gate */
	bool eof;       /* `from` ended */
	bool done;      /* and `to` was shut down for writing */
	unsigned long long moved;
	struct inspect *gate; /* client->server: decides; server->client: feeds it */
	struct dir *peer;
	bool stale;     /* the gate has something new to decide on */
	bool refused;
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

/* The gate's verdict on the held bytes (pending is 0): false when it
 * refused. */
static bool decide(struct dir *d)
{
	d->stale = false;
	long k = inspect_client(d->gate, d->buf + d->off, d->held, d->eof);
	if (k < 0) {
		d->refused = true;
		return false;
	}
	if (d->gate->sink) {
		d->off += (size_t)k; /* dropped */
	} else {
		d->pending = (size_t)k;
		/* more may be decidable once these are sent */
		d->stale = k > 0 && d->held > (size_t)k;
	}
	d->held -= (size_t)k;
	if (inspect_done(d->gate)) {
		d->pending += d->held;
		d->held = 0;
		d->gate = NULL;
	}
	return true;
}

/* The server's bytes, shown to the gate while it wants them. */
static void watch(struct dir *d, const char *b, size_t n, bool eof)
{
	struct dir *up = d->peer;
	if (!up || !up->gate || !inspect_wants_server(up->gate))
		return;
	inspect_server(up->gate, b, n, eof);
	up->stale = true;
}

/* false: the direction failed (the connection ends) */
static bool pump_in(struct dir *d)
{
	if (d->held > 0 && d->off > 0) {
		memmove(d->buf, d->buf + d->off, d->held);
		d->off = 0;
	}
	if (d->held == 0)
		d->off = 0;
	maybe_grow(d);
	if (d->held >= d->cap) { /* the gate holds no more than INSPECT_HOLD_MAX */
		d->refused = true;
		return false;
	}
	char *at = d->buf + d->held;
	ssize_t r = recv(d->from, at, d->cap - d->held, 0);
	if (r > 0) {
		if (d->gate) {
			d->held += (size_t)r;
			d->stale = true;
		} else {
			d->pending = (size_t)r;
		}
		watch(d, at, (size_t)r, false);
	} else if (r == 0) {
		d->eof = true;
		d->stale = true;
		watch(d, NULL, 0, true);
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
	if (d->gate && d->stale && d->pending == 0 && !decide(d))
		return false;
	if (d->pending && !pump_out(d))
		return false;
	if (d->eof && d->pending == 0 && d->held == 0) {
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
		if (up->moved + down->moved == before && up->pending + down->pending == pend &&
		    !(up->gate && up->stale && up->pending == 0))
			return true;
	}
	return true;
}

bool proxy_relay(int a, int b, const struct relay_start *st, int idle_ms, int stop_fd,
		 unsigned long long *out, unsigned long long *in)
{
	struct dir up = { .from = a, .to = b, .gate = st->gate },
		   down = { .from = b, .to = a, .peer = &up };
	*out = *in = 0;
	nonblock(a);
	nonblock(b);
	if (st->nhead > 0) {
		if (!proxy_send_all(b, st->head, st->nhead, idle_ms, stop_fd))
			return true;
		*out = st->nhead;
	}
	if (!dir_open(&up))
		return true;
	if (!dir_open(&down)) {
		dir_close(&up);
		return true;
	}
	if (st->nearly > 0 && st->nearly <= up.cap) {
		memcpy(up.buf, st->early, st->nearly);
		if (up.gate)
			up.held = st->nearly;
		else
			up.pending = st->nearly;
	}
	up.stale = up.gate != NULL;
	bool ok = relay_steps(&up, &down);
	while (ok && !(up.done && down.done)) {
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
		ok = relay_steps(&up, &down);
	}
	*out += up.moved;
	*in = down.moved;
	dir_close(&up);
	dir_close(&down);
	return !up.refused;
}
