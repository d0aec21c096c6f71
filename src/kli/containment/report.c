/* SPDX-License-Identifier: MIT */
/* The containment sections of `kli --print-authority`: text after the
 * grant's lines, or a "containment" member in its JSON. See containment.h. */
#include "config.h"
#include "containment/containment.h"
#include "containment/report.h"
#include "authority/report.h"
#include "strbuf.h"
#include "util.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#define TEXT_PARTS 20

/* ----------------------------------------------------------------- text */

static const char *flag_text(int f)
{
	return f == JAIL_ON ? "on" : f == JAIL_OFF ? "off" : "not stated";
}

static void part_line(struct strbuf *b, const char *indent, const struct cont_part *p)
{
	if (strcmp(p->rule, p->verdict) == 0)
		sb_addf(b, "%s%s: %s (%s)\n", indent, p->verdict, p->path, p->origin);
	else
		sb_addf(b, "%s%s: %s (%s; %s)\n", indent, p->verdict, p->path, p->rule, p->origin);
}

static void list_lines(struct strbuf *b, const char *what, char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sb_addf(b, "  %s: %s\n", what, v[i]);
}

/* What Landlock enforces, as kjail applies it: the write rules unless the
 * policy says they are off (--allow-userns), the scopes from ABI 6. "on"
 * only when the write rules are on. */
static void landlock_text(struct strbuf *b, const struct containment *c)
{
	if (c->landlock != JAIL_ON) {
		sb_addf(b, "%s", flag_text(c->landlock));
		return;
	}
	long abi = c->landlock_abi;
	bool scopes = abi < 1 || abi >= JAIL_LANDLOCK_SCOPES_ABI; /* ABI not stated: assumed */
	char v[32] = "";
	if (abi > 0)
		snprintf(v, sizeof v, "ABI %ld", abi);
	if (c->landlock_writes == JAIL_OFF && !scopes)
		sb_addf(b, "nothing enforced (no write rules; ABI %ld has no scopes)", abi);
	else if (c->landlock_writes == JAIL_OFF)
		sb_addf(b, "scopes only (no write rules%s%s)", *v ? "; " : "", v);
	else if (c->landlock_writes == JAIL_UNKNOWN)
		sb_addf(b, "on (%s%swrite rules not stated)", v, *v ? "; " : "");
	else if (*v)
		sb_addf(b, "on (%s%s)", v, scopes ? "" : "; no scopes");
	else
		sb_adds(b, "on");
}

static void jail_text(struct strbuf *b, const struct containment *c)
{
	sb_addf(b, "containment: kjail %s, backend %s\n", c->kjail_version ? c->kjail_version : "(version not stated)",
	        c->backend ? c->backend : "not stated");
	sb_addf(b, "  network: %s%s%s%s; seccomp: %s; landlock: ", c->network,
	        c->network_origin ? " (" : "", c->network_origin ? c->network_origin : "",
	        c->network_origin ? ")" : "", flag_text(c->seccomp));
	landlock_text(b, c);
	sb_adds(b, "\n");
	list_lines(b, "allowed host", c->hosts, c->nhosts);
	list_lines(b, "degraded", c->degraded, c->ndegraded);
	list_lines(b, "writable", c->writable, c->nwritable);
	list_lines(b, "private", c->private_, c->nprivate);
	for (size_t i = 0; i < c->nmasked; i++)
		part_line(b, "  ", &c->masked[i]);
	if (c->nprotected)
		sb_addf(b, "  protected: %zu path%s read-only whatever the grant says "
		           "(--json lists them)\n", c->nprotected, c->nprotected == 1 ? " stays" : "s stay");
	for (size_t i = 0; i < c->natoms; i++) {
		const struct cont_atom *a = &c->atoms[i];
		sb_addf(b, "  %s  [%s]\n", a->atom, a->constraint);
		if (strcmp(a->root, "/") == 0) { /* the whole jail: the lists above */
			sb_adds(b, "    the whole file system, as the jail shows it above\n");
			continue;
		}
		for (size_t j = 0; j < a->nparts && j <= TEXT_PARTS; j++)
			part_line(b, "    ", &a->parts[j]);
		if (a->nparts > TEXT_PARTS + 1)
			sb_addf(b, "    ... and %zu more under it (--json lists them)\n",
			        a->nparts - TEXT_PARTS - 1);
	}
	if (c->exec)
		sb_addf(b, "  process/exec  [%s]: a command gets the network (%s), writes under "
		           "every writable path above, reads all but the masked ones\n",
		        c->exec_constraint, c->network);
}

