/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "authority/report.h"
#include "strbuf.h"
#include "util.h"

#include <jansson.h>
#include <string.h>

/* "  ATOM" or "  ATOM  [CONSTRAINT]", a line. */
static void add_line(struct strbuf *s, const char *atom, const char *constraint)
{
	if (constraint)
		sb_addf(s, "  %s  [%s]\n", atom, constraint);
	else
		sb_addf(s, "  %s\n", atom);
}

char *report_text(const struct grant *g)
{
	if (g->scope == GRANT_UNIVERSAL)
		return xstrdup("authority: universal (every capability, unconstrained)\n");
	if (grant_is_none(g))
		return xstrdup("authority: none (no capability is granted)\n");
	struct strbuf s = STRBUF_INIT;
	if (g->scope == GRANT_EXCEPT) {
		sb_adds(&s, "authority: universal except (every capability but those listed)\n");
		for (size_t i = 0; i < g->nexcluded; i++)
			add_line(&s, g->excluded[i], NULL);
		return sb_detach(&s);
	}
	sb_adds(&s, "authority:\n");
	for (size_t i = 0; i < g->ncaps; i++) {
		const struct grant_cap *c = &g->caps[i];
		_cleanup_free_ char *r = c->c.kind == CON_ANY ? NULL : constraint_render(&c->c);
		add_line(&s, c->atom, r);
	}
	return sb_detach(&s);
}

char *report_exclusions_text(const struct kli_exclusions *x)
{
	if (!x || !x->n)
		return xstrdup("");
	struct strbuf s = STRBUF_INIT;
	sb_adds(&s, "excluded (kli's own files: no grant reaches them):\n");
	for (size_t i = 0; i < x->n; i++) {
		const struct kli_exclusion *e = &x->v[i];
		_cleanup_free_ char *path = xstrdup(e->path);
		ctrl_scrub(path);
		sb_addf(&s, "  %s  [%s%s]\n", path, e->why,
			e->tree ? ", and everything under it" : "");
	}
	return sb_detach(&s);
}

json_t *report_json_str(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	_cleanup_free_ char *copy = xstrdup(s);
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	if (!j)
		die("out of memory");
	return j;
}

static json_t *jnew(json_t *j)
{
	if (!j)
		die("out of memory");
	return j;
}

static void put(json_t *obj, const char *key, json_t *val)
{
	if (json_object_set_new(obj, key, val) != 0)
		die("out of memory");
}

static void push(json_t *arr, json_t *val)
{
	if (json_array_append_new(arr, val) != 0)
		die("out of memory");
}

static const char *scope_name(const struct grant *g)
{
	if (g->scope == GRANT_UNIVERSAL)
		return "universal";
	if (g->scope == GRANT_EXCEPT)
		return "universal-except";
	return g->ncaps ? "bounded" : "none";
}

static json_t *caps_array(const struct grant *g)
{
	json_t *arr = jnew(json_array());
	for (size_t i = 0; i < g->ncaps; i++) {
		json_t *o = jnew(json_object());
		_cleanup_free_ char *r = constraint_render(&g->caps[i].c);
		put(o, "atom", report_json_str(g->caps[i].atom));
		put(o, "constraint", report_json_str(r));
		push(arr, o);
	}
	return arr;
}

static json_t *sources_array(const struct kli_source *sources, size_t n)
{
	json_t *arr = jnew(json_array());
	for (size_t i = 0; i < n; i++) {
		json_t *o = jnew(json_object());
		put(o, "origin", report_json_str(sources[i].origin));
		put(o, "what", report_json_str(sources[i].what));
		put(o, "effect", report_json_str(sources[i].narrows ? "narrow" : "set"));
		push(arr, o);
	}
	return arr;
}

static json_t *exclusions_array(const struct kli_exclusions *x)
{
	json_t *arr = jnew(json_array());
	for (size_t i = 0; i < x->n; i++) {
		json_t *o = jnew(json_object());
		put(o, "path", report_json_str(x->v[i].path));
		put(o, "what", report_json_str(x->v[i].why));
		put(o, "why", report_json_str(EXCLUSION_REASON));
		put(o, "tree", jnew(json_boolean(x->v[i].tree)));
		push(arr, o);
	}
	return arr;
}

char *report_json(const struct grant *g, const char *profile,
		  const struct kli_source *sources, size_t nsources,
		  const struct kli_exclusions *x)
{
	/* jansson keeps insertion order, which is the order the spec fixes. */
	json_t *o = jnew(json_object());
	put(o, "type", report_json_str("authority"));
	put(o, "scope", report_json_str(scope_name(g)));
	if (g->scope == GRANT_EXCEPT) {
		json_t *ex = jnew(json_array());
		for (size_t i = 0; i < g->nexcluded; i++)
			push(ex, report_json_str(g->excluded[i]));
		put(o, "excluded", ex);
	} else {
		put(o, "capabilities", caps_array(g));
	}
	if (profile) {
		put(o, "profile", report_json_str(profile));
		put(o, "sources", sources_array(sources, nsources));
	}
	if (x)
		put(o, "excluded_files", exclusions_array(x));
	char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (!text)
		die("out of memory");
	char *line = xasprintf("%s\n", text);
	free(text);
	return line;
}
