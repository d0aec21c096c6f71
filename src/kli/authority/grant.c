/* SPDX-License-Identifier: MIT */
/* Grants: universal, universal-except and bounded; meet, covers, confer,
 * and grant_check (the --check question). */
#include "config.h"
#include "authority/caps.h"
#include "authority/constraint.h"
#include "authority/grant.h"
#include "authority/internal.h"
#include "path.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------------- grants */

static struct grant *grant_new(enum grant_scope scope)
{
	struct grant *g = xcalloc(1, sizeof *g);
	g->scope = scope;
	return g;
}

struct grant *grant_universal(void)
{
	return grant_new(GRANT_UNIVERSAL);
}

struct grant *grant_none(void)
{
	return grant_new(GRANT_BOUNDED);
}

/* Takes a sorted, upward-closed set; an empty one means nothing is excluded. */
static struct grant *except_from_set(char **set, size_t n)
{
	if (n == 0) {
		free(set);
		return grant_universal();
	}
	struct grant *g = grant_new(GRANT_EXCEPT);
	g->excluded = set;
	g->nexcluded = n;
	return g;
}

struct grant *grant_except(const char *const *atoms, size_t n)
{
	size_t m;
	char **set = auth_upward_closure(atoms, n, &m);
	return except_from_set(set, m);
}

void grant_free(struct grant *g)
{
	if (!g)
		return;
	auth_free_strs(g->excluded, g->nexcluded);
	for (size_t i = 0; i < g->ncaps; i++)
		grant_cap_clear(&g->caps[i]);
	free(g->caps);
	free(g);
}

void grant_free_p(struct grant **g)
{
	grant_free(*g);
}

/* caps are kept sorted by atom: the first index whose atom is not below it. */
static size_t lower_bound(const struct grant *g, const char *atom)
{
	size_t lo = 0, hi = g->ncaps;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(g->caps[mid].atom, atom) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct grant_cap *find_cap(const struct grant *g, const char *atom)
{
	size_t i = lower_bound(g, atom);
	return i < g->ncaps && strcmp(g->caps[i].atom, atom) == 0 ? &g->caps[i] : NULL;
}

/* Insert ATOM at its sorted place, taking C; never called with none. */
static struct grant_cap *insert_cap(struct grant *g, const char *atom, struct constraint *c)
{
	size_t i = lower_bound(g, atom);
	g->caps = xreallocarray(g->caps, g->ncaps + 1, sizeof *g->caps);
	memmove(&g->caps[i + 1], &g->caps[i], (g->ncaps - i) * sizeof *g->caps);
	g->ncaps++;
	g->caps[i].atom = xstrdup(atom);
	g->caps[i].c = *c;
	constraint_none(c);
	return &g->caps[i];
}

/* Add C to ATOM as a union; false when the union is not one constraint. */
static bool union_into(struct grant *g, const char *atom, const struct constraint *c)
{
	if (c->kind == CON_NONE)
		return true;
	struct grant_cap *have = find_cap(g, atom);
	struct constraint u;
	if (!have) {
		constraint_copy(&u, c);
		insert_cap(g, atom, &u);
		return true;
	}
	if (!constraint_union_exact(&u, &have->c, c))
		return false;
	constraint_clear(&have->c);
	have->c = u;
	return true;
}

static void conflict_msg(char *err, size_t errlen, const char *what, const struct constraint *a,
			 const struct constraint *b)
{
	_cleanup_free_ char *ra = constraint_render(a);
	_cleanup_free_ char *rb = constraint_render(b);
	fmt_into(err, errlen, "%s: '%s' and '%s' do not combine into one constraint", what, ra, rb);
}

/* Index of the entry that last contributed to ATOM (for messages). */
static size_t origin_of(const struct grant_cap *caps, size_t n, const char *atom)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(caps[i].atom, atom) == 0)
			o = i;
	return o;
}

