/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "build/bwrap.h"
#include "path.h"
#include "policy/secret.h"

#include <string.h>

const char *const bwrap_dev_nodes[] = { "/dev/null",    "/dev/zero", "/dev/full",
					"/dev/random", "/dev/urandom", "/dev/tty", NULL };

/* A descriptor number as a word: one per masked file, so no printf. */
static void push_fd(struct strv *a, int fd)
{
	if (fd < 0) {
		strv_pushf(a, "%d", fd);
		return;
	}
	char buf[16], *p = buf + sizeof buf;
	unsigned v = (unsigned)fd;
	*--p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	strv_push(a, p);
}

/* The descriptors of OP_MASK_FILE and OP_POLICY, in plan order. */
struct fd_cursor {
	const struct jail_fds *fds;
	size_t mask;
	size_t socket;
	const char *entry; /* kjail's entry program on the host */
};

static int next_fd(struct fd_cursor *c, const struct op *o)
{
	if (o->kind == OP_POLICY)
		return c->fds->policy;
	if (c->mask >= c->fds->nmasks)
		die("internal error: more masked files than descriptors for them");
	return c->fds->masks[c->mask++];
}

/* --device (device.h): the host's nodes, writable as devices must be
 * (read-only first when kjail runs as root: spawn.c), then their links. */
static void emit_devices(struct strv *a, const struct plan *pl)
{
	for (size_t i = 0; i < pl->ndevices; i++) {
		const struct dev_bind *d = &pl->devices[i];
		if (d->target)
			strv_pushv(a, (const char *const[]){ "--symlink", d->target, d->path, NULL });
		else
			strv_pushv(a, (const char *const[]){ "--dev-bind", d->path, d->path, NULL });
	}
}

static int next_socket_fd(struct fd_cursor *c)
{
	if (c->socket >= c->fds->nsockets)
		die("internal error: more allowed sockets than descriptors for them");
	return c->fds->sockets[c->socket++];
}

/* One of the plan's last mounts (an allowed socket, a writable root
 * inside a mask: plan.h) lies under this masked directory: its mount
 * point is made in the mask's tmpfs, so the tmpfs turns read-only only
 * after. */
static bool holds_later(const struct plan *pl, const struct op *o)
{
	for (size_t i = pl->nops; i-- > 0 && (pl->ops[i].kind == OP_SOCKET || pl->ops[i].kind == OP_SHOW ||
				      pl->ops[i].inner);)
		if (path_is_under(pl->ops[i].path, o->path) && strcmp(pl->ops[i].path, o->path) != 0)
			return true;
	return false;
}

