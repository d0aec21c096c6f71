/* SPDX-License-Identifier: MIT */
/* kjail --cache-list and --cache-prune (caches.h). */
#include "config.h"
#include "run/caches.h"
#include "run/tree.h"
#include "entry/abi.h"
#include "policy/cache.h"
#include "path.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* what an interrupted prune left: the directory renamed, not yet gone */
#define PRUNING ".prune."

bool cache_days_parse(const char *s, unsigned *days)
{
	unsigned long v = 0;
	if (!s || !s[0] || strlen(s) > 5)
		return false;
	for (const char *c = s; *c; c++) {
		if (*c < '0' || *c > '9')
			return false;
		v = v * 10 + (unsigned long)(*c - '0');
	}
	if (v > CACHE_PRUNE_DAYS_MAX)
		return false;
	*days = (unsigned)v;
	return true;
}

char *cache_record_parse(const char *text, size_t len, const char *key)
{
	if (len < 2 || len > PATH_MAX || text[0] != '/' || text[len - 1] != '\n')
		return NULL;
	for (size_t i = 0; i + 1 < len; i++)
		if ((unsigned char)text[i] < 0x20 || text[i] == 0x7f)
			return NULL;
	char *ws = xstrndup(text, len - 1);
	_cleanup_free_ char *k = cache_key(ws);
	if (strcmp(k, key) != 0) {
		free(ws);
		return NULL;
	}
	return ws;
}

const char *cache_prune_why(time_t last_use, time_t now, unsigned days, bool gone, char *buf,
			    size_t len)
{
	if (gone) {
		fmt_into(buf, len, "workspace gone");
		return buf;
	}
	/* a time ahead of now (a clock set back) is no age */
	if (last_use > now || (uint64_t)(now - last_use) < (uint64_t)days * 86400)
		return NULL;
	fmt_into(buf, len, "unused for %llu days", (unsigned long long)((now - last_use) / 86400));
	return buf;
}

void cache_size_text(uint64_t bytes, bool partial, char *buf, size_t len)
{
	static const char units[] = "KMGTPE";
	const char *more = partial ? ">" : "";
	if (bytes < 1024) {
		fmt_into(buf, len, "%s%lluB", more, (unsigned long long)bytes);
		return;
	}
	double v = (double)bytes / 1024;
	size_t u = 0;
	while (v >= 1024 && units[u + 1]) {
		v /= 1024;
		u++;
	}
	if (v < 10)
		fmt_into(buf, len, "%s%.1f%c", more, v, units[u]);
	else
		fmt_into(buf, len, "%s%.0f%c", more, v, units[u]);
}

/* The workspace's path as written: a control character or backslash in a
 * directory's name is escaped, so no name can move the terminal. */
static void put_path(FILE *out, const char *p)
{
	for (const unsigned char *c = (const unsigned char *)p; *c; c++) {
		if (*c < 0x20 || *c == 0x7f || *c == '\\')
			fprintf(out, "\\x%02x", *c);
		else
			fputc(*c, out);
	}
}

enum ws_state { WS_THERE, WS_GONE, WS_UNKNOWN };

struct cache_entry {
	char *name;            /* under the root: a key, or PRUNING KEY */
	char *workspace;       /* from its record, or NULL */
	enum ws_state ws;
	time_t last_use;
	uint64_t bytes;
	bool partial;
	bool leftover;         /* PRUNING KEY */
};

struct root {
	int fd;                /* HOME/CACHE_WS_ROOT */
	int used;              /* its CACHE_USED, or -1 */
	char *shown;           /* HOME/CACHE_WS_ROOT */
	unsigned uid;
	int status;
};

/* The record of name (caches.h), when kjail wrote it: the workspace and
 * the record's time. */
static char *read_record(const struct root *r, const char *name, time_t *when)
{
	if (r->used < 0)
		return NULL;
	int fd = openat(r->used, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == r->uid)
		text = read_fd_capped(fd, PATH_MAX, &len);
	close(fd);
	char *ws = text ? cache_record_parse(text, len, name) : NULL;
	if (ws)
		*when = st.st_mtime;
	return ws;
}

static enum ws_state workspace_state(const char *ws)
{
	struct stat st;
	if (stat(ws, &st) == 0)
		return S_ISDIR(st.st_mode) ? WS_THERE : WS_GONE;
	return errno == ENOENT || errno == ENOTDIR ? WS_GONE : WS_UNKNOWN;
}

