/* SPDX-License-Identifier: MIT */
/* The proxy's parts, shared between proxy/serve.c (the accept loop),
 * proxy/conn.c (the connections), proxy/relay.c (moving the bytes),
 * proxy/budget.c (their memory) and proxy/log.c (the JSON lines). Not for
 * kjail. Each file's functions are declared in its own header (conn.h,
 * relay.h, budget.h, log.h, serve.h, spawn.h). */
#ifndef KJ_PROXY_INT_H
#define KJ_PROXY_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "proxy/budget.h"
#include "proxy/parse.h"

#include <stdatomic.h>
#include <time.h>

#include "proxy/proxy.h"
#include "proxy/upstream.h"

/* What the accept loop (proxy/serve.c) shares with its connections'
 * threads (proxy/conn.c). */
struct proxy_serving {
	const struct proxy_config *c;
	struct proxy_log *log;         /* proxy/log.h */
	int stop_fd;
	int done[2];                   /* a byte per ended connection */
	atomic_uint active;
	unsigned max;
	struct proxy_budget budget;    /* the connections' memory */
	unsigned ended;                /* connections ended since the last trim */
	int connect_ms, idle_ms, header_ms;
	/* the caller's upstream proxy (proxy/upstream.h), read from c's
	 * URLs: for tunnels and for absolute-form requests; NULL: direct */
	const struct upstream *up_tunnel, *up_http;
	struct upstream up[2];
};


static inline long long proxy_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#endif
