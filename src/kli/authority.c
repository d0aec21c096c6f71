/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "authority.h"
#include "path.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- atoms */

/* Direct implications, in an order where every source comes before any
 * edge leaving one of its targets, so one pass closes a grant.
 *
 * A bundle hands its constraint on (tools/standard under src/ writes only
 * under src/). result/read is checked against nothing (paging a result
 * has no object), so a constraint there could never be met: what implies
 * it grants it unconstrained. */
static const struct {
	const char *from, *to;
	bool carries;   /* the target gets the source's constraint, else any */
} implications[] = {
	{ "tools/standard", "file/read", true },
	{ "tools/standard", "file/write", true },
	{ "tools/standard", "file/edit", true },
	{ "tools/standard", "process/exec", true },
	{ "file/read", "result/read", false },
	{ "process/exec", "result/read", false },
};

/* User text inside a one-line message: printable ASCII only, bounded. */
static const char *shown(const char *s, size_t n, char *buf, size_t buflen)
{
	size_t max = buflen - 4, o = 0;
	for (size_t i = 0; i < n && s[i]; i++) {
		if (o >= max) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		unsigned char c = (unsigned char)s[i];
		buf[o++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	buf[o] = '\0';
	return buf;
}

#define SHOWN(s) shown((s), strlen(s), (char[72]){ 0 }, 72)
#define SHOWN_N(s, n) shown((s), (n), (char[72]){ 0 }, 72)

char *atom_normalize(const char *text, char *err, size_t errlen)
{
	const char *s = text[0] == ':' ? text + 1 : text;
	size_t n = strlen(s);
	if (n == 0) {
		fmt_into(err, errlen, "empty atom");
		return NULL;
	}
	if (n > ATOM_MAX_LEN) {
		fmt_into(err, errlen, "atom '%s' is longer than %d characters", SHOWN(text),
			 ATOM_MAX_LEN);
		return NULL;
	}
	_cleanup_free_ char *a = xstrndup(s, n);
	size_t nslash = 0, slash = 0;
	for (size_t i = 0; i < n; i++) {
		char c = a[i];
		if (c >= 'A' && c <= 'Z') /* not tolower(): the locale must not matter */
			a[i] = (char)(c - 'A' + 'a');
		else if (c == '/') {
			nslash++;
			slash = i;
		} else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
			fmt_into(err, errlen,
				 "atom '%s' has a character other than a-z, 0-9, '-' and one '/'",
				 SHOWN(text));
			return NULL;
		}
	}
	if (nslash != 1 || slash == 0 || slash == n - 1) {
		fmt_into(err, errlen, "atom '%s' is not of the form group/verb", SHOWN(text));
		return NULL;
	}
	return steal_pointer(&a);
}

static bool in_set(char *const *set, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(set[i], s) == 0)
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort and drop duplicates in place; returns the new count. */
static size_t sort_unique(char **v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, cmp_str);
	size_t o = 1;
	for (size_t i = 1; i < n; i++) {
		if (strcmp(v[i], v[o - 1]) == 0)
			free(v[i]);
		else
			v[o++] = v[i];
	}
	return o;
}

/* ATOMS plus every atom that implies one of them: the set a removal must
 * take away so that no bundle keeps what was removed. Sorted, unique. */
static char **upward_closure(const char *const *atoms, size_t n, size_t *nout)
{
	size_t cap = n + ARRAY_SIZE(implications) + 1, m = 0;
	char **set = xcalloc(cap, sizeof *set);
	for (size_t i = 0; i < n; i++)
		if (!in_set(set, m, atoms[i]))
			set[m++] = xstrdup(atoms[i]);
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t e = 0; e < ARRAY_SIZE(implications); e++) {
			if (in_set(set, m, implications[e].to) &&
			    !in_set(set, m, implications[e].from)) {
				set[m++] = xstrdup(implications[e].from);
				grew = true;
			}
		}
	}
	*nout = sort_unique(set, m);
	return set;
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* ---------------------------------------------------------- constraints */

void constraint_any(struct constraint *out)
{
	*out = (struct constraint){ .kind = CON_ANY };
}

