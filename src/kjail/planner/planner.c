/* SPDX-License-Identifier: MIT */
/* The planner's driver (planner/planner.h): the writable roots, then the protected
 * paths, the masks and the jail's own mounts, in that order. */
#include "config.h"
#include "planner/planner.h"
#include "policy/env.h"
#include "build/bwrap.h"
#include "policy/cache.h"
#include "planner/internal.h"
#include "planner/checks.h"
#include "planner/devscan.h"
#include "planner/hints.h"
#include "planner/mask-aliases.h"
#include "planner/masks.h"
#include "planner/credscan.h"
#include "planner/protect.h"
#include "planner/socket-plan.h"
#include "planner/ssh.h"
#include "planner/netlog.h"
#include "planner/socket-scan.h"
#include "planner/tools.h"
#include "proxy/proxy.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* path resolved, the links on the way noted for check_planted */
static char *resolve_noting(struct builder *b, const char *path, const char *origin)
{
	struct path_links l = { 0 };
	char *real = path_resolve_links(path, b->h->cwd, path_links_note, &l);
	for (size_t i = 0; i < l.n; i++) {
		if (!real) {
			free(l.v[i]);
			continue;
		}
		b->seen = xreallocarray(b->seen, b->nseen + 1, sizeof *b->seen);
		b->seen[b->nseen++] = (struct seen_link){ .link = l.v[i], .real = xstrdup(real),
							  .given = path, .origin = origin };
	}
	free(l.v);
	return real;
}

/* A writable path the caller named that is not there: the line names the
 * fix when mkdir -p would make it (every component there is a directory);
 * a dangling symbolic link is made at its target. */
static bool fail_missing(struct builder *b, const char *path, const char *real,
			 const char *origin)
{
	struct stat st;
	int err = stat(real, &st) == 0 ? EEXIST : errno;
	if (err != ENOENT)
		return fail(b, "%s: %s: %s", origin, path,
			    err == EEXIST ? "no such file or directory" : strerror(err));
	struct strv fix = STRV_INIT;
	strv_pushn(&fix, "mkdir", "-p");
	strv_push(&fix, lstat(path, &st) == 0 ? real : path);
	_cleanup_free_ char *line = strv_shell_line(&fix);
	strv_free(&fix);
	return fail(b, "%s %s: no such directory (create it first: %s)", origin, path, line);
}

static bool add_writable(struct builder *b, const char *path, const char *rule, const char *origin,
			 bool strict)
{
	_cleanup_free_ char *real = resolve_noting(b, path, origin);
	if (!real)
		return fail(b, "%s: %s: %s", origin, path, strerror(errno));
	if (strcmp(real, "/") == 0)
		return fail(b, "%s: refusing to make / writable: that is no jail", origin);
	/* The kernel's own trees: the jail has its own /proc and /dev; the
	 * host's, or /sys, writable would hand it the kernel's settings
	 * (core_pattern runs a program as root), the host's processes and
	 * its devices. */
	static const char *const kernel_dirs[] = { "/proc", "/sys", "/dev", NULL };
	for (const char *const *d = kernel_dirs; *d; d++)
		if (path_is_under(real, *d))
			return fail(b, "%s: refusing to make %s writable: %s is the kernel's "
				       "(its settings, processes or devices), never the jail's to write",
				    origin, real, *d);
	/* Run as root, the jail writes what root owns: a writable root that
	 * holds one of these hands it the machine (a cron job, a service, a
	 * package's install script, a library every program loads). */
	static const char *const system_dirs[] = {
		"/etc", "/usr", "/boot", "/opt", "/var/spool/cron", "/var/lib/dpkg",
		"/var/lib/rpm", NULL,
	};
	for (const char *const *d = system_dirs; b->h->uid == 0 && *d; d++)
		if (path_is_under(*d, real))
			return fail(b, "%s: refusing to make %s writable to a jail run as root: the "
				       "machine runs programs from %s later (cron jobs, services, "
				       "install scripts); make writable only the directory the job "
				       "needs (--writable DIR, or run kjail from there)",
				    origin, real, *d);
	if (kind_in(b, real, true) == K_MISSING) {
		if (strict)
			return fail_missing(b, path, real, origin);
		skip(b, real, "missing, not bound writable", origin);
		return true;
	}
	cand_take(b->pl, &b->roots, OP_BIND, steal_pointer(&real), rule, origin);
	return true;
}

