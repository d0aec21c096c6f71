/* SPDX-License-Identifier: MIT */
/* The policy document kjail writes for the jail and prints with
 * --explain --json (policy-json.h; doc/policy-json.md). */
#include "config.h"
#include "build/policy-json.h"
#include "build/explain-words.h"
#include "policy/secret.h"
#include "build/brief.h"
#include "build/hints.h"
#include "build/landlock-degraded.h"
#include "policy/cache.h"
#include "git/link.h"
#include "entry/landlock.h"
#include "proxy/proxy.h"
#include "jsonw.h"
#include "path.h"
#include "build/seccomp.h"
#include "util.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void devices_json(struct jsonw *w, const struct plan *pl)
{
	jw_key(w, "devices");
	jw_begin_array(w);
	for (size_t i = 0; i < pl->ndevices; i++) {
		const struct dev_bind *d = &pl->devices[i];
		jw_begin_object(w);
		jw_kstring(w, "path", d->path);
		jw_kstring(w, "kind", d->target ? "link" : "node");
		if (d->target)
			jw_kstring(w, "target", d->target);
		jw_kstring(w, "class", d->cls);
		jw_kstring(w, "origin", d->origin);
		jw_end_object(w);
	}
	jw_end_array(w);
}

static void entries_json(struct jsonw *w, const char *name, const struct entry_list *l,
			 const char *k1, const char *k2)
{
	jw_key(w, name);
	jw_begin_array(w);
	for (size_t i = 0; i < l->n; i++) {
		jw_begin_object(w);
		jw_kstring(w, k1, l->v[i].value);
		jw_kstring(w, k2, l->v[i].origin);
		jw_end_object(w);
	}
	jw_end_array(w);
}

/* Each secret's name, where kjail read it from and the variable naming its
 * descriptor: never its bytes. */
static void secrets_json(struct jsonw *w, const struct plan *pl)
{
	jw_key(w, "secrets");
	jw_begin_array(w);
	for (size_t i = 0; i < pl->secrets.n; i++) {
		struct secret_ref r;
		secret_split(pl->secrets.v[i].value, &r);
		_cleanup_free_ char *var = secret_fd_var(r.name);
		jw_begin_object(w);
		jw_kstring(w, "name", r.name);
		jw_kstring(w, "source", secret_kind_name(r.kind));
		jw_kstring(w, "from", r.source);
		jw_kstring(w, "variable", var);
		jw_kstring(w, "origin", pl->secrets.v[i].origin);
		jw_end_object(w);
	}
	jw_end_array(w);
}

static void filter_json(struct jsonw *w, const struct plan *pl)
{
	struct sc_opts o = { .allow_userns = pl->allow_userns, .no_network = !pl->network };
	size_t n;
	struct sc_rule *r = seccomp_rules(&o, &n);
	jw_key(w, "seccomp");
	jw_begin_array(w);
	for (size_t i = 0; i < n; i++) {
		if (i && same_rule(&r[i], &r[i - 1]))
			continue;
		jw_begin_object(w);
		jw_kstring(w, "syscall", r[i].syscall);
		if (r[i].what)
			jw_kstring(w, "argument", r[i].what);
		jw_kstring(w, "errno", errno_name(r[i].err));
		jw_kstring(w, "why", r[i].why);
		jw_end_object(w);
	}
	jw_end_array(w);
	free(r);
}

static void local_one(struct jsonw *w, const char *address, const struct allow_rule *r,
		      bool optional)
{
	jw_begin_object(w);
	jw_kstring(w, "address", address);
	jw_key(w, "port");
	jw_int(w, r->port);
	jw_kbool(w, "if_ipv6", optional);
	jw_kstring(w, "rule", r->text);
	jw_kstring(w, "origin", r->origin);
	jw_end_object(w);
}

/* The loopback rules' listeners: each address and port in the jail that
 * reaches the same on the host (localhost: both, ::1 where the jail has
 * it) */
