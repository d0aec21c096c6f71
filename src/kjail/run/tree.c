/* SPDX-License-Identifier: MIT */
/* Measuring and removing a tree nothing in it may redirect (tree.h). */
#include "config.h"
#include "run/tree.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct walk {
	bool remove;
	dev_t dev;
	uint64_t bytes;
	const char *shown;
	char *err;
	size_t errlen;
	bool failed;
};

/* The first failure is the one said, the path inside last (a long one is
 * cut); the walk goes on where it can. */
KJ_PRINTF(3, 4) static void failed(struct walk *w, const char *rel, const char *fmt, ...)
{
	if (!w->failed) {
		char why[256];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, sizeof why, fmt, ap);
		va_end(ap);
		fmt_into(w->err, w->errlen, "%s: %s%s%s%s", w->shown, why, rel[0] ? " (at " : "",
			 rel, rel[0] ? ")" : "");
	}
	w->failed = true;
}

static void walk_dir(struct walk *w, int parent, const char *name, const char *rel, int depth);

/* A directory entry of the directory on fd, and all it holds: removed
 * when asked. */
static void walk_subdir(struct walk *w, int fd, const char *name, const char *rel, int depth)
{
	walk_dir(w, fd, name, rel, depth + 1);
	if (w->remove && unlinkat(fd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		failed(w, rel, "%s", strerror(errno));
}

/* One entry of the directory on fd: counted, and removed when asked. A
 * name swapped meanwhile for another kind (by a jail still running
 * there) is taken as it is then, once. */
static void walk_entry(struct walk *w, int fd, const char *name, const char *rel, int depth)
{
	struct stat st;
	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT) /* gone meanwhile: nothing to do */
			failed(w, rel, "%s", strerror(errno));
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		walk_subdir(w, fd, name, rel, depth);
		return;
	}
	w->bytes += (uint64_t)st.st_blocks * 512;
	if (!w->remove || unlinkat(fd, name, 0) == 0 || errno == ENOENT)
		return;
	if (errno == EISDIR) /* a directory now, where a file was */
		walk_subdir(w, fd, name, rel, depth);
	else
		failed(w, rel, "%s", strerror(errno));
}

static void walk_dir(struct walk *w, int parent, const char *name, const char *rel, int depth)
{
	if (depth > TREE_DEPTH_MAX) {
		failed(w, rel, "more than %d directories deep", TREE_DEPTH_MAX);
		return;
	}
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return;
		/* a link or a file now, where the directory was: removed as
		 * one, never followed */
		if ((errno == ELOOP || errno == ENOTDIR) && depth > 0 &&
		    (!w->remove || unlinkat(parent, name, 0) == 0 || errno == ENOENT))
			return;
		failed(w, rel, "%s", strerror(errno));
		return;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		failed(w, rel, "%s", strerror(errno));
		close(fd);
		return;
	}
	if (depth == 0)
		w->dev = st.st_dev;
	else if (st.st_dev != w->dev) {
		failed(w, rel, "another file system is mounted there; not entered");
		close(fd);
		return;
	}
	w->bytes += (uint64_t)st.st_blocks * 512;
	/* go makes its module cache read-only; its owner may change that */
	if (w->remove && (st.st_mode & S_IRWXU) != S_IRWXU)
		(void)fchmod(fd, (st.st_mode & 07777) | S_IRWXU);
	DIR *d = fdopendir(fd);
	if (!d) {
		failed(w, rel, "%s", strerror(errno));
		close(fd);
		return;
	}
	for (struct dirent *e = readdir(d); e; e = readdir(d)) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		_cleanup_free_ char *sub = rel[0] ? xconcat(rel, "/", e->d_name, (char *)NULL)
						  : xstrdup(e->d_name);
		walk_entry(w, dirfd(d), e->d_name, sub, depth);
	}
	closedir(d);
}

bool tree_size_at(int dirfd, const char *name, uint64_t *bytes)
{
	char err[1];
	struct walk w = { .shown = "", .err = err, .errlen = sizeof err };
	walk_dir(&w, dirfd, name, "", 0);
	*bytes = w.bytes;
	return !w.failed;
}

bool tree_remove_at(int dirfd, const char *name, const char *shown, char *err, size_t errlen)
{
	/* what a writer (a jail still running there) added meanwhile is
	 * missed by one pass: a few more */
	for (int pass = 0; pass < 3; pass++) {
		struct walk w = { .remove = true, .shown = shown, .err = err, .errlen = errlen };
		walk_dir(&w, dirfd, name, "", 0);
		if (w.failed)
			return false;
		if (unlinkat(dirfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
			return true;
		if (errno != ENOTEMPTY && errno != EEXIST) {
			fmt_into(err, errlen, "%s: %s", shown, strerror(errno));
			return false;
		}
	}
	fmt_into(err, errlen, "%s: something keeps writing into it (a jail still running there?)",
		 shown);
	return false;
}
