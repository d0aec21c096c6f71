/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "strpool.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3u;
	return h;
}

/* The slot holding s, or the empty slot where it belongs. */
static char **find(char **slot, size_t cap, const char *s, uint64_t h)
{
	size_t i = (size_t)h & (cap - 1);
	while (slot[i] && strcmp(slot[i], s) != 0)
		i = (i + 1) & (cap - 1);
	return &slot[i];
}

static void grow(struct strpool *p)
{
	size_t cap = p->cap ? p->cap * 2 : 16;
	char **slot = xcalloc(cap, sizeof *slot);
	for (size_t i = 0; i < p->cap; i++)
		if (p->slot[i])
			*find(slot, cap, p->slot[i], hash(p->slot[i])) = p->slot[i];
	free(p->slot);
	p->slot = slot;
	p->cap = cap;
}

const char *strpool_intern(struct strpool *p, const char *s)
{
	if (2 * (p->n + 1) > p->cap)
		grow(p);
	char **at = find(p->slot, p->cap, s, hash(s));
	if (!*at) {
		*at = xstrdup(s);
		p->n++;
	}
	return *at;
}

void strpool_free(struct strpool *p)
{
	for (size_t i = 0; i < p->cap; i++)
		free(p->slot[i]);
	free(p->slot);
	memset(p, 0, sizeof *p);
}
