/* SPDX-License-Identifier: MIT */
/* The grant within the jail: see containment.h. */
#include "config.h"
#include "containment/containment.h"
#include "path.h"
#include "strbuf.h"
#include "util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* sorted, as a bounded grant lists its atoms */
static const char *const file_atoms[] = { "file/edit", "file/read", "file/write" };

static bool is_file_atom(const char *atom)
{
	for (size_t i = 0; i < ARRAY_SIZE(file_atoms); i++)
		if (strcmp(atom, file_atoms[i]) == 0)
			return true;
	return false;
}

static bool writes(const char *atom)
{
	return strcmp(atom, "file/write") == 0 || strcmp(atom, "file/edit") == 0;
}

static void push_str(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void part_clear(struct cont_part *p)
{
	free(p->path);
	free(p->verdict);
	free(p->rule);
	free(p->origin);
}

static void push_part(struct cont_part **v, size_t *n, const char *path,
		      const struct jail_mount *m)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = (struct cont_part){
		.path = xstrdup(path),
		.verdict = xstrdup(m ? m->verdict : "none"),
		.rule = xstrdup(m ? m->rule : "none"),
		.origin = xstrdup(m ? m->origin : "no mount covers it"),
	};
}

static void copy_part(struct cont_part **v, size_t *n, const struct cont_part *p)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = (struct cont_part){ xstrdup(p->path), xstrdup(p->verdict),
					   xstrdup(p->rule), xstrdup(p->origin) };
}

/* Does mount M decide its own path (no later mount covers it)? */
static bool deciding(const struct jail_policy *p, const struct jail_mount *m)
{
	return jail_verdict_for(p, m->path) == m;
}

static bool strictly_under(const char *path, const char *dir)
{
	return strcmp(path, dir) != 0 && path_is_under(path, dir);
}

/* "(origin)" when the rule only repeats the verdict, else "(rule; origin)",
 * as kjail --explain writes it. */
static char *why(const struct cont_part *p)
{
	return strcmp(p->rule, p->verdict) == 0 ? xasprintf("(%s)", p->origin)
						: xasprintf("(%s; %s)", p->rule, p->origin);
}

/* ---------------------------------------------------------------- atoms */

/* Where a file tool works: writes on writable mounts only (a private one
 * is the jail's own file system: nothing reaches the host), reads on all
 * but masked and private ones. */
static bool tool_works(const char *atom, const char *verdict)
{
	if (writes(atom))
		return strcmp(verdict, "writable") == 0;
	return strcmp(verdict, "masked") != 0 && strcmp(verdict, "private") != 0 &&
	       strcmp(verdict, "none") != 0;
}

static bool under_any(const char *path, char *const *dirs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (path_is_under(path, dirs[i]))
			return true;
	return false;
}

static bool under_any_part(const char *path, const struct cont_part *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (path_is_under(path, v[i].path))
			return true;
	return false;
}

static void effective(struct cont_atom *a)
{
	for (size_t i = 0; i < a->nparts; i++) {
		const struct cont_part *pt = &a->parts[i];
		bool in = under_any(pt->path, a->works, a->nworks) &&
			  !under_any_part(pt->path, a->except, a->nexcept);
		if (tool_works(a->atom, pt->verdict)) {
			if (!in)
				push_str(&a->works, &a->nworks, pt->path);
		} else if (in) {
			copy_part(&a->except, &a->nexcept, pt);
		}
	}
}

/* One entry per root: a path set's every prefix is checked on its own. */
static void add_atom(struct containment *c, const struct jail_policy *p, const char *atom,
		     const struct constraint *con, const char *root)
{
	c->atoms = xreallocarray(c->atoms, c->natoms + 1, sizeof *c->atoms);
	struct cont_atom *a = &c->atoms[c->natoms++];
	*a = (struct cont_atom){ .atom = xstrdup(atom), .constraint = constraint_render(con) };
	a->root = xstrdup(root);
	push_part(&a->parts, &a->nparts, a->root, jail_verdict_for(p, a->root));
	for (size_t i = 0; i < p->nmounts; i++) {
		const struct jail_mount *m = &p->mounts[i];
		if (strictly_under(m->path, a->root) && deciding(p, m))
			push_part(&a->parts, &a->nparts, m->path, m);
	}
	if (is_file_atom(atom))
		effective(a);
}

static void collect_atoms(struct containment *c, const struct grant *g,
			  const struct jail_policy *p)
{
	if (g->scope != GRANT_BOUNDED) {
		for (size_t i = 0; i < ARRAY_SIZE(file_atoms); i++) {
			const struct constraint *con = grant_lookup(g, file_atoms[i]);
			if (con->kind == CON_ANY)
				add_atom(c, p, file_atoms[i], con, "/");
		}
		return;
	}
	for (size_t i = 0; i < g->ncaps; i++) {
		const struct grant_cap *cap = &g->caps[i];
		/* a bundle's constraint is its implied atoms' */
		if (strcmp(cap->atom, "tools/standard") == 0)
			continue;
		if (cap->c.kind == CON_PATH)
			for (size_t k = 0; k < cap->c.npaths; k++)
				add_atom(c, p, cap->atom, &cap->c, cap->c.paths[k]);
		else if (is_file_atom(cap->atom) && cap->c.kind == CON_ANY)
			add_atom(c, p, cap->atom, &cap->c, "/");
	}
}

