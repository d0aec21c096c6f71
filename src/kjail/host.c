#include "config.h"
#include "host.h"
#include "conf.h"
#include "defaults.h"
#include "env.h"
#include "gitconfig.h"
#include "path.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif
#include <unistd.h>

enum kind { K_MISSING, K_DIR, K_FILE, K_LINK };

static enum kind kind_of(const char *path, bool follow)
{
	struct stat st;
	if ((follow ? stat(path, &st) : lstat(path, &st)) < 0)
		return K_MISSING;
	if (S_ISLNK(st.st_mode))
		return K_LINK;
	return S_ISDIR(st.st_mode) ? K_DIR : K_FILE;
}

/* Appends an op that takes ownership of path; rule and origin are already
 * the plan's pool's. */
static struct op *plan_take(struct plan *pl, enum op_kind kind, char *path, const char *rule,
			    const char *origin)
{
	if (pl->nops == pl->ops_cap) {
		pl->ops_cap = pl->ops_cap ? 2 * pl->ops_cap : 16;
		pl->ops = xreallocarray(pl->ops, pl->ops_cap, sizeof *pl->ops);
	}
	struct op *o = &pl->ops[pl->nops++];
	o->kind = kind;
	o->path = path;
	o->rule = rule;
	o->origin = origin;
	o->fd = -1;
	return o;
}

struct op *plan_add(struct plan *pl, enum op_kind kind, const char *path, const char *rule,
		    const char *origin)
{
	return plan_take(pl, kind, xstrdup(path), strpool_intern(&pl->strings, rule),
			 strpool_intern(&pl->strings, origin));
}

/* A candidate mount before ordering; rule and origin live in the plan's
 * string pool. */
struct cand {
	char *path;
	const char *rule;
	const char *origin;
	enum op_kind kind;
	size_t seq;   /* insertion order: for one path, the first rule wins */
};

struct cands {
	struct cand *v;
	size_t n;
	size_t cap;
};

static void cand_push(struct cands *c, struct cand x)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->v = xreallocarray(c->v, c->cap, sizeof *c->v);
	}
	c->v[c->n++] = x;
}

/* Adds a candidate that takes ownership of path. */
static void cand_take(struct plan *pl, struct cands *c, enum op_kind kind, char *path,
		      const char *rule, const char *origin)
{
	cand_push(c, (struct cand){ path, strpool_intern(&pl->strings, rule),
				    strpool_intern(&pl->strings, origin), kind, c->n });
}

static void cand_add(struct plan *pl, struct cands *c, enum op_kind kind, const char *path,
		     const char *rule, const char *origin)
{
	cand_take(pl, c, kind, xstrdup(path), rule, origin);
}

static void cands_free(struct cands *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].path);
	free(c->v);
	memset(c, 0, sizeof *c);
}

/* Tree order: '/' sorts before every other byte, so a directory is followed
 * by everything under it ("/a", "/a/b", "/a-b"), and parents come first. */
static int tree_cmp(const char *a, const char *b)
{
	/* equal bytes compare equal either way: map only where they differ */
	while (*a == *b && *a)
		a++, b++;
	unsigned char x = *a == '/' ? 1 : (unsigned char)*a;
	unsigned char y = *b == '/' ? 1 : (unsigned char)*b;
	return x - y;
}

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c = tree_cmp(x->path, y->path);
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* Sorted in tree order, one entry per path (the first added). */
static void cands_sort_unique(struct cands *c)
{
	if (!c->n)
		return;
	qsort(c->v, c->n, sizeof *c->v, cand_cmp);
	size_t out = 1;
	for (size_t i = 1; i < c->n; i++) {
		if (strcmp(c->v[i].path, c->v[out - 1].path) == 0)
			free(c->v[i].path);
		else
			c->v[out++] = c->v[i];
	}
	c->n = out;
}

static bool sorted_unique(const struct cands *c)
{
	for (size_t i = 1; i < c->n; i++)
		if (tree_cmp(c->v[i - 1].path, c->v[i].path) >= 0)
			return false;
	return true;
}

/* Parents sort before children, so mounts stack the right way round. */
static void emit_sorted(struct plan *pl, struct cands *c)
{
	if (!sorted_unique(c))
		cands_sort_unique(c);
	/* the paths move into the plan */
	for (size_t i = 0; i < c->n; i++)
		plan_take(pl, c->v[i].kind, c->v[i].path, c->v[i].rule, c->v[i].origin);
	free(c->v);
	memset(c, 0, sizeof *c);
}

static bool in_private_area(const char *path)
{
	return path_is_under(path, "/tmp") || path_is_under(path, "/dev") ||
	       path_is_under(path, "/proc");
}

static const struct cand *covering(const struct cands *c, const char *path)
{
	for (size_t i = 0; i < c->n; i++)
		if (path_is_under(path, c->v[i].path))
			return &c->v[i];
	return NULL;
}

/* Directory listings already read, for a directory read twice (the home
 * directory: its symlinks, then its masks). Small ones only. */
struct listing {
	char *dir;
	char *buf;
	size_t size;
};
#define LISTINGS 4

struct builder {
	const struct policy *p;
	const struct host *h;
	struct plan *pl;
	struct cands roots;    /* writable roots */
	struct cands pins;
	struct cands protects;
	struct cands masks;
	struct path_memo memo;  /* the home directory, once, for its many masks */
	int git_includes;       /* included git config files still to be read */
	size_t git_roots;       /* writable roots that are repositories */
	char *git_err;          /* a git config kjail cannot fully read: the
				 * plan fails with this */
	struct listing listings[LISTINGS];
	/* the symbolic links met on the way to the workspace and the writable
	 * paths, in the same lookup that gave their roots (check_planted) */
	struct seen_link {
		char *link, *real;
		const char *given, *origin;
	} *seen;
	size_t nseen;
	char *err;
	size_t errlen;
};

/* kind_of, answered from the memo when the path is a directory already
 * found real (a real directory is the same with or without following). */
static enum kind kind_in(struct builder *b, const char *path, bool follow)
{
	if (path_memo_has(&b->memo, path))
		return K_DIR;
	enum kind k = kind_of(path, follow);
	/* a directory that is no link, in a real directory, is real too */
	const char *slash = strrchr(path, '/');
	if (k == K_DIR && !follow && slash && slash != path &&
	    path_memo_has_n(&b->memo, path, (size_t)(slash - path)))
		path_memo_add(&b->memo, path);
	return k;
}

