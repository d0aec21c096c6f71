/* SPDX-License-Identifier: MIT */
/* kjail --check-config (declared.h). */
#include "config.h"
#include "build/declared.h"
#include "build/explain-words.h"
#include "build/policy-json.h"
#include "policy/defaults.h"
#include "policy/egress.h"
#include "proxy/rules.h"
#include "jsonw.h"
#include "path.h"
#include "strpool.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

char *declared_shown(const char *p)
{
	size_t n = strlen(DECLARED_HOME);
	if (strncmp(p, DECLARED_HOME, n) == 0 && (p[n] == '\0' || p[n] == '/'))
		return xconcat("~", p + n, NULL);
	return xstrdup(p);
}

struct mount {
	char *path;           /* shown: "~/.ssh", "/etc/x" */
	const char *verdict, *rule, *origin;
};

struct mounts {
	struct mount *v;
	size_t n, cap;
};

static void add(struct mounts *m, const char *path, const char *verdict, const char *rule,
		const char *origin)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 32;
		m->v = xreallocarray(m->v, m->cap, sizeof *m->v);
	}
	m->v[m->n++] = (struct mount){ declared_shown(path), verdict, rule, origin };
}

/* The built-in credential stores at their default places: under the home
 * directory, or the XDG base's default there. A store found through a
 * variable, or under $XDG_RUNTIME_DIR, is a host fact: left to the run. */
static void builtin_masks(struct mounts *m)
{
	for (const struct cred_store *c = cred_stores; c->tool; c++) {
		const char *base = c->base == CRED_HOME ? "" : cred_xdg_default(c->base);
		if (!base || !c->path[0])
			continue;
		_cleanup_free_ char *p = xasprintf("~/%s%s%s", base, base[0] ? "/" : "", c->path);
		bool dup = false;
		for (size_t i = 0; i < m->n && !dup; i++)
			dup = strcmp(m->v[i].path, p) == 0;
		if (dup)
			continue;
		add(m, p, "masked", "built-in credential store", c->tool);
	}
}

static void collect(struct mounts *m, const struct policy *p, const char *ws)
{
	add(m, "/", "read-only", "read-only", "host root");
	add(m, ws, "writable", "workspace", p->workspace_origin);
	for (size_t i = 0; i < p->writable.n; i++)
		add(m, p->writable.v[i].value, "writable", "writable", p->writable.v[i].origin);
	if (p->defaults.value)
		builtin_masks(m);
	for (size_t i = 0; i < p->deny_read.n; i++)
		add(m, p->deny_read.v[i].value, "masked", "deny-read", p->deny_read.v[i].origin);
}

static const char *const net_names[] = { "shared", "none", "allowlist" };

static void hosts_json(struct jsonw *w, const struct policy *p)
{
	struct strpool pool = { 0 };
	size_t n = 0;
	struct allow_rule *r = egress_rules(&p->allow_host, &pool, &n);
	jw_key(w, "hosts");
	jw_begin_array(w);
	for (size_t i = 0; i < n; i++) {
		char host[ALLOW_HOST_MAX + 4], port[16];
		rule_host(&r[i], host, sizeof host);
		jw_begin_object(w);
		jw_kstring(w, "host", host);
		jw_kstring(w, "port", egress_ports(&r[i], port, sizeof port));
		jw_kstring(w, "rule", r[i].text);
		jw_kstring(w, "origin", r[i].origin);
		jw_end_object(w);
	}
	jw_end_array(w);
	free(r);
	strpool_free(&pool);
}

static void shown_entries_json(struct jsonw *w, const char *name, const struct entry_list *l,
			       const char *k1)
{
	jw_key(w, name);
	jw_begin_array(w);
	for (size_t i = 0; i < l->n; i++) {
		_cleanup_free_ char *v = declared_shown(l->v[i].value);
		jw_begin_object(w);
		jw_kstring(w, k1, v);
		jw_kstring(w, "origin", l->v[i].origin);
		jw_end_object(w);
	}
	jw_end_array(w);
}