/* ----------------------------------------------------------------- gaps */

KJ_PRINTF(4, 5)
static void add_gap(struct containment *c, enum gap_dir dir, const char *atom, const char *fmt,
		    ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *text = xvasprintf(fmt, ap);
	va_end(ap);
	ctrl_scrub(text); /* one line, whatever a path holds */
	c->gaps = xreallocarray(c->gaps, c->ngaps + 1, sizeof *c->gaps);
	c->gaps[c->ngaps++] = (struct cont_gap){ dir, xstrdup(atom), NULL, text };
}

/* "file/write under /x", "file/write" (any), "file/write [in [1..2]]". */
static char *granted(const char *atom, const struct constraint *con)
{
	if (con->kind == CON_ANY)
		return xstrdup(atom);
	if (con->kind == CON_PATH) {
		_cleanup_free_ char *r = constraint_render(con);
		return xasprintf("%s under %s", atom, r + strlen("path under "));
	}
	_cleanup_free_ char *r = constraint_render(con);
	return xasprintf("%s [%s]", atom, r);
}

/* "; writes work only under A, B" for a refused root with writable parts. */
static char *works_tail(const struct cont_atom *a)
{
	if (!a->nworks)
		return xstrdup("");
	struct strbuf s = STRBUF_INIT;
	sb_adds(&s, writes(a->atom) ? "; writes work only under " : "; reads work under ");
	for (size_t i = 0; i < a->nworks; i++)
		sb_addf(&s, "%s%s", i ? ", " : "", a->works[i]);
	return sb_detach(&s);
}

static void impossible(struct containment *c, const struct grant *g)
{
	for (size_t i = 0; i < c->natoms; i++) {
		const struct cont_atom *a = &c->atoms[i];
		const struct cont_part *root = &a->parts[0];
		if (!is_file_atom(a->atom) || tool_works(a->atom, root->verdict))
			continue;
		_cleanup_free_ char *what = granted(a->atom, grant_lookup(g, a->atom));
		_cleanup_free_ char *w = why(root);
		_cleanup_free_ char *tail = works_tail(a);
		const char *v = root->verdict;
		const char *r = root->path;
		size_t before = c->ngaps;
		if (strcmp(v, "masked") == 0)
			add_gap(c, GAP_IMPOSSIBLE, a->atom, "%s: the jail masks %s %s: %s%s", what,
				r, w, writes(a->atom) ? "nothing can be written there"
						      : "a file there reads as empty, a directory lists nothing",
				tail);
		else if (strcmp(v, "private") == 0)
			add_gap(c, GAP_IMPOSSIBLE, a->atom,
				"%s: the jail gives %s a private file system of its own %s: %s%s", what,
				r, w, writes(a->atom) ? "writes there never reach the host"
						      : "the host's files there are not seen",
				tail);
		else if (strcmp(v, "none") == 0)
			add_gap(c, GAP_IMPOSSIBLE, a->atom, "%s: no mount of the jail covers %s%s",
				what, r, tail);
		else
			add_gap(c, GAP_IMPOSSIBLE, a->atom, "%s: the jail makes %s %s %s%s", what, r,
				v, w, tail);
		c->gaps[before].path = xstrdup(r);
	}
}

static bool has_group(const struct grant *g, const char *group)
{
	if (g->scope != GRANT_BOUNDED)
		return true; /* universal (except): every group but what is excluded */
	for (size_t i = 0; i < g->ncaps; i++)
		if (str_has_prefix(g->caps[i].atom, group))
			return true;
	return false;
}