static void add_helper(struct builder *b)
{
	const char *self = b->h->self;
	if (!self || !in_private_area(self) || covering(&b->roots, self))
		return;
	plan_add(b->pl, OP_HELPER, self, "kjail's entry helper", "built-in");
}

/* The git directory of each writable root whose .git is a file (a linked
 * worktree, a submodule's checkout; git/link.h): its common directory is
 * writable, so git commits there (objects, refs, logs, packed-refs and
 * their lock files); protect.c keeps what configures or runs code in it
 * read-only. Nothing for one a writable root holds already. */
static bool add_linked_git_dirs(struct builder *b)
{
	for (size_t r = 0, n = b->roots.n; r < n; r++) {
		const char *tree = b->roots.v[r].path;
		struct gitlink l;
		const char *why;
		_cleanup_free_ char *dotgit = path_join(tree, ".git");
		if (!gitlink_read(tree, &l, &why)) {
			if (why)
				skip(b, dotgit, why, "git directory not made writable");
			continue;
		}
		if (covering(&b->roots, l.common) || strcmp(l.common, "/") == 0) {
			gitlink_free(&l);
			continue;
		}
		const char *rule = l.worktree ? "git directory of a linked worktree"
					      : "git directory of a submodule's checkout";
		if (!add_writable(b, l.common, rule, dotgit, true)) {
			gitlink_free(&l);
			return false;
		}
		b->linked = xreallocarray(b->linked, b->nlinked + 1, sizeof *b->linked);
		b->linked[b->nlinked++] = (struct linked_git){ .tree = xstrdup(tree), .link = l };
	}
	return true;
}

/* The workspace and the --writable paths: the writable roots, checked
 * against the host. */
static bool add_roots(struct builder *b)
{
	const struct policy *p = b->p;
	const char *ws = p->workspace ? p->workspace : b->h->cwd;
	/* the current directory comes from getcwd: every directory above it
	 * is real, and need not be looked up again */
	path_memo_add_ancestors(&b->memo, b->h->cwd);
	_cleanup_free_ char *wsreal = p->workspace
					      ? resolve_noting(b, ws, p->workspace_origin)
					      : path_resolve_memo(ws, b->h->cwd, &b->memo);
	if (!wsreal)
		return fail(b, "workspace %s: %s", ws, strerror(errno));
	if (kind_in(b, wsreal, true) != K_DIR)
		return fail(b, "workspace %s: not an existing directory", ws);
	b->pl->workspace = xstrdup(wsreal);
	if (!add_writable(b, wsreal, "workspace", p->workspace_origin, true))
		return false;
	for (size_t i = 0; i < p->writable.n; i++) {
		const struct entry *e = &p->writable.v[i];
		bool strict = str_has_prefix(e->origin, "--");
		if (!add_writable(b, e->value, "writable path", e->origin, strict))
			return false;
	}
	return add_linked_git_dirs(b) && check_planted(b) && check_kernel_mounts(b);
}

/* --device: each class's nodes from the host's /dev (device.h); a class
 * with none here is an error, not a jail without the GPU it was asked for. */
static bool add_devices(struct builder *b)
{
	const struct entry_list *l = &b->p->devices;
	struct plan *pl = b->pl;
	if (!l->n)
		return true;
	if (pl->backend != BACKEND_BWRAP)
		return fail(b, "%s: %s", l->v[0].origin,
			    pl->backend == BACKEND_SEATBELT
				    ? "not supported on macOS: GPU access there goes through IOKit, "
				      "which kjail's Seatbelt profile does not open"
				    : pl->backend == BACKEND_LANDLOCK
				    ? "not supported by --backend landlock: it makes no /dev of its "
				      "own to bind a device into (use bwrap)"
				    : "--backend container sets up no jail: the command sees the "
				      "container's own devices");
	size_t ne;
	struct dev_entry *e = device_scan(&ne);
	bool ok = true;
	for (size_t i = 0; ok && i < l->n; i++) {
		const char *cls = l->v[i].value;
		const char *origin = strpool_intern(&pl->strings, l->v[i].origin);
		if (!device_binds(cls, e, ne, origin, &pl->devices, &pl->ndevices))
			ok = fail(b, "%s%s%s: %s", l->v[i].origin,
				  str_has_prefix(l->v[i].origin, "--") ? "" : ": device = ",
				  str_has_prefix(l->v[i].origin, "--") ? "" : cls,
				  device_class_none(cls));
	}
	dev_entries_free(e, ne);
	/* run as root, the jail owns them: read-only binds first (devlock.h) */
	for (size_t i = 0; ok && b->h->uid == 0 && i < pl->ndevices; i++)
		if (!pl->devices[i].target)
			strv_push(&pl->host_devices, pl->devices[i].path);
	return ok;
}

