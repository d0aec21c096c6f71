/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "aftercare.h"
#include "path.h"
#include "strv.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The writable root that holds path (the jail could not rename a root: it
 * is a mount point there), and path relative to it. */
static const char *root_of(const struct plan *pl, const char *path, const char **rel)
{
	for (size_t i = 0; i < pl->nops; i++) {
		if (pl->ops[i].kind != OP_BIND)
			continue;
		const char *r = path_relative_to(path, pl->ops[i].path);
		if (r && r[0]) {
			*rel = r;
			return pl->ops[i].path;
		}
	}
	return NULL;
}

enum found { FOUND_NONE, FOUND_NAME, FOUND_LINK };

/* REL under the writable root open on ROOT as the jail left it, one
 * component at a time, following no symlink (a symlink the jail made on the
 * way would otherwise send kjail's rename to a file outside the workspace).
 * FOUND_NAME: the name itself exists, of any type; FOUND_LINK: a component
 * above it is a symlink, which git would follow. For both, *dir is the
 * directory holding that component (ROOT itself, or an O_PATH descriptor
 * the caller closes) and *len the length of REL up to its end. FOUND_NONE:
 * nothing is there, or a component above it is not a directory, so nothing
 * resolves. */
static enum found find_nofollow(int root, const char *rel, int *dir, size_t *len)
{
	int d = root;
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
		bool last = rel[at + strspn(rel + at, "/")] == '\0';
		struct stat st;
		if (last) {
			if (fstatat(d, comp, &st, AT_SYMLINK_NOFOLLOW) != 0)
				break;
			*dir = d;
			*len = at;
			return FOUND_NAME;
		}
		/* a directory above it: opened straight away (no symlink opens
		 * with O_DIRECTORY | O_NOFOLLOW); only when that says "not a
		 * directory" is it looked at, to tell a symlink from a file */
		int next = openat(d, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			if (errno == ENOTDIR && fstatat(d, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode)) {
				*dir = d;
				*len = at;
				return FOUND_LINK;
			}
			break;
		}
		if (d != root)
			close(d);
		d = next;
	}
	if (d != root)
		close(d);
	return FOUND_NONE;
}

/* Renames what was found (the name itself, or the symlink the jail put on
 * the way to it: the component at rel[0..len) under dir) aside, and says
 * so in one line. */
static void move_aside(const char *root, const char *p, const char *why, const char *rel,
		       size_t len, int dir, enum found f)
{
	_cleanup_free_ char *relp = xstrndup(rel, len);
	_cleanup_free_ char *found = path_join(root, relp);
	const char *base = strrchr(relp, '/') ? strrchr(relp, '/') + 1 : relp;
	const char *what = f == FOUND_LINK ? "a symlink on the way to " : "";
	char aside[NAME_MAX + 1];
	int n = snprintf(aside, sizeof aside, "%s.kjail-moved-aside.%ld", base, (long)getpid());
	bool moved = false;
	if (n < 0 || (size_t)n >= sizeof aside)
		errno = ENAMETOOLONG;
	else
		moved = renameat(dir, base, dir, aside) == 0;
	if (moved)
		warn_msg("warning: the jail created %s%s (%s); moved aside to %s.kjail-moved-aside.%ld, "
			 "so that nothing outside the jail trusts it: review it before you put it back",
			 what, f == FOUND_LINK ? p : found, why, found, (long)getpid());
	else
		warn_msg("warning: the jail created %s%s (%s) and it could not be moved aside (%s): "
			 "review it, or remove it, before anything outside the jail reads it",
			 what, f == FOUND_LINK ? p : found, why, strerror(errno));
}

/* The entries of a watched directory that were not there at the start:
 * each renamed aside. The directory was pinned (a mount point the jail
 * could not rename or replace); it is still opened from its writable
 * root without following a link. */
static void move_new_entries(const struct plan *pl, const char *dir, const char *why)
{
	const char *rel;
	const char *root = root_of(pl, dir, &rel);
	if (!root)
		return;
	int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return;
	int parent;
	size_t len;
	if (find_nofollow(rootfd, rel, &parent, &len) == FOUND_NAME) {
		const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
		int fd = openat(parent, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
		if (!d && fd >= 0)
			close(fd);
		struct strv added = STRV_INIT;
		for (struct dirent *e = d ? readdir(d) : NULL; e; e = readdir(d)) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			_cleanup_free_ char *p = xconcat(dir, "/", e->d_name, (char *)NULL);
			if (strv_find(&pl->watched_present, p) < 0)
				strv_push(&added, e->d_name);
		}
		for (size_t i = 0; i < added.n; i++) {
			_cleanup_free_ char *p = xconcat(dir, "/", added.v[i], (char *)NULL);
			_cleanup_free_ char *r = xconcat(rel, "/", added.v[i], (char *)NULL);
			move_aside(root, p, why, r, strlen(r), dirfd(d), FOUND_NAME);
		}
		strv_free(&added);
		if (d)
			closedir(d);
		if (parent != rootfd)
			close(parent);
	}
	close(rootfd);
}

/* Consecutive names under the same writable root share one descriptor of
 * it, and one read of it tells which first components are there at all. */
void aftercare_move_aside(const struct plan *pl)
{
	for (size_t i = 0; i < pl->watched.n; i++)
		move_new_entries(pl, pl->watched.v[i].value, pl->watched.v[i].origin);
	enum { RUN_MAX = 128 };
	const char *open_root = NULL;
	int rootfd = -1;
	bool present[RUN_MAX], scanned = false;
	size_t run_start = 0, run_len = 0;
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
			rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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
			scanned = rootfd >= 0 && dir_names_present(rootfd, first, len, run_len, present);
		}
		if (scanned && i - run_start < run_len && !present[i - run_start])
			continue; /* nothing of it is there */
		/* one name can be listed twice over (the home directory and
		 * $XDG_CONFIG_HOME naming the same one): moved once */
		bool told = false;
		for (size_t j = 0; j < i && !told; j++)
			told = strcmp(pl->unguarded.v[j].value, p) == 0;
		int dir;
		size_t len;
		enum found f = rootfd >= 0 && !told ? find_nofollow(rootfd, rel, &dir, &len) : FOUND_NONE;
		if (f == FOUND_NONE)
			continue;
		move_aside(root, p, why, rel, len, dir, f);
		if (dir != rootfd)
			close(dir);
	}
	if (rootfd >= 0)
		close(rootfd);
}
