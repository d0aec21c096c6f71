/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "build/explain.h"
#include "build/explain-words.h"
#include "build/policy-json.h"
#include "policy/secret.h"
#include "build/brief.h"
#include "build/hints.h"
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


/* TREE/.git/REST where TREE/.git is a file naming a git directory
 * (git/link.h): COMMON/REST, where git reads and writes it; else NULL. */
static char *through_gitlink(const char *path)
{
	const char *at = strstr(path, "/.git/");
	if (!at)
		return NULL;
	_cleanup_free_ char *tree = xstrndup(path, (size_t)(at - path));
	struct gitlink l;
	const char *why;
	if (!gitlink_read(tree[0] ? tree : "/", &l, &why))
		return NULL;
	char *p = path_join(l.common, at + strlen("/.git/"));
	gitlink_free(&l);
	return p;
}

void explain_verdict(const struct plan *pl, const char *path, const char *cwd, struct verdict *v)
{
	char *real = path_resolve(path, cwd);
	v->path = real ? real : path_normalize(path, cwd);
	char *linked = through_gitlink(v->path);
	if (linked) {
		free(v->path);
		v->path = linked;
	}
	/* --device: a node bound into the jail's private /dev */
	for (size_t i = 0; i < pl->ndevices; i++)
		if (!pl->devices[i].target && strcmp(pl->devices[i].path, v->path) == 0) {
			v->what = "writable";
			v->rule = "device node (bound from the host)";
			v->origin = pl->devices[i].origin;
			return;
		}
	const struct op *o = plan_verdict(pl, v->path);
	if (!o) {
		v->what = "read-only";
		v->rule = "read-only";
		v->origin = "host root";
		return;
	}
	v->what = op_verdict(o->kind);
	v->rule = o->rule;
	v->origin = o->origin;
}



/* One line per distinct (system call, argument test): the personality
 * rule is dozens of BPF rules but one idea. The short form counts them,
 * and the system calls they are on, in the first line. */
static void text_filter(FILE *out, const struct plan *pl, struct brief *b)
{
	struct sc_opts o = { .allow_userns = pl->allow_userns, .no_network = !pl->network };
	size_t n, rules = 0, calls = 0;
	struct sc_rule *r = seccomp_rules(&o, &n);
	for (size_t i = 0; i < n; i++) {
		rules += !(i && same_rule(&r[i], &r[i - 1]));
		size_t j = 0;
		while (j < i && strcmp(r[j].syscall, r[i].syscall) != 0)
			j++;
		calls += j == i;
	}
	fprintf(out, "seccomp: %s", seccomp_built_in() ? "filter on" : "NOT built in");
	if (!b->verbose)
		fprintf(out, ", %zu rules on %zu system calls (--explain --verbose lists them)", rules,
			calls);
	fputc('\n', out);
	for (size_t i = 0; i < n; i++) {
		if (i && same_rule(&r[i], &r[i - 1]))
			continue;
		if (brief_keep(b, BRIEF_SECCOMP, true))
			fprintf(out, "seccomp: %s%s%s -> %s (%s)\n", r[i].syscall,
				r[i].what ? " " : "", r[i].what ? r[i].what : "",
				errno_name(r[i].err), r[i].why);
	}
	free(r);
}

/* "(origin)" when the rule only repeats the verdict, else "(rule; origin)". */
static void print_why(FILE *out, const char *verdict, const char *rule, const char *origin)
{
	if (strcmp(verdict, rule) == 0)
		fprintf(out, "(%s)", origin);
	else
		fprintf(out, "(%s; %s)", rule, origin);
}

static const char *network_text(const struct plan *pl)
{
	if (pl->network)
		return "shared with the host";
	if (pl->net == NET_ALLOWLIST)
		return "allowlist: own network namespace, out only through kjail's proxy to the "
		       "hosts below (DNS does not resolve inside; the proxy resolves)";
	if (pl->proxied)
		return "cut: no network; own network namespace, loopback only (DNS does not "
		       "resolve), where kjail's proxy refuses every host (--allow-host HOST "
		       "allows one)";
	return "cut: own network namespace, loopback only (DNS does not resolve)";
}




