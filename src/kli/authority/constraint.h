/* SPDX-License-Identifier: MIT */
/* authority/constraint.c: constraints, the per-atom semilattice (paths, ranges, enumerations). */
#ifndef KLI_AUTHORITY_CONSTRAINT_H
#define KLI_AUTHORITY_CONSTRAINT_H

#include "authority/atoms.h"

/* ---- constraints ---- */

enum constraint_kind { CON_NONE, CON_ANY, CON_PATH, CON_RANGE, CON_ENUM, CON_PREFIX };

struct constraint {
	enum constraint_kind kind;
	/* CON_PATH: a set of prefixes, each clean, absolute, symlinks
	 * resolved; sorted, none under another (an antichain), at least one.
	 * A path is allowed when it is under one of them. */
	char **paths;
	size_t npaths;
	long long lo, hi;     /* CON_RANGE: lo <= hi */
	/* CON_ENUM: sorted, unique, at least one. CON_PREFIX: command word
	 * prefixes (authority/argv.h, canonical: words joined by one space),
	 * sorted, none a word prefix of another, at least one; a command is
	 * allowed when its words start with one of them. */
	char **values;
	size_t nvalues;
};

/* Constructors fill *out; free with constraint_clear(). */
void constraint_any(struct constraint *out);
void constraint_none(struct constraint *out);
/* PATH must already be clean and absolute (no resolution happens here). */
void constraint_path(struct constraint *out, const char *path);
/* The set of the N clean absolute PATHS, reduced to its antichain (a path
 * under another is dropped); no paths is none. */
void constraint_paths(struct constraint *out, const char *const *paths, size_t n);
/* Resolve PATH ("~/x", relative to the workspace, or absolute) through ctx. */
bool constraint_path_resolve(struct constraint *out, const char *path,
			     const struct auth_ctx *ctx, char *err, size_t errlen);
/* Empty when lo > hi: that is none. */
void constraint_range(struct constraint *out, long long lo, long long hi);
/* Sorted and de-duplicated; no values is none. */
void constraint_enum(struct constraint *out, const char *const *values, size_t n);
/* The N canonical PREFIXES (argv_canonical), reduced; none is none. */
void constraint_prefixes(struct constraint *out, const char *const *prefixes, size_t n);

void constraint_copy(struct constraint *out, const struct constraint *c);
void constraint_clear(struct constraint *c);

void constraint_meet(struct constraint *out, const struct constraint *a,
		     const struct constraint *b);
bool constraint_covers(const struct constraint *holder, const struct constraint *req);
bool constraint_equal(const struct constraint *a, const struct constraint *b);
/* The union of A and B when one constraint expresses it exactly (any two
 * path sets, overlapping or adjacent ranges, any two enumerations); else false.
 * Only used to combine entries of one capability list, never to widen. */
bool constraint_union_exact(struct constraint *out, const struct constraint *a,
			    const struct constraint *b);
/* PATH as one word of a rendering: as it is, or double-quoted when it
 * holds a blank (a grant's paths never hold '"', caps.c). */
char *constraint_path_word(const char *path);
/* "any", "none", "path under /abs /b", "in [1..5]", "one of \"a\", \"b\"". */
char *constraint_render(const struct constraint *c);

/* Does C allow the concrete OBJECT (a path, an integer or a word, read
 * according to C's kind)? On false, *why (if given) says what is wrong, as
 * a phrase to append after the constraint ("and /etc is outside it"). */
bool constraint_permits(const struct constraint *c, const char *object,
			const struct auth_ctx *ctx, char **why);

/* For caps.c too: */
/* Decimal integer, optional '-'; false on garbage or overflow. */
bool auth_parse_ll(const char *s, size_t n, long long *out, bool *overflow);

#endif