/* One entry of the root: a cache kjail made (a directory of the account's,
 * not a link), else a warning and nothing more. */
static bool read_entry(struct root *r, const char *name, struct cache_entry *e)
{
	memset(e, 0, sizeof *e);
	if (strcmp(name, CACHE_USED) == 0)
		return false;
	bool leftover = str_has_prefix(name, PRUNING) && name[strlen(PRUNING)];
	struct stat st;
	/* KEY.landlock: --backend landlock's state beside cache KEY, pruned
	 * with it; without it, a leftover */
	size_t n = strlen(name), sfx = strlen(LL_STATE_SUFFIX);
	if (n > sfx && strcmp(name + n - sfx, LL_STATE_SUFFIX) == 0 && name[0] != '.') {
		_cleanup_free_ char *key = xstrndup(name, n - sfx);
		if (fstatat(r->fd, key, &st, AT_SYMLINK_NOFOLLOW) == 0)
			return false;
		leftover = true;
	}
	if (fstatat(r->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT) {
			warn_msg("%s/%s: %s", r->shown, name, strerror(errno));
			r->status = KJ_EXIT_FAIL;
		}
		return false;
	}
	const char *what = S_ISLNK(st.st_mode)	 ? "a symbolic link"
			   : !S_ISDIR(st.st_mode) ? "not a directory"
			   : st.st_uid != r->uid  ? "someone else's"
			   : name[0] == '.' && !leftover ? "a name no cache has"
							   : NULL;
	if (what) {
		warn_msg("warning: %s/%s: %s, not a cache kjail made: left alone (kjail follows no link "
			 "there); remove it yourself if it is not yours", r->shown, name, what);
		return false;
	}
	e->name = xstrdup(name);
	e->leftover = leftover;
	e->last_use = st.st_mtime;
	e->workspace = leftover ? NULL : read_record(r, name, &e->last_use);
	e->ws = e->workspace ? workspace_state(e->workspace) : WS_UNKNOWN;
	e->partial = !tree_size_at(r->fd, name, &e->bytes);
	return true;
}

static int newest_first(const void *a, const void *b)
{
	const struct cache_entry *x = a, *y = b;
	if (x->last_use != y->last_use)
		return x->last_use < y->last_use ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Every cache of the root, newest first. */
static struct cache_entry *read_caches(struct root *r, size_t *n)
{
	*n = 0;
	int dup_fd = fcntl(r->fd, F_DUPFD_CLOEXEC, 3);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		warn_msg("%s: %s", r->shown, strerror(errno));
		r->status = KJ_EXIT_FAIL;
		return NULL;
	}
	struct cache_entry *v = NULL;
	size_t cap = 0;
	for (struct dirent *de = readdir(d); de; de = readdir(d)) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		struct cache_entry e;
		if (!read_entry(r, de->d_name, &e))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[(*n)++] = e;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof *v, newest_first);
	return v;
}

/* SIZE  LAST-USE  WORKSPACE, as --cache-list and --cache-prune write it */
static void put_line(FILE *out, const struct root *r, const struct cache_entry *e,
		     const char *prefix, const char *why)
{
	char size[32], when[32] = "-";
	cache_size_text(e->bytes, e->partial, size, sizeof size);
	struct tm tm;
	if (!e->leftover && localtime_r(&e->last_use, &tm))
		strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
	fprintf(out, "%s%6s  %-16s  ", prefix, size, when);
	if (e->workspace)
		put_path(out, e->workspace);
	else
		fprintf(out, "(%s) %s/%s", e->leftover ? "left by an interrupted --cache-prune"
						       : "workspace unknown: no record",
			r->shown, e->name);
	if (why)
		fprintf(out, " (%s)", why);
	fputc('\n', out);
}

/* Renamed first, so a jail starting meanwhile makes a fresh directory
 * rather than bind one half removed; then its record, then the tree. */
