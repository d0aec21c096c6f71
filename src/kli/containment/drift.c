/* SPDX-License-Identifier: MIT */
/* What widened since the baseline: see drift.h. */
#include "config.h"
#include "authority/argv.h"
#include "containment/drift.h"
#include "path.h"
#include "util.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 'prefix "a b" "c"' as constraint_render writes it: quoted canonical
 * prefixes, one space apart. */
static bool parse_prefixes(const char *c, struct constraint *out)
{
	struct strv words = STRV_INIT;
	bool ok = true;
	for (;;) {
		const char *close = *c == '"' ? strchr(c + 1, '"') : NULL;
		if (!close || close == c + 1) {
			ok = false;
			break;
		}
		_cleanup_free_ char *w = xstrndup(c + 1, (size_t)(close - c - 1));
		_cleanup_free_ char *canon = argv_canonical(w);
		if (!canon || strcmp(canon, w) != 0) {
			ok = false;
			break;
		}
		strv_push(&words, w);
		c = close + 1;
		if (!*c)
			break;
		if (*c != ' ') {
			ok = false;
			break;
		}
		c++;
	}
	if (ok)
		constraint_prefixes(out, (const char *const *)words.v, words.n);
	strv_free(&words);
	return ok && out->kind == CON_PREFIX;
}

/* "path under /a \"/my dir\"" as constraint_render writes it: absolute
 * clean paths one space apart, one with a blank quoted (caps.c); read
 * back only when rendering it again gives the same text. */
static bool parse_paths(const char *text, struct constraint *out)
{
	struct strv v = STRV_INIT;
	bool ok = true;
	for (const char *c = text + strlen("path under "); ok && *c;) {
		const char *s = c, *e;
		if (*c == '"') {
			s = c + 1;
			e = strchr(s, '"');
			ok = e != NULL;
			c = e ? e + 1 : c;
		} else {
			e = c + strcspn(c, " ");
			c = e;
		}
		if (!ok)
			break;
		_cleanup_free_ char *p = xstrndup(s, (size_t)(e - s));
		_cleanup_free_ char *clean = path_normalize(p, "/");
		ok = v.n < 64 && clean && strcmp(clean, p) == 0;
		strv_push(&v, p);
		if (*c == ' ')
			c++;
		else if (*c)
			ok = false;
	}
	if (ok) {
		constraint_paths(out, (const char *const *)v.v, v.n);
		_cleanup_free_ char *again = constraint_render(out);
		ok = out->kind == CON_PATH && strcmp(again, text) == 0;
		if (!ok)
			constraint_clear(out);
	}
	strv_free(&v);
	return ok;
}

bool drift_constraint_parse(const char *text, struct constraint *out)
{
	if (strcmp(text, "any") == 0) {
		constraint_any(out);
		return true;
	}
	if (str_has_prefix(text, "path under /") || str_has_prefix(text, "path under \"/"))
		return parse_paths(text, out);
	long long lo, hi;
	int end = 0;
	if (sscanf(text, "in [%lld..%lld]%n", &lo, &hi, &end) == 2 && text[end] == '\0' &&
	    lo <= hi) {
		constraint_range(out, lo, hi);
		return true;
	}
	if (str_has_prefix(text, "prefix \""))
		return parse_prefixes(text + strlen("prefix "), out);
	if (!str_has_prefix(text, "one of \""))
		return false;
	struct strv words = STRV_INIT;
	const char *c = text + strlen("one of ");
	bool ok = true;
	for (;;) {
		const char *close = *c == '"' ? strchr(c + 1, '"') : NULL;
		if (!close || close == c + 1) {
			ok = false;
			break;
		}
		_cleanup_free_ char *w = xstrndup(c + 1, (size_t)(close - c - 1));
		strv_push(&words, w);
		c = close + 1;
		if (!*c)
			break;
		if (strncmp(c, ", ", 2) != 0) {
			ok = false;
			break;
		}
		c += 2;
	}
	if (ok)
		constraint_enum(out, (const char *const *)words.v, words.n);
	strv_free(&words);
	return ok;
}

/* ------------------------------------------------------------- the grant */

