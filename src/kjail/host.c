/* SPDX-License-Identifier: MIT */
/* The planner's driver (host.h): the writable roots, then the protected
 * paths, the masks and the jail's own mounts, in that order. */
#include "config.h"
#include "host.h"
#include "env.h"
#include "bwrap.h"
#include "plan-build.h"

#include <errno.h>
#include <string.h>

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
			return fail(b, "%s: %s: no such file or directory", origin, path);
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
 * worktree, a submodule's checkout; gitlink.h): its common directory is
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

static bool build(struct builder *b)
{
	const struct policy *p = b->p;
	struct plan *pl = b->pl;
	if (!add_roots(b) || !protect_all(b))
		return false;
	add_policy_masks(b);
	if (!add_mask_aliases(b) || !check_masks(b))
		return false;
	if (b->h->self) {
		const struct cand *m = covering(&b->masks, b->h->self);
		if (m)
			return fail(b, "kjail's own binary %s lies under the mask on %s (%s)",
				    b->h->self, m->path, m->origin);
	}

	plan_add(pl, OP_RO_ROOT, "/", "read-only", "host root");
	plan_add(pl, OP_DEV, "/dev", "private", "minimal /dev");
	if (p->nested_userns.value)
		plan_add(pl, OP_PROC_BIND, "/proc", "read-only", "host /proc (--nested-userns)");
	else
		plan_add(pl, OP_PROC, "/proc", "private", "the jail's own processes");
	plan_add(pl, OP_TMP, "/tmp", "private", "empty tmpfs");
	plan_add(pl, OP_POLICY, KJ_POLICY_DIR, "kjail's own policy, as JSON", "built-in");
	add_helper(b);
	emit_sorted(pl, &b->roots);
	emit_sorted(pl, &b->pins);
	emit_sorted(pl, &b->protects);
	emit_sorted(pl, &b->masks);
	attach_filtered(b);
	return true;
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
	out->nested_userns = p->nested_userns.value;
	out->allow_userns = p->allow_userns.value;
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
	if (ok && envp)
		env_filter(envp, p, &out->env, &out->env_removed);
	if (ok && out->net == NET_ALLOWLIST)
		egress_env(&out->env, &out->env_removed);
	return ok;
}