void constraint_none(struct constraint *out)
{
	*out = (struct constraint){ .kind = CON_NONE };
}

void constraint_path(struct constraint *out, const char *path)
{
	*out = (struct constraint){ .kind = CON_PATH, .path = xstrdup(path) };
}

void constraint_range(struct constraint *out, long long lo, long long hi)
{
	if (lo > hi)
		constraint_none(out);
	else
		*out = (struct constraint){ .kind = CON_RANGE, .lo = lo, .hi = hi };
}

void constraint_enum(struct constraint *out, const char *const *values, size_t n)
{
	if (n == 0) {
		constraint_none(out);
		return;
	}
	char **v = xcalloc(n, sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = xstrdup(values[i]);
	*out = (struct constraint){ .kind = CON_ENUM, .values = v,
				    .nvalues = sort_unique(v, n) };
}

void constraint_copy(struct constraint *out, const struct constraint *c)
{
	switch (c->kind) {
	case CON_PATH:
		constraint_path(out, c->path);
		return;
	case CON_ENUM:
		constraint_enum(out, (const char *const *)c->values, c->nvalues);
		return;
	default:
		*out = *c;
		out->path = NULL;
		out->values = NULL;
		return;
	}
}

void constraint_clear(struct constraint *c)
{
	free(c->path);
	free_strs(c->values, c->nvalues);
	constraint_none(c);
}

static char *resolve_with(const struct auth_ctx *ctx, const char *p)
{
	return (ctx->resolve ? ctx->resolve : path_resolve)(p, ctx->workspace);
}

/* An object or a config path made absolute against the workspace, "~"
 * expanded, and resolved through ctx. */
static char *resolve_object(const char *path, const struct auth_ctx *ctx, char *err,
			    size_t errlen)
{
	_cleanup_free_ char *expanded = NULL;
	if (path[0] == '~') {
		expanded = path_expand_home(path, ctx->home);
		if (!expanded) {
			fmt_into(err, errlen, "cannot expand '%s' (only ~ and ~/ with HOME set)",
				 SHOWN(path));
			return NULL;
		}
		path = expanded;
	}
	if (path[0] != '/' && (!ctx->workspace || ctx->workspace[0] != '/')) {
		fmt_into(err, errlen, "relative path '%s' without an absolute workspace",
			 SHOWN(path));
		return NULL;
	}
	char *r = resolve_with(ctx, path);
	if (!r)
		fmt_into(err, errlen, "cannot resolve '%s': %s", SHOWN(path), strerror(errno));
	return r;
}

bool constraint_path_resolve(struct constraint *out, const char *path,
			     const struct auth_ctx *ctx, char *err, size_t errlen)
{
	char *r = resolve_object(path, ctx, err, errlen);
	if (!r)
		return false;
	*out = (struct constraint){ .kind = CON_PATH, .path = r };
	return true;
}

static void enum_intersect(struct constraint *out, const struct constraint *a,
			   const struct constraint *b)
{
	const char **v = xcalloc(a->nvalues, sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < a->nvalues; i++)
		if (in_set(b->values, b->nvalues, a->values[i]))
			v[n++] = a->values[i];
	constraint_enum(out, v, n);
	free(v);
}

void constraint_meet(struct constraint *out, const struct constraint *a,
		     const struct constraint *b)
{
	if (a->kind == CON_ANY) {
		constraint_copy(out, b);
		return;
	}
	if (b->kind == CON_ANY) {
		constraint_copy(out, a);
		return;
	}
	if (a->kind != b->kind || a->kind == CON_NONE) {
		/* The kinds are incomparable: nothing satisfies both. */
		constraint_none(out);
		return;
	}
	switch (a->kind) {
	case CON_PATH:
		if (path_is_under(b->path, a->path))
			constraint_copy(out, b);
		else if (path_is_under(a->path, b->path))
			constraint_copy(out, a);
		else
			constraint_none(out);
		return;
	case CON_RANGE:
		constraint_range(out, a->lo > b->lo ? a->lo : b->lo,
				 a->hi < b->hi ? a->hi : b->hi);
		return;
	case CON_ENUM:
		enum_intersect(out, a, b);
		return;
	default:
		constraint_none(out);
		return;
	}
}

static bool enum_subset(const struct constraint *small, const struct constraint *big)
{
	for (size_t i = 0; i < small->nvalues; i++)
		if (!in_set(big->values, big->nvalues, small->values[i]))
			return false;
	return true;
}

bool constraint_covers(const struct constraint *holder, const struct constraint *req)
{
	if (holder->kind == CON_ANY || req->kind == CON_NONE)
		return true;
	if (holder->kind != req->kind)
		return false;
	switch (holder->kind) {
	case CON_PATH:
		return path_is_under(req->path, holder->path);
	case CON_RANGE:
		return holder->lo <= req->lo && req->hi <= holder->hi;
	case CON_ENUM:
		return enum_subset(req, holder);
	default:
		return false; /* holder none, request not none */
	}
}

bool constraint_equal(const struct constraint *a, const struct constraint *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case CON_PATH:
		return strcmp(a->path, b->path) == 0;
	case CON_RANGE:
		return a->lo == b->lo && a->hi == b->hi;
	case CON_ENUM:
		if (a->nvalues != b->nvalues)
			return false;
		for (size_t i = 0; i < a->nvalues; i++)
			if (strcmp(a->values[i], b->values[i]) != 0)
				return false;
		return true;
	default:
		return true;
	}
}

