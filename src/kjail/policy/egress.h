/* SPDX-License-Identifier: MIT */
/* kjail's side of the egress allowlist (--allow-host, allow-host =):
 * reading the values into the policy, deciding what the network is, and
 * the rules the proxy (proxy.h) is started with. Pure: no I/O. */
#ifndef KJ_EGRESS_H
#define KJ_EGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "proxy/rules.h"
#include "policy/policy.h"
#include "strpool.h"
#include "strv.h"

/* What the jail's network is. */
enum net_mode {
	NET_SHARED,    /* the host's (the default, --network) */
	NET_NONE,      /* its own namespace, loopback only (-n) */
	NET_ALLOWLIST, /* its own namespace, out only through kjail's proxy */
};

/* Adds value, read from origin ("--allow-host" or "FILE:LINE"), to l:
 * checked by allow_parse(), or "@GROUP" expanded to its members, each
 * with origin "ORIGIN (@GROUP)". On a bad value: false, and err holds
 * "KEY VALUE: WHY" (key: "--allow-host" or "allow-host"), to which the
 * config reader adds FILE:LINE. */
bool egress_add(struct entry_list *l, const char *key, const char *value, const char *origin,
		char *err, size_t errlen);

/* The network of p, after every layer (built-in, the config files in
 * p->sources' order, the flags). allow-host entries are an allowlist
 * unless a layer above the highest of them says otherwise: network =
 * false there cuts the network (NET_NONE); network = true at that layer
 * or above is a contradiction: false, err holds one line naming both. */
bool egress_mode(const struct policy *p, enum net_mode *mode, char *err, size_t errlen);

/* The rules of l (egress_add's entries), parsed again; text and origin
 * are copies in pool. NULL when l is empty. */
struct allow_rule *egress_rules(const struct entry_list *l, struct strpool *pool, size_t *n);

/* The jail's environment under an allowlist: HTTP_PROXY, HTTPS_PROXY,
 * ALL_PROXY, NO_PROXY and their lower-case forms name kjail's proxy
 * (proxy.h), whatever the caller had in them; any other *_PROXY names a
 * proxy the jail cannot reach, and goes (noted in removed). */
void egress_env(struct strv *env, struct entry_list *removed);

/* The caller's upstream proxy (a company proxy), which kjail's proxy
 * goes through (proxy/upstream.h): read once from the CALLER's
 * environment (kjail's, never the jail's). Tunnels (CONNECT, SOCKS5) go
 * by https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY, absolute-form HTTP
 * requests by http_proxy, HTTP_PROXY, all_proxy, ALL_PROXY: the first set
 * and not empty; no_proxy, NO_PROXY name the destinations that go
 * direct. Strings in the pool; NULL for none. */
struct egress_upstream {
	const char *tunnel, *http, *no_proxy;  /* the values (URLs may hold
						* credentials: never printed) */
	const char *tunnel_var, *http_var, *no_proxy_var; /* where from */
	const char *tunnel_shown, *http_shown; /* credentials hidden */
};

/* Reads out from envp. A URL upstream_parse() refuses, or a NO_PROXY
 * upstream_no_proxy_check() refuses: false, err holds one line naming
 * the variable (never its value, which may hold a password). Pure. */
bool egress_upstream(char *const *envp, struct strpool *pool, struct egress_upstream *out,
		     char *err, size_t errlen);

/* The ports a rule allows, as text: "80,443", "*" or "8080". */
const char *egress_ports(const struct allow_rule *r, char *buf, size_t len);

#endif
