/* SPDX-License-Identifier: MIT */
/* The proxy's count of refusals by destination (tally.h): a fixed table
 * of 2 * TALLY_MAX slots, at most half of them used, so a probe always
 * ends at an empty slot. A flood of refusals costs the proxy one hash and
 * a short probe each, and its memory stays bounded whatever names the
 * jail asks for. */
#include "config.h"

#include "proxy/tally.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS (2 * TALLY_MAX)

/* FNV-1a over dest, a NUL, allow. Names the jail picks can collide on
 * purpose: then a probe is longer, never more than SLOTS steps. */
static size_t hash(const char *dest, const char *allow)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (const unsigned char *p = (const unsigned char *)dest; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	h *= 0x100000001b3ULL;
	for (const unsigned char *p = (const unsigned char *)allow; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	return (size_t)(h % SLOTS);
}

void tally_init(struct tally *t)
{
	*t = (struct tally){ .slot = calloc(SLOTS, sizeof *t->slot) };
}

void tally_add(struct tally *t, const char *dest, const char *allow)
{
	if (!t->slot) {
		t->others++;
		return;
	}
	size_t i = hash(dest, allow);
	for (size_t step = 0; step < SLOTS; step++, i = (i + 1) % SLOTS) {
		struct tally_dest *d = &t->slot[i];
		if (!d->dest)
			break;
		if (strcmp(d->dest, dest) == 0 && strcmp(d->allow, allow) == 0) {
			d->count++;
			return;
		}
	}
	struct tally_dest *d = &t->slot[i];
	char *a = NULL, *b = NULL;
	if (t->n >= TALLY_MAX || d->dest || !(a = strdup(dest)) || !(b = strdup(allow))) {
		free(a);
		t->others++;
		return;
	}
	*d = (struct tally_dest){ .dest = a, .allow = b, .count = 1, .seen = t->n++ };
}

static bool before(const struct tally_dest *a, const struct tally_dest *b)
{
	return a->count > b->count || (a->count == b->count && a->seen < b->seen);
}

size_t tally_top(const struct tally *t, const struct tally_dest **top, size_t max)
{
	size_t n = 0;
	if (!t->slot)
		return 0;
	for (size_t i = 0; i < SLOTS; i++) {
		const struct tally_dest *d = &t->slot[i];
		if (!d->dest)
			continue;
		/* insertion into a sorted list of at most max */
		size_t j = n < max ? n++ : max;
		if (j == max && (max == 0 || !before(d, top[max - 1])))
			continue;
		if (j == max)
			j = max - 1;
		while (j > 0 && before(d, top[j - 1])) {
			top[j] = top[j - 1];
			j--;
		}
		top[j] = d;
	}
	return n;
}

void tally_free(struct tally *t)
{
	if (t->slot)
		for (size_t i = 0; i < SLOTS; i++) {
			free(t->slot[i].dest);
			free(t->slot[i].allow);
		}
	free(t->slot);
	t->slot = NULL;
}
