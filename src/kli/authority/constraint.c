/* SPDX-License-Identifier: MIT */
/* Constraints: the per-atom semilattice (paths, ranges, enumerations). */
#include "config.h"
#include "authority/constraint.h"
#include "authority/internal.h"
#include "authority/argv.h"
#include "path.h"
#include "strbuf.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- constraints */

void constraint_any(struct constraint *out)
{
	*out = (struct constraint){ .kind = CON_ANY };
}

void constraint_none(struct constraint *out)
{
	*out = (struct constraint){ .kind = CON_NONE };
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void constraint_paths(struct constraint *out, const char *const *paths, size_t n)
{
	char **v = xcalloc(n ? n : 1, sizeof *v);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		bool covered = false;
		for (size_t j = 0; j < n && !covered; j++)
			/* under another, or an equal one met earlier */
			covered = j != i && path_is_under(paths[i], paths[j]) &&
				  (strcmp(paths[i], paths[j]) != 0 || j < i);
		if (!covered)
			v[k++] = xstrdup(paths[i]);
	}
	if (k == 0) {
		free(v);
		constraint_none(out);
		return;
	}
	qsort(v, k, sizeof *v, cmp_str);
	*out = (struct constraint){ .kind = CON_PATH, .paths = v, .npaths = k };
}

void constraint_prefixes(struct constraint *out, const char *const *prefixes, size_t n)
{
	char **v = xcalloc(n ? n : 1, sizeof *v);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		bool covered = false;
		for (size_t j = 0; j < n && !covered; j++)
			covered = j != i && argv_is_prefix(prefixes[j], prefixes[i]) &&
				  (strcmp(prefixes[i], prefixes[j]) != 0 || j < i);
		if (!covered)
			v[k++] = xstrdup(prefixes[i]);
	}
	if (k == 0) {
		free(v);
		constraint_none(out);
		return;
	}
	qsort(v, k, sizeof *v, cmp_str);
	*out = (struct constraint){ .kind = CON_PREFIX, .values = v, .nvalues = k };
}

static bool argv_words_ok(const char *cmd)
{
	_cleanup_free_ char *canon = argv_canonical(cmd);
	return canon != NULL;
}

/* Is the command CMD (any text) allowed by the prefixes of P? */
static bool prefix_allows(const struct constraint *p, const char *cmd)
{
	_cleanup_free_ char *canon = argv_canonical(cmd);
	if (!canon)
		return false;
	for (size_t i = 0; i < p->nvalues; i++)
		if (argv_is_prefix(p->values[i], canon))
			return true;
	return false;
}

/* The commands of enumeration E that prefix set P allows. */
static void prefix_filter(struct constraint *out, const struct constraint *p,
			  const struct constraint *e)
{
	const char **v = xcalloc(e->nvalues, sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < e->nvalues; i++)
		if (prefix_allows(p, e->values[i]))
			v[n++] = e->values[i];
	constraint_enum(out, v, n);
	free(v);
}

static bool prefix_covers_enum(const struct constraint *p, const struct constraint *e)
{
	for (size_t i = 0; i < e->nvalues; i++)
		if (!prefix_allows(p, e->values[i]))
			return false;
	return true;
}

/* Two prefix sets: for each pair, the longer when one is a word prefix of
 * the other (their intersection), or their union. */
static void prefixes_meet(struct constraint *out, const struct constraint *a,
			  const struct constraint *b)
{
	const char **v = xcalloc(a->nvalues * b->nvalues, sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < a->nvalues; i++)
		for (size_t j = 0; j < b->nvalues; j++) {
			if (argv_is_prefix(a->values[i], b->values[j]))
				v[n++] = b->values[j];
			else if (argv_is_prefix(b->values[j], a->values[i]))
				v[n++] = a->values[i];
		}
	constraint_prefixes(out, v, n);
	free(v);
}

static void prefixes_join(struct constraint *out, const struct constraint *a,
			  const struct constraint *b)
{
	const char **v = xcalloc(a->nvalues + b->nvalues, sizeof *v);
	memcpy(v, a->values, a->nvalues * sizeof *v);
	memcpy(v + a->nvalues, b->values, b->nvalues * sizeof *v);
	constraint_prefixes(out, v, a->nvalues + b->nvalues);
	free(v);
}

