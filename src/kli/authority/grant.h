/* SPDX-License-Identifier: MIT */
/* authority/grant.c: grants (universal, universal-except, bounded), meet, covers, confer, check. */
#ifndef KLI_AUTHORITY_GRANT_H
#define KLI_AUTHORITY_GRANT_H

#include "authority/constraint.h"

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

#endif
