/* SPDX-License-Identifier: MIT */
/* proxy/budget.c: the memory the proxy's connections may hold, all
 * together. */
#ifndef KJ_PROXY_BUDGET_H
#define KJ_PROXY_BUDGET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

struct proxy_budget {
	atomic_size_t held;        /* the relay buffers', in bytes */
	size_t limit;
	const atomic_uint *conns;  /* connections open now */
	size_t per_conn;           /* what each holds besides its buffers */
};

/* conns is read whenever a buffer would grow; it must outlive b. */
void proxy_budget_init(struct proxy_budget *b, size_t limit, const atomic_uint *conns,
		       size_t per_conn);

/* Takes n bytes if the connections' state and every buffer, these n
 * included, stay within the limit; false (nothing taken) otherwise. */
bool proxy_budget_take(struct proxy_budget *b, size_t n);

/* Takes n bytes whatever the total: what a connection cannot do without
 * (its small buffers), which the connection cap bounds. */
void proxy_budget_charge(struct proxy_budget *b, size_t n);

/* Gives back n bytes taken or charged. */
void proxy_budget_give(struct proxy_budget *b, size_t n);

#endif
