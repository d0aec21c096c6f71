// SPDX-License-Identifier: MIT
#include "config.h"
#include "run/ll-restore.h"
#include "run/tree.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DEPTH 16

/* The directory holding path, opened by walking from / with O_NOFOLLOW
 * at every step (a symlink the jail put on the way is not followed);
 * its last component in *name. -1 with errno. */
static int open_parent_at(const char *path, const char **name, bool make)
{
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	const char *p = path + 1;
	for (;;) {
		const char *slash = strchr(p, '/');
		if (!slash) {
			*name = p;
			return fd;
		}
		_cleanup_free_ char *comp = xstrndup(p, (size_t)(slash - p));
		int next = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		/* a directory on the way the jail removed (a .git rebuilt
		 * without info/): made again, never through a link */
		if (next < 0 && errno == ENOENT && make && mkdirat(fd, comp, 0755) == 0)
			next = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = errno;
		close(fd);
		if (next < 0) {
			errno = e;
			return -1;
		}
		fd = next;
		p = slash + 1;
	}
}

static int open_parent(const char *path, const char **name)
{
	return open_parent_at(path, name, false);
}

/* Copies the entry name of directory from into to (absent there), a tree
 * for a directory; false with errno. */
static bool copy_at(int from, const char *name, int to, int depth)
{
	struct stat st;
	if (depth > MAX_DEPTH || fstatat(from, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (depth > MAX_DEPTH)
			errno = ELOOP;
		return false;
	}
	if (S_ISLNK(st.st_mode)) {
		char target[4096];
		ssize_t n = readlinkat(from, name, target, sizeof target - 1);
		if (n < 0)
			return false;
		target[n] = '\0';
		return symlinkat(target, to, name) == 0;
	}
	if (S_ISDIR(st.st_mode)) {
		int src = openat(from, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (src < 0 || mkdirat(to, name, 0700) < 0)
			return src >= 0 ? (close(src), false) : false;
		int dst = openat(to, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		DIR *d = dst >= 0 ? fdopendir(src) : NULL;
		bool ok = d != NULL;
		struct dirent *e;
		while (ok && (e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				ok = copy_at(src, e->d_name, dst, depth + 1);
		if (ok)
			ok = fchmod(dst, st.st_mode & 07777) == 0;
		int err = errno;
		if (d)
			closedir(d);
		else
			close(src);
		if (dst >= 0)
			close(dst);
		errno = err;
		return ok;
	}
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return false;
	}
	int src = openat(from, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (src < 0)
		return false;
	int dst = openat(to, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	bool ok = dst >= 0;
	char buf[65536];
	ssize_t r;
	while (ok && (r = read(src, buf, sizeof buf)) != 0)
		ok = r > 0 && write(dst, buf, (size_t)r) == r;
	if (ok)
		ok = fchmod(dst, st.st_mode & 07777) == 0;
	int err = errno;
	close(src);
	if (dst >= 0 && close(dst) < 0)
		ok = false;
	errno = err;
	return ok;
}

/* Whether entry an of a and bn of b are the same tree: type, mode, bytes,
 * link targets. Any error: not the same. */
static bool same_at(int a, const char *an, int b, const char *bn, int depth)
{
	struct stat sa, sb;
	if (depth > MAX_DEPTH || fstatat(a, an, &sa, AT_SYMLINK_NOFOLLOW) < 0 ||
	    fstatat(b, bn, &sb, AT_SYMLINK_NOFOLLOW) < 0)
		return false;
	if ((sa.st_mode & S_IFMT) != (sb.st_mode & S_IFMT) ||
	    (!S_ISLNK(sa.st_mode) && (sa.st_mode & 07777) != (sb.st_mode & 07777)))
		return false;
	if (S_ISLNK(sa.st_mode)) {
		char ta[4096], tb[4096];
		ssize_t na = readlinkat(a, an, ta, sizeof ta), nb = readlinkat(b, bn, tb, sizeof tb);
		return na >= 0 && na == nb && memcmp(ta, tb, (size_t)na) == 0;
	}
	if (S_ISREG(sa.st_mode)) {
		if (sa.st_size != sb.st_size)
			return false;
		int fa = openat(a, an, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		int fb = openat(b, bn, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		bool same = fa >= 0 && fb >= 0;
		char ba[65536], bb[65536];
		ssize_t ra;
		while (same && (ra = read(fa, ba, sizeof ba)) != 0)
			same = ra > 0 && read(fb, bb, (size_t)ra) == ra && memcmp(ba, bb, (size_t)ra) == 0;
		if (same)
			same = read(fb, bb, 1) == 0;
		if (fa >= 0)
			close(fa);
		if (fb >= 0)
			close(fb);
		return same;
	}
	if (!S_ISDIR(sa.st_mode))
		return false;
	int da = openat(a, an, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int db = openat(b, bn, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	bool same = da >= 0 && db >= 0;
	/* every entry of each is in the other, the same */
	for (int pass = 0; same && pass < 2; pass++) {
		int from = pass ? db : da, other = pass ? da : db;
		int dup_fd = dup(from);
		DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
		same = d != NULL;
		struct dirent *e;
		while (same && (e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				same = pass ? faccessat(other, e->d_name, F_OK, AT_SYMLINK_NOFOLLOW) == 0
					    : same_at(from, e->d_name, other, e->d_name, depth + 1);
		if (d)
			closedir(d);
	}
	if (da >= 0)
		close(da);
	if (db >= 0)
		close(db);
	return same;
}

static bool protected_here(const struct op *o)
{
	return o->kind == OP_PROTECT;
}

/* Each entry of the sealed directory dir as "DIR/NAME" into v, and
 * (with start NULL) nothing more; after the run (start the list made
 * then), each new one is moved aside with a line: false when one could
 * not be. */
static bool seal_walk(const char *dir, struct strv *v, const struct strv *start)
{
	const char *name;
	int parent = open_parent(dir, &name);
	int fd = parent >= 0 ? openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (parent >= 0)
		close(parent);
	if (fd < 0) {
		if (start && errno != ENOENT)
			warn_msg("%s: cannot look for new entries: %s", dir, strerror(errno));
		return !start || errno == ENOENT;
	}
	int dup_fd = dup(fd);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	bool ok = d != NULL;
	struct dirent *e;
	while (ok && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		_cleanup_free_ char *full = xconcat(dir, "/", e->d_name, (char *)NULL);
		if (!start) {
			strv_push(v, full);
			continue;
		}
		bool known = false;
		for (size_t i = 0; i < start->n && !known; i++)
			known = strcmp(start->v[i], full) == 0;
		if (known || strstr(e->d_name, ".kjail-moved-aside."))
			continue;
		uint64_t rnd = 0;
		_cleanup_free_ char *aside = NULL;
		if (getrandom(&rnd, sizeof rnd, 0) == sizeof rnd) {
			aside = xasprintf("%s.kjail-moved-aside.%016llx", e->d_name,
					  (unsigned long long)rnd);
			if (renameat2(fd, e->d_name, fd, aside, RENAME_NOREPLACE) == 0) {
				warn_msg("%s: new in a directory that takes no new entry: moved aside "
					 "to %s", full, aside);
				continue;
			}
		}
		warn_msg("%s: new in a directory that takes no new entry, and cannot be moved "
			 "aside: %s; delete it", full, strerror(errno));
		ok = false;
	}
	if (d)
		closedir(d);
	close(fd);
	return ok;
}

void ll_snapshot_take(const struct plan *pl, const char *state, struct ll_snapshot *s)
{
	*s = (struct ll_snapshot){ .dir = xconcat(state, "/protected", (char *)NULL),
				   .sealed = STRV_INIT, .pins = STRV_INIT };
	/* a fresh directory: what a run before left is not trusted */
	char err[512];
	if (!tree_remove_at(AT_FDCWD, s->dir, s->dir, err, sizeof err))
		die("cannot remove the protected names' old copies: %s", err);
	if (mkdir(s->dir, 0700) < 0)
		die_errno("cannot make %s", s->dir);
	int to = open(s->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (to < 0)
		die_errno("cannot open %s", s->dir);
	s->paths = xreallocarray(NULL, pl->nops + 1, sizeof *s->paths);
	for (size_t i = 0; i < pl->nops; i++) {
		if (!protected_here(&pl->ops[i]))
			continue;
		const char *path = pl->ops[i].path, *name;
		int from = open_parent(path, &name);
		if (from < 0 && (errno == ENOENT))
			continue;
		struct stat st;
		if (from >= 0 && fstatat(from, name, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT) {
			close(from);
			continue;
		}
		char key[32];
		snprintf(key, sizeof key, "%zu", s->n);
		if (from < 0 || mkdirat(to, key, 0700) < 0)
			die_errno("cannot copy the protected name %s", path);
		int kd = openat(to, key, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (kd < 0 || !copy_at(from, name, kd, 0))
			die_errno("cannot copy the protected name %s (--backend landlock restores it "
				  "after the run from that copy)", path);
		close(kd);
		close(from);
		s->paths[s->n++] = xstrdup(path);
	}
	close(to);
	for (size_t i = 0; i < pl->nops; i++) {
		const struct op *o = &pl->ops[i];
		struct stat st;
		if (o->kind == OP_SEAL)
			seal_walk(o->path, &s->sealed, NULL);
		if ((o->kind == OP_PIN || o->kind == OP_SEAL) && lstat(o->path, &st) == 0)
			strv_pushf(&s->pins, "%llu:%llu:%s", (unsigned long long)st.st_dev,
				   (unsigned long long)st.st_ino, o->path);
	}
}

static bool restore_one(int copies, size_t k, const char *path, struct notice *n)
{
	(void)n;
	char key[32];
	snprintf(key, sizeof key, "%zu", k);
	const char *name;
	int parent = open_parent_at(path, &name, true);
	if (parent < 0) {
		warn_msg("%s: cannot restore the protected name: a directory on its way is gone or "
			 "no longer one (%s); its copy is in the cache", path, strerror(errno));
		return false;
	}
	int kd = openat(copies, key, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	bool ok = kd >= 0;
	if (ok && same_at(parent, name, kd, name, 0)) {
		close(kd);
		close(parent);
		return true;
	}
	_cleanup_free_ char *aside = NULL;
	struct stat st;
	if (ok && fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		uint64_t rnd = 0;
		if (getrandom(&rnd, sizeof rnd, 0) != sizeof rnd)
			ok = false;
		aside = xasprintf("%s.kjail-moved-aside.%016llx", name, (unsigned long long)rnd);
		ok = ok && renameat2(parent, name, parent, aside, RENAME_NOREPLACE) == 0;
	}
	ok = ok && copy_at(kd, name, parent, 0);
	if (!ok)
		warn_msg("%s: cannot restore the protected name: %s", path, strerror(errno));
	else if (aside)
		warn_msg("%s: protected name changed during the run: restored; the jail's version "
			 "moved aside to %s", path, aside);
	else
		warn_msg("%s: protected name removed during the run: restored", path);
	if (kd >= 0)
		close(kd);
	close(parent);
	return ok;
}

bool ll_snapshot_restore(const struct plan *pl, const struct ll_snapshot *s, struct notice *n)
{
	int copies = open(s->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (copies < 0) {
		warn_msg("%s: cannot open the protected names' copies: %s", s->dir, strerror(errno));
		return false;
	}
	bool ok = true;
	for (size_t k = 0; k < s->n; k++)
		ok &= restore_one(copies, k, s->paths[k], n);
	close(copies);
	for (size_t i = 0; i < pl->nops; i++)
		if (pl->ops[i].kind == OP_SEAL)
			ok &= seal_walk(pl->ops[i].path, NULL, &s->sealed);
	/* a pinned directory renamed away and made again: what it held is
	 * elsewhere now (the protected names in it were restored above) */
	for (size_t i = 0; i < s->pins.n; i++) {
		unsigned long long dev, ino;
		int off = 0;
		if (sscanf(s->pins.v[i], "%llu:%llu:%n", &dev, &ino, &off) != 2 || !off)
			continue;
		const char *path = s->pins.v[i] + off;
		struct stat st;
		if (lstat(path, &st) != 0 || st.st_dev != dev || st.st_ino != ino)
			warn_msg("%s: renamed away or replaced during the run (bwrap would have "
				 "pinned it); its protected names were restored, what else it held "
				 "may be elsewhere in the workspace", path);
	}
	return ok;
}

void ll_snapshot_free(struct ll_snapshot *s)
{
	strv_free(&s->sealed);
	strv_free(&s->pins);
	for (size_t k = 0; k < s->n; k++)
		free(s->paths[k]);
	free(s->paths);
	free(s->dir);
}
