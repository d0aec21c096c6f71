/* SPDX-License-Identifier: MIT */
/* The start-up socket scan (socket-scan.h): a bounded walk by readdir's
 * d_type (lstat only where the file system gives none), one fstat per
 * directory and one statfs per file system met. */
#include "config.h"
#include "planner/socket-scan.h"
#include "planner/docker-endpoint.h"
#include "planner/checks.h"
#include "planner/tools.h"
#include "policy/socket-rules.h"
#include "strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#ifdef __linux__
#include <sys/vfs.h>
#else
#include <sys/mount.h>
#endif
#include <unistd.h>

struct scan {
	struct builder *b;
	const char *home;     /* the real home directory, or NULL */
	size_t entries;       /* read so far, against SOCKET_SCAN_ENTRIES */
	bool cut;
	struct strv skip;     /* mount points of skipped file systems */
	const struct mount_table *mounts; /* or NULL */
	bool no_table;        /* no mount table: statfs where the device changes */
};

/* File systems whose reads may block on a network, a user's daemon
 * (FUSE) or an automounter, or that hold no sockets of this host's
 * daemons: by the mount table's type, so not even opened. */
static bool skipped_type(const char *type)
{
	static const char *const types[] = { "nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph",
					     "afs", "9p", "autofs", "proc", "sysfs", "nsfs",
					     "cgroup", "cgroup2", "debugfs", "tracefs",
					     "securityfs", "bpf", "binfmt_misc", NULL };
	if (str_has_prefix(type, "fuse"))
		return true;
	for (const char *const *t = types; *t; t++)
		if (strcmp(type, *t) == 0)
			return true;
	return false;
}

/* Whether path lies on a skipped file system (a home on NFS): the mount
 * that shows it, by the table. */
static bool on_skipped_fs(const struct scan *s, const char *path)
{
	const struct mount_entry *m = s->mounts ? mount_of(s->mounts, path) : NULL;
	return m && skipped_type(m->type);
}

static bool skipped_point(const struct scan *s, const char *path)
{
	for (size_t i = 0; i < s->skip.n; i++)
		if (strcmp(s->skip.v[i], path) == 0)
			return true;
	return false;
}

/* The same, by statfs magic, where there is no mount table. */
static bool skipped_fs(long type)
{
	static const long magic[] = {
		0x65735546,  /* FUSE (sshfs, rclone, virtiofs in a VM) */
		0x6969,      /* NFS */
		0x517B,      /* SMB */
		(long)0xFF534D42, /* CIFS */
		(long)0xFE534D42, /* SMB2 */
		0x00c36400,  /* Ceph */
		0x5346414F,  /* AFS */
		0x6B414653,  /* kAFS */
		0x01021997,  /* 9p */
		0x9fa0,      /* proc */
		0x62656572,  /* sysfs */
	};
	for (size_t i = 0; i < ARRAY_SIZE(magic); i++)
		if ((long)(unsigned)type == (long)(unsigned)magic[i] || type == magic[i])
			return true;
	return false;
}

/* Where a mask may go: not over or around a writable root (the jail's
 * own sockets there are its own), not where a mask already is. */
static bool in_writable(const struct builder *b, const char *path)
{
	return covering(&b->roots, path) || covering(&b->inner, path);
}

static bool holds_writable(const struct builder *b, const char *dir)
{
	for (size_t i = 0; i < b->roots.n; i++)
		if (path_is_under(b->roots.v[i].path, dir))
			return true;
	for (size_t i = 0; i < b->inner.n; i++)
		if (path_is_under(b->inner.v[i].path, dir))
			return true;
	return false;
}

static void note(struct scan *s, const char *sock, const char *mask)
{
	struct plan *pl = s->b->pl;
	for (size_t i = 0; i < pl->nscanned; i++)
		if (strcmp(pl->scanned[i].path, sock) == 0)
			return;
	pl->scanned = xreallocarray(pl->scanned, pl->nscanned + 1, sizeof *pl->scanned);
	pl->scanned[pl->nscanned++] = (struct plan_scanned){
		.path = strpool_intern(&pl->strings, sock),
		.what = socket_rule_what(sock, s->home),
		.mask = strpool_intern(&pl->strings, mask),
	};
}