KJ_PRINTF(2, 3) static bool fail(struct builder *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b->err, b->errlen, fmt, ap);
	va_end(ap);
	return false;
}

static void skip(struct builder *b, const char *path, const char *why, const char *origin)
{
	/* only --explain shows them: a run need not pay for the dozens of
	 * built-in masks a host does not have */
	if (!b->h->explain)
		return;
	if (entry_list_has(&b->pl->skipped, path))
		return;
	_cleanup_free_ char *o = xconcat(why, " (", origin, ")", NULL);
	entry_add(&b->pl->skipped, path, o);
}

static char *resolve_noting(struct builder *b, const char *path, const char *origin);

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

static void add_mask(struct builder *b, const char *path, const char *origin)
{
	_cleanup_free_ char *real = path_resolve_memo(path, b->h->cwd, &b->memo);
	if (!real) {
		skip(b, path, "unresolvable, not masked", origin);
		return;
	}
	/* the resolver's own lookup of the last component, when it made one */
	enum kind k = b->memo.absent ? K_MISSING
		      : b->memo.last ? (S_ISDIR(b->memo.last) ? K_DIR : K_FILE)
				     : kind_in(b, real, true);
	switch (k) {
	case K_MISSING:
	case K_LINK:
		skip(b, real, "missing, nothing to mask", origin);
		return;
	case K_DIR:
		cand_take(b->pl, &b->masks, OP_MASK_DIR, steal_pointer(&real), "masked", origin);
		return;
	case K_FILE:
		cand_take(b->pl, &b->masks, OP_MASK_FILE, steal_pointer(&real), "masked", origin);
		return;
	}
}

/* Which of the n names (first components: name[i], len[i] bytes) are
 * entries of dir: one read of the directory where a lookup per built-in
 * mask would cost a system call each, most of them for nothing, since a
 * host has few of them. False when dir cannot be read in full: then
 * nothing is known. Only absence is taken from it (what is there is still
 * looked up), so the answer is that of a lookup per name. */
#define SCAN_MAX KJ_SCAN_MAX
#define GIT_INCLUDES_MAX 256
/* What kjail makes itself changes a directory: no listing is trusted
 * after that. */
static void listings_forget(struct builder *b)
{
	for (size_t i = 0; i < LISTINGS; i++) {
		free(b->listings[i].dir);
		free(b->listings[i].buf);
		b->listings[i] = (struct listing){ 0 };
	}
}

static bool scan_dir(struct builder *b, const char *dir, const char *const *name,
		     const size_t *len, size_t n, bool *present, bool *link)
{
#if defined(__linux__) && defined(SYS_getdents64)
	struct listing *free_slot = NULL;
	for (size_t i = 0; i < LISTINGS; i++) {
		struct listing *l = &b->listings[i];
		if (!l->dir) {
			free_slot = free_slot ? free_slot : l;
			continue;
		}
		if (strcmp(l->dir, dir) != 0)
			continue;
		memset(present, 0, n * sizeof *present);
		if (link)
			memset(link, 0, n * sizeof *link);
		dirents_match(l->buf, l->size, name, len, n, present, link);
		return true;
	}
#endif
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool ok;
#if defined(__linux__) && defined(SYS_getdents64)
	union {
		char c[4096];
		uint64_t align;
	} buf;
	ssize_t size = dir_read_one(fd, buf.c, sizeof buf.c);
	if (size >= 0) {
		memset(present, 0, n * sizeof *present);
		if (link)
			memset(link, 0, n * sizeof *link);
		dirents_match(buf.c, (size_t)size, name, len, n, present, link);
		if (free_slot) {
			free_slot->dir = xstrdup(dir);
			free_slot->buf = xmemdup(buf.c, (size_t)size);
			free_slot->size = (size_t)size;
		}
		ok = true;
	} else {
		ok = dir_names_linked(fd, name, len, n, present, link);
	}
#else
	ok = dir_names_linked(fd, name, len, n, present, link);
#endif
	close(fd);
	return ok;
}

/* add_mask for each of n paths, in order; those under dir ("DIR/NAME...")
 * that one read of dir shows absent are skipped without a lookup.
 * --explain looks each one up, so it can say what it skipped. */
static void add_masks_under(struct builder *b, const char *dir, const char *const *paths,
			    const char *const *whys, size_t n)
{
	const char *name[SCAN_MAX];
	size_t len[SCAN_MAX], at[SCAN_MAX], m = 0;
	bool present[SCAN_MAX];
	size_t dl = strlen(dir);
	bool known = !b->h->explain && n <= SCAN_MAX;
	for (size_t i = 0; known && i < n; i++) {
		at[i] = SIZE_MAX;
		if (strncmp(paths[i], dir, dl) != 0 || paths[i][dl] != '/' || !paths[i][dl + 1])
			continue;
		name[m] = paths[i] + dl + 1;
		len[m] = strcspn(name[m], "/");
		at[i] = m++;
	}
	known = known && scan_dir(b, dir, name, len, m, present, NULL);
	for (size_t i = 0; i < n; i++)
		if (!known || at[i] == SIZE_MAX || present[at[i]])
			add_mask(b, paths[i], whys[i]);
}

static void add_home_masks(struct builder *b, const char *home)
{
	if (!home || home[0] != '/')
		return;
	char *paths[SCAN_MAX] = { 0 };
	const char *whys[SCAN_MAX] = { 0 };
	size_t n = 0;
	for (const char *const *m = default_home_masks; *m; m++) {
		if (n == SCAN_MAX) { /* more than one read answers: looked up one by one */
			_cleanup_free_ char *p = xconcat(home, "/", *m, (char *)NULL);
			add_mask(b, p, "built-in credential store");
			continue;
		}
		paths[n] = xconcat(home, "/", *m, (char *)NULL);
		whys[n++] = "built-in credential store";
	}
	add_masks_under(b, home, (const char *const *)paths, whys, n);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
}

/* A terminal multiplexer's server types whatever a client sends it into
 * the user's shells outside the jail. screen's sockets live in /run/screen
 * (a default mask) or $SCREENDIR; tmux's in /tmp (private in the jail),
 * $TMUX_TMPDIR, or where $TMUX says. The variables only add masks. */
