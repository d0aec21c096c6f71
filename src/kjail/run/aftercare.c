/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "run/aftercare.h"
#include "entry/abi.h"
#include "path.h"
#include "strv.h"
#include "util.h"

#ifdef KJ_OS_LINUX
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* The outermost writable root that holds path, and path relative to it.
 * The jail can rename nothing of a root's own path (the root is a mount
 * point there), but an inner root lies in an outer one, whose directories
 * it can swap for a symlink: the walk starts from the outermost. */
static const char *root_of(const struct plan *pl, const char *path, const char **rel)
{
	const char *root = NULL;
	for (size_t i = 0; i < pl->nops; i++) {
		if (pl->ops[i].kind != OP_BIND)
			continue;
		const char *r = path_relative_to(path, pl->ops[i].path);
		if (r && r[0] && (!root || strlen(pl->ops[i].path) < strlen(root))) {
			*rel = r;
			root = pl->ops[i].path;
		}
	}
	return root;
}

enum { GRANTS_MAX = 64 };

/* Directories the jail took the owner's search or write permission from
 * (kjail runs as the same user, so it can give them back), with the modes
 * the jail left, to put back once the rename is done. */
struct grants {
	int fd[GRANTS_MAX];
	mode_t was[GRANTS_MAX];
	size_t n;
};

/* chmod of the directory open on fd, an O_PATH descriptor (fchmod refuses
 * those): through its /proc/self/fd link, which leads to that directory
 * whatever its path holds now. */
static int chmod_fd(int fd, mode_t mode)
{
	char link[32];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	return chmod(link, mode);
}

/* Gives the owner the permission bits it lacks of bits on the directory
 * open on fd; false when it had them all, or they cannot be given. */
static bool grant(struct grants *g, int fd, mode_t bits)
{
	struct stat st;
	if (g->n == GRANTS_MAX || fstat(fd, &st) != 0 || (st.st_mode & bits) == bits)
		return false;
	int keep = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (keep < 0)
		return false;
	if (chmod_fd(keep, (st.st_mode & 07777) | bits) != 0) {
		close(keep);
		return false;
	}
	g->fd[g->n] = keep;
	g->was[g->n++] = st.st_mode & 07777;
	return true;
}

/* The modes back, last given first: a directory given search, then write,
 * ends as the jail left it. */
static void grants_undo(struct grants *g)
{
	while (g->n > 0) {
		g->n--;
		(void)chmod_fd(g->fd[g->n], g->was[g->n]);
		close(g->fd[g->n]);
	}
}

/* The directory comp in d (O_PATH, never through a symlink); once more
 * after giving the owner search permission on d if that was refused. */
