/* SPDX-License-Identifier: MIT */
/* kjail's side of the egress allowlist: values into the policy, the
 * network's mode, the proxy's rules (egress.h). */
#include "config.h"
#include "policy/egress.h"
#include "proxy/proxy.h"
#include "proxy/upstream.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

bool egress_add(struct entry_list *l, const char *key, const char *value, const char *origin,
		char *err, size_t errlen)
{
	struct allow_rule r;
	const char *why = NULL;
	if (value[0] != '@') {
		if (!allow_parse(value, &r, &why) || (why = allow_loopback_check(&r))) {
			fmt_into(err, errlen, "%s %s: %s", key, value, why);
			return false;
		}
		entry_add(l, value, origin);
		return true;
	}
	const char *const *m = allow_group(value + 1);
	if (!m) {
		/* allow_parse names the groups there are */
		if (allow_parse(value, &r, &why) || !why)
			why = "not a group";
		fmt_into(err, errlen, "%s %s: %s", key, value, why);
		return false;
	}
	_cleanup_free_ char *o = xasprintf("%s (%s)", origin, value);
	for (; *m; m++) {
		if (!allow_parse(*m, &r, &why)) {
			fmt_into(err, errlen, "%s %s: member %s: %s", key, value, *m, why);
			return false;
		}
		entry_add(l, *m, o);
	}
	return true;
}

/* How high the layer that set origin is: the built-in default lowest,
 * then each config file in the order read, the flags highest. */
static int layer_of(const struct policy *p, const char *origin)
{
	if (!origin || strcmp(origin, "built-in default") == 0)
		return 0;
	if (str_has_prefix(origin, "--"))
		return INT_MAX;
	for (size_t i = p->sources.n; i-- > 0;) {
		const struct entry *s = &p->sources.v[i];
		if (strncmp(origin, s->value, s->len) == 0 && origin[s->len] == ':')
			return (int)i + 1;
	}
	return INT_MAX - 1; /* a config read as text (tests): above the files */
}

bool egress_mode(const struct policy *p, enum net_mode *mode, char *err, size_t errlen)
{
	const struct bool_setting *net = &p->network;
	if (!p->allow_host.n) {
		*mode = net->value ? NET_SHARED : NET_NONE;
		return true;
	}
	int top = 0;
	const char *top_origin = NULL;
	for (size_t i = 0; i < p->allow_host.n; i++) {
		int l = layer_of(p, p->allow_host.v[i].origin);
		if (l >= top) {
			top = l;
			top_origin = p->allow_host.v[i].origin;
		}
	}
	int nl = layer_of(p, net->origin);
	*mode = NET_ALLOWLIST;
	if (nl < top || nl == 0)
		return true;
	if (!net->value) {
		*mode = nl > top ? NET_NONE : NET_ALLOWLIST;
		return true;
	}
	if (nl == INT_MAX && top == INT_MAX)
		fmt_into(err, errlen, "--network and --allow-host cannot be combined: with "
				      "--allow-host the jail reaches the network only through "
				      "kjail's proxy; drop one");
	else
		fmt_into(err, errlen, "network = true (%s) and allow-host (%s) cannot be combined: "
				      "with allow-host the jail reaches the network only through "
				      "kjail's proxy; drop one",
			 net->origin, top_origin);
	return false;
}

struct allow_rule *egress_rules(const struct entry_list *l, struct strpool *pool, size_t *n)
{
	*n = 0;
	if (!l->n)
		return NULL;
	struct allow_rule *r = xreallocarray(NULL, l->n, sizeof *r);
	for (size_t i = 0; i < l->n; i++) {
		const char *why;
		/* checked when read (egress_add) */
		if (!allow_parse(l->v[i].value, &r[*n], &why))
			die("internal error: allow-host %s: %s", l->v[i].value, why);
		r[*n].text = strpool_intern(pool, l->v[i].value);
		r[*n].origin = strpool_intern(pool, l->v[i].origin);
		(*n)++;
	}
	return r;
}

const char *egress_ports(const struct allow_rule *r, char *buf, size_t len)
{
	if (r->port == ALLOW_PORT_WEB)
		return "80,443";
	if (r->port == ALLOW_PORT_ANY)
		return "*";
	snprintf(buf, len, "%d", r->port);
	return buf;
}