static void add_multiplexer_masks(struct builder *b)
{
	const struct host *h = b->h;
	static const char why[] = "built-in: terminal multiplexer sockets";
	if (h->screendir && h->screendir[0] == '/')
		add_mask(b, h->screendir, why);
	if (h->tmux_tmpdir && h->tmux_tmpdir[0] == '/') {
		char uid[16];
		snprintf(uid, sizeof uid, "%u", h->uid);
		_cleanup_free_ char *dir = xconcat(h->tmux_tmpdir, "/tmux-", uid, (char *)NULL);
		add_mask(b, dir, why);
	}
	if (h->tmux && h->tmux[0] == '/') {
		/* the socket of the server this caller runs in (its directory is
		 * the default one or $TMUX_TMPDIR's, unless tmux -S chose it) */
		_cleanup_free_ char *sock = xstrndup(h->tmux, strcspn(h->tmux, ","));
		add_mask(b, sock, why);
	}
}

static void add_default_masks(struct builder *b)
{
	const struct host *h = b->h;
	add_home_masks(b, h->home);
	if (h->home_env && (!h->home || strcmp(h->home_env, h->home) != 0))
		add_home_masks(b, h->home_env);
	if (h->xdg_runtime_dir && h->xdg_runtime_dir[0] == '/')
		add_mask(b, h->xdg_runtime_dir, "built-in: session bus, agent and display sockets");
	_cleanup_free_ char *run_user = xasprintf("/run/user/%u", h->uid);
	add_mask(b, run_user, "built-in: session bus, agent and display sockets");
	if (h->ssh_auth_sock && h->ssh_auth_sock[0] == '/')
		add_mask(b, h->ssh_auth_sock, "built-in: ssh agent socket");
	add_multiplexer_masks(b);
	/* most are in /run: one read of it for those */
	const char *sock[SCAN_MAX] = { 0 }, *why[SCAN_MAX] = { 0 };
	size_t nsock = 0;
	for (const struct default_mask *m = default_socket_masks; m->path; m++) {
		if (nsock == SCAN_MAX) {
			add_mask(b, m->path, m->why);
			continue;
		}
		sock[nsock] = m->path;
		why[nsock++] = m->why;
	}
	add_masks_under(b, "/run", sock, why, nsock);
	if (h->uid == 0)
		for (const struct default_mask *m = root_masks; m->path; m++)
			add_mask(b, m->path, m->why);
}

/* Bind every directory strictly between root and path onto itself. */
static void pin_ancestors(struct builder *b, const char *root, const char *path)
{
	_cleanup_free_ char *dir = path_dirname(path);
	while (strcmp(dir, root) != 0 && path_is_under(dir, root)) {
		cand_add(b->pl, &b->pins, OP_PIN, dir, "pinned: ancestor of a protected path",
			 "built-in protection");
		char *up = path_dirname(dir);
		free(dir);
		dir = up;
	}
}

/* Run as root in another user's repository, what kjail makes there is
 * given to the owner of the directory it is made in, as if they had made
 * it (a root-owned hooks directory would refuse their own hooks later).
 * fd: what was made, opened without following a link (a name the owner
 * swapped meanwhile would otherwise hand them something else). */
static void own_like_parent(const char *parent, int fd)
{
	struct stat st;
	if (fd < 0 || geteuid() != 0 || lstat(parent, &st) != 0 || st.st_uid == 0)
		return;
	/* best effort: a failure leaves it root's, as before */
	(void)!fchown(fd, st.st_uid, st.st_gid);
}

static bool make_dirs(const char *path, mode_t mode)
{
	_cleanup_free_ char *parent = path_dirname(path);
	if (strcmp(parent, path) != 0 && kind_of(parent, false) == K_MISSING &&
	    !make_dirs(parent, 0700))
		return false;
	if (mkdir(path, mode) == 0) {
		int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		own_like_parent(parent, fd);
		if (fd >= 0)
			close(fd);
		return true;
	}
	return errno == EEXIST;
}

/* An empty file at path, made as git makes its config files (0644 less
 * the umask), never through a symlink; true when one is there after. */
static bool make_empty_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno == EEXIST && kind_of(path, false) == K_FILE;
	_cleanup_free_ char *parent = path_dirname(path);
	own_like_parent(parent, fd);
	close(fd);
	return true;
}

/* Protect path p (root/rel), of kind k. */
static void protect_kind(struct builder *b, const char *root, const char *rel, const char *why,
			 int flags, bool create, const char *p, enum kind k)
{
	if (flags == PROTECT_FILE_ONLY && k != K_FILE)
		return;
	if (k == K_LINK) {
		/* A symlink cannot be a mount point; its target is what matters and
		 * is handled where it lives. The name itself stays replaceable. */
		_cleanup_free_ char *origin = xconcat("built-in protection inside writable ", root, NULL);
		skip(b, p, "symlink, cannot be pinned", origin);
		return;
	}
	if (k == K_MISSING && flags == PROTECT_PRESENT)
		return;
	if (k == K_MISSING && flags == PROTECT_MAKE_FILE) {
		/* an empty config reads as no setting at all; should it not be
		 * made, one the jail makes is moved aside after the run */
		if (!b->h->dry_run && !make_empty_file(p)) {
			entry_add(&b->pl->move_aside, p, why);
			entry_add(&b->pl->unguarded, p, why);
			return;
		}
		listings_forget(b);
		entry_add(&b->pl->created, p, why);
	} else if (k == K_MISSING) {
		if (flags == PROTECT_MOVE_ASIDE)
			entry_add(&b->pl->move_aside, p, why);
		if (!create) {
			entry_add(&b->pl->unguarded, p, why);
			return;
		}
		/* git makes its hooks directory 0755; config directories stay private */
		mode_t mode = str_has_prefix(rel, ".git/") ? 0755 : 0700;
		if (!b->h->dry_run && !make_dirs(p, mode)) {
			entry_add(&b->pl->unguarded, p, why);
			return;
		}
		listings_forget(b);
		entry_add(&b->pl->created, p, why);
	}
	/* most names are absent: their strings are made only for those there */
	_cleanup_free_ char *origin = xconcat("built-in protection inside writable ", root, NULL);
	_cleanup_free_ char *rule = xconcat("protected: ", why, NULL);
	cand_add(b->pl, &b->protects, OP_PROTECT, p, rule, origin);
	pin_ancestors(b, root, p);
}

/* Protect root/rel. create: make a missing directory first, so it can be
 * pinned read-only rather than created (and filled) inside the jail. */
static void protect(struct builder *b, const char *root, const char *rel, const char *why,
		    int flags, bool create)
{
	_cleanup_free_ char *p = path_join(root, rel);
	protect_kind(b, root, rel, why, flags, create, p, kind_in(b, p, false));
}

static bool protect_git_config(struct builder *b, const char *root, const char *file,
			       int depth, const char *tree);