/* Do [a.lo, a.hi] and [b.lo, b.hi] overlap or touch? (no overflow) */
static bool ranges_join(const struct constraint *a, const struct constraint *b)
{
	const struct constraint *first = a->lo <= b->lo ? a : b;
	const struct constraint *second = first == a ? b : a;
	return first->hi == LLONG_MAX || second->lo <= first->hi + 1;
}

bool constraint_union_exact(struct constraint *out, const struct constraint *a,
			    const struct constraint *b)
{
	if (a->kind == CON_ANY || b->kind == CON_NONE) {
		constraint_copy(out, a);
		return true;
	}
	if (b->kind == CON_ANY || a->kind == CON_NONE) {
		constraint_copy(out, b);
		return true;
	}
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case CON_PATH:
		if (path_is_under(b->path, a->path))
			constraint_copy(out, a);
		else if (path_is_under(a->path, b->path))
			constraint_copy(out, b);
		else
			return false;
		return true;
	case CON_RANGE:
		if (!ranges_join(a, b))
			return false;
		constraint_range(out, a->lo < b->lo ? a->lo : b->lo, a->hi > b->hi ? a->hi : b->hi);
		return true;
	case CON_ENUM: {
		const char **v = xcalloc(a->nvalues + b->nvalues, sizeof *v);
		memcpy(v, a->values, a->nvalues * sizeof *v);
		memcpy(v + a->nvalues, b->values, b->nvalues * sizeof *v);
		constraint_enum(out, v, a->nvalues + b->nvalues);
		free(v);
		return true;
	}
	default:
		return false;
	}
}

char *constraint_render(const struct constraint *c)
{
	switch (c->kind) {
	case CON_ANY:
		return xstrdup("any");
	case CON_PATH:
		return xasprintf("path under %s", c->path);
	case CON_RANGE:
		return xasprintf("in [%lld..%lld]", c->lo, c->hi);
	case CON_ENUM: {
		char *s = xstrdup("one of ");
		for (size_t i = 0; i < c->nvalues; i++) {
			char *t = xasprintf("%s%s\"%s\"", s, i ? ", " : "", c->values[i]);
			free(s);
			s = t;
		}
		return s;
	}
	default:
		return xstrdup("none");
	}
}

/* Decimal integer, optional '-', nothing else; false on garbage or overflow
 * (*overflow tells which). */
static bool parse_ll(const char *s, size_t n, long long *out, bool *overflow)
{
	*overflow = false;
	size_t i = 0;
	bool neg = n > 0 && s[0] == '-';
	if (neg)
		i++;
	if (i == n)
		return false;
	unsigned long long v = 0, limit = neg ? (unsigned long long)LLONG_MAX + 1 : LLONG_MAX;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (limit - d) / 10) {
			*overflow = true;
			return false;
		}
		v = v * 10 + d;
	}
	*out = neg ? (v == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)v)
		   : (long long)v;
	return true;
}