static void effective_text(struct strbuf *b, const struct containment *c, const struct grant *g)
{
	sb_adds(b, "effective:\n");
	for (size_t i = 0; i < c->natoms; i++) {
		const struct cont_atom *a = &c->atoms[i];
		if (strncmp(a->atom, "file/", 5) != 0) {
			sb_addf(b, "  %s  [%s]\n", a->atom, a->constraint);
			continue;
		}
		if (!a->nworks) {
			sb_addf(b, "  %s  nowhere here\n", a->atom);
			continue;
		}
		sb_addf(b, "  %s  under ", a->atom);
		for (size_t j = 0; j < a->nworks; j++)
			sb_addf(b, "%s%s", j ? ", " : "", a->works[j]);
		sb_adds(b, "\n");
		for (size_t j = 0; j < a->nexcept && j < TEXT_PARTS; j++)
			part_line(b, "    except ", &a->except[j]);
		if (a->nexcept > TEXT_PARTS)
			sb_addf(b, "    ... and %zu more exceptions (--json lists them)\n",
			        a->nexcept - TEXT_PARTS);
	}
	if (c->exec)
		sb_addf(b, "  process/exec  [%s]  (network %s; writes only under the writable paths)\n",
		        c->exec_constraint, c->network);
	if (g->scope != GRANT_BOUNDED) {
		sb_adds(b, "  every other atom, as granted\n");
		return;
	}
	for (size_t i = 0; i < g->ncaps; i++) {
		const char *atom = g->caps[i].atom;
		bool shown = strcmp(atom, "process/exec") == 0 || strcmp(atom, "tools/standard") == 0;
		for (size_t j = 0; j < c->natoms && !shown; j++)
			shown = strcmp(c->atoms[j].atom, atom) == 0;
		if (shown)
			continue;
		_cleanup_free_ char *r = constraint_render(&g->caps[i].c);
		if (g->caps[i].c.kind == CON_ANY)
			sb_addf(b, "  %s\n", atom);
		else
			sb_addf(b, "  %s  [%s]\n", atom, r);
	}
}

char *containment_text(const struct containment *c, const struct grant *g)
{
	struct strbuf b = STRBUF_INIT;
	if (!c->jailed) {
		sb_addf(&b, "containment: %s\n", CONTAINMENT_NONE);
		return sb_detach(&b);
	}
	jail_text(&b, c);
	effective_text(&b, c, g);
	if (!c->ngaps) {
		sb_adds(&b, "gaps: none\n");
		return sb_detach(&b);
	}
	sb_adds(&b, "gaps:\n");
	for (size_t i = 0; i < c->ngaps; i++)
		sb_addf(&b, "  %s: %s\n",
		        c->gaps[i].dir == GAP_IMPOSSIBLE ? "granted but impossible here"
						         : "possible here beyond the grant",
		        c->gaps[i].text);
	return sb_detach(&b);
}

/* ----------------------------------------------------------------- JSON */

static json_t *jnew(json_t *j)
{
	if (!j)
		die("out of memory");
	return j;
}


static void put(json_t *o, const char *k, json_t *v)
{
	if (json_object_set_new(o, k, v) != 0)
		die("out of memory");
}

static void push(json_t *a, json_t *v)
{
	if (json_array_append_new(a, v) != 0)
		die("out of memory");
}

static json_t *strs(char *const *v, size_t n)
{
	json_t *a = jnew(json_array());
	for (size_t i = 0; i < n; i++)
		push(a, report_json_str(v[i]));
	return a;
}

static json_t *flag(int f)
{
	return f == JAIL_UNKNOWN ? json_null() : json_boolean(f == JAIL_ON);
}