static void mask_file(struct scan *s, const char *sock)
{
	struct builder *b = s->b;
	if (covering(&b->masks, sock))
		return;
	_cleanup_free_ char *origin = xconcat("built-in socket scan: ",
					      socket_rule_what(sock, s->home), (char *)NULL);
	cand_add(b->pl, &b->masks, OP_MASK_FILE, sock, "masked", origin);
	note(s, sock, sock);
}

/* One level of a directory found to hold sockets only: each noted with
 * the directory's mask. */
struct found {
	char **v;
	size_t n;
};

static void found_push(struct found *f, char *path)
{
	f->v = xreallocarray(f->v, f->n + 1, sizeof *f->v);
	f->v[f->n++] = path;
}

static void found_free(struct found *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i]);
	free(f->v);
	*f = (struct found){ 0 };
}

static void mask_dir(struct scan *s, const char *dir, struct found *socks)
{
	struct builder *b = s->b;
	if (!covering(&b->masks, dir))
		cand_add(b->pl, &b->masks, OP_MASK_DIR, dir, "masked",
			 "built-in socket scan: a directory that holds sockets only");
	for (size_t i = 0; i < socks->n; i++)
		note(s, socks->v[i], dir);
}

static bool walk(struct scan *s, int dfd, const char *path, int depth, dev_t pdev,
		 bool whole, struct found *out);

/* The entry name of dir (dfd) at path, of d_type type: tallied, and
 * walked into when a directory. Sockets to mask go to socks (their
 * masks wait for the directory's verdict), directories of sockets only
 * to dirs (with their sockets in socks too). */
static void entry(struct scan *s, int dfd, const char *path, const char *name,
		  unsigned char type, int depth, dev_t dev, struct socket_tally *t,
		  struct found *socks, struct found *dirs)
{
	if (type == DT_UNKNOWN) {
		struct stat st;
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			t->others++;
			return;
		}
		type = S_ISSOCK(st.st_mode) ? DT_SOCK : S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
	}
	if (type != DT_SOCK && type != DT_DIR) {
		t->others++;
		return;
	}
	char *child = xconcat(path, strcmp(path, "/") ? "/" : "", name, (char *)NULL);
	struct builder *b = s->b;
	if (type == DT_SOCK) {
		/* one masked already (the built-in table's) is a socket of this
		 * directory all the same: the directory may be masked whole. One
		 * the caller cannot write, the jail (the same ids, no
		 * capabilities) cannot connect to: it costs no mount and does
		 * not count. As root every socket can be written. */
		if (socket_rule_match(allowed_sockets, child, s->home)) {
			t->allowed++;
			free(child);
		} else if (faccessat(dfd, name, W_OK, AT_EACCESS) < 0 && errno == EACCES) {
			free(child);
		} else {
			t->sockets++;
			found_push(socks, child);
		}
		return;
	}
	if (depth <= 0 || covering(&b->masks, child) || skipped_point(s, child)) {
		t->others++;
		free(child);
		return;
	}
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct found sub = { 0 };
	if (fd >= 0 && walk(s, fd, child, depth - 1, dev, true, &sub)) {
		t->socket_dirs++;
		for (size_t i = 0; i < sub.n; i++)
			found_push(socks, steal_pointer(&sub.v[i]));
		found_push(dirs, child);
	} else {
		t->others++;
		free(child);
	}
	found_free(&sub);
}

/* One directory's entries, name and d_type, to each(): on Linux straight
 * from getdents64 (no DIR, no fcntl), elsewhere by readdir. False when it
 * cannot be read. The callback may walk deeper (its own buffer). */
struct lister {
	struct scan *s;
	const char *path;
	int depth;
	dev_t dev;
	struct socket_tally *t;
	struct found *socks, *dirs;
};

static bool listed(struct lister *l, int dfd, const char *name, unsigned char type)
{
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return true;
	if (++l->s->entries > SOCKET_SCAN_ENTRIES) {
		if (!l->s->cut)
			l->s->b->pl->scan_cut = strpool_intern(&l->s->b->pl->strings, l->path);
		l->s->cut = true;
		l->t->others++;
		return false;
	}
	entry(l->s, dfd, l->path, name, type, l->depth, l->dev, l->t, l->socks, l->dirs);
	return true;
}

