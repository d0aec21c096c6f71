/* SPDX-License-Identifier: MIT */
/* kli's authority lattice: atoms, constraints, grants.
 *
 * A grant says which capabilities ("atoms", group/verb) an agent holds and,
 * per atom, under which constraint. Grants only ever narrow: there is meet,
 * there is no join. Every grant is kept implication-closed (holding
 * tools/standard means holding file/write, and so on), which is what makes
 * covers() and meet() agree.
 *
 * Pure code. The one piece of I/O is resolving paths for path constraints,
 * reached through auth_ctx.resolve so tests can substitute it. */
#ifndef KLI_AUTHORITY_H
#define KLI_AUTHORITY_H

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

/* ---- atoms ---- */

/* "FILE/Read" and ":file/read" become "file/read". Both parts non-empty,
 * [a-z0-9-] only. NULL with a message on error. */
char *atom_normalize(const char *text, char *err, size_t errlen);

/* ---- constraints ---- */

enum constraint_kind { CON_NONE, CON_ANY, CON_PATH, CON_RANGE, CON_ENUM };

struct constraint {
	enum constraint_kind kind;
	char *path;           /* CON_PATH: clean, absolute, symlinks resolved */
	long long lo, hi;     /* CON_RANGE: lo <= hi */
	char **values;        /* CON_ENUM: sorted, unique, at least one */
	size_t nvalues;
};

/* Constructors fill *out; free with constraint_clear(). */
void constraint_any(struct constraint *out);
void constraint_none(struct constraint *out);
/* PATH must already be clean and absolute (no resolution happens here). */
void constraint_path(struct constraint *out, const char *path);
/* Resolve PATH ("~/x", relative to the workspace, or absolute) through ctx. */
bool constraint_path_resolve(struct constraint *out, const char *path,
			     const struct auth_ctx *ctx, char *err, size_t errlen);
/* Empty when lo > hi: that is none. */
void constraint_range(struct constraint *out, long long lo, long long hi);
/* Sorted and de-duplicated; no values is none. */
void constraint_enum(struct constraint *out, const char *const *values, size_t n);

void constraint_copy(struct constraint *out, const struct constraint *c);
void constraint_clear(struct constraint *c);

void constraint_meet(struct constraint *out, const struct constraint *a,
		     const struct constraint *b);
bool constraint_covers(const struct constraint *holder, const struct constraint *req);
bool constraint_equal(const struct constraint *a, const struct constraint *b);
/* The union of A and B when one constraint expresses it exactly (nested
 * paths, overlapping or adjacent ranges, any two enumerations); else false.
 * Only used to combine entries of one capability list, never to widen. */
bool constraint_union_exact(struct constraint *out, const struct constraint *a,
			    const struct constraint *b);
/* "any", "none", "path under /abs", "in [1..5]", "one of \"a\", \"b\"". */
char *constraint_render(const struct constraint *c);

/* Does C allow the concrete OBJECT (a path, an integer or a word, read
 * according to C's kind)? On false, *why (if given) says what is wrong, as
 * a phrase to append after the constraint ("and /etc is outside it"). */
bool constraint_permits(const struct constraint *c, const char *object,
			const struct auth_ctx *ctx, char **why);

/* ---- grants ---- */

enum grant_scope { GRANT_UNIVERSAL, GRANT_EXCEPT, GRANT_BOUNDED };

struct grant_cap {
	char *atom;
	struct constraint c;
};

struct grant {
	enum grant_scope scope;
	char **excluded;         /* GRANT_EXCEPT: sorted, closed upward, not empty */
	size_t nexcluded;
	struct grant_cap *caps;  /* GRANT_BOUNDED: sorted by atom, never none */
	size_t ncaps;            /* 0: the empty grant, "none" */
};

struct grant *grant_universal(void);
struct grant *grant_none(void);
/* Everything but ATOMS and every atom that implies one of them. No atoms:
 * universal. */
struct grant *grant_except(const char *const *atoms, size_t n);
/* The bounded grant holding CAPS (normalised atoms), closed under
 * implication. Two entries for one atom combine when their union is one
 * constraint (constraint_union_exact); otherwise NULL, a message, and
 * *bad set to the index of the entry at fault. */
struct grant *grant_from_caps(const struct grant_cap *caps, size_t n, size_t *bad,
			      char *err, size_t errlen);
struct grant *grant_copy(const struct grant *g);
void grant_free(struct grant *g);

struct grant *grant_meet(const struct grant *a, const struct grant *b);
bool grant_covers(const struct grant *holder, const struct grant *req);
bool grant_equal(const struct grant *a, const struct grant *b);
/* G minus ATOMS, minus every atom implying one of them. */
struct grant *grant_without(const struct grant *g, const char *const *atoms, size_t n);
/* The grant a sub-agent receives: REQ itself when HOLDER covers it, else
 * NULL and "escalation: ..." naming the first atom or constraint at fault. */
struct grant *grant_confer(const struct grant *holder, const struct grant *req,
			   char *err, size_t errlen);
/* The constraint G puts on ATOM (normalised): any, none, or its own. */
const struct constraint *grant_lookup(const struct grant *g, const char *atom);
/* The invariant every grant keeps; exported for tests and the fuzzer. */
bool grant_is_closed(const struct grant *g);
bool grant_is_none(const struct grant *g);
void grant_free_p(struct grant **g);
#define _cleanup_grant_ __attribute__((cleanup(grant_free_p)))

enum check_result { CHECK_ALLOWED = 0, CHECK_DENIED = 1, CHECK_BAD_ATOM = 2 };

/* May G exercise ATOM (raw text) on OBJECT (may be NULL)? The atom and
 * everything it implies must be held; a constrained atom needs an OBJECT
 * within the constraint. *reason: "allowed", the denial reason, or (for
 * CHECK_BAD_ATOM) what is wrong with the atom. Caller frees. */
enum check_result grant_check(const struct grant *g, const char *atom, const char *object,
			      const struct auth_ctx *ctx, char **reason);

/* ---- capability entries ---- */

/* One entry: "ATOM", "ATOM under PATH", "ATOM in LO..HI", "ATOM one of A|B".
 * Fills *out (free with grant_cap_clear) or returns false with a message. */
bool cap_parse_entry(const char *text, const struct auth_ctx *ctx, struct grant_cap *out,
		     char *err, size_t errlen);
void grant_cap_clear(struct grant_cap *cap);

struct cap_list {
	struct grant_cap *v;
	size_t n;
};

/* Append the entries of a comma-separated value ("" appends nothing). On
 * error the list keeps the entries parsed before the bad one. */
bool cap_parse_list(const char *value, const struct auth_ctx *ctx, struct cap_list *out,
		    char *err, size_t errlen);
void cap_list_clear(struct cap_list *l);

#endif