/* Where an allowed connection goes: through the caller's upstream proxy
 * (policy/egress.h) or straight out; credentials hidden. */
static void explain_chain(FILE *out, const struct plan *pl, const char *prefix)
{
	const struct egress_upstream *u = &pl->upstream;
	if (pl->net != NET_ALLOWLIST)
		return;
	if (!u->tunnel && !u->http) {
		fprintf(out, "%schain: jail -> kjail proxy -> net (no upstream proxy in kjail's "
			     "environment)\n", prefix);
		return;
	}
	bool same = u->tunnel && u->http && strcmp(u->tunnel_shown, u->http_shown) == 0;
	if (u->tunnel)
		fprintf(out, "%schain: jail -> kjail proxy -> %s (%s) -> net (%s)\n", prefix,
			u->tunnel_shown, u->tunnel_var,
			same ? "every connection" : "CONNECT and SOCKS5 tunnels");
	if (u->http && !same)
		fprintf(out, "%schain: jail -> kjail proxy -> %s (%s) -> net (HTTP requests)\n",
			prefix, u->http_shown, u->http_var);
	if (!u->tunnel || !u->http)
		fprintf(out, "%schain: jail -> kjail proxy -> net (%s)\n", prefix,
			u->tunnel ? "HTTP requests" : "CONNECT and SOCKS5 tunnels");
	if (u->no_proxy)
		fprintf(out, "%schain: jail -> kjail proxy -> net (what %s names: %s)\n", prefix,
			u->no_proxy_var, u->no_proxy);
}

void explain_allowlist(FILE *out, const struct plan *pl, const char *prefix)
{
	if (!pl->proxied)
		return;
	for (size_t i = 0; i < pl->nallow; i++) {
		const struct allow_rule *r = &pl->allow[i];
		char host[ALLOW_HOST_MAX + 4], port[16];
		rule_host(r, host, sizeof host);
		fprintf(out, "%sallow-host: %s port %s (%s)\n", prefix, host,
			egress_ports(r, port, sizeof port), r->origin);
	}
	/* the loopback rules: a port of the host's, at the same address */
	for (size_t i = 0; i < pl->nallow; i++) {
		const struct allow_rule *r = &pl->allow[i];
		if (!allow_forwarded(r))
			continue;
		if (r->kind == ALLOW_NAME)
			fprintf(out, "%slocal: 127.0.0.1:%d and [::1]:%d (where the jail has IPv6) in "
				     "the jail reach the host's 127.0.0.1:%d and [::1]:%d, whatever "
				     "listens there (%s)\n",
				prefix, r->port, r->port, r->port, r->port, r->origin);
		else
			fprintf(out, "%slocal: %s:%d in the jail reaches the host's %s:%d, whatever "
				     "listens there (%s)\n",
				prefix, r->kind == ALLOW_IPV6 ? "[::1]" : r->host, r->port,
				r->kind == ALLOW_IPV6 ? "[::1]" : r->host, r->port, r->origin);
	}
	fprintf(out, "%sproxy: " PROXY_HTTP_URL " (HTTP, CONNECT), " PROXY_SOCKS_URL
		     " (SOCKS5) inside the jail; log " KJ_NET_LOG "\n", prefix);
	explain_chain(out, pl, prefix);
}

/* --device: what the jail's /dev holds besides bwrap's minimal one */
static void explain_devices(FILE *out, const struct plan *pl)
{
	for (size_t i = 0; i < pl->ndevices; i++) {
		const struct dev_bind *d = &pl->devices[i];
		if (d->target)
			fprintf(out, "device link: %s -> %s (%s; %s)\n", d->path, d->target, d->cls,
				d->origin);
		else
			fprintf(out, "device: %s (%s; read-write, the host's node; %s)\n", d->path,
				d->cls, d->origin);
	}
}