/* The entries of ROOT/REL but "." and "..", in a list the caller frees
 * (empty when it cannot be read). */
static void entries_of(const char *root, const char *rel, struct strv *out)
{
	_cleanup_free_ char *dir = path_join(root, rel);
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e = readdir(d); e; e = readdir(d))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			strv_push(out, e->d_name);
	closedir(d);
}

/* A submodule's repository lives under .git/modules (a name with slashes
 * nests), with hooks and a config of its own that git runs and reads when
 * the user works in the superproject (`git status` runs its core.fsmonitor,
 * `git submodule update` its hooks): each one found (a directory holding
 * HEAD) is protected like the top one. */
static void protect_submodules(struct builder *b, const char *root, const char *rel, int depth)
{
	struct strv names = STRV_INIT;
	entries_of(root, rel, &names);
	for (size_t i = 0; i < names.n; i++) {
		_cleanup_free_ char *sub = xconcat(rel, "/", names.v[i], (char *)NULL);
		_cleanup_free_ char *abs = path_join(root, sub);
		if (kind_in(b, abs, false) != K_DIR)
			continue;
		_cleanup_free_ char *head = path_join(abs, "HEAD");
		if (kind_of(head, false) == K_FILE) {
			_cleanup_free_ char *hooks = xconcat(sub, "/hooks", (char *)NULL);
			_cleanup_free_ char *config = xconcat(sub, "/config", (char *)NULL);
			_cleanup_free_ char *wconfig = xconcat(sub, "/config.worktree", (char *)NULL);
			_cleanup_free_ char *common = xconcat(sub, "/commondir", (char *)NULL);
			_cleanup_free_ char *nested = xconcat(sub, "/modules", (char *)NULL);
			protect(b, root, hooks, "git hooks of a submodule", PROTECT_ANY, true);
			protect(b, root, config, "git config of a submodule", PROTECT_ANY, false);
			/* its includes, and its core.hooksPath and programs, against the
			 * work tree its core.worktree names */
			_cleanup_free_ char *config_abs = path_join(root, config);
			bool wtc = protect_git_config(b, root, config_abs, 0, NULL);
			protect(b, root, wconfig, "git config of a submodule",
				wtc ? PROTECT_MAKE_FILE : PROTECT_MOVE_ASIDE, false);
			protect(b, root, common, "git common directory link of a submodule",
				PROTECT_MOVE_ASIDE, false);
			if (depth < 8)
				protect_submodules(b, root, nested, depth + 1);
		} else if (depth < 8) {
			protect_submodules(b, root, sub, depth + 1);
		}
	}
	strv_free(&names);
}

/* A linked worktree's own config (read when extensions.worktreeConfig is
 * set: wtc) and the link to the common directory its config and hooks come
 * from, under .git/worktrees/NAME. */
static void protect_worktrees(struct builder *b, const char *root, bool wtc)
{
	struct strv names = STRV_INIT;
	entries_of(root, ".git/worktrees", &names);
	for (size_t i = 0; i < names.n; i++) {
		_cleanup_free_ char *rel = xconcat(".git/worktrees/", names.v[i], "/config.worktree",
						   (char *)NULL);
		_cleanup_free_ char *common = xconcat(".git/worktrees/", names.v[i], "/commondir",
						      (char *)NULL);
		protect(b, root, rel, "git config of a worktree",
			wtc ? PROTECT_MAKE_FILE : PROTECT_MOVE_ASIDE, false);
		_cleanup_free_ char *abs = path_join(root, rel);
		protect_git_config(b, root, abs, 0, NULL);
		/* git worktree add always makes it */
		protect(b, root, common, "git common directory link of a worktree",
			PROTECT_MOVE_ASIDE, false);
	}
	strv_free(&names);
}

/* The home directory git expands ~ against: $HOME, else the account's. */
static const char *git_home(const struct host *h)
{
	return h->home_env && h->home_env[0] == '/' ? h->home_env : h->home;
}

/* path (real) inside a writable root: protected there. */
static void protect_at(struct builder *b, const char *real, const char *why,
		       int kind)
{
	for (size_t r = 0; real && r < b->roots.n; r++) {
		const char *rel = path_relative_to(real, b->roots.v[r].path);
		if (rel && rel[0]) {
			protect(b, b->roots.v[r].path, rel, why, kind, false);
			return;
		}
	}
}

/* The files the programs git runs on its own name (core.fsmonitor, a
 * filter's clean command, ...; see gitconfig.h): one in a writable root is
 * protected like a hook, since git outside runs it at its next status,
 * add or diff there. A relative path is the work tree's (git runs these
 * from its top; with no work tree, root NULL, only absolute and ~ paths
 * are known). Directories are left alone (an argument, not a program);
 * an absent file the jail makes is reported after the run. */
static void protect_git_programs(struct builder *b, const char *root, const struct gitconfig *g)
{
	const char *home = git_home(b->h);
	for (size_t i = 0; i < g->programs.n; i++) {
		struct strv words = STRV_INIT;
		gitconfig_command_paths(g->programs.v[i], &words);
		for (size_t w = 0; w < words.n; w++) {
			const char *word = words.v[w];
			if (!root && word[0] != '/' && word[0] != '~')
				continue; /* relative to a work tree, and there is none */
			_cleanup_free_ char *abs = word[0] == '~' ? path_expand_home(word, home)
								  : path_normalize(word, root);
			_cleanup_free_ char *real = abs ? path_resolve_memo(abs, root, &b->memo) : NULL;
			if (!real || kind_in(b, real, true) == K_DIR)
				continue;
			_cleanup_free_ char *why = xconcat("program git runs (", g->program_keys.v[i],
							   ")", (char *)NULL);
			protect_at(b, real, why, PROTECT_ANY);
		}
		strv_free(&words);
	}
}

/* Git config can make git run or read files from elsewhere: hooks from the
 * directory core.hooksPath names (often in the work tree: .githooks), and
 * more config from each file include.path and includeIf.*.path name (a
 * repository's shared config kept in its work tree), whose core.fsmonitor
 * or aliases git then runs. Such a directory or file in a writable root is
 * protected like .git/hooks and .git/config; an include that is absent at
 * the start and that the jail makes is moved aside after the run, like
 * .git/commondir. Every file included is read in turn, 10 deep as in git.
 * True when the file or one it includes sets extensions.worktreeConfig. */