static void emit_op(struct strv *a, const struct plan *pl, const struct op *o,
		    struct fd_cursor *c)
{
	switch (o->kind) {
	case OP_RO_ROOT:
		strv_pushv(a, (const char *const[]){ "--ro-bind", "/", "/", NULL });
		break;
	case OP_DEV:
		/* The host nodes it binds are read-only when kjail run as root
		 * owns them (pl->host_devices, spawn.c): not here, because
		 * bwrap's --remount-ro adds nodev, and a device on a nodev
		 * mount no longer opens. */
		strv_pushn(a, "--dev", o->path);
		emit_devices(a, pl);
		break;
	case OP_PROC:
		strv_pushn(a, "--proc", o->path);
		/* bwrap covers /proc/sys only when the directory itself is
		 * writable, so a jail whose uid is the host's root (kjail run as
		 * root) could still write the host's sysctls there, such as
		 * kernel.core_pattern, which runs a program as root outside.
		 * The host's /proc/sys, read-only, reads the same: a
		 * per-namespace sysctl answers for the reader's namespace. */
		strv_pushv(a, (const char *const[]){ "--ro-bind", "/proc/sys", "/proc/sys", NULL });
		/* Run as root, a chmod of /proc/kallsyms, /proc/self/net/tcp or
		 * any other entry the kernel keeps once (proc_dir_entry) changes
		 * it for every procfs mount on the host, whatever route the
		 * jail takes to it (a path, a descriptor, another pid's net/):
		 * read-only, each answers EROFS. proc is already nodev. */
		if (pl->proc_read_only)
			strv_pushn(a, "--remount-ro", o->path);
		break;
	case OP_TMP:
		strv_pushn(a, "--tmpfs", o->path);
		break;
	case OP_BIND:
	case OP_PIN:
	case OP_SEAL: /* read-only at the end (bwrap_build) */
		strv_pushv(a, (const char *const[]){ "--bind", o->path, o->path, NULL });
		break;
	case OP_PROC_BIND:
	case OP_PROTECT:
	case OP_HELPER:
		strv_pushv(a, (const char *const[]){ "--ro-bind", o->path, o->path, NULL });
		break;
	case OP_MASK_FILE:
		/* A real empty file: open succeeds, reads 0 bytes, writes get EROFS
		 * (a /dev/null bind would swallow writes instead). */
		strv_pushn(a, "--perms", "0444");
		strv_push(a, "--ro-bind-data");
		push_fd(a, next_fd(c, o));
		strv_push(a, o->path);
		break;
	case OP_MASK_DIR:
		strv_pushn(a, "--perms", "0555");
		strv_pushn(a, "--tmpfs", o->path);
		if (!holds_later(pl, o))
			strv_pushn(a, "--remount-ro", o->path);
		break;
	case OP_SOCKET:
	case OP_SHOW:
		/* the descriptor spawn.c opened at the path checked: a link
		 * swapped in on the way since cannot change what is bound; a
		 * read-only mount of a socket still connects */
		strv_push(a, "--ro-bind-fd");
		push_fd(a, next_socket_fd(c));
		strv_push(a, o->path);
		break;
	case OP_POLICY:
		/* Its own read-only mount point: it cannot be renamed or replaced. */
		strv_pushn(a, "--perms", "0555");
		strv_pushn(a, "--tmpfs", o->path);
		strv_pushn(a, "--perms", "0444");
		strv_push(a, "--ro-bind-data");
		push_fd(a, next_fd(c, o));
		strv_pushf(a, "%s/policy.json", o->path);
		/* the proxy's log: the jail reads what was refused, and why */
		if (pl->proxied) {
			strv_push(a, "--ro-bind-fd");
			push_fd(a, c->fds->net_log);
			strv_push(a, KJ_NET_LOG);
			/* ssh's ProxyCommand (planner/ssh.h) names it here,
			 * wherever kjail is installed */
			strv_pushv(a, (const char *const[]){ "--ro-bind", c->entry,
							     KJ_ENTRY_IN_JAIL, NULL });
		}
		strv_pushn(a, "--remount-ro", o->path);
		strv_pushv(a, (const char *const[]){ "--setenv", KJ_POLICY_ENV, KJ_POLICY_FILE, NULL });
		break;
	}
}

/* A JAIL_LOCAL_PREFIX word for each loopback rule, each address and port
 * once. */
static void push_local(struct strv *a, const struct plan *pl)
{
	for (size_t i = 0; i < pl->nallow; i++) {
		const struct allow_rule *r = &pl->allow[i];
		if (!allow_forwarded(r))
			continue;
		_cleanup_free_ char *w =
			xasprintf(r->kind == ALLOW_IPV6 ? JAIL_LOCAL_PREFIX "[%s]:%d"
							: JAIL_LOCAL_PREFIX "%s:%d",
				  r->host, r->port);
		bool seen = false;
		for (size_t k = 0; k < a->n && !seen; k++)
			seen = strcmp(a->v[k], w) == 0;
		if (!seen)
			strv_push(a, w);
	}
}