/* The scan's sockets: a count, then each one (the short form counts
 * them in its last line). */
static void text_scan(FILE *out, const struct plan *pl, struct brief *b)
{
	if (!pl->scanned_host)
		return;
	size_t dirs = 0;
	for (size_t i = 0; i < pl->nscanned; i++)
		dirs += strcmp(pl->scanned[i].mask, pl->scanned[i].path) != 0;
	fprintf(out, "socket scan: %zu socket%s found and masked (%zu with %s directory, which "
		     "holds sockets only), %zu entries read\n",
		pl->nscanned, pl->nscanned == 1 ? "" : "s", dirs, dirs == 1 ? "its" : "their",
		pl->scan_entries);
	if (pl->scan_cut)
		fprintf(out, "socket scan: stopped at its limit in %s: sockets past it stay reachable "
			     "(--deny-read PATH masks one)\n", pl->scan_cut);
	for (size_t i = 0; i < pl->nscanned; i++) {
		const struct plan_scanned *s = &pl->scanned[i];
		if (!brief_keep(b, BRIEF_SCANNED, true))
			continue;
		fprintf(out, "socket: %s (%s; masked%s%s)\n", s->path, s->what,
			strcmp(s->mask, s->path) ? " with its directory " : "",
			strcmp(s->mask, s->path) ? s->mask : "");
	}
}

static void text_sockets(FILE *out, const struct plan *pl)
{
	for (size_t i = 0; i < pl->nsockets; i++) {
		const struct plan_socket *s = &pl->sockets[i];
		fprintf(out, "allow-socket: %s (%s; %s)", s->path, s->name ? s->name : "by path",
			s->origin);
		if (s->given)
			fprintf(out, ", found at %s", s->given);
		if (s->gives)
			fprintf(out, ": %s", s->gives);
		fputc('\n', out);
		if (s->relay)
			fprintf(out, "allow-socket: %s is kjail's relay to the agent at %s\n", s->path,
				s->agent);
		if (s->source)
			fprintf(out, "allow-socket: %s is the restricted socket %s\n", s->path,
				s->source);
		if (s->refuses)
			fprintf(out, "allow-socket: %s refuses %s\n", s->path, s->refuses);
		if (s->warning)
			fprintf(out, "allow-socket: %s warns: %s\n", s->path, s->warning);
	}
}

/* The caches: the mode, the directory, each variable set and each the
 * caller had set, each tool left out. */
static void text_cache(FILE *out, const struct policy *p, const struct plan *pl,
		       struct brief *b)
{
	fprintf(out, "cache: %s (%s)\n", cache_mode_name(pl->cache), p->cache_origin);
	if (pl->cache_note)
		fprintf(out, "cache: none: %s\n", pl->cache_note);
	if (pl->cache_dir)
		fprintf(out, "cache directory: %s (kjail's own for this workspace; writable)\n",
			pl->cache_dir);
	for (size_t i = 0; i < pl->cache_env.n; i++)
		if (brief_keep(b, BRIEF_CACHE_ENV, true))
			fprintf(out, "cache env: %s (%s)\n", pl->cache_env.v[i].value,
				pl->cache_env.v[i].origin);
	for (size_t i = 0; i < pl->cache_overridden.n; i++)
		fprintf(out, "cache env: %s overrides the caller's value %s (which the jail "
			     "may not write)\n", pl->cache_overridden.v[i].value,
			pl->cache_overridden.v[i].origin);
	if (pl->cache == CACHE_WORKSPACE)
		for (const struct cache_tool *t = cache_tools; t->tool; t++)
			if (t->note && brief_keep(b, BRIEF_CACHE_NOTE, true))
				fprintf(out, "cache note: %s: %s\n", t->tool, t->note);
	if (pl->history)
		fprintf(out, "shell history: %s (HISTFILE)\n", pl->history);
}