static bool protect_git_config(struct builder *b, const char *root, const char *file,
			       int depth, const char *tree)
{
	/* git itself refuses more than 10 levels */
	if (depth > 10)
		return false;
	size_t len = 0;
	_cleanup_free_ char *text = read_file_capped(file, 1024 * 1024, &len);
	if (!text) {
		/* absent or unreadable, git reads nothing of it either; but a
		 * file too big to read here is one git reads all of */
		if (errno == EFBIG && !b->git_err)
			b->git_err = xasprintf("%s: git config file over 1 MiB: kjail cannot tell "
					       "what it lets git run after the jail", file);
		return false;
	}
	struct gitconfig g = GITCONFIG_INIT;
	gitconfig_parse(text, len, &g);
	bool wtc = g.worktree_config > 0;
	const char *home = git_home(b->h);
	/* tree: the work tree relative paths are taken against, when known
	 * (the repository's, for its config and the user's and the system's);
	 * a submodule's repository names its own (core.worktree, relative to
	 * the repository, where its config file is) */
	_cleanup_free_ char *sub_tree = NULL;
	if (!tree && g.worktree && g.worktree[0]) {
		_cleanup_free_ char *gitdir = path_dirname(file);
		tree = sub_tree = path_normalize(g.worktree, gitdir);
	}
	/* relative to the work tree, whichever file sets them */
	const char *dirs[][2] = { { g.hooks_path, "git hooks (core.hooksPath)" },
				  { g.template_dir, "git hooks for new clones (init.templateDir)" } };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		const char *d = dirs[i][0];
		if (!d || !d[0] || (!tree && d[0] != '/' && d[0] != '~'))
			continue;
		_cleanup_free_ char *abs = d[0] == '~' ? path_expand_home(d, home)
						       : path_normalize(d, tree);
		_cleanup_free_ char *real = abs ? path_resolve_memo(abs, tree ? tree : "/", &b->memo)
						: NULL;
		protect_at(b, real, dirs[i][1], PROTECT_ANY);
	}
	protect_git_programs(b, tree, &g);
	_cleanup_free_ char *dir = path_dirname(file);
	for (size_t i = 0; i < g.includes.n; i++) {
		const char *inc = g.includes.v[i];
		if (!inc[0])
			continue;
		/* more than GIT_INCLUDES_MAX in all is no config a person wrote,
		 * and what the rest would let git run is unknown: the plan fails */
		if (--b->git_includes < 0) {
			if (!b->git_err)
				b->git_err = xasprintf("%s: git config includes more than %d files "
						       "in all: kjail cannot tell what they let git "
						       "run after the jail",
						       file, GIT_INCLUDES_MAX);
			break;
		}
		/* relative to the directory of the file that includes it */
		_cleanup_free_ char *abs = inc[0] == '~' ? path_expand_home(inc, home)
						       : path_normalize(inc, dir);
		_cleanup_free_ char *real = abs ? path_resolve_memo(abs, dir, &b->memo) : NULL;
		if (!real)
			continue;
		protect_at(b, real, "git config included by another", PROTECT_MOVE_ASIDE);
		/* either way round, an include may mean the setting is on */
		wtc |= protect_git_config(b, root, real, depth + 1, tree);
	}
	gitconfig_free(&g);
	return wtc;
}

/* The config files git reads besides a repository's own: the user's and
 * the system's, as git finds them. */
static void global_git_configs(const struct host *h, struct strv *files)
{
	const char *home = git_home(h);
	if (h->git_config_global && h->git_config_global[0] == '/')
		strv_push(files, h->git_config_global);
	if (h->xdg_config_home && h->xdg_config_home[0] == '/')
		strv_take(files, path_join(h->xdg_config_home, "git/config"));
	else if (home)
		strv_take(files, path_join(home, ".config/git/config"));
	if (home)
		strv_take(files, path_join(home, ".gitconfig"));
	if (h->git_config_system && h->git_config_system[0] == '/')
		strv_push(files, h->git_config_system);
	strv_push(files, "/etc/gitconfig");
}

/* The repository's config, then the user's and the system's: their
 * core.hooksPath and includes can name the work tree too. True when the
 * repository's sets extensions.worktreeConfig (git takes extensions from
 * it alone). */
static bool protect_git_configs(struct builder *b, const char *root)
{
	struct strv files = STRV_INIT;
	strv_take(&files, path_join(root, ".git/config"));
	global_git_configs(b->h, &files);
	bool wtc = false;
	for (size_t i = 0; i < files.n; i++) {
		bool set = protect_git_config(b, root, files.v[i], 0, root);
		wtc = wtc || (i == 0 && set);
	}
	strv_free(&files);
	return wtc;
}

/* The user's and the system's git config themselves, where a writable root
 * holds them ($GIT_CONFIG_GLOBAL in a dotfiles workspace, ~/.gitconfig a
 * symlink into one), repository or not: git reads them in every
 * repository, so a core.fsmonitor planted there runs at the user's next
 * git command anywhere. One the jail makes is moved aside. */
static void protect_global_git_configs(struct builder *b)
{
	struct strv files = STRV_INIT;
	global_git_configs(b->h, &files);
	for (size_t i = 0; i < files.n; i++) {
		_cleanup_free_ char *real = path_resolve_memo(files.v[i], "/", &b->memo);
		protect_at(b, real, "git config read in every repository", PROTECT_MOVE_ASIDE);
		/* what they name (hooks, includes, programs) was read with each
		 * repository's work tree; with none, by absolute and ~ paths */
		if (!b->git_roots)
			protect_git_config(b, NULL, files.v[i], 0, NULL);
	}
	strv_free(&files);
}

