/* SPDX-License-Identifier: MIT */
/* What the lattice files of authority/ share and nothing else uses: the
 * implication table and small string-set helpers. Not part of the
 * lattice's interface (authority.h). */
#ifndef KLI_AUTHORITY_INTERNAL_H
#define KLI_AUTHORITY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#define AUTH_NIMPLICATIONS 6

struct auth_implication {
	const char *from, *to;
	bool carries;   /* the target gets the source's constraint, else any */
};

/* Direct implications, in an order where every source comes before any
 * edge leaving one of its targets, so one pass closes a grant. */
extern const struct auth_implication auth_implications[AUTH_NIMPLICATIONS];

/* User text inside a one-line message: printable ASCII only, bounded. */
const char *auth_shown(const char *s, size_t n, char *buf, size_t buflen);
#define SHOWN(s) auth_shown((s), strlen(s), (char[72]){ 0 }, 72)
#define SHOWN_N(s, n) auth_shown((s), (n), (char[72]){ 0 }, 72)

bool auth_in_set(char *const *set, size_t n, const char *s);
/* Sort and drop duplicates in place; returns the new count. */
size_t auth_sort_unique(char **v, size_t n);
/* ATOMS plus every atom that implies one of them, sorted and unique. */
char **auth_upward_closure(const char *const *atoms, size_t n, size_t *nout);
void auth_free_strs(char **v, size_t n);

#endif