static int open_dir_in(int d, const char *comp, struct grants *g)
{
	int fd = openat(d, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == EACCES) {
		if (!grant(g, d, S_IXUSR)) {
			errno = EACCES;
			return -1;
		}
		fd = openat(d, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	return fd;
}

/* lstat of comp in d, the same way. */
static int lstat_in(int d, const char *comp, struct stat *st, struct grants *g)
{
	int r = fstatat(d, comp, st, AT_SYMLINK_NOFOLLOW);
	if (r != 0 && errno == EACCES) {
		if (!grant(g, d, S_IXUSR)) {
			errno = EACCES;
			return -1;
		}
		r = fstatat(d, comp, st, AT_SYMLINK_NOFOLLOW);
	}
	return r;
}

enum found { FOUND_NONE, FOUND_NAME, FOUND_LINK, FOUND_ERROR };

/* REL under the writable root open on ROOT as the jail left it, one
 * component at a time, following no symlink (a symlink the jail made on the
 * way would otherwise send kjail's rename to a file outside the workspace).
 * FOUND_NAME: the name itself exists, of any type; FOUND_LINK: a component
 * above it is a symlink, which git would follow. For both, *dir is the
 * directory holding that component (ROOT itself, or an O_PATH descriptor
 * the caller closes) and *len the length of REL up to its end. FOUND_NONE:
 * nothing is there, or a component above it is not a directory, so nothing
 * resolves. FOUND_ERROR: kjail could not look (errno; *len up to where). */
static enum found find_nofollow(int root, const char *rel, int *dir, size_t *len,
				struct grants *g)
{
	int d = root, err = 0;
	char comp[NAME_MAX + 1];
	for (size_t at = 0;;) {
		while (rel[at] == '/')
			at++;
		size_t n = strcspn(rel + at, "/");
		if (n == 0 || n > NAME_MAX)
			break;
		memcpy(comp, rel + at, n);
		comp[n] = '\0';
		at += n;
		*len = at;
		bool last = rel[at + strspn(rel + at, "/")] == '\0';
		struct stat st;
		if (last) {
			if (lstat_in(d, comp, &st, g) != 0) {
				err = errno == ENOENT ? 0 : errno;
				break;
			}
			*dir = d;
			return FOUND_NAME;
		}
		/* a directory above it: opened straight away (no symlink opens
		 * with O_DIRECTORY | O_NOFOLLOW); only when that says "not a
		 * directory" is it looked at, to tell a symlink from a file */
		int next = open_dir_in(d, comp, g);
		if (next < 0) {
			err = errno == ENOENT ? 0 : errno;
			if ((err == ENOTDIR || err == ELOOP) && lstat_in(d, comp, &st, g) == 0) {
				err = 0;
				if (S_ISLNK(st.st_mode)) {
					*dir = d;
					return FOUND_LINK;
				}
			}
			break;
		}
		if (d != root)
			close(d);
		d = next;
	}
	if (d != root)
		close(d);
	errno = err;
	return err ? FOUND_ERROR : FOUND_NONE;
}

/* A name beside base that the jail could not have taken beforehand: base
 * (cut short to fit NAME_MAX), ".kjail-moved-aside.", 64 random bits. */
static bool aside_name(const char *base, char out[NAME_MAX + 1])
{
	static const char suffix[] = ".kjail-moved-aside.";
	uint64_t r;
	ssize_t got;
	while ((got = getrandom(&r, sizeof r, 0)) < 0 && errno == EINTR)
		;
	if (got != (ssize_t)sizeof r)
		return false;
	size_t keep = strlen(base), room = NAME_MAX - (sizeof suffix - 1) - 16;
	snprintf(out, NAME_MAX + 1, "%.*s%s%016llx", (int)(keep < room ? keep : room), base,
		 suffix, (unsigned long long)r);
	return true;
}

/* renameat2's RENAME_NOREPLACE; where the file system does not take it
 * (EINVAL), a plain rename to a name nothing holds: no process of the jail
 * is left to take it in between. */
static int rename_noreplace(int dir, const char *from, const char *to)
{
	if (renameat2(dir, from, dir, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL)
		return -1;
	struct stat st;
	if (fstatat(dir, to, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		errno = EEXIST;
		return -1;
	}
	return errno == ENOENT ? renameat(dir, from, dir, to) : -1;
}

/* base in dir renamed to a new name beside it (in aside), never over
 * anything; once more after giving the owner write and search permission
 * on dir if the rename was refused. 0, or -1 and errno. */
static int rename_aside(int dir, const char *base, char aside[NAME_MAX + 1], struct grants *g)
{
	bool granted = false;
	for (int tries = 0; tries < 16; tries++) {
		if (!aside_name(base, aside))
			return -1;
		if (rename_noreplace(dir, base, aside) == 0)
			return 0;
		if (errno == EEXIST)
			continue;
		if ((errno == EACCES || errno == EPERM) && !granted) {
			int e = errno;
			granted = true;
			if (grant(g, dir, S_IWUSR | S_IXUSR))
				continue;
			errno = e;
		}
		return -1;
	}
	errno = EEXIST;
	return -1;
}

/* Renames what was found (the name itself, or the symlink the jail put on
 * the way to it: the component at rel[0..len) under dir) aside, and says
 * so in one line; one it cannot goes to left. */
static void move_aside(const char *root, const char *p, const char *why, const char *rel,
		       size_t len, int dir, enum found f, struct grants *g, struct notice *n,
		       struct strv *left)
{
	_cleanup_free_ char *relp = xstrndup(rel, len);
	_cleanup_free_ char *found = path_join(root, relp);
	const char *base = strrchr(relp, '/') ? strrchr(relp, '/') + 1 : relp;
	const char *what = f == FOUND_LINK ? "a symlink on the way to " : "";
	char aside[NAME_MAX + 1];
	int r = rename_aside(dir, base, aside, g);
	int err = errno;
	grants_undo(g);
	if (r == 0)
		notice_warn(n, "warning: the jail created %s%s (%s); moved aside to %.*s%s, so that "
			       "nothing outside the jail trusts it: review it before you put it back",
			    what, f == FOUND_LINK ? p : found, why,
			    (int)(strlen(found) - strlen(base)), found, aside);
	else if (err != ENOENT) { /* ENOENT: gone already, nothing left to trust */
		notice_warn(n, "error: the jail created %s%s (%s) and kjail could not move it "
			       "aside (%s)",
			    what, f == FOUND_LINK ? p : found, why, strerror(err));
		strv_push(left, found);
	}
}

/* The entries of a watched directory that were not there at the start:
 * each renamed aside like a reserved name. The directory was pinned (a
 * mount point the jail could not rename or replace), but the jail may have
 * taken the owner's permissions on it or above it: given back for the
 * listing and the renames, then put back as the jail left them. One that
 * cannot be listed goes to left. */
static void move_new_entries(const struct plan *pl, const char *dir, const char *why,
			     struct notice *n, struct strv *left)
{
	const char *rel;
	const char *root = root_of(pl, dir, &rel);
	if (!root)
		return;
	struct grants g = { .n = 0 };
	int rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int parent = -1, at = -1;
	size_t len = 0;
	DIR *d = NULL;
	enum found f = rootfd >= 0 ? find_nofollow(rootfd, rel, &parent, &len, &g) : FOUND_ERROR;
	if (f == FOUND_NAME) {
		const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
		at = open_dir_in(parent, base, &g);
		if (at >= 0)
			(void)grant(&g, at, S_IRUSR | S_IXUSR);
		char link[32];
		snprintf(link, sizeof link, "/proc/self/fd/%d", at);
		int fd = at >= 0 ? open(link, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
		d = fd >= 0 ? fdopendir(fd) : NULL;
		if (!d && fd >= 0)
			close(fd);
	}
	if (f != FOUND_NONE && !d) {
		notice_warn(n, "error: kjail could not list %s (%s), where the jail may have "
			       "created something",
			    dir, why);
		strv_push(left, dir);
	}
	struct strv added = STRV_INIT;
	for (struct dirent *e = d ? readdir(d) : NULL; e; e = readdir(d)) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		_cleanup_free_ char *p = xconcat(dir, "/", e->d_name, (char *)NULL);
		if (strv_find(&pl->watched_present, p) < 0)
			strv_push(&added, e->d_name);
	}
	if (d)
		closedir(d);
	for (size_t i = 0; i < added.n; i++) {
		_cleanup_free_ char *p = xconcat(dir, "/", added.v[i], (char *)NULL);
		_cleanup_free_ char *r = xconcat(rel, "/", added.v[i], (char *)NULL);
		move_aside(root, p, why, r, strlen(r), at, FOUND_NAME, &g, n, left);
	}
	strv_free(&added);
	grants_undo(&g);
	if (at >= 0)
		close(at);
	if (parent >= 0 && parent != rootfd)
		close(parent);
	if (rootfd >= 0)
		close(rootfd);
}

/* The root of every workspace's cache in a writable root (plan.h): masked
 * and pinned in the jail, so the jail cannot have moved it away and made
 * another; checked all the same, with *at calls that follow no link from
 * the writable root: a directory there that is not the one kjail saw
 * before the run (another inode, owner or type), or a symlink on the way,
 * is moved aside like a planted name (kjail would bind what it holds into
 * the next jail of another workspace). Absent at the start, the name is
 * reserved (unguarded) and moved aside there. */
static void check_cache_root(const struct plan *pl, struct notice *n, struct strv *left)
{
	const char *p = pl->cache_root.path, *rel;
	const char *root = p && pl->cache_root.present ? root_of(pl, p, &rel) : NULL;
	if (!root)
		return;
	static const char why[] = "kjail's toolchain caches, not the directory kjail saw before "
				  "the run";
	struct grants g = { .n = 0 };
	int rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int dir = -1;
	size_t len = 0;
	enum found f = rootfd >= 0 ? find_nofollow(rootfd, rel, &dir, &len, &g) : FOUND_ERROR;
	struct stat st;
	const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
	if (f == FOUND_NAME && fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISDIR(st.st_mode) && (unsigned long long)st.st_dev == pl->cache_root.dev &&
	    (unsigned long long)st.st_ino == pl->cache_root.ino && st.st_uid == pl->cache_root.uid &&
	    (st.st_mode & 0777) == (pl->cache_root.mode & 0777))
		f = FOUND_NONE; /* the same directory */
	if (f == FOUND_ERROR) {
		notice_warn(n, "error: kjail could not check %s (%s): %s", p, why, strerror(errno));
		strv_push(left, p);
	} else if (f != FOUND_NONE) {
		move_aside(root, p, why, rel, len, dir, f, &g, n, left);
	}
	grants_undo(&g);
	if (dir >= 0 && dir != rootfd)
		close(dir);
	if (rootfd >= 0)
		close(rootfd);
}

/* The last line when something could not be moved aside: what to delete,
 * as a command, and why kjail's status is not the command's. */
static void tell_left(const struct strv *left, struct notice *n, int status)
{
	struct strv rm = STRV_INIT;
	strv_pushv(&rm, (const char *const[]){ "rm", "-rf", "--", NULL });
	for (size_t i = 0; i < left->n; i++)
		strv_push(&rm, left->v[i]);
	_cleanup_free_ char *line = strv_shell_line(&rm);
	strv_free(&rm);
	notice_warn(n, "error: delete what the jail created before git, an editor or a shell "
		       "outside the jail reads it: %s (the command exited %d; kjail exits %d)",
		    line, status, KJ_EXIT_FAIL);
}

/* Consecutive names under the same writable root share one descriptor of
 * it, and one read of it tells which first components are there at all. */
bool aftercare_move_aside(const struct plan *pl, struct notice *n, int status)
{
	enum { RUN_MAX = 128 };
	const char *open_root = NULL;
	int rootfd = -1, root_err = 0;
	bool present[RUN_MAX], scanned = false;
	size_t run_start = 0, run_len = 0;
	struct grants g = { .n = 0 };
	struct strv left = STRV_INIT;
	for (size_t i = 0; i < pl->watched.n; i++)
		move_new_entries(pl, pl->watched.v[i].value, pl->watched.v[i].origin, n, &left);
	check_cache_root(pl, n, &left);
	for (size_t i = 0; i < pl->unguarded.n; i++) {
		const char *p = pl->unguarded.v[i].value, *why = pl->unguarded.v[i].origin;
		const char *rel;
		const char *root = root_of(pl, p, &rel);
		if (!root)
			continue;
		if (root != open_root) {
			if (rootfd >= 0)
				close(rootfd);
			open_root = root;
			/* O_PATH: a root the jail made unreadable is still walked */
			rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
			root_err = errno;
			const char *first[RUN_MAX];
			size_t len[RUN_MAX];
			run_start = i;
			run_len = 0;
			for (size_t j = i; j < pl->unguarded.n && run_len < RUN_MAX; j++) {
				const char *r;
				if (root_of(pl, pl->unguarded.v[j].value, &r) != root)
					break;
				first[run_len] = r + strspn(r, "/");
				len[run_len++] = strcspn(r + strspn(r, "/"), "/");
			}
			int list = rootfd < 0 ? -1 : openat(rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			scanned = list >= 0 && dir_names_present(list, first, len, run_len, present);
			if (list >= 0)
				close(list);
		}
		if (scanned && i - run_start < run_len && !present[i - run_start])
			continue; /* nothing of it is there */
		/* one name can be listed twice over (the home directory and
		 * $XDG_CONFIG_HOME naming the same one): moved once */
		bool told = false;
		for (size_t j = 0; j < i && !told; j++)
			told = strcmp(pl->unguarded.v[j].value, p) == 0;
		if (told)
			continue;
		int dir = -1;
		size_t len = 0;
		enum found f = FOUND_ERROR;
		if (rootfd >= 0)
			f = find_nofollow(rootfd, rel, &dir, &len, &g);
		else
			errno = root_err;
		if (f == FOUND_ERROR) {
			notice_warn(n, "error: kjail could not look for %s (%s), which the jail may "
				       "have created: %s",
				    p, why, strerror(errno));
			strv_push(&left, p);
		} else if (f != FOUND_NONE) {
			move_aside(root, p, why, rel, len, dir, f, &g, n, &left);
		}
		grants_undo(&g);
		if (dir >= 0 && dir != rootfd)
			close(dir);
	}
	if (rootfd >= 0)
		close(rootfd);
	bool all = left.n == 0;
	if (!all)
		tell_left(&left, n, status);
	strv_free(&left);
	return all;
}
#endif