static void protect_root(struct builder *b, const char *root)
{
	if (kind_in(b, root, true) != K_DIR)
		return;
	_cleanup_free_ char *git = path_join(root, ".git");
	bool git_dir = kind_in(b, git, false) == K_DIR;
	b->git_roots += git_dir;
	/* one read of the root tells which names are there at all: most are
	 * not, and a lookup each would cost a system call */
	const char *first[SCAN_MAX];
	size_t len[SCAN_MAX], n = 0;
	bool present[SCAN_MAX];
	for (const struct protected_name *pn = protected_in_root; pn->rel && n < SCAN_MAX; pn++, n++) {
		first[n] = pn->rel;
		len[n] = strcspn(pn->rel, "/");
	}
	bool scanned = !protected_in_root[n].rel && scan_dir(b, root, first, len, n, present, NULL);
	for (size_t i = 0; protected_in_root[i].rel; i++) {
		const struct protected_name *pn = &protected_in_root[i];
		bool create = git_dir && strcmp(pn->rel, ".git/hooks") == 0;
		if (scanned && !present[i] && !create) {
			_cleanup_free_ char *p = path_join(root, pn->rel);
			protect_kind(b, root, pn->rel, pn->why, pn->kind, create, p, K_MISSING);
		} else {
			protect(b, root, pn->rel, pn->why, pn->kind, create);
		}
	}
	if (git_dir) {
		/* git reads config.worktree only under extensions.worktreeConfig,
		 * and then while the jail runs too (an editor's git status): an
		 * absent one is made empty and pinned; otherwise one the jail
		 * makes is moved aside after the run, before git outside could
		 * be told to read it (git sparse-checkout init does) */
		bool wtc = protect_git_configs(b, root);
		protect(b, root, ".git/config.worktree", "git config",
			wtc ? PROTECT_MAKE_FILE : PROTECT_MOVE_ASIDE, false);
		_cleanup_free_ char *wt = path_join(root, ".git/config.worktree");
		protect_git_config(b, root, wt, 0, root);
		protect_submodules(b, root, ".git/modules", 0);
		protect_worktrees(b, root, wtc);
	}
}

/* The names of protected_in_home (those starting with prefix, less it, when
 * prefix is given) for a home directory (or config directory) at base,
 * that lie inside the writable root: base inside root (a workspace that
 * holds the home directory), or root inside base (--writable ~/.config,
 * ~/.local: their systemd, autostart and bin are still protected). A root
 * that is itself one of the names, or lies inside one, is what the user
 * asked to make writable, and stays so. */
static void protect_home_names(struct builder *b, const char *root, const char *base,
			       const char *prefix)
{
	const char *rel = path_relative_to(base, root);
	const char *sub = rel ? NULL : path_relative_to(root, base);
	if (!rel && !(sub && sub[0]))
		return;
	size_t sl = sub ? strlen(sub) : 0;
	for (const struct protected_name *pn = protected_in_home; pn->rel; pn++) {
		const char *name = pn->rel;
		if (prefix) {
			if (!str_has_prefix(name, prefix))
				continue;
			name += strlen(prefix);
		}
		_cleanup_free_ char *relp = NULL;
		if (rel)
			relp = rel[0] ? path_join(rel, name) : xstrdup(name);
		else if (strncmp(name, sub, sl) == 0 && name[sl] == '/')
			relp = xstrdup(name + sl + 1);
		else
			continue;
		protect(b, root, relp, pn->why, pn->kind, false);
	}
}

/* A name of protected_in_home whose path goes through a symlink: where it
 * leads, if a writable root holds it (a dotfiles repository as the
 * workspace: ~/.bashrc -> ~/dotfiles/bashrc, as stow makes them), is
 * protected there. */
static void protect_if_linked(struct builder *b, const char *home, const struct protected_name *pn)
{
	_cleanup_free_ char *p = path_join(home, pn->rel);
	_cleanup_free_ char *real = path_resolve_memo(p, "/", &b->memo);
	if (real && strcmp(real, p) != 0)
		protect_at(b, real, pn->why, pn->kind);
}

/* protect_if_linked for the names of protected_in_home under dir (home, or
 * home/F for the names F/NAME: prefix "F/"): one read of dir tells which
 * of them are there and which are symlinks; a real directory holding many
 * names (~/.config) is read once in turn, a name under one holding a few
 * (~/.cargo, ~/.local) is looked up. */
static void protect_links_in(struct builder *b, const char *home, const char *prefix)
{
	const char *name[KJ_SCAN_MAX];
	size_t len[KJ_SCAN_MAX], pi[KJ_SCAN_MAX], n = 0;
	bool present[KJ_SCAN_MAX], link[KJ_SCAN_MAX];
	size_t pl = prefix ? strlen(prefix) : 0;
	for (size_t i = 0; protected_in_home[i].rel && n < KJ_SCAN_MAX; i++) {
		const char *rel = protected_in_home[i].rel;
		if (prefix && strncmp(rel, prefix, pl) != 0)
			continue;
		name[n] = rel + pl;
		len[n] = strcspn(name[n], "/");
		pi[n++] = i;
	}
	_cleanup_free_ char *dir = prefix ? xconcat(home, "/", prefix, (char *)NULL) : xstrdup(home);
	if (!scan_dir(b, dir, name, len, n, present, link)) {
		/* no directory read here (macOS, or none at all): each name
		 * looked up */
		for (size_t k = 0; k < n; k++)
			protect_if_linked(b, home, &protected_in_home[pi[k]]);
		return;
	}
	bool done[KJ_SCAN_MAX] = { false };
	for (size_t k = 0; k < n; k++) {
		if (done[k] || !present[k] || (!link[k] && name[k][len[k]] != '/'))
			continue; /* absent, or a real file or directory */
		if (link[k]) {
			protect_if_linked(b, home, &protected_in_home[pi[k]]);
			continue;
		}
		/* names under a real directory F: the rest of them come later */
		size_t same = 0;
		for (size_t j = k; j < n; j++)
			same += len[j] == len[k] && memcmp(name[j], name[k], len[k]) == 0;
		if (same > 4 && !prefix) {
			_cleanup_free_ char *sub = xstrndup(name[k], len[k] + 1);
			protect_links_in(b, home, sub);
		} else {
			/* F itself is no link: no lookup of it again */
			_cleanup_free_ char *d = xstrndup(protected_in_home[pi[k]].rel, pl + len[k]);
			_cleanup_free_ char *abs = path_join(home, d);
			path_memo_add(&b->memo, abs);
		}
		for (size_t j = k; j < n; j++)
			if (len[j] == len[k] && memcmp(name[j], name[k], len[k]) == 0) {
				done[j] = true;
				if (same <= 4 || prefix)
					protect_if_linked(b, home, &protected_in_home[pi[j]]);
			}
	}
}

/* XDG_CONFIG_HOME moves ~/.config: git reads its config there, systemd and
 * the session their user units, autostart entries and environment, shells
 * and editors their startup files. Wherever a writable root holds it, the
 * ~/.config names of protected_in_home are protected under it. */
static void protect_xdg_config(struct builder *b)
{
	const char *xdg = b->h->xdg_config_home;
	if (!xdg || xdg[0] != '/')
		return;
	_cleanup_free_ char *real = path_resolve_memo(xdg, "/", &b->memo);
	if (!real)
		return;
	for (size_t r = 0, n = b->roots.n; r < n; r++)
		protect_home_names(b, b->roots.v[r].path, real, ".config/");
}

