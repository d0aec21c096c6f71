/* SPDX-License-Identifier: MIT */
/* The proxy's memory budget: one counter shared by every connection's
 * thread, plus a fixed amount per open connection for what it holds
 * outside the relay (its state and its thread's stack). A tunnel grows
 * its buffers only while the total stays within the limit and never
 * waits for memory: without budget it keeps the buffers it has. */
#include "config.h"

#include "proxy/budget.h"

void proxy_budget_init(struct proxy_budget *b, size_t limit, const atomic_uint *conns,
		       size_t per_conn)
{
	atomic_init(&b->held, 0);
	b->limit = limit;
	b->conns = conns;
	b->per_conn = per_conn;
}

bool proxy_budget_take(struct proxy_budget *b, size_t n)
{
	size_t state = (size_t)atomic_load(b->conns) * b->per_conn;
	size_t held = atomic_load(&b->held);
	do {
		if (state > b->limit || n > b->limit - state || held > b->limit - state - n)
			return false;
	} while (!atomic_compare_exchange_weak(&b->held, &held, held + n));
	return true;
}

void proxy_budget_charge(struct proxy_budget *b, size_t n)
{
	atomic_fetch_add(&b->held, n);
}

void proxy_budget_give(struct proxy_budget *b, size_t n)
{
	atomic_fetch_sub(&b->held, n);
}