static struct grant *baseline_grant(json_t *root, char *err, size_t errlen)
{
	const char *scope = json_string_value(json_object_get(root, "scope"));
	if (!scope) {
		snprintf(err, errlen, "it has no \"scope\"");
		return NULL;
	}
	if (strcmp(scope, "universal") == 0)
		return grant_universal();
	if (strcmp(scope, "none") == 0)
		return grant_none();
	if (strcmp(scope, "universal-except") == 0) {
		json_t *ex = json_object_get(root, "excluded");
		struct strv v = STRV_INIT;
		for (size_t i = 0; i < json_array_size(ex); i++) {
			const char *a = json_string_value(json_array_get(ex, i));
			if (a)
				strv_push(&v, a);
		}
		struct grant *g = grant_except((const char *const *)v.v, v.n);
		strv_free(&v);
		return g;
	}
	if (strcmp(scope, "bounded") != 0) {
		snprintf(err, errlen, "unknown scope \"%s\"", scope);
		return NULL;
	}
	json_t *caps = json_object_get(root, "capabilities");
	size_t n = json_array_size(caps);
	struct grant_cap *v = xcalloc(n ? n : 1, sizeof *v);
	struct grant *g = NULL;
	size_t done = 0;
	for (; done < n; done++) {
		json_t *o = json_array_get(caps, done);
		const char *atom = json_string_value(json_object_get(o, "atom"));
		const char *con = json_string_value(json_object_get(o, "constraint"));
		if (!atom || !con || !drift_constraint_parse(con, &v[done].c)) {
			snprintf(err, errlen, "capability %zu is not an atom with a constraint",
				 done + 1);
			goto out;
		}
		v[done].atom = xstrdup(atom);
	}
	size_t bad;
	g = grant_from_caps(v, n, &bad, err, errlen);
out:
	for (size_t i = 0; i < done; i++)
		grant_cap_clear(&v[i]);
	free(v);
	return g;
}

static void grant_drift(const struct grant *base, const struct grant *g, struct strv *out)
{
	if (grant_covers(base, g))
		return;
	size_t before = out->n;
	if (g->scope == GRANT_BOUNDED) {
		for (size_t i = 0; i < g->ncaps; i++) {
			const struct grant_cap *cap = &g->caps[i];
			const struct constraint *bc = grant_lookup(base, cap->atom);
			_cleanup_free_ char *now = constraint_render(&cap->c);
			if (bc->kind == CON_NONE) {
				strv_pushf(out, "drift: capability added: %s [%s]", cap->atom, now);
			} else if (!constraint_covers(bc, &cap->c)) {
				_cleanup_free_ char *was = constraint_render(bc);
				strv_pushf(out, "drift: constraint widened: %s: [%s] -> [%s]",
					   cap->atom, was, now);
			}
		}
	} else if (g->scope == GRANT_EXCEPT && base->scope == GRANT_EXCEPT) {
		for (size_t i = 0; i < base->nexcluded; i++)
			if (grant_lookup(g, base->excluded[i])->kind != CON_NONE)
				strv_pushf(out, "drift: capability added: %s (no longer excluded)",
					   base->excluded[i]);
	}
	if (out->n == before) {
		static const char *const names[] = { "universal", "universal-except", "bounded" };
		strv_pushf(out, "drift: grant widened: %s -> %s",
			   grant_is_none(base) ? "none" : names[base->scope], names[g->scope]);
	}
}

/* -------------------------------------------------------------- the jail */

static int net_rank(const char *mode)
{
	if (!mode)
		return 3;
	return strcmp(mode, "none") == 0 ? 0 : strcmp(mode, "allowlist") == 0 ? 1
					  : strcmp(mode, "shared") == 0  ? 2 : 3;
}

static bool under_json(const char *path, json_t *arr)
{
	for (size_t i = 0; i < json_array_size(arr); i++) {
		const char *d = json_string_value(json_array_get(arr, i));
		if (d && path_is_under(path, d))
			return true;
	}
	return false;
}

static const char *verdict_of(const struct jail_policy *p, const char *path)
{
	const struct jail_mount *m = jail_verdict_for(p, path);
	return m ? m->verdict : "none";
}

/* A mask kjail adds under no network (the host's interfaces): its going
 * is the network's drift, reported once as that. */
static bool network_mask(json_t *m)
{
	const char *origin = json_string_value(json_object_get(m, "origin"));
	return origin && strstr(origin, " under no network (");
}

static void mounts_drift(json_t *bc, const struct containment *c, const struct jail_policy *p,
			 bool net_widened, struct strv *out)
{
	json_t *masked = json_object_get(bc, "masked");
	for (size_t i = 0; i < json_array_size(masked); i++) {
		json_t *o = json_array_get(masked, i);
		const char *m = json_string_value(json_object_get(o, "path"));
		if (!m || strcmp(verdict_of(p, m), "masked") == 0 || (net_widened && network_mask(o)))
			continue;
		strv_pushf(out, "drift: mask gone: %s (now %s)", m, verdict_of(p, m));
	}
	json_t *prot = json_object_get(bc, "protected");
	for (size_t i = 0; i < json_array_size(prot); i++) {
		const char *m = json_string_value(json_object_get(json_array_get(prot, i), "path"));
		const char *v = m ? verdict_of(p, m) : "";
		if (m && strcmp(v, "read-only") != 0 && strcmp(v, "masked") != 0)
			strv_pushf(out, "drift: protected path gone: %s (now %s)", m, v);
	}
	json_t *writable = json_object_get(bc, "writable");
	for (size_t i = 0; i < c->nwritable; i++)
		if (!under_json(c->writable[i], writable)) {
			const struct jail_mount *m = jail_verdict_for(p, c->writable[i]);
			strv_pushf(out, "drift: writable path added: %s (%s)", c->writable[i],
				   m ? m->origin : "origin not given");
		}
}

