/* SPDX-License-Identifier: MIT */
/* proxy/tally.c: the proxy's count of refusals by destination, in bounded
 * memory. Not thread-safe: proxy/log.c calls it under its lock. */
#ifndef KJ_PROXY_TALLY_H
#define KJ_PROXY_TALLY_H

#include <stddef.h>

/* At most this many destinations are kept by name; refusals to others
 * are counted together (tally.others). */
#define TALLY_MAX 1024

struct tally_dest {
	char *dest;            /* "HOST:PORT", "[V6]:PORT" */
	char *allow;           /* what --allow-host takes to allow it */
	unsigned long count;
	unsigned long seen;    /* the order first seen in, for ties */
};

struct tally {
	struct tally_dest *slot; /* open addressing, 2 * TALLY_MAX slots */
	size_t n;                /* destinations kept */
	unsigned long others;    /* refusals past TALLY_MAX destinations, or
				  * when memory ran out */
};

/* An empty tally; slot NULL (every add counted in others) if out of
 * memory. */
void tally_init(struct tally *t);

/* One refusal to dest, allowed by --allow-host allow. Constant time: a
 * probe of at most 2 * TALLY_MAX slots, whatever the names. */
void tally_add(struct tally *t, const char *dest, const char *allow);

/* The (at most) max destinations refused most, most first, ties in the
 * order first seen, into top (pointers into t); how many. One pass per
 * entry of top. */
size_t tally_top(const struct tally *t, const struct tally_dest **top, size_t max);

void tally_free(struct tally *t);

#endif