static void local_json(struct jsonw *w, const struct plan *pl)
{
	jw_key(w, "local");
	jw_begin_array(w);
	for (size_t i = 0; i < pl->nallow; i++) {
		const struct allow_rule *r = &pl->allow[i];
		if (!allow_forwarded(r))
			continue;
		if (r->kind == ALLOW_NAME) {
			local_one(w, "127.0.0.1", r, false);
			local_one(w, "::1", r, true);
		} else {
			local_one(w, r->host, r, false);
		}
	}
	jw_end_array(w);
}

/* The caller's upstream proxy, credentials hidden (doc/policy-json.md). */
static void upstream_json(struct jsonw *w, const struct plan *pl)
{
	const struct egress_upstream *u = &pl->upstream;
	jw_key(w, "upstream");
	if (pl->net != NET_ALLOWLIST || (!u->tunnel && !u->http)) {
		jw_string(w, NULL);
		return;
	}
	jw_begin_object(w);
	const char *shown[2] = { u->tunnel_shown, u->http_shown };
	const char *var[2] = { u->tunnel_var, u->http_var };
	static const char *const key[2] = { "tunnel", "http" };
	for (int i = 0; i < 2; i++) {
		jw_key(w, key[i]);
		if (!shown[i]) {
			jw_string(w, NULL);
			continue;
		}
		jw_begin_object(w);
		jw_kstring(w, "url", shown[i]);
		jw_kstring(w, "from", var[i]);
		jw_end_object(w);
	}
	jw_key(w, "no_proxy");
	if (u->no_proxy) {
		jw_begin_object(w);
		jw_kstring(w, "value", u->no_proxy);
		jw_kstring(w, "from", u->no_proxy_var);
		jw_end_object(w);
	} else {
		jw_string(w, NULL);
	}
	jw_end_object(w);
}

static void allowlist_json(struct jsonw *w, const struct plan *pl)
{
	jw_key(w, "hosts");
	jw_begin_array(w);
	for (size_t i = 0; i < pl->nallow; i++) {
		const struct allow_rule *r = &pl->allow[i];
		char host[ALLOW_HOST_MAX + 4], port[16];
		rule_host(r, host, sizeof host);
		jw_begin_object(w);
		jw_kstring(w, "host", host);
		jw_kstring(w, "port", egress_ports(r, port, sizeof port));
		jw_kstring(w, "rule", r->text);
		jw_kstring(w, "origin", r->origin);
		jw_end_object(w);
	}
	jw_end_array(w);
	local_json(w, pl);
	jw_kstring(w, "http_proxy", PROXY_HTTP_URL);
	jw_kstring(w, "socks_proxy", PROXY_SOCKS_URL);
	jw_kstring(w, "no_proxy", PROXY_NO_PROXY);
	jw_kstring(w, "log", KJ_NET_LOG);
	upstream_json(w, pl);
}

/* --allow-socket: each socket bound alone, with what it gives away */
static void sockets_json(struct jsonw *w, const struct plan *pl)
{
	jw_key(w, "sockets");
	jw_begin_array(w);
	for (size_t i = 0; i < pl->nsockets; i++) {
		const struct plan_socket *s = &pl->sockets[i];
		jw_begin_object(w);
		jw_kstring(w, "path", s->path);
		if (s->name)
			jw_kstring(w, "name", s->name);
		if (s->given)
			jw_kstring(w, "given", s->given);
		jw_kstring(w, "origin", s->origin);
		if (s->gives)
			jw_kstring(w, "gives", s->gives);
		if (s->warning)
			jw_kstring(w, "warning", s->warning);
		if (s->relay) {
			jw_kstring(w, "relay", "ssh-agent");
			jw_kstring(w, "agent", s->agent);
		}
		if (s->source)
			jw_kstring(w, "source", s->source);
		if (s->refuses)
			jw_kstring(w, "refuses", s->refuses);
		jw_end_object(w);
	}
	jw_end_array(w);
}

/* The start-up socket scan: each socket found and masked, what it is,
 * and the mask over it (its own, or its directory's). Absent when the
 * scan did not run (--no-defaults). */