static void write_json(FILE *out, const struct policy *p, const struct mounts *m,
		       const char *ws, enum net_mode net)
{
	struct jsonw w;
	jw_init(&w, out);
	jw_begin_object(&w);
	jw_kstring(&w, "type", "policy");
	jw_key(&w, "version");
	jw_int(&w, KJ_POLICY_VERSION);
	jw_kbool(&w, "declared", true);
	jw_kstring(&w, "home", "~");
	jw_kstring(&w, "backend", backend_name(p->backend));
	jw_key(&w, "sources");
	jw_begin_array(&w);
	for (size_t i = 0; i < p->sources.n; i++)
		jw_string(&w, p->sources.v[i].value);
	jw_end_array(&w);
	_cleanup_free_ char *wss = declared_shown(ws);
	jw_kstring(&w, "workspace", wss);
	jw_key(&w, "network");
	jw_begin_object(&w);
	jw_kbool(&w, "enabled", net == NET_SHARED);
	jw_kstring(&w, "origin", p->allow_host.n && net == NET_ALLOWLIST
					 ? p->allow_host.v[0].origin : p->network.origin);
	jw_kstring(&w, "mode", net_names[net]);
	if (net == NET_ALLOWLIST)
		hosts_json(&w, p);
	jw_end_object(&w);
	jw_kbool(&w, "nested_userns", p->nested_userns.value);
	jw_key(&w, "mounts");
	jw_begin_array(&w);
	for (size_t i = 0; i < m->n; i++) {
		jw_begin_object(&w);
		jw_kstring(&w, "path", m->v[i].path);
		jw_kstring(&w, "verdict", m->v[i].verdict);
		jw_kstring(&w, "rule", m->v[i].rule);
		jw_kstring(&w, "origin", m->v[i].origin);
		jw_end_object(&w);
	}
	jw_end_array(&w);
	shown_entries_json(&w, "devices", &p->devices, "class");
	shown_entries_json(&w, "sockets", &p->allow_socket, "given");
	shown_entries_json(&w, "deny_env", &p->deny_env, "name");
	shown_entries_json(&w, "keep_env", &p->keep_env, "name");
	shown_entries_json(&w, "secrets", &p->secrets, "given");
	jw_key(&w, "cache");
	jw_begin_object(&w);
	jw_kstring(&w, "mode", cache_mode_name(p->cache));
	jw_kstring(&w, "origin", p->cache_origin);
	jw_end_object(&w);
	jw_kbool(&w, "defaults", p->defaults.value);
	jw_kbool(&w, "allow_userns", p->allow_userns.value);
	jw_kstring(&w, "kjail_version", PACKAGE_VERSION);
	jw_end_object(&w);
	jw_flush(&w);
	fputc('\n', out);
}

static void list_text(FILE *out, const char *what, const struct entry_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		_cleanup_free_ char *v = declared_shown(l->v[i].value);
		fprintf(out, "  %-10s %s  (%s)\n", what, v, l->v[i].origin);
	}
}

static void write_text(FILE *out, const struct policy *p, const struct mounts *m,
		       enum net_mode net)
{
	fputs("kjail: the declared policy (nothing of this host resolved; ~ is the home "
	      "directory at run time)\n", out);
	for (size_t i = 0; i < p->sources.n; i++)
		fprintf(out, "  config     %s\n", p->sources.v[i].value);
	fprintf(out, "  network    %s  (%s)\n", net_names[net],
		net == NET_ALLOWLIST ? p->allow_host.v[0].origin : p->network.origin);
	if (net == NET_ALLOWLIST)
		list_text(out, "host", &p->allow_host);
	for (size_t i = 0; i < m->n; i++)
		fprintf(out, "  %-10s %s  (%s: %s)\n", m->v[i].verdict, m->v[i].path, m->v[i].rule,
			m->v[i].origin);
	if (p->defaults.value)
		fputs("  masked     also the stores $GNUPGHOME, $AWS_CONFIG_FILE... and "
		      "$XDG_*_HOME name at run time\n", out);
	list_text(out, "device", &p->devices);
	list_text(out, "socket", &p->allow_socket);
	list_text(out, "deny-env", &p->deny_env);
	list_text(out, "keep-env", &p->keep_env);
	list_text(out, "secret", &p->secrets);
	fprintf(out, "  cache      %s  (%s)\n", cache_mode_name(p->cache), p->cache_origin);
	fprintf(out, "  defaults   %s  (%s)\n", p->defaults.value ? "true" : "false",
		p->defaults.origin);
	fprintf(out, "  allow-userns %s  (%s)\n", p->allow_userns.value ? "true" : "false",
		p->allow_userns.origin);
	fprintf(out, "  nested-userns %s  (%s)\n", p->nested_userns.value ? "true" : "false",
		p->nested_userns.origin);
}

bool declared_write(FILE *out, const struct policy *p, const char *cwd, bool json, char *err,
		    size_t errlen)
{
	enum net_mode net;
	if (!egress_mode(p, &net, err, errlen))
		return false;
	const char *ws = p->workspace ? p->workspace : cwd;
	struct mounts m = { 0 };
	collect(&m, p, ws);
	if (json)
		write_json(out, p, &m, ws, net);
	else
		write_text(out, p, &m, net);
	for (size_t i = 0; i < m.n; i++)
		free(m.v[i].path);
	free(m.v);
	return true;
}