static void beyond(struct containment *c, const struct grant *g)
{
	if (!c->exec)
		return;
	const struct constraint *fw = grant_lookup(g, "file/write");
	_cleanup_free_ char *fw_text = fw->kind == CON_NONE
		? xstrdup("file/write, which is not granted") : granted("file/write", fw);
	for (size_t i = 0; i < c->nwritable; i++) {
		bool nested = false; /* reported with the root it is under */
		for (size_t j = 0; j < c->nwritable && !nested; j++)
			nested = j != i && strictly_under(c->writable[i], c->writable[j]);
		if (nested)
			continue;
		struct constraint at;
		constraint_path(&at, c->writable[i]);
		bool covered = constraint_covers(fw, &at);
		constraint_clear(&at);
		if (covered)
			continue;
		size_t before = c->ngaps;
		add_gap(c, GAP_BEYOND, "process/exec",
			"process/exec: a command can write anywhere under %s, beyond %s",
			c->writable[i], fw_text);
		c->gaps[before].path = xstrdup(c->writable[i]);
	}
	const struct constraint *fr = grant_lookup(g, "file/read");
	if (fr->kind != CON_ANY) {
		_cleanup_free_ char *fr_text = fr->kind == CON_NONE
			? xstrdup("file/read, which is not granted") : granted("file/read", fr);
		add_gap(c, GAP_BEYOND, "process/exec",
			"process/exec: a command can read anything the jail does not mask, "
			"beyond %s", fr_text);
	}
	if (strcmp(c->network, "none") != 0 && !has_group(g, "net/"))
		add_gap(c, GAP_BEYOND, "process/exec",
			"process/exec: a command can reach the network (%s%s%s), which no "
			"granted atom allows", c->network, c->network_origin ? ", " : "",
			c->network_origin ? c->network_origin : "");
}

/* -------------------------------------------------------------- compute */

static void jail_lists(struct containment *c, const struct jail_policy *p)
{
	for (size_t i = 0; i < p->nmounts; i++) {
		const struct jail_mount *m = &p->mounts[i];
		if (!deciding(p, m))
			continue;
		if (strcmp(m->verdict, "writable") == 0)
			push_str(&c->writable, &c->nwritable, m->path);
		else if (strcmp(m->verdict, "private") == 0)
			push_str(&c->private_, &c->nprivate, m->path);
		else if (strcmp(m->verdict, "masked") == 0)
			push_part(&c->masked, &c->nmasked, m->path, m);
		else if (str_has_prefix(m->rule, "protected"))
			push_part(&c->protected_, &c->nprotected, m->path, m);
	}
}

struct containment *containment_compute(const struct grant *g, const struct jail_policy *p)
{
	struct containment *c = xcalloc(1, sizeof *c);
	c->seccomp = c->landlock = c->landlock_writes = JAIL_UNKNOWN;
	c->landlock_abi = -1;
	if (!p)
		return c;
	c->jailed = true;
	c->backend = p->backend ? xstrdup(p->backend) : NULL;
	c->kjail_version = p->kjail_version ? xstrdup(p->kjail_version) : NULL;
	c->network = xstrdup(jail_network_mode(p));
	c->network_origin = p->network_origin ? xstrdup(p->network_origin) : NULL;
	for (size_t i = 0; i < p->nhosts; i++)
		push_str(&c->hosts, &c->nhosts, p->hosts[i]);
	for (size_t i = 0; i < p->ndegraded; i++)
		push_str(&c->degraded, &c->ndegraded, p->degraded[i]);
	c->seccomp = (int)p->seccomp;
	c->landlock = (int)p->landlock;
	c->landlock_abi = p->landlock_abi;
	c->landlock_writes = (int)p->landlock_writes;
	jail_lists(c, p);
	collect_atoms(c, g, p);
	const struct constraint *e = grant_lookup(g, "process/exec");
	c->exec = e->kind == CON_ANY || e->kind == CON_ENUM;
	c->exec_constraint = c->exec ? constraint_render(e) : NULL;
	impossible(c, g);
	beyond(c, g);
	return c;
}

void containment_free(struct containment *c)
{
	if (!c)
		return;
	free(c->backend);
	free(c->kjail_version);
	free(c->network);
	free(c->network_origin);
	free_strs(c->hosts, c->nhosts);
	free_strs(c->degraded, c->ndegraded);
	free_strs(c->writable, c->nwritable);
	free_strs(c->private_, c->nprivate);
	for (size_t i = 0; i < c->nmasked; i++)
		part_clear(&c->masked[i]);
	free(c->masked);
	for (size_t i = 0; i < c->nprotected; i++)
		part_clear(&c->protected_[i]);
	free(c->protected_);
	for (size_t i = 0; i < c->natoms; i++) {
		struct cont_atom *a = &c->atoms[i];
		free(a->atom);
		free(a->constraint);
		free(a->root);
		for (size_t j = 0; j < a->nparts; j++)
			part_clear(&a->parts[j]);
		free(a->parts);
		free_strs(a->works, a->nworks);
		for (size_t j = 0; j < a->nexcept; j++)
			part_clear(&a->except[j]);
		free(a->except);
	}
	free(c->atoms);
	free(c->exec_constraint);
	for (size_t i = 0; i < c->ngaps; i++) {
		free(c->gaps[i].atom);
		free(c->gaps[i].path);
		free(c->gaps[i].text);
	}
	free(c->gaps);
	free(c);
}

size_t containment_count(const struct containment *c, enum gap_dir dir)
{
	size_t n = 0;
	for (size_t i = 0; i < c->ngaps; i++)
		n += c->gaps[i].dir == dir;
	return n;
}
