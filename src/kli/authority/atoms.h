/* SPDX-License-Identifier: MIT */
/* authority/atoms.c: the lattice's atoms and the context every part of it
 * reads (authority.h says what the lattice is). */
#ifndef KLI_AUTHORITY_ATOMS_H
#define KLI_AUTHORITY_ATOMS_H

#include <stdbool.h>
#include <stddef.h>

#define ATOM_MAX_LEN 64

/* Resolves P (relative to BASE, absolute) to a clean absolute path with
 * symlinks resolved; NULL with errno on failure. Default: path_resolve. */
typedef char *(*auth_resolve_fn)(const char *p, const char *base);

struct kli_exclusions;

struct auth_ctx {
	const char *workspace;   /* absolute; relative paths are taken from here */
	const char *home;        /* for "~/..."; may be NULL */
	auth_resolve_fn resolve; /* NULL: path_resolve() */
	/* kli's own files, outside every grant (exclude.h); NULL: none. Only
	 * the mediation seam looks at them. */
	const struct kli_exclusions *excluded;
};

/* "FILE/Read" and ":file/read" become "file/read". Both parts non-empty,
 * [a-z0-9-] only. NULL with a message on error. */
char *atom_normalize(const char *text, char *err, size_t errlen);

#endif