static const char *const proxy_env[][2] = {
	{ "HTTP_PROXY", PROXY_HTTP_URL },  { "http_proxy", PROXY_HTTP_URL },
	{ "HTTPS_PROXY", PROXY_HTTP_URL }, { "https_proxy", PROXY_HTTP_URL },
	{ "ALL_PROXY", PROXY_SOCKS_URL },  { "all_proxy", PROXY_SOCKS_URL },
	{ "NO_PROXY", PROXY_NO_PROXY },    { "no_proxy", PROXY_NO_PROXY },
};

static bool is_proxy_name(const char *e, size_t n)
{
	static const char tail[] = "_PROXY";
	size_t t = sizeof tail - 1;
	return n >= t && strncasecmp(e + n - t, tail, t) == 0;
}

static bool is_ours(const char *e, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(proxy_env); i++)
		if (strlen(proxy_env[i][0]) == n && memcmp(e, proxy_env[i][0], n) == 0)
			return true;
	return false;
}

void egress_env(struct strv *env, struct entry_list *removed)
{
	struct strv kept = STRV_INIT;
	for (size_t i = 0; i < env->n; i++) {
		const char *e = env->v[i], *eq = strchr(e, '=');
		size_t n = eq ? (size_t)(eq - e) : strlen(e);
		if (!is_proxy_name(e, n)) {
			strv_push(&kept, e);
			continue;
		}
		if (!is_ours(e, n)) {
			_cleanup_free_ char *name = xstrndup(e, n);
			entry_add(removed, name, "a proxy the jail cannot reach (allow-host: the "
						 "jail's only way out is kjail's proxy)");
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(proxy_env); i++)
		strv_pushf(&kept, "%s=%s", proxy_env[i][0], proxy_env[i][1]);
	strv_free(env);
	*env = kept;
}

/* The first of names set to a non-empty value in envp: its value, and
 * its name in *which. */
static const char *env_first(char *const *envp, const char *const *names, const char **which)
{
	for (; *names; names++) {
		size_t n = strlen(*names);
		for (char *const *e = envp; e && *e; e++)
			if (strncmp(*e, *names, n) == 0 && (*e)[n] == '=' && (*e)[n + 1]) {
				*which = *names;
				return *e + n + 1;
			}
	}
	return NULL;
}

static bool one_upstream(char *const *envp, const char *const *names, struct strpool *pool,
			 const char **url, const char **var, const char **shown, char *err,
			 size_t errlen)
{
	const char *v = env_first(envp, names, var);
	if (!v)
		return true;
	struct upstream u;
	const char *why = NULL;
	if (!upstream_parse(v, &u, &why)) {
		/* the value may hold a password: never printed */
		fmt_into(err, errlen,
			 "%s in kjail's environment is not an upstream proxy kjail's proxy can use "
			 "(%s); --allow-host would go through it: fix it, or unset it for this run",
			 *var, why);
		return false;
	}
	upstream_clear(&u);
	*url = strpool_intern(pool, v);
	*shown = strpool_intern(pool, u.shown);
	return true;
}

bool egress_upstream(char *const *envp, struct strpool *pool, struct egress_upstream *out,
		     char *err, size_t errlen)
{
	/* curl's order: the lower-case name first */
	static const char *const tunnel[] = { "https_proxy", "HTTPS_PROXY", "all_proxy",
					      "ALL_PROXY", NULL };
	static const char *const http[] = { "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY",
					    NULL };
	static const char *const none[] = { "no_proxy", "NO_PROXY", NULL };
	memset(out, 0, sizeof *out);
	if (!one_upstream(envp, tunnel, pool, &out->tunnel, &out->tunnel_var, &out->tunnel_shown,
			  err, errlen) ||
	    !one_upstream(envp, http, pool, &out->http, &out->http_var, &out->http_shown, err,
			  errlen))
		return false;
	if (!out->tunnel && !out->http)
		return true;
	const char *np = env_first(envp, none, &out->no_proxy_var);
	const char *why = NULL;
	if (np && !upstream_no_proxy_check(np, &why)) {
		fmt_into(err, errlen,
			 "%s in kjail's environment: %s; kjail's proxy decides by it which hosts "
			 "skip the upstream proxy: fix it, or unset it for this run",
			 out->no_proxy_var, why);
		return false;
	}
	out->no_proxy = np ? strpool_intern(pool, np) : NULL;
	return true;
}