/* A cache directory kjail binds writable must lie in no writable root (a
 * jail could reach the other workspaces' caches, or swap a component for
 * a link), under no mask and no protected path. -1: refused (the error
 * set); 0: none, the note set (a writable root holds the home's caches
 * already, and the cache was not asked for by name); 1: fine. */
static int cache_place_ok(struct builder *b, const char *dir, const char *top)
{
	const struct cand *c = covering(&b->roots, top);
	if (c && strcmp(b->p->cache_origin, "built-in default") == 0) {
		_cleanup_free_ char *why = xconcat("the writable ", c->rule, " ", c->path,
						   " holds ", top, ", so the tools write their "
						   "caches there themselves", (char *)NULL);
		b->pl->cache_note = strpool_intern(&b->pl->strings, why);
		return 0;
	}
	if (c)
		return fail(b, "cache: %s lies inside a writable root, the %s %s (%s); refusing it "
			       "(a jail could reach other workspaces' caches): run with --no-cache",
			    top, c->rule, c->path, c->origin) ? 1 : -1;
	if ((c = covering(&b->masks, dir)) || (c = covering(&b->protects, dir)))
		return fail(b, "cache: %s lies under the %s %s (%s); refusing it: run with "
			       "--no-cache", dir, c->kind == OP_PROTECT ? "protected path" : "mask",
			    c->path, c->origin) ? 1 : -1;
	return 1;
}

/* made: kjail makes it (a dry run plans the bind of what a run would make);
 * into: the writable roots, or the roots bound inside a mask (b->inner) */
static bool add_cache_bind(struct builder *b, const char *home, const char *rel,
			   const char *top, bool made, const char *rule, struct cands *into,
			   char **out)
{
	/* where it is decided before anything is made */
	_cleanup_free_ char *where = xconcat(home, "/", rel, (char *)NULL);
	int place = cache_place_ok(b, where, top);
	if (place <= 0)
		return place == 0;
	char *dir;
	bool exists;
	char why[512];
	bool create = made && !b->h->dry_run;
	switch (cache_dir_open(home, rel, b->h->uid, create, &dir, &exists, why, sizeof why)) {
	case CACHE_DIR_REFUSED:
		return fail(b, "%s", why);
	case CACHE_DIR_UNAVAILABLE:
		/* no home to keep a cache in: the jail runs as it did before */
		if (!b->pl->cache_note)
			b->pl->cache_note = strpool_intern(&b->pl->strings, why);
		b->pl->cache_warn = true;
		return true;
	case CACHE_DIR_OK:
		break;
	}
	if (!exists && !made) {
		skip(b, dir, "missing, not bound writable", rule);
		free(dir);
		return true;
	}
	cand_add(b->pl, into, OP_BIND, dir, rule, b->p->cache_origin);
	if (out)
		*out = dir;
	else
		free(dir);
	return true;
}

/* The other workspaces' directories, whatever the cache mode: the host is
 * readable in the jail, and another project's cache may hold its private
 * packages; with a writable home (-w ~, -w ~/.cache) the jail could also
 * plant in them what the next jail there trusts. One mask on their parent
 * hides them all, those made after the start too, and this workspace's is
 * bound inside it (b->inner): one mount however many workspaces the
 * account has run. In a writable root, the directories between the root
 * and the mask are pinned (mount points: the jail cannot move ~/.cache
 * away and make another), the root's identity is kept for the check after
 * the run (aftercare.h), and a root absent at the start is reserved: one
 * the jail makes is moved aside after it. */