struct grant *grant_from_caps(const struct grant_cap *caps, size_t n, size_t *bad,
			      char *err, size_t errlen)
{
	_cleanup_grant_ struct grant *g = grant_none();
	size_t bad_local;
	bad = bad ? bad : &bad_local;
	for (size_t i = 0; i < n; i++) {
		const struct grant_cap *have = find_cap(g, caps[i].atom);
		struct constraint before;
		constraint_copy(&before, have ? &have->c : &caps[i].c);
		if (!union_into(g, caps[i].atom, &caps[i].c)) {
			_cleanup_free_ char *what = xasprintf("%s is listed twice", caps[i].atom);
			conflict_msg(err, errlen, what, &before, &caps[i].c);
			constraint_clear(&before);
			*bad = i;
			return NULL;
		}
		constraint_clear(&before);
	}
	/* The table is ordered so that one pass reaches every implied atom. */
	for (size_t e = 0; e < AUTH_NIMPLICATIONS; e++) {
		const struct grant_cap *from = find_cap(g, auth_implications[e].from);
		if (!from)
			continue;
		struct constraint fc;
		if (auth_implications[e].carries)
			constraint_copy(&fc, &from->c);
		else
			constraint_any(&fc);
		const struct grant_cap *to = find_cap(g, auth_implications[e].to);
		struct constraint before;
		constraint_copy(&before, to ? &to->c : &fc);
		bool ok = union_into(g, auth_implications[e].to, &fc);
		if (!ok) {
			_cleanup_free_ char *rb = constraint_render(&before);
			_cleanup_free_ char *rf = constraint_render(&fc);
			fmt_into(err, errlen, "%s ('%s') and %s, which implies it ('%s'), do not "
					      "combine into one constraint", auth_implications[e].to, rb,
				 auth_implications[e].from, rf);
			*bad = origin_of(caps, n, auth_implications[e].from);
		}
		constraint_clear(&before);
		constraint_clear(&fc);
		if (!ok)
			return NULL;
	}
	return steal_pointer(&g);
}

struct grant *grant_copy(const struct grant *g)
{
	struct grant *c = grant_new(g->scope);
	if (g->nexcluded) {
		c->excluded = xcalloc(g->nexcluded, sizeof *c->excluded);
		for (size_t i = 0; i < g->nexcluded; i++)
			c->excluded[i] = xstrdup(g->excluded[i]);
		c->nexcluded = g->nexcluded;
	}
	if (g->ncaps) {
		c->caps = xcalloc(g->ncaps, sizeof *c->caps);
		for (size_t i = 0; i < g->ncaps; i++) {
			c->caps[i].atom = xstrdup(g->caps[i].atom);
			constraint_copy(&c->caps[i].c, &g->caps[i].c);
		}
		c->ncaps = g->ncaps;
	}
	return c;
}

static const struct constraint con_any = { .kind = CON_ANY };
static const struct constraint con_none = { .kind = CON_NONE };

const struct constraint *grant_lookup(const struct grant *g, const char *atom)
{
	switch (g->scope) {
	case GRANT_UNIVERSAL:
		return &con_any;
	case GRANT_EXCEPT:
		return auth_in_set(g->excluded, g->nexcluded, atom) ? &con_none : &con_any;
	default: {
		const struct grant_cap *c = find_cap(g, atom);
		return c ? &c->c : &con_none;
	}
	}
}

/* The caps of bounded B that survive under A (universal or except), and
 * pointwise meets where A is bounded too. */
static struct grant *meet_bounded(const struct grant *a, const struct grant *b)
{
	struct grant *m = grant_none();
	for (size_t i = 0; i < b->ncaps; i++) {
		struct constraint c;
		constraint_meet(&c, grant_lookup(a, b->caps[i].atom), &b->caps[i].c);
		if (c.kind != CON_NONE)
			insert_cap(m, b->caps[i].atom, &c);
		constraint_clear(&c);
	}
	return m;
}

