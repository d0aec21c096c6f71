/* SPDX-License-Identifier: MIT */
/* proxy/relay.c: moving a tunnel's bytes. */
#ifndef KJ_PROXY_RELAY_H
#define KJ_PROXY_RELAY_H

#include <stdbool.h>
#include <stddef.h>

#include "proxy/budget.h"

/* Moves bytes both ways between the client a and the server b (both
 * made non-blocking here) until both sides have ended or one fails, idle_ms
 * pass without a byte, or stop_fd becomes readable; first sends the n
 * bytes at pre to b. Half-closes pass through (shutdown(SHUT_WR)). Its
 * buffers are charged to budget, and grow only within it. Counts a->b in
 * *out and b->a in *in. */
void proxy_relay(int a, int b, const char *pre, size_t n, int idle_ms, int stop_fd,
		 struct proxy_budget *budget, unsigned long long *out, unsigned long long *in);

/* Sends all n bytes to fd (non-blocking or not) within timeout_ms; false
 * when it cannot. */
bool proxy_send_all(int fd, const void *buf, size_t n, int timeout_ms, int stop_fd);

#endif