/* kjail's and kli's config directories, wherever a writable root holds them. */
static void protect_config_dirs(struct builder *b)
{
	const struct host *h = b->h;
	struct strv dirs = STRV_INIT;
	static const char *const tools[] = { "kjail", "kli" };
	for (size_t t = 0; t < ARRAY_SIZE(tools); t++) {
		if (h->home)
			strv_pushf(&dirs, "%s/.config/%s", h->home, tools[t]);
		if (h->home_env && h->home_env[0] == '/')
			strv_pushf(&dirs, "%s/.config/%s", h->home_env, tools[t]);
		if (h->xdg_config_home && h->xdg_config_home[0] == '/')
			strv_pushf(&dirs, "%s/%s", h->xdg_config_home, tools[t]);
	}
	strv_take(&dirs, path_dirname(KJ_SYSTEM_CONFIG));
	strv_take(&dirs, path_dirname(KLI_SYSTEM_CONFIG));
	for (size_t i = 0; i < dirs.n; i++) {
		if (strv_find(&dirs, dirs.v[i]) < (long)i)
			continue; /* $HOME is often the account's home */
		_cleanup_free_ char *real = path_resolve_memo(dirs.v[i], "/", &b->memo);
		if (!real)
			continue;
		for (size_t r = 0; r < b->roots.n; r++) {
			const char *root = b->roots.v[r].path;
			const char *rel = path_relative_to(real, root);
			if (!rel || !rel[0])
				continue;
			protect(b, root, rel, "kjail and kli configuration", PROTECT_ANY, true);
			break;
		}
	}
	strv_free(&dirs);
}

static bool check_masks(struct builder *b)
{
	/* In tree order, everything under a directory mask directly follows it:
	 * a stack of the enclosing directory masks finds the nested ones. */
	cands_sort_unique(&b->masks);
	struct cands kept = { 0 };
	size_t *stack = xreallocarray(NULL, b->masks.n + 1, sizeof *stack), depth = 0;
	for (size_t i = 0; i < b->masks.n; i++) {
		struct cand *m = &b->masks.v[i];
		for (size_t r = 0; r < b->roots.n; r++)
			if (path_is_under(b->roots.v[r].path, m->path)) {
				cands_free(&kept);
				free(stack);
				return fail(b, "%s: mask %s would hide the writable %s %s",
					    m->origin, m->path, b->roots.v[r].rule,
					    b->roots.v[r].path);
			}
		while (depth && !path_is_under(m->path, kept.v[stack[depth - 1]].path))
			depth--;
		if (depth) {
			_cleanup_free_ char *why = xasprintf("already hidden by the mask on %s",
							     kept.v[stack[depth - 1]].path);
			skip(b, m->path, why, m->origin);
			continue;
		}
		if (in_private_area(m->path) && !covering(&b->roots, m->path)) {
			skip(b, m->path, "not visible: private in the jail", m->origin);
			continue;
		}
		/* moved, not copied: the loop below frees only what stayed */
		cand_push(&kept, *m);
		m->path = NULL;
		if (kept.v[kept.n - 1].kind == OP_MASK_DIR)
			stack[depth++] = kept.n - 1;
	}
	free(stack);
	cands_free(&b->masks);
	b->masks = kept;
	return true;
}

static void add_helper(struct builder *b)
{
	const char *self = b->h->self;
	if (!self || !in_private_area(self) || covering(&b->roots, self))
		return;
	plan_add(b->pl, OP_HELPER, self, "kjail's entry helper", "built-in");
}

/* A symbolic link inside a writable root (or the current directory, the
 * workspace of the runs before), met on the way to the workspace or a
 * writable path: a jail could have made it in an earlier run
 * (ln -s ~ build), and "--writable build" or "-C build" would then bind
 * what it leads to. Refused unless it leads into one of them anyway. The
 * links are those of the lookup that gave the root (resolve_noting): a
 * second lookup could be answered differently by a jail still running. */
static bool in_roots_or_cwd(const struct builder *b, const char *path, const char *except)
{
	if (path_is_under(path, b->h->cwd))
		return true;
	for (size_t r = 0; r < b->roots.n; r++)
		if (path_is_under(path, b->roots.v[r].path) &&
		    !(except && strcmp(b->roots.v[r].path, except) == 0))
			return true;
	return false;
}

/* The kernel's own file systems, by the type mountinfo names: one of
 * them writable hands the jail the kernel or the host (its settings and
 * processes, its devices, binfmt handlers that choose what runs a program,
 * cgroups, message queues). */
static const char *const kernel_fstypes[] = {
	"proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs",
	"securityfs", "bpf", "efivarfs", "binfmt_misc", "mqueue", "configfs", "pstore",
	"fusectl", "selinuxfs", "nsfs", "rpc_pipefs", "nfsd", NULL,
};

/* A mountinfo path field, its \ooo escapes undone, in place. */
static void mountinfo_unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/* Every writable root, and every mount under it (a bind is recursive: a
 * chroot's proc, a bind of /dev), must be no kernel file system: the
 * mounts as this process sees them, which bwrap binds from. */
static bool check_kernel_mounts(struct builder *b)
{
#ifdef KJ_OS_LINUX
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return fail(b, "cannot read /proc/self/mountinfo to check the writable paths: %s",
			    strerror(errno));
	size_t nroots = b->roots.n;
	size_t *deepest = xcalloc(nroots ? nroots : 1, sizeof *deepest); /* length + 1 */
	char **on = xcalloc(nroots ? nroots : 1, sizeof *on);              /* its type */
	char *line = NULL;
	size_t cap = 0;
	bool ok = true;
	while (ok && getline(&line, &cap, f) > 0) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER */
		char *save = NULL, *field = strtok_r(line, " ", &save);
		char *mp = NULL, *type = NULL;
		for (int i = 0; field; i++, field = strtok_r(NULL, " ", &save)) {
			if (i == 4)
				mp = field;
			if (strcmp(field, "-") == 0) {
				type = strtok_r(NULL, " ", &save);
				break;
			}
		}
		if (!mp || !type)
			continue;
		mountinfo_unescape(mp);
		bool kernel = false;
		for (const char *const *t = kernel_fstypes; *t && !kernel; t++)
			kernel = strcmp(type, *t) == 0;
		for (size_t r = 0; r < nroots && ok; r++) {
			const char *root = b->roots.v[r].path;
			if (path_is_under(root, mp) && strlen(mp) + 1 > deepest[r]) {
				deepest[r] = strlen(mp) + 1;
				free(on[r]);
				on[r] = kernel ? xstrdup(type) : NULL;
			} else if (kernel && path_is_under(mp, root) && strcmp(mp, root) != 0) {
				ok = fail(b, "%s: refusing to make %s writable: %s below it is the "
					     "kernel's %s file system, never the jail's to write",
					  b->roots.v[r].origin, root, mp, type);
			}
		}
	}
	for (size_t r = 0; r < nroots && ok; r++)
		if (on[r])
			ok = fail(b, "%s: refusing to make %s writable: it is on the kernel's %s "
				     "file system, never the jail's to write",
				  b->roots.v[r].origin, b->roots.v[r].path, on[r]);
	for (size_t r = 0; r < nroots; r++)
		free(on[r]);
	free(on);
	free(deepest);
	free(line);
	fclose(f);
	return ok;