struct grant *grant_meet(const struct grant *a, const struct grant *b)
{
	if (a->scope == GRANT_UNIVERSAL)
		return grant_copy(b);
	if (b->scope == GRANT_UNIVERSAL)
		return grant_copy(a);
	if (b->scope == GRANT_BOUNDED)
		return meet_bounded(a, b);
	if (a->scope == GRANT_BOUNDED)
		return meet_bounded(b, a);
	/* Both universal-except: the union of two upward-closed sets is one. */
	size_t n = a->nexcluded + b->nexcluded;
	char **set = xcalloc(n, sizeof *set);
	for (size_t i = 0; i < a->nexcluded; i++)
		set[i] = xstrdup(a->excluded[i]);
	for (size_t i = 0; i < b->nexcluded; i++)
		set[a->nexcluded + i] = xstrdup(b->excluded[i]);
	return except_from_set(set, auth_sort_unique(set, n));
}

/* Does HOLDER cover REQ? If not and ERR is given, say where it fails. */
/* Whether h covers r; when not, and err is not NULL, why. grant_covers
 * asks without a why: most of a sub-agent's or a tool's checks, and the
 * reason costs two renderings and a format. */
static bool covers_or_why(const struct grant *h, const struct grant *r, char *err, size_t errlen)
{
	if (h->scope == GRANT_UNIVERSAL)
		return true;
	if (r->scope == GRANT_UNIVERSAL) {
		if (err)
			fmt_into(err, errlen, "every capability is asked for, and not every one is held");
		return false;
	}
	if (r->scope == GRANT_EXCEPT) {
		if (h->scope == GRANT_BOUNDED) {
			if (err)
				fmt_into(err, errlen, "all but a few capabilities are asked for, "
						      "and the holder's are bounded");
			return false;
		}
		for (size_t i = 0; i < h->nexcluded; i++) {
			if (!auth_in_set(r->excluded, r->nexcluded, h->excluded[i])) {
				if (err)
					fmt_into(err, errlen, "%s is asked for and not held",
						 h->excluded[i]);
				return false;
			}
		}
		return true;
	}
	for (size_t i = 0; i < r->ncaps; i++) {
		const struct grant_cap *want = &r->caps[i];
		const struct constraint *have = grant_lookup(h, want->atom);
		if (constraint_covers(have, &want->c))
			continue;
		if (!err) {
			return false;
		} else if (have->kind == CON_NONE) {
			fmt_into(err, errlen, "%s is asked for and not held", want->atom);
		} else {
			_cleanup_free_ char *rh = constraint_render(have);
			_cleanup_free_ char *rw = constraint_render(&want->c);
			fmt_into(err, errlen, "%s is asked for with '%s' and held only with '%s'",
				 want->atom, rw, rh);
		}
		return false;
	}
	return true;
}

bool grant_covers(const struct grant *holder, const struct grant *req)
{
	return covers_or_why(holder, req, NULL, 0);
}

bool grant_equal(const struct grant *a, const struct grant *b)
{
	if (a->scope != b->scope || a->nexcluded != b->nexcluded || a->ncaps != b->ncaps)
		return false;
	for (size_t i = 0; i < a->nexcluded; i++)
		if (strcmp(a->excluded[i], b->excluded[i]) != 0)
			return false;
	for (size_t i = 0; i < a->ncaps; i++)
		if (strcmp(a->caps[i].atom, b->caps[i].atom) != 0 ||
		    !constraint_equal(&a->caps[i].c, &b->caps[i].c))
			return false;
	return true;
}

struct grant *grant_without(const struct grant *g, const char *const *atoms, size_t n)
{
	size_t m;
	char **gone = auth_upward_closure(atoms, n, &m);
	if (g->scope == GRANT_UNIVERSAL)
		return except_from_set(gone, m);
	_cleanup_grant_ struct grant *cut = except_from_set(gone, m);
	return grant_meet(g, cut);
}

struct grant *grant_confer(const struct grant *holder, const struct grant *req,
			   char *err, size_t errlen)
{
	char why[300];
	if (!covers_or_why(holder, req, why, sizeof why)) {
		fmt_into(err, errlen, "escalation: %s", why);
		return NULL;
	}
	return grant_copy(req);
}

bool grant_is_none(const struct grant *g)
{
	return g->scope == GRANT_BOUNDED && g->ncaps == 0;
}