static bool list_dir(struct lister *l, int dfd)
{
#if defined(__linux__) && defined(SYS_getdents64)
	union {
		char c[8192];
		uint64_t align;
	} buf;
	for (;;) {
		long n = syscall(SYS_getdents64, dfd, buf.c, sizeof buf.c);
		if (n < 0)
			return false;
		if (n == 0)
			return true;
		for (long off = 0; off + 19 < n;) {
			/* struct linux_dirent64: ino, off, reclen, type, name */
			unsigned short reclen;
			memcpy(&reclen, buf.c + off + 16, sizeof reclen);
			if (reclen < 20 || off + reclen > n)
				return false;
			if (!listed(l, dfd, buf.c + off + 19, (unsigned char)buf.c[off + 18]))
				return true;
			off += reclen;
		}
	}
#else
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	struct dirent *e;
	while ((e = readdir(d)))
		if (!listed(l, dirfd(d), e->d_name, e->d_type))
			break;
	closedir(d);
	return true;
#endif
}

/* Walks dir (dfd, closed here) at path, depth levels further. True when
 * it holds sockets only and may be masked whole: then out holds them and
 * nothing is masked yet (the caller masks the directory, or the one
 * above it). Else what it found is masked here. */
static bool walk(struct scan *s, int dfd, const char *path, int depth, dev_t pdev,
		 bool whole, struct found *out)
{
	/* without a mount table, a file system is judged where the device
	 * changes, by its magic; with one, skipped mounts are never opened */
	dev_t dev = pdev;
	if (s->no_table) {
		struct stat st;
		struct statfs fs;
		if (fstat(dfd, &st) < 0 ||
		    (st.st_dev != pdev && (fstatfs(dfd, &fs) < 0 || skipped_fs((long)fs.f_type)))) {
			close(dfd);
			return false;
		}
		dev = st.st_dev;
	}
	struct socket_tally t = { 0 };
	struct found socks = { 0 }, dirs = { 0 };
	struct lister l = { s, path, depth, dev, &t, &socks, &dirs };
	if (!list_dir(&l, dfd))
		t.others++;
	close(dfd);
	bool only = whole && socket_dir_only_sockets(&t) && !in_writable(s->b, path) &&
		    !holds_writable(s->b, path);
	if (only) {
		*out = socks;
		found_free(&dirs);
		return true;
	}
	/* not this directory whole: its subdirectories of sockets only, and
	 * its own sockets one by one */
	for (size_t i = 0; i < socks.n; i++) {
		const char *sock = socks.v[i];
		const char *dir = NULL;
		for (size_t j = 0; j < dirs.n && !dir; j++)
			if (path_is_under(sock, dirs.v[j]))
				dir = dirs.v[j];
		if (dir) {
			struct found one = { .v = (char *[]){ (char *)sock }, .n = 1 };
			mask_dir(s, dir, &one);
		} else {
			mask_file(s, sock);
		}
	}
	found_free(&socks);
	found_free(&dirs);
	return false;
}

/* Scans path (real) as a root; whole: it may be masked whole itself
 * (a dot-directory of the home; not /run). */
static void scan_root(struct scan *s, const char *path, int depth, bool whole)
{
	if (covering(&s->b->masks, path) || on_skipped_fs(s, path))
		return;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	struct found socks = { 0 };
	if (walk(s, fd, path, depth, (dev_t)-1, whole, &socks))
		mask_dir(s, path, &socks);
	found_free(&socks);
}

/* A socket named outside the walk (the engine table, docker's endpoint):
 * masked with its directory when that holds sockets only. */
static void scan_named(struct scan *s, const char *path)
{
	_cleanup_free_ char *real = path_resolve(path, "/");
	struct stat st;
	/* the jail's own /tmp, /dev and /proc are not the host's */
	if (!real || path_is_under(real, "/tmp") || path_is_under(real, "/dev") ||
	    path_is_under(real, "/proc") || lstat(real, &st) < 0 || !S_ISSOCK(st.st_mode) ||
	    covering(&s->b->masks, real) || socket_rule_match(allowed_sockets, real, s->home))
		return;
	_cleanup_free_ char *dir = path_dirname(real);
	bool root = strcmp(dir, "/") == 0 || (s->home && strcmp(dir, s->home) == 0);
	int fd = root ? -1 : open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct found socks = { 0 };
	if (fd >= 0 && walk(s, fd, dir, 0, (dev_t)-1, true, &socks))
		mask_dir(s, dir, &socks);
	else if (!covering(&s->b->masks, real))
		mask_file(s, real);
	found_free(&socks);
}

