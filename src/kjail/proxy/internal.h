/* SPDX-License-Identifier: MIT */
/* The proxy's parts, shared between proxy/serve.c (the accept loop),
 * proxy/conn.c (the connections), proxy/relay.c (moving the bytes) and
 * proxy/log.c (the JSON lines). Not for kjail. */
#ifndef KJ_PROXY_INT_H
#define KJ_PROXY_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "proxy/parse.h"

#include <stdatomic.h>
#include <time.h>

#include "proxy/proxy.h"

/* What the accept loop (proxy/serve.c) shares with its connections'
 * threads (proxy/conn.c). */
struct proxy_serving {
	const struct proxy_config *c;
	int stop_fd;
	int done[2];                   /* a byte per ended connection */
	atomic_uint active;
	unsigned max;
	int connect_ms, idle_ms, header_ms;
};

/* Serves the accepted fd in a thread of its own (counted in s->active,
 * which it decrements and notes on s->done when it ends); closes fd if no
 * thread can be made. */
void proxy_conn_start(struct proxy_serving *s, int fd, enum proxy_proto proto);

static inline long long proxy_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* What one connection's log line says. */
struct proxy_record {
	const char *proto;    /* "connect", "http", "socks5" */
	const char *host;     /* NULL: never learnt (a bad request) */
	unsigned port;
	const char *verdict;  /* "allowed", "refused", "failed" */
	const char *reason;   /* NULL when allowed and relayed */
	const char *rule;     /* the rule's text, or NULL */
	const char *origin;
	const char *address;  /* the address connected to, or NULL */
	unsigned long long bytes_out, bytes_in;
};

/* Appends the record as one line with one write(); -1 if it failed. */
int proxy_log_write(int fd, const struct proxy_record *r);

/* Moves bytes both ways between the client a and the server b (both
 * made non-blocking here) until both sides have ended or one fails, idle_ms
 * pass without a byte, or stop_fd becomes readable; first sends the n
 * bytes at pre to b. Half-closes pass through (shutdown(SHUT_WR)).
 * Counts a->b in *out and b->a in *in. */
void proxy_relay(int a, int b, const char *pre, size_t n, int idle_ms, int stop_fd,
		 unsigned long long *out, unsigned long long *in);

/* Sends all n bytes to fd (non-blocking or not) within timeout_ms; false
 * when it cannot. */
bool proxy_send_all(int fd, const void *buf, size_t n, int timeout_ms, int stop_fd);

#endif