static void socket_scan_json(struct jsonw *w, const struct plan *pl)
{
	if (!pl->scanned_host)
		return;
	jw_key(w, "socket_scan");
	jw_begin_object(w);
	jw_key(w, "entries");
	jw_int(w, (long)pl->scan_entries);
	if (pl->scan_cut)
		jw_kstring(w, "cut", pl->scan_cut);
	jw_key(w, "masked");
	jw_begin_array(w);
	for (size_t i = 0; i < pl->nscanned; i++) {
		const struct plan_scanned *s = &pl->scanned[i];
		jw_begin_object(w);
		jw_kstring(w, "path", s->path);
		jw_kstring(w, "what", s->what);
		jw_kstring(w, "mask", s->mask);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_end_object(w);
}

/* Who the command runs as: the caller's ids outside, the jail's inside. */
static void user_json(struct jsonw *w, const struct plan *pl)
{
	long uid = (long)getuid(), gid = (long)getgid();
	jw_key(w, "user");
	jw_begin_object(w);
	jw_key(w, "uid");
	jw_int(w, uid);
	jw_key(w, "gid");
	jw_int(w, gid);
	jw_key(w, "inside_uid");
	jw_int(w, pl->inside_id >= 0 ? pl->inside_id : uid);
	jw_key(w, "inside_gid");
	jw_int(w, pl->inside_id >= 0 ? pl->inside_id : gid);
	jw_end_object(w);
}

/* What the kernel-side layers enforce besides the mounts: the seccomp
 * filter and Landlock are applied by the bwrap backend's entry program
 * only (Seatbelt has neither; the container backend sets up no jail). */
static void layers_json(struct jsonw *w, const struct plan *pl)
{
	bool jailed = pl->backend == BACKEND_BWRAP || pl->backend == BACKEND_LANDLOCK;
	int abi = jailed ? landlock_abi() : -1;
	jw_kbool(w, "seccomp_enabled", jailed && seccomp_built_in());
	jw_kbool(w, "landlock_enabled", abi >= 1);
	jw_key(w, "landlock_abi");
	jw_int(w, abi >= 1 ? abi : 0);
	/* --allow-userns: no write rules, under which no mount succeeds */
	jw_kbool(w, "landlock_writes", abi >= LANDLOCK_WRITES_ABI && !pl->allow_userns);
	if (pl->backend != BACKEND_LANDLOCK)
		return;
	/* what this backend loses against bwrap: kli's containment check
	 * reports each as drift from a bwrap baseline */
	jw_key(w, "degraded");
	jw_begin_array(w);
	for (const struct ll_degraded *r = ll_degraded_table; r->id; r++) {
		if (!ll_degraded_applies(r, abi))
			continue;
		jw_begin_object(w);
		jw_kstring(w, "id", r->id);
		jw_kstring(w, "what", r->line);
		jw_end_object(w);
	}
	jw_end_array(w);
}

static void cache_json(struct jsonw *w, const struct policy *p, const struct plan *pl)
{
	static const char *const modes[] = { "off", "workspace", "shared" };
	jw_key(w, "cache");
	jw_begin_object(w);
	jw_kstring(w, "mode", modes[pl->cache]);
	jw_kstring(w, "origin", p->cache_origin);
	jw_kstring(w, "dir", pl->cache_dir);
	if (pl->cache_note)
		jw_kstring(w, "note", pl->cache_note);
	jw_key(w, "env");
	jw_begin_array(w);
	for (size_t i = 0; i < pl->cache_env.n; i++) {
		const char *line = pl->cache_env.v[i].value, *eq = strchr(line, '=');
		_cleanup_free_ char *name = xstrndup(line, (size_t)(eq - line));
		jw_begin_object(w);
		jw_kstring(w, "name", name);
		jw_kstring(w, "value", eq + 1);
		jw_kstring(w, "tool", pl->cache_env.v[i].origin);
		jw_end_object(w);
	}
	jw_end_array(w);
	entries_json(w, "overridden", &pl->cache_overridden, "name", "caller_value");
	jw_kstring(w, "history", pl->history);
	jw_end_object(w);
}

/* Streamed, not built as a tree: with thousands of masks this runs on every
 * jail start (the jail's own copy) and must stay cheap. */
void policy_json_build(struct jsonw *w, const struct policy *p, const struct plan *pl,
			      const char *bwrap, bool with_filter)
{
	jw_begin_object(w);
	jw_kstring(w, "type", "policy");
	jw_key(w, "version");
	jw_int(w, KJ_POLICY_VERSION);
	jw_kstring(w, "backend", backend_name(pl->backend));
	jw_kstring(w, "bwrap", bwrap);
	jw_key(w, "sources");
	jw_begin_array(w);
	for (size_t i = 0; i < p->sources.n; i++)
		jw_string(w, p->sources.v[i].value);
	jw_end_array(w);
	jw_kstring(w, "workspace", pl->workspace);
	jw_key(w, "network");
	jw_begin_object(w);
	jw_kbool(w, "enabled", pl->network);
	jw_kstring(w, "origin", net_origin(p, pl));
	jw_kstring(w, "mode", net_mode_name(pl));
	if (pl->proxied)
		allowlist_json(w, pl);
	if (pl->net_log) { /* --net-log */
		jw_key(w, "net_log");
		jw_begin_object(w);
		jw_kstring(w, "path", pl->net_log);
		jw_kstring(w, "origin", pl->net_log_origin);
		jw_end_object(w);
	}
	jw_end_object(w);
	jw_kbool(w, "nested_userns", pl->nested_userns);
	jw_key(w, "mounts");
	jw_begin_array(w);
	for (size_t i = 0; i < pl->nops; i++) {
		const struct op *o = &pl->ops[i];
		jw_begin_object(w);
		jw_kstring(w, "path", o->path);
		/* a file kjail serves (planner/ssh.h) is read-only, not masked */
		jw_kstring(w, "verdict", o->serves ? "read-only" : op_verdict(o->kind));
		jw_kstring(w, "rule", o->rule);
		jw_kstring(w, "origin", o->origin);
		jw_kstring(w, "kind", o->kind == OP_MASK_FILE || o->kind == OP_SHOW ? "file"
				      : o->kind == OP_SOCKET ? "socket" : "directory");
		if (o->serves)
			jw_kstring(w, "served", o->serves);
		else if (o->data) {
			jw_key(w, "filtered");
			jw_begin_object(w);
			jw_kstring(w, "format", o->format);
			jw_key(w, "removed");
			jw_int(w, (long)o->removed);
			jw_kstring(w, "unit", o->unit);
			jw_end_object(w);
		}
		jw_end_object(w);
	}
	jw_end_array(w);
	if (pl->ndevices) /* --device */
		devices_json(w, pl);
	sockets_json(w, pl);
	socket_scan_json(w, pl);
	entries_json(w, "created", &pl->created, "path", "why");
	entries_json(w, "unprotected", &pl->unguarded, "path", "why");
	if (pl->watched.n) /* a repository with submodules */
		entries_json(w, "watched", &pl->watched, "path", "why");
	if (with_filter) /* --explain --json; the jail's copy need not list absences */
		entries_json(w, "skipped", &pl->skipped, "path", "why");
	entries_json(w, "env_unset", &pl->env_removed, "name", "rule");
	secrets_json(w, pl);
	cache_json(w, p, pl);
	jw_kbool(w, "allow_userns", pl->allow_userns);
	/* bwrap without --disable-userns here (plan.h): said, as the run says it */
	if (pl->backend == BACKEND_BWRAP && pl->no_disable_userns && !pl->allow_userns &&
	    !pl->in_kjail)
		jw_kstring(w, "no_disable_userns", pl->no_disable_userns);
	if (with_filter)
		filter_json(w, pl);
	jw_kstring(w, "landlock", landlock_status(pl->allow_userns));
	layers_json(w, pl);
	user_json(w, pl);
	jw_kstring(w, "kjail_version", PACKAGE_VERSION);
	jw_end_object(w);
}

void policy_json_write(FILE *out, const struct policy *p, const struct plan *pl,
			const char *bwrap, bool with_filter)
{
	struct jsonw w;
	jw_init(&w, out);
	policy_json_build(&w, p, pl, bwrap, with_filter);
	jw_flush(&w);
	fputc('\n', out);
}