/* The home's dot-directories (and dot-sockets), walked; not on a network
 * or FUSE file system. */
static void scan_dot_dirs(struct scan *s)
{
	const char *home = s->home;
	if (on_skipped_fs(s, home))
		return;
	int fd = open(home, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct dirent *e;
	struct strv dots = STRV_INIT;
	while ((e = readdir(d))) {
		s->entries++;
		if (e->d_name[0] != '.' || strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (e->d_type == DT_SOCK)
			strv_push(&dots, e->d_name);
		else if (e->d_type == DT_DIR || e->d_type == DT_UNKNOWN)
			strv_push(&dots, e->d_name);
	}
	closedir(d);
	for (size_t i = 0; i < dots.n; i++) {
		_cleanup_free_ char *p = path_join(home, dots.v[i]);
		struct stat st;
		if (lstat(p, &st) < 0)
			continue;
		if (S_ISSOCK(st.st_mode))
			scan_named(s, p);
		else if (S_ISDIR(st.st_mode))
			scan_root(s, p, SOCKET_SCAN_HOME_DEPTH - 1, true);
	}
	strv_free(&dots);
}

/* The engine table's places, looked up whatever their depth, and on any
 * file system: a few named directories, read once each. */
static void scan_home(struct scan *s)
{
	const char *home = s->home;
	scan_dot_dirs(s);
	for (const struct known_socket *k = engine_sockets; k->pattern; k++) {
		_cleanup_free_ char *pat = xconcat(home, k->pattern + 1, (char *)NULL);
		glob_t g;
		if (glob(pat, GLOB_NOSORT, NULL, &g) == 0)
			for (size_t i = 0; i < g.gl_pathc; i++)
				scan_named(s, g.gl_pathv[i]);
		globfree(&g);
	}
}

/* /var/lib's daemons, one level down: /var/lib/NAME/SOCKET. */
static void scan_var_lib(struct scan *s)
{
	_cleanup_free_ char *real = path_resolve("/var/lib", "/");
	if (real)
		scan_root(s, real, 1, false);
}

void add_socket_scan(struct builder *b)
{
	const struct host *h = b->h;
	if (!h->scan_sockets || b->pl->backend == BACKEND_CONTAINER)
		return;
	const char *home = h->home_env && h->home_env[0] == '/' ? h->home_env : h->home;
	_cleanup_free_ char *rhome = home && home[0] == '/' ? path_resolve(home, "/") : NULL;
	struct scan s = { .b = b, .home = rhome && strcmp(rhome, "/") ? rhome : NULL,
			  .skip = STRV_INIT };
	const struct mount_table *t = host_mounts(b);
	s.no_table = !t;
	s.mounts = t;
	for (size_t i = 0; t && i < t->n; i++)
		if (skipped_type(t->v[i].type))
			strv_push(&s.skip, t->v[i].point);
	_cleanup_free_ char *run = path_resolve("/run", "/");
	_cleanup_free_ char *varrun = path_resolve("/var/run", "/");
	if (run)
		scan_root(&s, run, SOCKET_SCAN_RUN_DEPTH, false);
	if (varrun && (!run || strcmp(run, varrun) != 0))
		scan_root(&s, varrun, SOCKET_SCAN_RUN_DEPTH, false);
	if (h->xdg_runtime_dir && h->xdg_runtime_dir[0] == '/') {
		_cleanup_free_ char *x = path_resolve(h->xdg_runtime_dir, "/");
		if (x && strcmp(x, "/") != 0)
			scan_root(&s, x, SOCKET_SCAN_RUN_DEPTH, false);
	}
	scan_var_lib(&s);
	if (s.home)
		scan_home(&s);
	struct strv ends = STRV_INIT;
	docker_endpoints(h, s.home, &ends);
	for (size_t i = 0; i < ends.n; i++)
		scan_named(&s, ends.v[i]);
	strv_free(&ends);
	strv_free(&s.skip);
	b->pl->scanned_host = true;
	b->pl->scan_entries = s.entries;
	if (s.cut && !h->explain)
		warn_msg("socket scan: stopped at %zu entries in %s; sockets past it stay reachable "
			 "(mask them with --deny-read PATH)", (size_t)SOCKET_SCAN_ENTRIES,
			 b->pl->scan_cut);
}