void constraint_path(struct constraint *out, const char *path)
{
	constraint_paths(out, &path, 1);
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
				    .nvalues = auth_sort_unique(v, n) };
}

void constraint_copy(struct constraint *out, const struct constraint *c)
{
	switch (c->kind) {
	case CON_PATH:
		constraint_paths(out, (const char *const *)c->paths, c->npaths);
		return;
	case CON_ENUM:
		constraint_enum(out, (const char *const *)c->values, c->nvalues);
		return;
	case CON_PREFIX:
		constraint_prefixes(out, (const char *const *)c->values, c->nvalues);
		return;
	default:
		*out = *c;
		out->paths = NULL;
		out->values = NULL;
		return;
	}
}

void constraint_clear(struct constraint *c)
{
	auth_free_strs(c->paths, c->npaths);
	auth_free_strs(c->values, c->nvalues);
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
	char **v = xcalloc(1, sizeof *v);
	v[0] = r;
	*out = (struct constraint){ .kind = CON_PATH, .paths = v, .npaths = 1 };
	return true;
}

/* Is P under one of C's prefixes? */
static bool under_set(const char *p, const struct constraint *c)
{
	for (size_t i = 0; i < c->npaths; i++)
		if (path_is_under(p, c->paths[i]))
			return true;
	return false;
}

/* The meet of two prefix sets: for each pair, the deeper of the two when
 * one is under the other (the intersection of two subtrees is the deeper
 * subtree or nothing). */
static void paths_meet(struct constraint *out, const struct constraint *a,
		       const struct constraint *b)
{
	const char **v = xcalloc(a->npaths * b->npaths, sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < a->npaths; i++)
		for (size_t j = 0; j < b->npaths; j++) {
			if (path_is_under(b->paths[j], a->paths[i]))
				v[n++] = b->paths[j];
			else if (path_is_under(a->paths[i], b->paths[j]))
				v[n++] = a->paths[i];
		}
	constraint_paths(out, v, n);
	free(v);
}

/* The union: both sets together, reduced. */
static void paths_join(struct constraint *out, const struct constraint *a,
		       const struct constraint *b)
{
	const char **v = xcalloc(a->npaths + b->npaths, sizeof *v);
	memcpy(v, a->paths, a->npaths * sizeof *v);
	memcpy(v + a->npaths, b->paths, b->npaths * sizeof *v);
	constraint_paths(out, v, a->npaths + b->npaths);
	free(v);
}

static void enum_intersect(struct constraint *out, const struct constraint *a,
			   const struct constraint *b)
{
	const char **v = xcalloc(a->nvalues, sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < a->nvalues; i++)
		if (auth_in_set(b->values, b->nvalues, a->values[i]))
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
	/* a prefix set and an enumeration of commands: the commands it allows */
	if (a->kind == CON_PREFIX && b->kind == CON_ENUM) {
		prefix_filter(out, a, b);
		return;
	}
	if (b->kind == CON_PREFIX && a->kind == CON_ENUM) {
		prefix_filter(out, b, a);
		return;
	}
	if (a->kind != b->kind || a->kind == CON_NONE) {
		/* The kinds are incomparable: nothing satisfies both. */
		constraint_none(out);
		return;
	}
	switch (a->kind) {
	case CON_PATH:
		paths_meet(out, a, b);
		return;
	case CON_RANGE:
		constraint_range(out, a->lo > b->lo ? a->lo : b->lo,
				 a->hi < b->hi ? a->hi : b->hi);
		return;
	case CON_ENUM:
		enum_intersect(out, a, b);
		return;
	case CON_PREFIX:
		prefixes_meet(out, a, b);
		return;
	default:
		constraint_none(out);
		return;
	}
}

static bool enum_subset(const struct constraint *small, const struct constraint *big)
{
	for (size_t i = 0; i < small->nvalues; i++)
		if (!auth_in_set(big->values, big->nvalues, small->values[i]))
			return false;
	return true;
}