/* What kind of line an op makes, for the short form; BRIEF_KINDS for one
 * it always shows (the root, /dev, /proc, /tmp, the writable roots). */
static enum brief_kind op_kind_of_line(const struct plan *pl, const struct op *o)
{
	switch (o->kind) {
	case OP_PIN:
		return BRIEF_PINNED;
	case OP_PROTECT: /* the workspace's first: another worktree's are many */
		return pl->workspace && path_is_under(o->path, pl->workspace)
			       ? BRIEF_PROTECTED
			       : BRIEF_PROTECTED_ELSEWHERE;
	case OP_MASK_FILE:
		if (o->serves) /* ssh's: few, and what a run depends on */
			return BRIEF_KINDS;
		return o->data ? BRIEF_FILTERED : BRIEF_MASKED;
	case OP_MASK_DIR:
		return BRIEF_MASKED;
	default:
		return BRIEF_KINDS;
	}
}

/* ORIGIN in a skipped entry's "WHY (ORIGIN)" (planner/tools.c: skip()),
 * where ORIGIN may hold parentheses of its own; NULL if there is none. */
static const char *skip_origin(const char *why)
{
	size_t n = strlen(why);
	int depth = 0;
	for (size_t i = n; i-- > 0;) {
		if (why[i] == ')')
			depth++;
		else if (why[i] == '(' && --depth == 0)
			return i + 1 < n && why[n - 1] == ')' ? why + i + 1 : NULL;
	}
	return NULL;
}

/* A skip the short form may count: a built-in mask this host has nothing
 * for, or one already covered. What else a skip says (a symlink that
 * cannot be pinned, a path that does not resolve, the user's own mask or
 * writable path missing) keeps its line. */
static bool skip_foldable(const char *why)
{
	static const char *const benign[] = { "missing, nothing to mask (", "already masked (",
					      "already hidden by the mask on ",
					      "not visible: private in the jail (" };
	for (size_t i = 0; i < ARRAY_SIZE(benign); i++)
		if (str_has_prefix(why, benign[i]))
			return brief_built_in(skip_origin(why));
	return false;
}

/* What a run on a terminal says at start (build/hints.h), here whatever
 * standard error is. */
static void text_hints(FILE *out, const struct plan *pl)
{
	struct strv lines = STRV_INIT;
	hints_build(pl, &lines);
	for (size_t i = 0; i < lines.n; i++)
		fprintf(out, "hint: %s\n", lines.v[i]);
	strv_free(&lines);
}

