/* SPDX-License-Identifier: MIT */
/* Moving a tunnel's bytes: read and write through one buffer per
 * direction, one poll loop per connection for both directions. */
#include "config.h"

#include "proxy/relay.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0 /* macOS: SO_NOSIGPIPE, and SIGPIPE ignored */
#endif
#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

/* A direction starts with a SMALL buffer, charged to the budget whatever
 * it holds (the connection cap bounds those). A read that fills the
 * buffer means more was waiting: the next read gets one twice the size,
 * up to BIG, while the budget allows; without budget the direction keeps
 * what it has and is only slower. A bulk copy so makes one system call
 * per megabyte rather than per 16 KiB (on loopback that is what counts:
 * bench/proxy-bench), while the many short connections keep the small one.
 * A grown buffer goes back after SHRINK_MS without a byte, so an idle
 * tunnel does not sit on budget that a busy one could use. Grown buffers
 * come from mmap: freed, they leave the process (a malloc'd megabyte may
 * stay in the heap), so what the process holds follows the budget.
 *
 * A plain copy through user space: on loopback it measured faster than
 * splice(2) through a pipe (0.53 of a direct copy against 0.38), and it is
 * the same code on every system. */
#define SMALL (16 * 1024)
#define BIG (1 << 20)
#define SHRINK_MS 250

struct dir {
	int from, to;
	struct proxy_budget *budget;
	char *small;    /* SMALL bytes, for the connection's life */
	char *big;      /* NULL, or cap bytes while grown */
	char *buf;      /* small or big */
	size_t cap;     /* the buffer's size */
	size_t off;     /* where the unsent bytes start */
	size_t pending; /* read from `from`, not yet written to `to` */
	bool filled;    /* the last read filled the buffer */
	bool eof;       /* `from` ended */
	bool done;      /* and `to` was shut down for writing */
	unsigned long long moved;
};

static bool again(void)
{
	return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
}

static bool dir_open(struct dir *d, struct proxy_budget *b)
{
	d->small = malloc(SMALL);
	if (!d->small)
		return false;
	proxy_budget_charge(b, SMALL);
	d->budget = b;
	d->buf = d->small;
	d->cap = SMALL;
	return true;
}

/* Back to the small buffer; called with the buffer empty. */
static void shrink(struct dir *d)
{
	if (!d->big)
		return;
	munmap(d->big, d->cap);
	proxy_budget_give(d->budget, d->cap);
	d->big = NULL;
	d->buf = d->small;
	d->cap = SMALL;
	d->filled = false;
}

static void dir_close(struct dir *d)
{
	if (!d->small)
		return;
	shrink(d);
	free(d->small);
	proxy_budget_give(d->budget, SMALL);
}

/* Called with the buffer empty; without budget or memory it keeps the
 * buffer it has. */
static void maybe_grow(struct dir *d)
{
	if (!d->filled || d->cap >= BIG)
		return;
	size_t want = d->cap * 2;
	if (!proxy_budget_take(d->budget, want))
		return;
	void *b = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED) {
		proxy_budget_give(d->budget, want);
		return;
	}
	shrink(d);
	d->big = d->buf = b;
	d->cap = want;
}

/* false: the direction failed (the connection ends) */
static bool pump_in(struct dir *d)
{
	maybe_grow(d);
	ssize_t r = recv(d->from, d->buf, d->cap, 0);
	if (r > 0) {
		d->pending = (size_t)r;
		d->off = 0;
		d->filled = (size_t)r == d->cap;
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

static bool room(const struct dir *d)
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

/* How long to wait for the next event: the rest of the idle time, or
 * SHRINK_MS while a grown buffer waits to go back. */
static int wait_ms(const struct dir *up, const struct dir *down, long long idle_end)
{
	long long left = idle_end - now_ms();
	if (left <= 0)
		return 0;
	if ((up->big || down->big) && left > SHRINK_MS)
		return SHRINK_MS;
	return (int)left;
}

void proxy_relay(int a, int b, const char *pre, size_t n, int idle_ms, int stop_fd,
		 struct proxy_budget *budget, unsigned long long *out, unsigned long long *in)
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
	if (!dir_open(&up, budget) || !dir_open(&down, budget)) {
		dir_close(&up);
		return;
	}
	long long idle_end = now_ms() + idle_ms;
	while (!(up.done && down.done)) {
		short aev = 0, bev = 0;
		want(&up, &aev, &bev);
		want(&down, &bev, &aev);
		/* an end nobody waits on is left out: its hang-up would
		 * wake the loop for nothing, over and over */
		struct pollfd pf[3] = {
			{ aev ? a : -1, aev, 0 }, { bev ? b : -1, bev, 0 }, { stop_fd, POLLIN, 0 }
		};
		int wait = wait_ms(&up, &down, idle_end);
		int r = wait > 0 ? poll(pf, 3, wait) : 0;
		if (r == 0 && now_ms() >= idle_end)
			break;
		if (r == 0) {
			/* quiet for SHRINK_MS: a full buffer keeps its bytes */
			if (room(&up))
				shrink(&up);
			if (room(&down))
				shrink(&down);
			continue;
		}
		if (r < 0 && errno != EINTR)
			break;
		if (r < 0)
			continue;
		if (pf[2].revents)
			break;
		idle_end = now_ms() + idle_ms;
		if (!relay_steps(&up, &down))
			break;
	}
	*out += up.moved;
	*in = down.moved;
	dir_close(&up);
	dir_close(&down);
}
