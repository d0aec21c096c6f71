/* SPDX-License-Identifier: MIT */
/* proxy/relay.c: moving a tunnel's bytes. */
#ifndef KJ_PROXY_RELAY_H
#define KJ_PROXY_RELAY_H

#include <stdbool.h>
#include <stddef.h>

#include "proxy/budget.h"

struct inspect;

/* How a relay starts: what goes to the server first, and who watches. */
struct relay_start {
	const char *head;       /* sent to the server first, as it is */
	size_t nhead;
	const char *early;      /* the client's bytes read with its request */
	size_t nearly;          /* (at most INSPECT_HOLD_MAX) */
	struct inspect *gate;   /* NULL, or what decides the client's bytes
				 * before they go (proxy/inspect.h) */
};

/* Moves bytes both ways between the client a and the server b (both
 * made non-blocking here) until both sides have ended or one fails, idle_ms
 * pass without a byte, or stop_fd becomes readable; first sends st's head,
 * then the client's early bytes and everything it sends after them,
 * through st->gate if there is one: the client's bytes wait there until
 * decided, the server's pass at once (the gate sees its first ones). Once
 * the gate is done it is out of the way. Half-closes pass through
 * (shutdown(SHUT_WR)). Its buffers are charged to budget and grow only
 * within it, but for what the gate may hold undecided (INSPECT_HOLD_MAX),
 * which is taken whatever the budget. Counts a->b in *out and b->a in *in.
 * false when the gate refused: the caller answers the client (st->gate
 * says how). */
bool proxy_relay(int a, int b, const struct relay_start *st, int idle_ms, int stop_fd,
		 struct proxy_budget *budget, unsigned long long *out, unsigned long long *in);

/* Sends all n bytes to fd (non-blocking or not) within timeout_ms; false
 * when it cannot. */
bool proxy_send_all(int fd, const void *buf, size_t n, int timeout_ms, int stop_fd);

#endif