static void text_policy(FILE *out, const struct policy *p, const struct plan *pl,
			const char *bwrap, struct brief *b)
{
	fprintf(out, "backend: %s (%s; %s)\n", backend_name(pl->backend), bwrap ? bwrap : "no bwrap",
		p->backend_origin);
	for (size_t i = 0; i < p->sources.n; i++)
		fprintf(out, "config: %s\n", p->sources.v[i].value);
	fprintf(out, "workspace: %s (writable; %s)\n", pl->workspace, p->workspace_origin);
	fprintf(out, "network: %s (%s)\n", network_text(pl), net_origin(p, pl));
	explain_allowlist(out, pl, "");
	if (pl->net_log)
		fprintf(out, "net log: %s (the proxy's log, one JSON line a connection, kept "
			     "after the run: doc/kjail-net-log.schema.json; %s)\n",
			pl->net_log, pl->net_log_origin);
	text_sockets(out, pl);
	text_scan(out, pl, b);
	if (pl->allow_userns)
		fprintf(out, "user namespaces: allowed (%s): the command may build its own "
			     "namespaces and, inside them, hold capabilities over them; the mount, "
			     "keyring and other filter rules still apply\n",
			p->allow_userns.origin);
	if (pl->allow_userns && pl->backend == BACKEND_BWRAP)
		fprintf(out, "mounts: mount(2), umount2(2) and pivot_root(2) allowed (%s), so a "
			     "jail can nest: they act only in a mount namespace the command makes, "
			     "where every mount of this jail is locked (no mask undone, no "
			     "read-only bind made writable); the newer mount API answers ENOSYS; "
			     "Landlock's write rules are off (under them no mount succeeds), so a "
			     "file given read-only on standard input, output or error that you "
			     "could write is refused instead\n",
			p->allow_userns.origin);
	if (pl->inside_id >= 0)
		fprintf(out, "identity: uid and gid %ld inside the jail (the caller's outside), so "
			     "nested namespaces can map it\n", pl->inside_id);
	if (!pl->allow_userns && pl->backend == BACKEND_BWRAP && pl->no_disable_userns &&
	    !pl->in_kjail)
		fprintf(out, "user namespaces: none can be created inside (refused by the seccomp "
			     "rules alone: bwrap cannot --disable-userns here: %s)\n",
			pl->no_disable_userns);
	else if (!pl->allow_userns)
		fprintf(out, "user namespaces: none can be created inside\n");
	fprintf(out, "processes: own PID namespace, %s\n",
		pl->nested_userns ? "not unshared; host /proc bound read-only; what the command "
				    "leaves running is killed when it exits"
				  : "nothing outlives the command");
	if (pl->nested_userns)
		fprintf(out, "nested: no fresh /proc, no PID namespace (%s)\n",
			p->nested_userns.origin);
	fprintf(out, "capabilities: all dropped\n");
	/* run as root: what the jail would own (plan.h) */
	for (size_t i = 0; i < pl->host_devices.n; i++)
		fprintf(out, "read-only device: %s (run as root, the jail owns it: bound "
			     "read-only, it still opens for reading and writing)\n",
			pl->host_devices.v[i]);
	explain_devices(out, pl);
	if (pl->proc_read_only)
		fprintf(out, "read-only: /proc (run as root: a chmod there would change the "
			     "kernel's entry for every /proc on the host; writing /proc/self fails)\n");
	fprintf(out, "landlock: %s\n", landlock_status(pl->allow_userns));
	text_filter(out, pl, b);
	for (size_t i = 0; i < pl->nops; i++) {
		const struct op *o = &pl->ops[i];
		enum brief_kind k = op_kind_of_line(pl, o);
		/* the scan's masks: each socket has its line already (text_scan) */
		if (o->origin && str_has_prefix(o->origin, "built-in socket scan"))
			k = BRIEF_SCAN_MASK;
		if (k != BRIEF_KINDS && !brief_keep(b, k, brief_built_in(o->origin)))
			continue;
		if (o->serves) { /* planner/ssh.h */
			fprintf(out, "%s: %s (read-only, %s; %s)\n", o->serves, o->path, o->rule,
				o->origin);
			continue;
		}
		if (o->data) { /* a config file with its secrets removed */
			fprintf(out, "filtered: %s (%s, %u secret %s%s removed; %s)\n", o->path,
				o->format, o->removed, o->unit, o->removed == 1 ? "" : "s", o->origin);
			continue;
		}
		fprintf(out, "%s: %s ", op_verdict(o->kind), o->path);
		print_why(out, op_verdict(o->kind), o->rule, o->origin);
		fputc('\n', out);
	}
	for (size_t i = 0; i < pl->created.n; i++)
		fprintf(out, "created: %s (empty, so it can be pinned read-only: %s)\n",
			pl->created.v[i].value, pl->created.v[i].origin);
	/* every absent protected name is reserved (protected.h); the short
	 * form says so once for all of them, unless there is only one */
	for (size_t i = 0; i < pl->unguarded.n; i++)
		if (brief_keep(b, BRIEF_UNPROTECTED, pl->unguarded.n > 1))
			fprintf(out, "unprotected: %s (%s; absent, so not pinned: the jail may make "
				     "it, and kjail moves it aside after the run and warns)\n",
				pl->unguarded.v[i].value, pl->unguarded.v[i].origin);
	if (b->left[BRIEF_UNPROTECTED])
		fprintf(out, "unprotected: %zu protected names absent here, so not pinned: the jail "
			     "may make them, and kjail moves them aside after the run and warns "
			     "(--explain --verbose lists them)\n",
			b->left[BRIEF_UNPROTECTED]);
	for (size_t i = 0; i < pl->watched.n; i++)
		fprintf(out, "watched: %s (%s; what the jail adds in it is moved aside after the "
			     "run, and kjail warns)\n",
			pl->watched.v[i].value, pl->watched.v[i].origin);
	for (size_t i = 0; i < pl->skipped.n; i++)
		if (brief_keep(b, BRIEF_SKIPPED, skip_foldable(pl->skipped.v[i].origin)))
			fprintf(out, "skipped: %s (%s)\n", pl->skipped.v[i].value,
				pl->skipped.v[i].origin);
	for (size_t i = 0; i < pl->env_removed.n; i++)
		if (brief_keep(b, BRIEF_ENV_UNSET, brief_built_in(pl->env_removed.v[i].origin)))
			fprintf(out, "env unset: %s (%s)\n", pl->env_removed.v[i].value,
				pl->env_removed.v[i].origin);
	for (size_t i = 0; i < pl->secrets.n; i++) {
		struct secret_ref r;
		secret_split(pl->secrets.v[i].value, &r);
		_cleanup_free_ char *var = secret_fd_var(r.name);
		fprintf(out, "secret: %s from %s %s, on the descriptor $%s (%s; the %s is %s in "
			     "the jail)\n",
			r.name, r.kind == SECRET_ENV ? "variable" : "file", r.source, var,
			pl->secrets.v[i].origin, r.kind == SECRET_ENV ? "variable" : "file",
			r.kind == SECRET_ENV ? "unset" : "masked");
	}
	text_cache(out, p, pl, b);
	text_hints(out, pl);
	brief_tally(out, b);
}