static json_t *parts(const struct cont_part *v, size_t n)
{
	json_t *a = jnew(json_array());
	for (size_t i = 0; i < n; i++) {
		json_t *o = jnew(json_object());
		put(o, "path", report_json_str(v[i].path));
		put(o, "verdict", report_json_str(v[i].verdict));
		put(o, "rule", report_json_str(v[i].rule));
		put(o, "origin", report_json_str(v[i].origin));
		push(a, o);
	}
	return a;
}

static json_t *containment_object(const struct containment *c)
{
	json_t *o = jnew(json_object());
	put(o, "jailed", json_boolean(c->jailed));
	if (!c->jailed) {
		put(o, "summary", report_json_str(CONTAINMENT_NONE));
		return o;
	}
	put(o, "kjail_version", c->kjail_version ? report_json_str(c->kjail_version) : json_null());
	put(o, "backend", c->backend ? report_json_str(c->backend) : json_null());
	json_t *net = jnew(json_object());
	put(net, "mode", report_json_str(c->network));
	put(net, "origin", c->network_origin ? report_json_str(c->network_origin) : json_null());
	put(net, "hosts", strs(c->hosts, c->nhosts));
	put(o, "network", net);
	put(o, "seccomp", flag(c->seccomp));
	put(o, "landlock", flag(c->landlock));
	put(o, "landlock_abi", c->landlock_abi >= 0 ? json_integer(c->landlock_abi) : json_null());
	put(o, "landlock_writes", flag(c->landlock_writes));
	put(o, "degraded", strs(c->degraded, c->ndegraded));
	put(o, "writable", strs(c->writable, c->nwritable));
	put(o, "private", strs(c->private_, c->nprivate));
	put(o, "masked", parts(c->masked, c->nmasked));
	put(o, "protected", parts(c->protected_, c->nprotected));
	json_t *atoms = jnew(json_array()), *eff = jnew(json_array());
	for (size_t i = 0; i < c->natoms; i++) {
		const struct cont_atom *a = &c->atoms[i];
		json_t *x = jnew(json_object());
		put(x, "atom", report_json_str(a->atom));
		put(x, "constraint", report_json_str(a->constraint));
		put(x, "parts", parts(a->parts, a->nparts));
		push(atoms, x);
		if (strncmp(a->atom, "file/", 5) != 0)
			continue;
		json_t *e = jnew(json_object());
		put(e, "atom", report_json_str(a->atom));
		put(e, "under", strs(a->works, a->nworks));
		put(e, "except", parts(a->except, a->nexcept));
		push(eff, e);
	}
	put(o, "atoms", atoms);
	if (c->exec) {
		json_t *x = jnew(json_object());
		put(x, "constraint", report_json_str(c->exec_constraint));
		put(x, "network", report_json_str(c->network));
		put(x, "writable", strs(c->writable, c->nwritable));
		put(o, "exec", x);
		json_t *e = jnew(json_object());
		put(e, "atom", report_json_str("process/exec"));
		put(e, "constraint", report_json_str(c->exec_constraint));
		put(e, "network", report_json_str(c->network));
		put(e, "writes_under", strs(c->writable, c->nwritable));
		push(eff, e);
	} else {
		put(o, "exec", json_null());
	}
	put(o, "effective", eff);
	json_t *gaps = jnew(json_array());
	for (size_t i = 0; i < c->ngaps; i++) {
		json_t *g = jnew(json_object());
		put(g, "direction",
		    report_json_str(c->gaps[i].dir == GAP_IMPOSSIBLE ? "impossible" : "beyond"));
		put(g, "atom", report_json_str(c->gaps[i].atom));
		put(g, "path", c->gaps[i].path ? report_json_str(c->gaps[i].path) : json_null());
		put(g, "text", report_json_str(c->gaps[i].text));
		push(gaps, g);
	}
	put(o, "gaps", gaps);
	return o;
}

char *containment_json(const char *authority_json, const struct containment *c)
{
	json_t *root = json_loads(authority_json, 0, NULL);
	if (!json_is_object(root))
		die("internal error: the authority report is not one JSON object");
	put(root, "containment", containment_object(c));
	char *text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!text)
		die("out of memory");
	char *line = xasprintf("%s\n", text);
	free(text);
	return line;
}
