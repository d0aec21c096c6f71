/* SPDX-License-Identifier: MIT */
/* Protecting one path inside a writable root: bound read-only with its
 * ancestors pinned; absent, made first or reserved, as its row's kind
 * (protected.h) says. */
#include "config.h"
#include "planner/internal.h"
#include "planner/protect-path.h"
#include "planner/tools.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

enum protect_act protect_act_of(enum protect_kind k, bool may_make, bool wtc)
{
	switch (k) {
	case PROTECT_IF_PRESENT:
		return ACT_IF_PRESENT;
	case PROTECT_IF_FILE:
		return ACT_IF_FILE;
	case PROTECT_CREATE_DIR:
		return may_make ? ACT_MAKE_DIR : ACT_RESERVE;
	case PROTECT_MAKE_FILE:
		return wtc ? ACT_MAKE_FILE : ACT_RESERVE;
	case PROTECT_RESERVE:
		break;
	}
	return ACT_RESERVE;
}

/* An absent name the jail may make: after the run, one it made is renamed
 * aside, with a warning naming where it went (aftercare.h). */
static void reserve(struct builder *b, const char *p, const char *why)
{
	entry_add(&b->pl->unguarded, p, why);
}

/* Makes the absent p as act says, so it can be bound read-only rather than
 * made (and filled) inside the jail; false when it is reserved instead. */
static bool make_absent(struct builder *b, const char *rel, const char *why,
			enum protect_act act, const char *p)
{
	bool made = false;
	if (act == ACT_MAKE_FILE) {
		/* an empty config reads as no setting at all */
		made = b->h->dry_run || make_empty_file(p);
	} else if (act == ACT_MAKE_DIR) {
		/* git makes its hooks directory 0755; config directories stay private */
		mode_t mode = str_has_prefix(rel, ".git/") ? 0755 : 0700;
		made = b->h->dry_run || make_dirs(p, mode);
	}
	if (!made) {
		reserve(b, p, why);
		return false;
	}
	listings_forget(b);
	entry_add(&b->pl->created, p, why);
	return true;
}

void protect_kind(struct builder *b, const char *root, const char *rel, const char *why,
		  enum protect_act act, const char *p, enum kind k)
{
	if (act == ACT_IF_FILE && k != K_FILE)
		return;
	if (k == K_LINK) {
		/* A symlink cannot be a mount point; its target is what matters and
		 * is handled where it lives. The name itself stays replaceable. */
		_cleanup_free_ char *origin = xconcat("built-in protection inside writable ", root, NULL);
		skip(b, p, "symlink, cannot be pinned", origin);
		return;
	}
	if (k == K_MISSING && (act == ACT_IF_PRESENT || !make_absent(b, rel, why, act, p)))
		return;
	/* most names are absent: their strings are made only for those there */
	_cleanup_free_ char *origin = xconcat("built-in protection inside writable ", root, NULL);
	_cleanup_free_ char *rule = xconcat("protected: ", why, NULL);
	cand_add(b->pl, &b->protects, OP_PROTECT, p, rule, origin);
	pin_ancestors(b, root, p);
}

void protect(struct builder *b, const char *root, const char *rel, const char *why,
	     enum protect_act act)
{
	_cleanup_free_ char *p = path_join(root, rel);
	protect_kind(b, root, rel, why, act, p, kind_in(b, p, false));
}

void watch_dir(struct builder *b, const char *root, const char *dir, const char *why)
{
	enum kind k = kind_in(b, dir, false);
	if (k == K_MISSING) {
		reserve(b, dir, why);
		return;
	}
	if (k != K_DIR)
		return; /* a link or a file: git finds no repositories in it */
	cand_add(b->pl, &b->pins, OP_PIN, dir, "pinned: its new entries are moved aside after the run",
		 "built-in protection");
	pin_ancestors(b, root, dir);
	entry_add(&b->pl->watched, dir, why);
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e = readdir(d); e; e = readdir(d))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			strv_take(&b->pl->watched_present, xconcat(dir, "/", e->d_name, (char *)NULL));
	closedir(d);
}

void seal_dir(struct builder *b, const char *root, const char *dir, const char *why)
{
	enum kind k = kind_in(b, dir, false);
	if (k == K_MISSING) {
		reserve(b, dir, why);
		return;
	}
	if (k != K_DIR)
		return; /* a link or a file: git finds no worktrees in it */
	_cleanup_free_ char *rule = xconcat("sealed: ", why, (char *)NULL);
	cand_add(b->pl, &b->pins, OP_SEAL, dir, rule, "built-in protection");
	pin_ancestors(b, root, dir);
}

void protect_at(struct builder *b, const char *real, const char *why, enum protect_act act)
{
	for (size_t r = 0; real && r < b->roots.n; r++) {
		const char *rel = path_relative_to(real, b->roots.v[r].path);
		if (rel && rel[0]) {
			protect(b, b->roots.v[r].path, rel, why, act);
			return;
		}
	}
}