static void prune_one(FILE *out, struct root *r, const struct cache_entry *e, const char *why)
{
	_cleanup_free_ char *gone = e->leftover ? xstrdup(e->name)
						: xconcat(PRUNING, e->name, (char *)NULL);
	_cleanup_free_ char *shown = xconcat(r->shown, "/", gone, (char *)NULL);
	char err[512];
	if (!e->leftover) {
		/* one an earlier prune left under that name goes first */
		if (!tree_remove_at(r->fd, gone, shown, err, sizeof err)) {
			warn_msg("cannot remove %s: %s; remove it with rm -rf", shown, err);
			r->status = KJ_EXIT_FAIL;
			return;
		}
		if (renameat(r->fd, e->name, r->fd, gone) < 0) {
			warn_msg("cannot remove the cache %s/%s: %s", r->shown, e->name,
				 strerror(errno));
			r->status = KJ_EXIT_FAIL;
			return;
		}
		if (r->used >= 0)
			(void)unlinkat(r->used, e->name, 0);
		/* --backend landlock's state beside it */
		_cleanup_free_ char *state = xconcat(e->name, LL_STATE_SUFFIX, (char *)NULL);
		_cleanup_free_ char *state_shown = xconcat(r->shown, "/", state, (char *)NULL);
		if (!tree_remove_at(r->fd, state, state_shown, err, sizeof err)) {
			warn_msg("cannot remove %s: %s; remove it with rm -rf", state_shown, err);
			r->status = KJ_EXIT_FAIL;
		}
	}
	if (!tree_remove_at(r->fd, gone, shown, err, sizeof err)) {
		warn_msg("cannot remove the cache %s: %s; remove it with rm -rf", shown, err);
		r->status = KJ_EXIT_FAIL;
		return;
	}
	put_line(out, r, e, "removed ", why);
}

/* Records whose cache is gone (removed by hand): removed too. */
static void prune_orphan_records(struct root *r)
{
	if (r->used < 0)
		return;
	int dup_fd = fcntl(r->used, F_DUPFD_CLOEXEC, 3);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return;
	}
	for (struct dirent *de = readdir(d); de; de = readdir(d)) {
		struct stat st;
		if (de->d_name[0] == '.' ||
		    fstatat(r->fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT)
			continue;
		(void)unlinkat(r->used, de->d_name, 0);
	}
	closedir(d);
}

int caches_main(bool prune, const char *days_arg, const char *home, unsigned uid, FILE *out)
{
	unsigned days = CACHE_PRUNE_DAYS;
	if (prune && days_arg && !cache_days_parse(days_arg, &days))
		die("--cache-prune=%s: DAYS must be a whole number of days, 0 to %u (0: every "
		    "cache; --cache-prune alone: %u)", days_arg, CACHE_PRUNE_DAYS_MAX,
		    CACHE_PRUNE_DAYS);
	if (!home || home[0] != '/')
		die("no home directory for uid %u in the password database, so no caches", uid);
	_cleanup_free_ char *real = path_resolve(home, "/");
	if (!real)
		return 0; /* no home: no cache was ever made */
	char err[512];
	int fd;
	switch (cache_dir_fd(real, CACHE_WS_ROOT, uid, &fd, err, sizeof err)) {
	case CACHE_DIR_REFUSED:
		die("%s", err);
	case CACHE_DIR_UNAVAILABLE:
		return 0;
	case CACHE_DIR_OK:
		break;
	}
	if (fd < 0)
		return 0;
	struct root r = { .fd = fd, .uid = uid, .status = 0 };
	r.shown = xconcat(real, "/" CACHE_WS_ROOT, (char *)NULL);
	r.used = openat(fd, CACHE_USED, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (r.used >= 0 && (fstat(r.used, &st) < 0 || st.st_uid != uid)) {
		close(r.used);
		r.used = -1;
	}
	size_t n;
	struct cache_entry *v = read_caches(&r, &n);
	time_t now = time(NULL);
	for (size_t i = 0; i < n; i++) {
		const struct cache_entry *e = &v[i];
		char buf[64];
		const char *why = e->leftover ? "left by an interrupted --cache-prune"
					      : cache_prune_why(e->last_use, now, days,
								e->ws == WS_GONE, buf, sizeof buf);
		if (!prune)
			put_line(out, &r, e, "", e->ws == WS_GONE ? "workspace gone" : NULL);
		else if (why)
			prune_one(out, &r, e, e->leftover ? NULL : why);
		free(e->name);
		free(e->workspace);
	}
	free(v);
	if (prune)
		prune_orphan_records(&r);
	if (r.used >= 0)
		close(r.used);
	close(r.fd);
	free(r.shown);
	if (fflush(out) != 0 || ferror(out)) {
		warn_msg("cannot write the list: %s", strerror(errno));
		r.status = KJ_EXIT_FAIL;
	}
	return r.status;
}