static bool permits_path(const struct constraint *c, const char *object,
			 const struct auth_ctx *ctx, char **why)
{
	char err[256];
	_cleanup_free_ char *r = resolve_object(object, ctx, err, sizeof err);
	if (!r) {
		if (why)
			*why = xasprintf("and %s", err);
		return false;
	}
	if (path_is_under(r, c->path))
		return true;
	if (why)
		*why = xasprintf("and %s is outside it", r);
	return false;
}

bool constraint_permits(const struct constraint *c, const char *object,
			const struct auth_ctx *ctx, char **why)
{
	long long v;
	bool overflow;
	switch (c->kind) {
	case CON_ANY:
		return true;
	case CON_PATH:
		return permits_path(c, object, ctx, why);
	case CON_RANGE:
		if (!parse_ll(object, strlen(object), &v, &overflow)) {
			if (why)
				*why = xasprintf("and '%s' is not an integer", SHOWN(object));
			return false;
		}
		if (v >= c->lo && v <= c->hi)
			return true;
		if (why)
			*why = xasprintf("and %lld is outside it", v);
		return false;
	case CON_ENUM:
		if (in_set(c->values, c->nvalues, object))
			return true;
		if (why)
			*why = xasprintf("and '%s' is not one of them", SHOWN(object));
		return false;
	default:
		if (why)
			*why = xstrdup("and nothing is");
		return false;
	}
}

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
	char **set = upward_closure(atoms, n, &m);
	return except_from_set(set, m);
}

