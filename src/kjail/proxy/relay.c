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
 * The gate is the exception: it may hold up to INSPECT_HOLD_MAX bytes
 * undecided (a ClientHello in many records), twice SMALL. When what it
 * holds fills the buffer, the buffer doubles up to that size whatever the
 * budget: refusing would refuse a client the gate would have let through,
 * and it is at most INSPECT_HOLD_MAX more per connection, which the cap
 * bounds like the small buffers. Bytes read and not yet sent, decided or
 * not, are never moved out of a buffer but to a bigger one.
 *
 * A plain copy through user space: on loopback it measured faster than
 * splice(2) through a pipe (0.53 of a direct copy against 0.38), and it is
 * the same code on every system. */
#define SMALL (16 * 1024)
#define BIG (1 << 20)
#define SHRINK_MS 250

_Static_assert(INSPECT_HOLD_MAX <= BIG, "the gate's hold fits a grown buffer");

struct dir {
	int from, to;
	struct proxy_budget *budget;
	char *small;    /* SMALL bytes, for the connection's life */
	char *big;      /* NULL, or cap bytes while grown */
	char *buf;      /* small or big */
	size_t cap;     /* the buffer's size */
	size_t off;     /* where the unsent bytes start */
	size_t pending; /* read from `from`, not yet written to `to` */
	size_t held;    /* after them: read, not yet decided by the gate */
	bool filled;    /* the last read filled the buffer */
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

static bool dir_open(struct dir *d, struct proxy_budget *b)
{
	d->small = malloc(SMALL);
	if (!d->small)
		return false;
	proxy_budget_charge(b, SMALL);
	d->budget = b;
	d->buf = d->small;
	d->cap = SMALL;
	d->off = 0;
	return true;
}

/* Nothing read waits in the buffer: it may be given back. */
static bool empty(const struct dir *d)
{
	return d->pending == 0 && d->held == 0;
}

/* Back to the small buffer, only when it holds nothing. */
static void shrink(struct dir *d)
{
	if (!d->big || !empty(d))
		return;
	munmap(d->big, d->cap);
	proxy_budget_give(d->budget, d->cap);
	d->big = NULL;
	d->buf = d->small;
	d->cap = SMALL;
	d->off = 0;
	d->filled = false;
}

static void dir_close(struct dir *d)
{
	if (!d->small)
		return;
	d->pending = d->held = 0;
	shrink(d);
	free(d->small);
	proxy_budget_give(d->budget, SMALL);
}

/* A buffer of `want` bytes in place of the one it has, what waits in it
 * (pending, then held) copied to its start. force: taken whatever the
 * budget (the gate's hold). false, the old buffer kept, without budget or
 * memory. */
static bool grow_to(struct dir *d, size_t want, bool force)
{
	if (!proxy_budget_take(d->budget, want)) {
		if (!force)
			return false;
		proxy_budget_charge(d->budget, want);
	}
	void *b = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED) {
		proxy_budget_give(d->budget, want);
		return false;
	}
	size_t live = d->pending + d->held;
	memcpy(b, d->buf + d->off, live);
	if (d->big) {
		munmap(d->big, d->cap);
		proxy_budget_give(d->budget, d->cap);
	}
	d->big = d->buf = b;
	d->cap = want;
	d->off = 0;
	return true;
}

/* A bulk copy's growth, with the buffer empty; without budget or memory
 * it keeps the buffer it has. */
static void maybe_grow(struct dir *d)
{
	if (!d->filled || d->cap >= BIG || !empty(d))
		return;
	grow_to(d, d->cap * 2, false);
}

/* Room for the gate's undecided bytes, which fill the buffer: false when
 * it holds INSPECT_HOLD_MAX already (or no memory is left). */
static bool grow_for_gate(struct dir *d)
{
	if (d->cap >= INSPECT_HOLD_MAX)
		return false;
	size_t want = d->cap * 2 < INSPECT_HOLD_MAX ? d->cap * 2 : INSPECT_HOLD_MAX;
	return grow_to(d, want, true);
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

/* Called with nothing pending; false: the direction failed (the
 * connection ends). */
static bool pump_in(struct dir *d)
{
	if (d->held > 0 && d->off > 0) {
		memmove(d->buf, d->buf + d->off, d->held);
		d->off = 0;
	}
	if (d->held == 0)
		d->off = 0;
	maybe_grow(d);
	if (d->held >= d->cap && !grow_for_gate(d)) {
		d->refused = true; /* the gate holds no more than INSPECT_HOLD_MAX */
		return false;
	}
	char *at = d->buf + d->held;
	size_t space = d->cap - d->held;
	ssize_t r = recv(d->from, at, space, 0);
	if (r > 0) {
		if (d->gate) {
			d->held += (size_t)r;
			d->stale = true;
		} else {
			d->pending = (size_t)r;
		}
		d->filled = (size_t)r == space;
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
	if (d->gate && d->stale && d->pending == 0 && !decide(d))
		return false;
	if (d->pending && !pump_out(d))
		return false;
	if (d->eof && empty(d)) {
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

/* The client's bytes read with its request, in the client direction's
 * buffer (grown first if they need it: at most INSPECT_HOLD_MAX), held
 * for the gate or pending; false when they do not fit. */
static bool take_early(struct dir *up, const struct relay_start *st)
{
	if (st->nearly == 0)
		return true;
	while (up->cap < st->nearly)
		if (!grow_for_gate(up))
			return false;
	memcpy(up->buf, st->early, st->nearly);
	if (up->gate)
		up->held = st->nearly;
	else
		up->pending = st->nearly;
	return true;
}

bool proxy_relay(int a, int b, const struct relay_start *st, int idle_ms, int stop_fd,
		 struct proxy_budget *budget, unsigned long long *out, unsigned long long *in)
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
	if (!dir_open(&up, budget) || !dir_open(&down, budget)) {
		dir_close(&up);
		return true;
	}
	bool ok = take_early(&up, st);
	up.stale = up.gate != NULL;
	ok = ok && relay_steps(&up, &down);
	long long idle_end = now_ms() + idle_ms;
	while (ok && !(up.done && down.done)) {
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
			/* quiet for SHRINK_MS: a buffer keeps what waits in it */
			shrink(&up);
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
		ok = relay_steps(&up, &down);
	}
	*out += up.moved;
	*in = down.moved;
	dir_close(&up);
	dir_close(&down);
	return !up.refused;
}
