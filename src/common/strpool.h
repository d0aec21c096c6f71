/* SPDX-License-Identifier: MIT */
/* Interned strings: one copy of each distinct string, freed all at once.
 * A plan names the same few rules and origins ("masked", "--deny-read")
 * for thousands of paths; the pool keeps one copy of each. */
#ifndef KJ_STRPOOL_H
#define KJ_STRPOOL_H

#include <stddef.h>

struct strpool {
	char **slot;  /* open addressing; NULL is empty */
	size_t cap;   /* a power of two, or 0 */
	size_t n;
};

#define STRPOOL_INIT { NULL, 0, 0 }

/* The pool's copy of s (made on first sight); valid until strpool_free.
 * A zeroed pool is an empty one. */
const char *strpool_intern(struct strpool *p, const char *s);
void strpool_free(struct strpool *p);

#endif