static bool strs_sorted_unique(char *const *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (strcmp(v[i - 1], v[i]) >= 0)
			return false;
	return true;
}

bool grant_is_closed(const struct grant *g)
{
	if (g->scope == GRANT_EXCEPT && (g->nexcluded == 0 ||
					 !strs_sorted_unique(g->excluded, g->nexcluded)))
		return false;
	for (size_t i = 0; i < g->ncaps; i++) {
		if (g->caps[i].c.kind == CON_NONE)
			return false;
		if (i && strcmp(g->caps[i - 1].atom, g->caps[i].atom) >= 0)
			return false;
	}
	/* Whatever holds an atom holds at least as much of what it implies,
	 * and all of it where the implication carries no constraint. */
	for (size_t e = 0; e < AUTH_NIMPLICATIONS; e++) {
		const struct constraint *from = grant_lookup(g, auth_implications[e].from);
		const struct constraint *to = grant_lookup(g, auth_implications[e].to);
		if (!constraint_covers(to, from))
			return false;
		if (!auth_implications[e].carries && from->kind != CON_NONE && to->kind != CON_ANY)
			return false;
	}
	return true;
}

/* ATOM and everything it implies, ATOM first. */
static size_t downward_closure(const char *atom, const char **out, size_t cap)
{
	size_t n = 0;
	out[n++] = atom;
	for (size_t e = 0; e < AUTH_NIMPLICATIONS && n < cap; e++) {
		bool has_from = false, has_to = false;
		for (size_t i = 0; i < n; i++) {
			has_from |= strcmp(out[i], auth_implications[e].from) == 0;
			has_to |= strcmp(out[i], auth_implications[e].to) == 0;
		}
		if (has_from && !has_to)
			out[n++] = auth_implications[e].to;
	}
	return n;
}

static char *denial(const char *x, const char *atom, const struct constraint *c,
		    const char *object, const struct auth_ctx *ctx)
{
	if (c->kind == CON_NONE) {
		if (strcmp(x, atom) == 0)
			return xasprintf("%s is not granted", x);
		return xasprintf("%s is not granted (%s implies it)", x, atom);
	}
	if (c->kind == CON_ANY)
		return NULL;
	_cleanup_free_ char *rc = constraint_render(c);
	/* the shell tools ask for their command as words (mediate.c): a path
	 * or a range handed down by a bundle (tools/standard under src/) is
	 * met by no command, so no command is allowed here either */
	if (strcmp(x, "process/exec") == 0 && (c->kind == CON_PATH || c->kind == CON_RANGE))
		return xasprintf("%s is granted only for %s, which no command meets", x, rc);
	/* the file tools ask for paths: a command prefix is met by none */
	if (strncmp(x, "file/", 5) == 0 && c->kind == CON_PREFIX)
		return xasprintf("%s is granted only for %s, which no path meets", x, rc);
	if (!object)
		return xasprintf("%s is granted only for %s; name an OBJECT to check against it",
				 x, rc);
	_cleanup_free_ char *why = NULL;
	if (constraint_permits(c, object, ctx, &why))
		return NULL;
	return xasprintf("%s is granted only for %s, %s", x, rc, why);
}

enum check_result grant_check(const struct grant *g, const char *atom_text, const char *object,
			      const struct auth_ctx *ctx, char **reason)
{
	char err[200];
	_cleanup_free_ char *atom = atom_normalize(atom_text, err, sizeof err);
	if (!atom) {
		*reason = xstrdup(err);
		return CHECK_BAD_ATOM;
	}
	const char *need[AUTH_NIMPLICATIONS + 1];
	size_t n = downward_closure(atom, need, ARRAY_SIZE(need));
	for (size_t i = 0; i < n; i++) {
		char *why = denial(need[i], atom, grant_lookup(g, need[i]), object, ctx);
		if (why) {
			*reason = why;
			return CHECK_DENIED;
		}
	}
	*reason = xstrdup("allowed");
	return CHECK_ALLOWED;
}