bool constraint_covers(const struct constraint *holder, const struct constraint *req)
{
	if (holder->kind == CON_ANY || req->kind == CON_NONE)
		return true;
	if (holder->kind == CON_PREFIX && req->kind == CON_ENUM)
		return prefix_covers_enum(holder, req);
	if (holder->kind != req->kind)
		return false;
	switch (holder->kind) {
	case CON_PATH:
		for (size_t i = 0; i < req->npaths; i++)
			if (!under_set(req->paths[i], holder))
				return false;
		return true;
	case CON_RANGE:
		return holder->lo <= req->lo && req->hi <= holder->hi;
	case CON_ENUM:
		return enum_subset(req, holder);
	case CON_PREFIX:
		for (size_t i = 0; i < req->nvalues; i++) {
			bool found = false;
			for (size_t j = 0; j < holder->nvalues && !found; j++)
				found = argv_is_prefix(holder->values[j], req->values[i]);
			if (!found)
				return false;
		}
		return true;
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
		if (a->npaths != b->npaths)
			return false;
		for (size_t i = 0; i < a->npaths; i++)
			if (strcmp(a->paths[i], b->paths[i]) != 0)
				return false;
		return true;
	case CON_RANGE:
		return a->lo == b->lo && a->hi == b->hi;
	case CON_ENUM:
	case CON_PREFIX:
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
	/* an enumeration of commands inside a prefix set: the set */
	if (a->kind == CON_PREFIX && b->kind == CON_ENUM && prefix_covers_enum(a, b)) {
		constraint_copy(out, a);
		return true;
	}
	if (b->kind == CON_PREFIX && a->kind == CON_ENUM && prefix_covers_enum(b, a)) {
		constraint_copy(out, b);
		return true;
	}
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case CON_PATH:
		paths_join(out, a, b);
		return true;
	case CON_PREFIX:
		prefixes_join(out, a, b);
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

char *constraint_path_word(const char *path)
{
	return strpbrk(path, " \t") ? xasprintf("\"%s\"", path) : xstrdup(path);
}

char *constraint_render(const struct constraint *c)
{
	switch (c->kind) {
	case CON_ANY:
		return xstrdup("any");
	case CON_PATH: {
		struct strbuf s = STRBUF_INIT;
		sb_adds(&s, "path under");
		for (size_t i = 0; i < c->npaths; i++) {
			_cleanup_free_ char *w = constraint_path_word(c->paths[i]);
			sb_addf(&s, " %s", w);
		}
		return sb_detach(&s);
	}
	case CON_RANGE:
		return xasprintf("in [%lld..%lld]", c->lo, c->hi);
	case CON_PREFIX: {
		struct strbuf s = STRBUF_INIT;
		sb_adds(&s, "prefix ");
		for (size_t i = 0; i < c->nvalues; i++)
			sb_addf(&s, "%s\"%s\"", i ? " " : "", c->values[i]);
		return sb_detach(&s);
	}
	case CON_ENUM: {
		struct strbuf s = STRBUF_INIT;
		sb_adds(&s, "one of ");
		for (size_t i = 0; i < c->nvalues; i++)
			sb_addf(&s, "%s\"%s\"", i ? ", " : "", c->values[i]);
		return sb_detach(&s);
	}
	default:
		return xstrdup("none");
	}
}

/* Decimal integer, optional '-', nothing else; false on garbage or overflow
 * (*overflow tells which). */
bool auth_parse_ll(const char *s, size_t n, long long *out, bool *overflow)
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
	if (under_set(r, c))
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
		if (!auth_parse_ll(object, strlen(object), &v, &overflow)) {
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
		if (auth_in_set(c->values, c->nvalues, object))
			return true;
		if (why)
			*why = xasprintf("and '%s' is not one of them", SHOWN(object));
		return false;
	case CON_PREFIX:
		if (prefix_allows(c, object))
			return true;
		if (why)
			*why = argv_words_ok(object)
				? xasprintf("and '%s' starts with none of them", SHOWN(object))
				: xasprintf("and '%s' is not a simple command (words of letters, "
					    "digits and _-./=:@%%+^ only)", SHOWN(object));
		return false;
	default:
		if (why)
			*why = xstrdup("and nothing is");
		return false;
	}
}