void explain_policy(FILE *out, const struct policy *p, const struct plan *pl, const char *bwrap,
		    enum explain_form form)
{
	if (form == EXPLAIN_JSON) {
		policy_json_write(out, p, pl, bwrap, true);
		return;
	}
	struct brief b = { .verbose = form == EXPLAIN_VERBOSE };
	text_policy(out, p, pl, bwrap, &b);
}

char *explain_policy_for_jail(const struct policy *p, const struct plan *pl, const char *bwrap)
{
	struct jsonw w;
	jw_init(&w, NULL);
	policy_json_build(&w, p, pl, bwrap, false);
	return jw_take(&w, "\n");
}

void explain_paths(FILE *out, const struct plan *pl, const char *cwd, char *const *paths,
		   bool json)
{
	json_t *arr = json ? json_array() : NULL;
	for (; *paths; paths++) {
		struct verdict v;
		explain_verdict(pl, *paths, cwd, &v);
		if (json)
			json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:s, s:s}", "path",
							     *paths, "resolved", v.path, "verdict",
							     v.what, "rule", v.rule, "origin",
							     v.origin));
		else {
			fprintf(out, "%s: %s ", *paths, v.what);
			print_why(out, v.what, v.rule, v.origin);
			if (str_has_prefix(v.rule, "protected: git config"))
				fputs("; git config cannot write it in the jail (git says 'Device or "
				      "resource busy'): use git -c NAME=VALUE or GIT_AUTHOR_NAME and "
				      "GIT_COMMITTER_EMAIL for one run, or set it before entering the jail",
				      out);
			if (strcmp(*paths, v.path) != 0)
				fprintf(out, " -> %s", v.path);
			fputc('\n', out);
		}
		free(v.path);
	}
	if (json) {
		json_t *o = json_pack("{s:s, s:o}", "type", "verdicts", "verdicts", arr);
		char *s = json_dumps(o, JSON_COMPACT);
		fprintf(out, "%s\n", s);
		free(s);
		json_decref(o);
	}
}