static void layers_drift(json_t *bc, const struct containment *c, struct strv *out)
{
	json_t *net = json_object_get(bc, "network");
	const char *was = json_string_value(json_object_get(net, "mode"));
	if (net_rank(c->network) > net_rank(was)) {
		strv_pushf(out, "drift: network widened: %s -> %s%s%s%s", was ? was : "not stated",
			   c->network, c->network_origin ? " (" : "",
			   c->network_origin ? c->network_origin : "", c->network_origin ? ")" : "");
	} else if (strcmp(c->network, "allowlist") == 0 && was && strcmp(was, "allowlist") == 0) {
		json_t *hosts = json_object_get(net, "hosts");
		for (size_t i = 0; i < c->nhosts; i++) {
			bool known = false;
			for (size_t j = 0; j < json_array_size(hosts) && !known; j++)
				known = str_eq(json_string_value(json_array_get(hosts, j)),
					       c->hosts[i]);
			if (!known)
				strv_pushf(out, "drift: network widened: host %s allowed", c->hosts[i]);
		}
	}
	if (json_is_true(json_object_get(bc, "seccomp")) && c->seccomp != JAIL_ON)
		strv_pushf(out, "drift: seccomp lost (the filter is %s)",
			   c->seccomp == JAIL_OFF ? "off" : "not stated");
	if (json_is_true(json_object_get(bc, "landlock")) && c->landlock != JAIL_ON)
		strv_pushf(out, "drift: Landlock lost (it is %s)",
			   c->landlock == JAIL_OFF ? "off" : "not stated");
	json_t *abi = json_object_get(bc, "landlock_abi");
	if (json_is_integer(abi) && c->landlock == JAIL_ON &&
	    c->landlock_abi < (long)json_integer_value(abi))
		strv_pushf(out, "drift: Landlock weakened: ABI %lld -> %ld",
			   (long long)json_integer_value(abi), c->landlock_abi);
	/* --allow-userns: Landlock on, but its scopes only */
	if (json_is_true(json_object_get(bc, "landlock_writes")) && c->landlock == JAIL_ON &&
	    c->landlock_writes != JAIL_ON)
		strv_pushf(out, "drift: Landlock weakened: write rules on -> %s",
			   c->landlock_writes == JAIL_OFF ? "off" : "not stated");
	/* --backend landlock: each thing it loses that the baseline's jail
	 * did not (a bwrap baseline has none) */
	json_t *was_degraded = json_object_get(bc, "degraded");
	for (size_t i = 0; i < c->ndegraded; i++) {
		bool known = false;
		for (size_t j = 0; j < json_array_size(was_degraded) && !known; j++)
			known = str_eq(json_string_value(json_array_get(was_degraded, j)),
				       c->degraded[i]);
		if (!known)
			strv_pushf(out, "drift: degraded (backend %s): %s",
				   c->backend ? c->backend : "not stated", c->degraded[i]);
	}
}

bool drift_lines(const char *baseline, size_t len, const struct grant *g,
		 const struct containment *c, const struct jail_policy *p, struct strv *out,
		 char *err, size_t errlen)
{
	json_t *root = json_loadb(baseline, len, JSON_REJECT_DUPLICATES, NULL);
	const char *type = json_string_value(json_object_get(root, "type"));
	json_t *bc = json_object_get(root, "containment");
	bool ok = false;
	if (!type || strcmp(type, "authority") != 0) {
		snprintf(err, errlen, "not a 'kli --print-authority --json' report");
		goto out;
	}
	if (!json_is_object(bc)) {
		snprintf(err, errlen, "it has no \"containment\" (take it with this kli)");
		goto out;
	}
	char why[300];
	struct grant *base = baseline_grant(root, why, sizeof why);
	if (!base) {
		snprintf(err, errlen, "its grant cannot be read: %s", why);
		goto out;
	}
	grant_drift(base, g, out);
	grant_free(base);
	if (json_is_true(json_object_get(bc, "jailed"))) {
		if (!c->jailed || !p) {
			strv_push(out, "drift: no longer under kjail: nothing contains process/exec");
		} else {
			const char *was = json_string_value(
				json_object_get(json_object_get(bc, "network"), "mode"));
			mounts_drift(bc, c, p, net_rank(c->network) > net_rank(was), out);
			layers_drift(bc, c, out);
		}
	}
	ok = true;
out:
	json_decref(root);
	return ok;
}