#else
	(void)b;
	return true;
#endif
}

static bool check_planted(struct builder *b)
{
	for (size_t i = 0; i < b->nseen; i++) {
		const struct seen_link *s = &b->seen[i];
		if (!in_roots_or_cwd(b, s->link, NULL) || in_roots_or_cwd(b, s->real, s->real))
			continue;
		return fail(b, "%s: %s: refusing a path through the symbolic link %s, which lies "
			       "in a writable path or the current directory (a jail could have "
			       "made it); name %s itself if that is what you mean",
			    s->origin, s->given, s->link, s->real);
	}
	return true;
}

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

static bool build(struct builder *b)
{
	const struct policy *p = b->p;
	struct plan *pl = b->pl;
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
	pl->workspace = xstrdup(wsreal);
	if (!add_writable(b, wsreal, "workspace", p->workspace_origin, true))
		return false;
	for (size_t i = 0; i < p->writable.n; i++) {
		const struct entry *e = &p->writable.v[i];
		bool strict = str_has_prefix(e->origin, "--");
		if (!add_writable(b, e->value, "writable path", e->origin, strict))
			return false;
	}
	if (!check_planted(b) || !check_kernel_mounts(b))
		return false;

	for (size_t r = 0, n = b->roots.n; r < n; r++)
		protect_root(b, b->roots.v[r].path);
	protect_global_git_configs(b);
	if (b->git_err)
		return fail(b, "%s", b->git_err);
	/* the account's home and $HOME, each once (a name protected twice
	 * would be reported twice) */
	char *homes[2] = { NULL, NULL };
	const char *given[2] = { b->h->home, b->h->home_env };
	for (size_t i = 0; i < 2; i++)
		if (given[i] && given[i][0] == '/')
			homes[i] = path_resolve_memo(given[i], "/", &b->memo);
	if (homes[0] && homes[1] && strcmp(homes[0], homes[1]) == 0) {
		free(homes[1]);
		homes[1] = NULL;
	}
	for (size_t r = 0, n = b->roots.n; r < n; r++)
		for (size_t i = 0; i < 2; i++)
			if (homes[i])
				protect_home_names(b, b->roots.v[r].path, homes[i], NULL);
	for (size_t i = 0; i < 2; i++)
		if (homes[i])
			protect_links_in(b, homes[i], NULL);
	free(homes[0]);
	free(homes[1]);
	protect_xdg_config(b);
	protect_config_dirs(b);

	if (p->defaults.value)
		add_default_masks(b);
	if (!p->network.value) {
		/* /sys is the host's: without this it still lists the host's
		 * interfaces, though none of them is reachable. */
		_cleanup_free_ char *o = xasprintf("host interfaces under no network (%s)",
						   p->network.origin);
		add_mask(b, "/sys/class/net", o);
		for (const struct default_mask *m = no_network_socket_masks; m->path; m++) {
			_cleanup_free_ char *why = xconcat(m->why, " under no network (",
							   p->network.origin, ")", (char *)NULL);
			add_mask(b, m->path, why);
		}
	}
	for (size_t i = 0; i < p->deny_read.n; i++)
		add_mask(b, p->deny_read.v[i].value, p->deny_read.v[i].origin);
	if (!check_masks(b))
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
	return true;
}

enum backend backend_effective(enum backend b)
{
#ifdef KJ_OS_DARWIN
	return b == BACKEND_AUTO ? BACKEND_SEATBELT : b;
#else
	return b == BACKEND_AUTO ? BACKEND_BWRAP : b;
#endif
}

bool plan_build(const struct policy *p, const struct host *h, char *const *envp,
		struct plan *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	out->backend = backend_effective(p->backend);
	out->network = p->network.value;
	out->nested_userns = p->nested_userns.value;
	out->allow_userns = p->allow_userns.value;
	/* A nested namespace may map uid 0 of its parent only if its creator
	 * held CAP_SETFCAP, which the jail never has; so a root run that allows
	 * user namespaces is uid 65534 inside (still root outside). */
	out->inside_id = out->allow_userns && h->uid == 0 ? 65534 : -1;
	struct builder b = { .p = p, .h = h, .pl = out, .err = err, .errlen = errlen,
			     .git_includes = GIT_INCLUDES_MAX };
	bool ok = build(&b);
	cands_free(&b.roots);
	cands_free(&b.pins);
	cands_free(&b.protects);
	cands_free(&b.masks);
	path_memo_free(&b.memo);
	for (size_t i = 0; i < b.nseen; i++) {
		free(b.seen[i].link);
		free(b.seen[i].real);
	}
	free(b.seen);
	free(b.git_err);
	listings_forget(&b);
	if (ok && envp)
		env_filter(envp, p, &out->env, &out->env_removed);
	return ok;
}

void plan_free(struct plan *pl)
{
	for (size_t i = 0; i < pl->nops; i++)
		free(pl->ops[i].path);
	free(pl->ops);
	strpool_free(&pl->strings);
	free(pl->workspace);
	entry_list_free(&pl->skipped);
	entry_list_free(&pl->created);
	entry_list_free(&pl->unguarded);
	entry_list_free(&pl->move_aside);
	entry_list_free(&pl->env_removed);
	strv_free(&pl->env);
	memset(pl, 0, sizeof *pl);
}

const struct op *plan_verdict(const struct plan *pl, const char *path)
{
	const struct op *found = NULL;
	for (size_t i = 0; i < pl->nops; i++) {
		const struct op *o = &pl->ops[i];
		bool hit = o->kind == OP_MASK_FILE || o->kind == OP_HELPER
				   ? strcmp(path, o->path) == 0
				   : path_is_under(path, o->path);
		if (hit)
			found = o;
	}
	return found;
}