void grant_free(struct grant *g)
{
	if (!g)
		return;
	free_strs(g->excluded, g->nexcluded);
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
	for (size_t e = 0; e < ARRAY_SIZE(implications); e++) {
		const struct grant_cap *from = find_cap(g, implications[e].from);
		if (!from)
			continue;
		struct constraint fc;
		if (implications[e].carries)
			constraint_copy(&fc, &from->c);
		else
			constraint_any(&fc);
		const struct grant_cap *to = find_cap(g, implications[e].to);
		struct constraint before;
		constraint_copy(&before, to ? &to->c : &fc);
		bool ok = union_into(g, implications[e].to, &fc);
		if (!ok) {
			_cleanup_free_ char *rb = constraint_render(&before);
			_cleanup_free_ char *rf = constraint_render(&fc);
			fmt_into(err, errlen, "%s ('%s') and %s, which implies it ('%s'), do not "
					      "combine into one constraint", implications[e].to, rb,
				 implications[e].from, rf);
			*bad = origin_of(caps, n, implications[e].from);
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
		return in_set(g->excluded, g->nexcluded, atom) ? &con_none : &con_any;
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
	return except_from_set(set, sort_unique(set, n));
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
			if (!in_set(r->excluded, r->nexcluded, h->excluded[i])) {
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
	char **gone = upward_closure(atoms, n, &m);
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
	for (size_t e = 0; e < ARRAY_SIZE(implications); e++) {
		const struct constraint *from = grant_lookup(g, implications[e].from);
		const struct constraint *to = grant_lookup(g, implications[e].to);
		if (!constraint_covers(to, from))
			return false;
		if (!implications[e].carries && from->kind != CON_NONE && to->kind != CON_ANY)
			return false;
	}
	return true;
}

/* ATOM and everything it implies, ATOM first. */
static size_t downward_closure(const char *atom, const char **out, size_t cap)
{
	size_t n = 0;
	out[n++] = atom;
	for (size_t e = 0; e < ARRAY_SIZE(implications) && n < cap; e++) {
		bool has_from = false, has_to = false;
		for (size_t i = 0; i < n; i++) {
			has_from |= strcmp(out[i], implications[e].from) == 0;
			has_to |= strcmp(out[i], implications[e].to) == 0;
		}
		if (has_from && !has_to)
			out[n++] = implications[e].to;
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
	const char *need[ARRAY_SIZE(implications) + 1];
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

/* ---------------------------------------------------- capability entries */

void grant_cap_clear(struct grant_cap *cap)
{
	free(cap->atom);
	cap->atom = NULL;
	constraint_clear(&cap->c);
}

void cap_list_clear(struct cap_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		grant_cap_clear(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static bool is_ws(char c)
{
	return c == ' ' || c == '\t';
}

static const char *skip_ws(const char *s)
{
	while (is_ws(*s))
		s++;
	return s;
}

/* Trimmed copy of [b, e). */
static char *trimmed(const char *b, const char *e)
{
	while (b < e && is_ws(*b))
		b++;
	while (e > b && is_ws(e[-1]))
		e--;
	return xstrndup(b, (size_t)(e - b));
}

/* Does S start with the word KW? *arg gets what follows, white space skipped. */
static bool keyword(const char *s, const char *kw, const char **arg)
{
	size_t n = strlen(kw);
	if (strncmp(s, kw, n) != 0 || (s[n] != '\0' && !is_ws(s[n])))
		return false;
	*arg = skip_ws(s + n);
	return true;
}

/* Structural UTF-8 check (no overlongs or surrogates), so reports stay valid JSON. */
static bool valid_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3
			   : (c >> 3) == 0x1e ? 4 : 0;
		if (len == 0 || i + len > n || (len == 2 && c < 0xc2))
			return false;
		for (size_t k = 1; k < len; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
		if (len == 3 && ((c == 0xe0 && s[i + 1] < 0xa0) || (c == 0xed && s[i + 1] >= 0xa0)))
			return false;
		if (len == 4 && ((c == 0xf0 && s[i + 1] < 0x90) || c > 0xf4 ||
				 (c == 0xf4 && s[i + 1] >= 0x90)))
			return false;
		i += len;
	}
	return true;
}

static bool parse_range(const char *entry, const char *arg, struct constraint *out,
			char *err, size_t errlen)
{
	const char *dots = strstr(arg, "..");
	if (!dots) {
		fmt_into(err, errlen, "bad capability '%s': 'in' needs LO..HI (two integers)",
			 SHOWN(entry));
		return false;
	}
	_cleanup_free_ char *lo_s = trimmed(arg, dots);
	_cleanup_free_ char *hi_s = trimmed(dots + 2, dots + strlen(dots));
	long long lo = 0, hi = 0;
	const char *bad = NULL;
	bool overflow = false;
	if (!parse_ll(lo_s, strlen(lo_s), &lo, &overflow))
		bad = lo_s;
	else if (!parse_ll(hi_s, strlen(hi_s), &hi, &overflow))
		bad = hi_s;
	if (bad && !bad[0])
		fmt_into(err, errlen, "bad capability '%s': %s is missing in LO..HI", SHOWN(entry),
			 bad == lo_s ? "LO" : "HI");
	else if (bad && overflow)
		fmt_into(err, errlen, "bad capability '%s': %s is out of range (%lld..%lld)",
			 SHOWN(entry), SHOWN(bad), LLONG_MIN, LLONG_MAX);
	else if (bad)
		fmt_into(err, errlen, "bad capability '%s': '%s' is not an integer", SHOWN(entry),
			 SHOWN(bad));
	else if (lo > hi)
		fmt_into(err, errlen, "bad capability '%s': empty range (%lld is greater than %lld)",
			 SHOWN(entry), lo, hi);
	else {
		constraint_range(out, lo, hi);
		return true;
	}
	return false;
}

static bool parse_enum(const char *entry, const char *arg, struct constraint *out,
		       char *err, size_t errlen)
{
	size_t n = 1;
	for (const char *p = arg; *p; p++)
		n += *p == '|';
	char **v = xcalloc(n, sizeof *v);
	size_t got = 0;
	bool ok = true;
	for (const char *p = arg; ok; p++) {
		const char *bar = strchr(p, '|');
		const char *end = bar ? bar : p + strlen(p);
		v[got] = trimmed(p, end);
		if (!v[got][0]) {
			fmt_into(err, errlen, "bad capability '%s': empty value in the 'one of' list",
				 SHOWN(entry));
			ok = false;
		} else if (strpbrk(v[got], "\"\\")) {
			fmt_into(err, errlen, "bad capability '%s': a value has a quote or backslash",
				 SHOWN(entry));
			ok = false;
		}
		got++;
		if (!bar)
			break;
		p = bar;
	}
	if (ok)
		constraint_enum(out, (const char *const *)v, got);
	free_strs(v, got);
	return ok;
}

static bool parse_constraint(const char *entry, const char *rest, const struct auth_ctx *ctx,
			     struct constraint *out, char *err, size_t errlen)
{
	const char *arg;
	if (!*rest) {
		constraint_any(out);
		return true;
	}
	if (keyword(rest, "under", &arg)) {
		if (!*arg) {
			fmt_into(err, errlen, "bad capability '%s': 'under' needs a path",
				 SHOWN(entry));
			return false;
		}
		char perr[200];
		if (!constraint_path_resolve(out, arg, ctx, perr, sizeof perr)) {
			fmt_into(err, errlen, "bad capability '%s': %s", SHOWN(entry), perr);
			return false;
		}
		/* a grant's report must state its path exactly: a newline or a
		 * byte that is not UTF-8 (a link's target, say) would read as
		 * something else (a tool's object, checked against it, may be
		 * any name) */
		if (!utf8_printable(out->path)) {
			fmt_into(err, errlen,
				 "bad capability '%s': '%s' resolves to a name with control "
				 "characters or bytes that are not UTF-8, which kli cannot state "
				 "exactly",
				 SHOWN(entry), SHOWN(arg));
			constraint_clear(out);
			return false;
		}
		return true;
	}
	if (keyword(rest, "in", &arg))
		return parse_range(entry, arg, out, err, errlen);
	if (keyword(rest, "one", &arg) && keyword(arg, "of", &arg)) {
		if (!*arg) {
			fmt_into(err, errlen, "bad capability '%s': 'one of' needs values (A|B)",
				 SHOWN(entry));
			return false;
		}
		return parse_enum(entry, arg, out, err, errlen);
	}
	fmt_into(err, errlen,
		 "bad capability '%s': after the atom, expected 'under PATH', 'in LO..HI' or "
		 "'one of A|B'", SHOWN(entry));
	return false;
}

bool cap_parse_entry(const char *text, const struct auth_ctx *ctx, struct grant_cap *out,
		     char *err, size_t errlen)
{
	_cleanup_free_ char *entry = trimmed(text, text + strlen(text));
	size_t n = strlen(entry);
	if (n == 0) {
		fmt_into(err, errlen, "empty capability entry");
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)entry[i];
		if (c < 0x20 || c == 0x7f) {
			fmt_into(err, errlen, "bad capability '%s': control character",
				 SHOWN(entry));
			return false;
		}
	}
	if (!valid_utf8((const unsigned char *)entry, n)) {
		fmt_into(err, errlen, "bad capability '%s': not valid UTF-8", SHOWN(entry));
		return false;
	}
	size_t alen = strcspn(entry, " \t");
	_cleanup_free_ char *raw = xstrndup(entry, alen);
	char aerr[200];
	_cleanup_free_ char *atom = atom_normalize(raw, aerr, sizeof aerr);
	if (!atom) {
		fmt_into(err, errlen, "bad capability '%s': %s", SHOWN(entry), aerr);
		return false;
	}
	struct constraint c;
	if (!parse_constraint(entry, skip_ws(entry + alen), ctx, &c, err, errlen))
		return false;
	out->atom = steal_pointer(&atom);
	out->c = c;
	return true;
}

bool cap_parse_list(const char *value, const struct auth_ctx *ctx, struct cap_list *out,
		    char *err, size_t errlen)
{
	if (!*skip_ws(value))
		return true;
	for (const char *p = value;;) {
		const char *comma = strchr(p, ',');
		_cleanup_free_ char *piece = comma ? xstrndup(p, (size_t)(comma - p)) : xstrdup(p);
		if (!*skip_ws(piece)) {
			fmt_into(err, errlen, "empty capability entry (a stray comma?)");
			return false;
		}
		struct grant_cap cap;
		if (!cap_parse_entry(piece, ctx, &cap, err, errlen))
			return false;
		out->v = xreallocarray(out->v, out->n + 1, sizeof *out->v);
		out->v[out->n++] = cap;
		if (!comma)
			return true;
		p = comma + 1;
	}
}