static void guard_other_caches(struct builder *b, const char *home)
{
	struct plan *pl = b->pl;
	_cleanup_free_ char *ws = xconcat(home, "/" CACHE_WS_ROOT, (char *)NULL);
	const struct cand *root = covering(&b->roots, ws);
	int fd = -1;
	char why[512];
	/* every component below the home opened without following a link */
	enum cache_dir_status s = cache_dir_fd(home, CACHE_WS_ROOT, b->h->uid, &fd, why, sizeof why);
	struct stat st;
	bool present = s == CACHE_DIR_OK && fd >= 0 && fstat(fd, &st) == 0;
	if (fd >= 0)
		close(fd);
	if (present)
		add_mask(b, ws, "the other workspaces' toolchain caches");
	if (!root || strcmp(root->path, ws) == 0)
		return;
	pl->cache_root.path = xstrdup(ws);
	if (!present) {
		/* a link or someone else's on the way: kjail makes no cache
		 * there (cache_dir_open refuses it); absent: reserved */
		if (s == CACHE_DIR_OK)
			entry_add(&pl->unguarded, ws, "kjail's toolchain caches");
		return;
	}
	pl->cache_root.present = true;
	pl->cache_root.dev = (unsigned long long)st.st_dev;
	pl->cache_root.ino = (unsigned long long)st.st_ino;
	pl->cache_root.mode = (unsigned)st.st_mode;
	pl->cache_root.uid = (unsigned)st.st_uid;
	_cleanup_free_ char *dir = path_dirname(ws);
	while (strcmp(dir, root->path) != 0 && path_is_under(dir, root->path)) {
		cand_add(pl, &b->pins, OP_PIN, dir, "pinned: ancestor of the toolchain caches",
			 "built-in protection");
		char *up = path_dirname(dir);
		free(dir);
		dir = up;
	}
	/* this workspace's own, where a writable root holds the caches (the
	 * tools write theirs in the home): still the only one it sees */
	if (!pl->cache_dir && b->p->cache != CACHE_OFF) {
		_cleanup_free_ char *key = cache_key(pl->workspace);
		_cleanup_free_ char *own = xconcat(ws, "/", key, (char *)NULL);
		if (lstat(own, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == b->h->uid)
			cand_add(pl, &b->inner, OP_BIND, own, "toolchain caches of this workspace",
				 "built-in default");
	}
}

/* The per-workspace directory (the history's too), and with --cache=shared
 * the user's own cache directories: writable roots planned last, so no
 * protected name is made in them; the tools' variables go to the plan for
 * plan_build to set after the scrub. */
static bool add_workspace_caches(struct builder *b)
{
	const struct policy *p = b->p;
	const struct host *h = b->h;
	struct plan *pl = b->pl;
	if (!h->plan_caches || p->cache == CACHE_OFF)
		return true;
	if (!h->home || h->home[0] != '/')
		return fail(b, "cache: no home directory for uid %u in the password database; "
			       "run with --no-cache", h->uid);
	_cleanup_free_ char *home = path_resolve(h->home, "/");
	if (!home) {
		_cleanup_free_ char *why = xasprintf("home directory %s: %s", h->home,
						     strerror(errno));
		pl->cache_note = strpool_intern(&pl->strings, why);
		pl->cache_warn = true;
		return true;
	}
	_cleanup_free_ char *key = cache_key(pl->workspace);
	_cleanup_free_ char *rel = xconcat(CACHE_WS_ROOT, "/", key, (char *)NULL);
	_cleanup_free_ char *top = xconcat(home, "/.cache/kjail", (char *)NULL);
	pl->cache = p->cache;
	pl->cache_origin = strpool_intern(&pl->strings, p->cache_origin);
	if (!add_cache_bind(b, home, rel, top, true, "toolchain caches of this workspace",
			    &b->inner, &pl->cache_dir))
		return false;
	if (pl->cache_note) {
		pl->cache = CACHE_OFF;
		return true;
	}
	if (!pl->cache_dir) /* --explain of a workspace never run: where it would be */
		pl->cache_dir = xconcat(home, "/", rel, (char *)NULL);
	/* for kjail --cache-list and --cache-prune: whose it is, and when */
	char why[512];
	if (!h->dry_run && !cache_record_use(home, key, pl->workspace, h->uid, why, sizeof why))
		return fail(b, "%s", why);
	if (h->interactive)
		pl->history = xconcat(pl->cache_dir, "/" CACHE_HISTORY, (char *)NULL);
	struct cache_plan cp;
	cache_plan_build(cache_tools, p->cache, pl->cache_dir, home, h->env, &cp);
	bool ok = true;
	for (size_t i = 0; ok && i < cp.binds.n; i++) {
		const char *r = cp.binds.v[i].value + strlen(home) + 1;
		_cleanup_free_ char *rule = xconcat("toolchain cache (shared): ", cp.binds.v[i].origin,
						    (char *)NULL);
		/* a shared one lies in no writable root: not itself, nor its parent */
		_cleanup_free_ char *parent = path_dirname(cp.binds.v[i].value);
		ok = add_cache_bind(b, home, r, parent, false, rule, &b->roots, NULL);
	}
	pl->cache_env = cp.env;
	pl->cache_overridden = cp.overridden;
	entry_list_free(&cp.binds);
	return ok;
}

static bool add_caches(struct builder *b)
{
	if (!add_workspace_caches(b))
		return false;
	if (!b->h->plan_caches || !b->h->home || b->h->home[0] != '/')
		return true;
	_cleanup_free_ char *home = path_resolve(b->h->home, "/");
	if (home)
		guard_other_caches(b, home);
	return true;
}

static bool build(struct builder *b)
{
	const struct policy *p = b->p;
	struct plan *pl = b->pl;
	if (!add_roots(b) || !protect_all(b))
		return false;
	add_policy_masks(b);
	if (b->p->defaults.value) {
		add_content_masks(b);
		add_repo_config_filters(b);
	}
	if (!add_caches(b))
		return false;
	if (b->p->defaults.value)
		add_socket_scan(b);
	if (!add_mask_aliases(b) || !check_masks(b) || !add_sockets(b))
		return false;
	if (b->h->self) {
		const struct cand *m = covering(&b->masks, b->h->self);
		if (m)
			return fail(b, "kjail's own binary %s lies under the mask on %s (%s)",
				    b->h->self, m->path, m->origin);
	}

	plan_add(pl, OP_RO_ROOT, "/", "read-only", "host root");
	plan_add(pl, OP_DEV, "/dev", "private", "minimal /dev");
	if (!add_devices(b))
		return false;
	if (p->nested_userns.value)
		plan_add(pl, OP_PROC_BIND, "/proc", "read-only",
			 b->h->in_kjail ? "the outer jail's /proc (kjail runs inside a kjail jail)"
					: "host /proc (--nested-userns)");
	else
		plan_add(pl, OP_PROC, "/proc", "private", "the jail's own processes");
	plan_add(pl, OP_TMP, "/tmp", "private", "empty tmpfs");
	plan_add(pl, OP_POLICY, KJ_POLICY_DIR, "kjail's own policy, as JSON", "built-in");
	add_helper(b);
	emit_sorted(pl, &b->roots);
	emit_sorted(pl, &b->pins);
	emit_sorted(pl, &b->protects);
	emit_sorted(pl, &b->masks);
	size_t inner = pl->nops;
	emit_sorted(pl, &b->inner);
	for (; inner < pl->nops; inner++)
		pl->ops[inner].inner = true;
	emit_sorted(pl, &b->sockets);
	plan_known_hosts(b);
	attach_filtered(b);
	note_agent_socket(b);
	note_repo_above(b);
	return true;
}

/* NAME=VALUE into env, replacing NAME's entry if there is one. */
static void env_put(struct strv *env, const char *line)
{
	size_t n = (size_t)(strchr(line, '=') - line) + 1;
	for (size_t i = 0; i < env->n; i++)
		if (strncmp(env->v[i], line, n) == 0) {
			free(env->v[i]);
			env->v[i] = xstrdup(line);
			return;
		}
	strv_push(env, line);
}

/* Whether the jail reaches out through kjail's proxy (plan.h). Under -n
 * it has no rule, so it only explains: a client that honours the proxy
 * variables is refused at once, with the flag to add, where it would have
 * retried a name that never resolves. Only where its log can lie outside
 * every writable root (run/egress.c refuses an allowlist otherwise; -n
 * then goes without the proxy, as before), and with bwrap (Seatbelt's
 * proxy listens on the host's loopback, which -n closes). */
static bool proxied(const struct plan *pl)
{
	if (pl->net == NET_ALLOWLIST)
		return true;
	if (pl->net != NET_NONE || pl->backend != BACKEND_BWRAP)
		return false;
	const struct op *o = plan_verdict(pl, PROXY_LOG_DIR_TEMPLATE);
	return !o || (o->kind != OP_BIND && o->kind != OP_PIN);
}

bool plan_build(const struct policy *p, const struct host *h, char *const *envp,
		struct plan *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	out->backend = backend_effective(p->backend);
	if (!egress_mode(p, &out->net, err, errlen))
		return false;
	out->network = out->net == NET_SHARED;
	out->net_origin = strpool_intern(&out->strings, out->net == NET_ALLOWLIST
							       ? p->allow_host.v[0].origin
							       : p->network.origin);
	if (out->net == NET_ALLOWLIST)
		out->allow = egress_rules(&p->allow_host, &out->strings, &out->nallow);
	/* read once, here, from kjail's environment: the jail's never
	 * names it (egress_env) */
	if (out->net == NET_ALLOWLIST && envp &&
	    !egress_upstream(envp, &out->strings, &out->upstream, err, errlen))
		return false;
	out->nested_userns = p->nested_userns.value;
	out->allow_userns = p->allow_userns.value;
	out->in_kjail = h->in_kjail;
	out->no_disable_userns = h->no_disable_userns
					 ? strpool_intern(&out->strings, h->no_disable_userns)
					 : NULL;
	out->disable_userns_cached = h->disable_userns_cached;
	/* A nested namespace may map uid 0 of its parent only if its creator
	 * held CAP_SETFCAP, which the jail never has; so a root run that allows
	 * user namespaces is uid 65534 inside (still root outside). */
	out->inside_id = out->allow_userns && h->uid == 0 ? 65534 : -1;
	/* root's jail owns what root owns (whatever its uid inside) */
	if (h->uid == 0 && out->backend == BACKEND_BWRAP) {
		/* --nested-userns binds the host's read-only already; with
		 * --allow-userns a nested namespace needs /proc/PID/uid_map
		 * written, so /proc stays writable there (a documented gap) */
		out->proc_read_only = !out->nested_userns && !out->allow_userns;
		strv_pushv(&out->host_devices, bwrap_dev_nodes);
		if (h->console)
			strv_push(&out->host_devices, h->console);
	}
	struct builder b = { .p = p, .h = h, .pl = out, .err = err, .errlen = errlen,
			     .git_includes = GIT_INCLUDES_MAX };
	bool ok = build(&b);
	cands_free(&b.roots);
	cands_free(&b.pins);
	cands_free(&b.protects);
	cands_free(&b.masks);
	cands_free(&b.sockets);
	cands_free(&b.inner);
	filtered_free(&b);
	path_memo_free(&b.memo);
	mount_table_free(&b.mounts);
	for (size_t i = 0; i < b.nseen; i++) {
		free(b.seen[i].link);
		free(b.seen[i].real);
	}
	free(b.seen);
	for (size_t i = 0; i < b.nlinked; i++) {
		free(b.linked[i].tree);
		gitlink_free(&b.linked[i].link);
	}
	free(b.linked);
	free(b.git_err);
	listings_forget(&b);
	for (size_t i = 0; ok && i < p->secrets.n; i++)
		entry_add(&out->secrets, p->secrets.v[i].value, p->secrets.v[i].origin);
	if (ok && envp)
		env_filter(envp, p, &out->env, &out->env_removed);
	out->proxied = ok && proxied(out);
	if (out->proxied)
		egress_env(&out->env, &out->env_removed);
	if (ok)
		plan_ssh_config(out, out->net_origin);
	if (ok && p->net_log)
		ok = plan_net_log(out, p, h, err, errlen);
	/* after the scrub, which must not take them: kjail's value wins over
	 * the caller's, which would point the tool at a read-only place */
	for (size_t i = 0; ok && envp && i < out->cache_env.n; i++)
		env_put(&out->env, out->cache_env.v[i].value);
	if (ok && envp && out->history) {
		_cleanup_free_ char *line = xconcat("HISTFILE=", out->history, (char *)NULL);
		env_put(&out->env, line);
	}
	return ok;
}