void bwrap_build(const struct plan *pl, const char *bwrap, const char *entry,
		 const struct jail_fds *fds, char *const *cmd, struct strv *a)
{
	strv_push(a, bwrap);
	/* As root, bwrap would otherwise keep every capability and the command
	 * could remount / read-write: a user namespace and --cap-drop ALL
	 * leave it nothing. */
	strv_push(a, "--unshare-user");
	/* where it cannot work (plan.h), the seccomp rules refuse them alone */
	if (!pl->allow_userns && !pl->in_kjail && !pl->no_disable_userns)
		strv_push(a, "--disable-userns");
	if (pl->inside_id >= 0) {
		strv_push(a, "--uid");
		strv_pushf(a, "%ld", pl->inside_id);
		strv_push(a, "--gid");
		strv_pushf(a, "%ld", pl->inside_id);
	}
	if (!pl->nested_userns)
		strv_push(a, "--unshare-pid");
	strv_push(a, "--unshare-ipc");
	strv_push(a, "--unshare-uts");
	strv_push(a, "--unshare-cgroup-try");
	if (!pl->network)
		strv_push(a, "--unshare-net");
	strv_push(a, "--die-with-parent");
	strv_pushn(a, "--cap-drop", "ALL");
	/* bwrap itself starts with no environment, so that neither it nor
	 * the jail's init holds a variable the scrub took out; the command's
	 * comes here, before the policy's own variable (emit_op), which wins */
	for (size_t i = 0; i < pl->env.n; i++) {
		const char *e = pl->env.v[i], *eq = strchr(e, '=');
		if (!eq || eq == e)
			continue;
		strv_push(a, "--setenv");
		strv_take(a, xstrndup(e, (size_t)(eq - e)));
		strv_push(a, eq + 1);
	}
	/* a secret's descriptor, by name (never its bytes), after the
	 * caller's variables: env_filter took any KJAIL_SECRET_* of theirs */
	for (size_t i = 0; i < pl->secrets.n && i < fds->nsecrets; i++) {
		struct secret_ref r;
		secret_split(pl->secrets.v[i].value, &r);
		strv_push(a, "--setenv");
		strv_take(a, secret_fd_var(r.name));
		push_fd(a, fds->secrets[i]);
	}
	struct fd_cursor c = { .fds = fds, .entry = entry };
	for (size_t i = 0; i < pl->nops; i++)
		emit_op(a, pl, &pl->ops[i], &c);
	/* the masks left writable for a later mount's mount point */
	for (size_t i = 0; i < pl->nops; i++)
		if (pl->ops[i].kind == OP_MASK_DIR && holds_later(pl, &pl->ops[i]))
			strv_pushn(a, "--remount-ro", pl->ops[i].path);
	/* after the mounts under them: --remount-ro changes this one mount
	 * alone, so an entry's own pin stays writable */
	for (size_t i = 0; i < pl->nops; i++)
		if (pl->ops[i].kind == OP_SEAL)
			strv_pushn(a, "--remount-ro", pl->ops[i].path);
	strv_pushn(a, "--chdir", pl->workspace);
	if (fds->seccomp >= 0) {
		strv_push(a, "--seccomp");
		strv_pushf(a, "%d", fds->seccomp);
	}
	strv_push(a, "--");
	strv_push(a, entry);
	strv_pushf(a, "--jail-entry=%d,%d,%d", fds->status, fds->user_err, fds->sig_default);
	if (pl->proxied) {
		strv_pushf(a, JAIL_PROXY_PREFIX "%d", fds->proxy);
		push_local(a, pl);
	}
	for (size_t i = 0; i < pl->secrets.n && i < fds->nsecrets; i++)
		strv_pushf(a, JAIL_KEEP_FD_PREFIX "%d", fds->secrets[i]);
	if (pl->allow_userns)
		strv_push(a, JAIL_USERNS_MOUNTS);
	/* where the command may write: Landlock holds it there, whatever
	 * descriptor it reopens (not with JAIL_USERNS_MOUNTS) */
	for (size_t i = 0; i < pl->nops; i++) {
		enum op_kind k = pl->ops[i].kind;
		if (k == OP_BIND || k == OP_TMP || k == OP_DEV || k == OP_PROC)
			strv_pushf(a, JAIL_RW_PREFIX "%s", pl->ops[i].path);
	}
	strv_push(a, "--");
	for (; cmd && *cmd; cmd++)
		strv_push(a, *cmd);
}
