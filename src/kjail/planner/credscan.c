/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "planner/credscan.h"
#include "planner/masks.h"
#include "planner/tools.h"
#include "policy/credcache.h"
#include "policy/credfile.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define FUSE_SUPER_MAGIC 0x65735546

struct scan {
	struct builder *b;
	const char *home;
	struct credcache old, now;
	size_t files, entries;
	bool full;       /* the bound on entries was reached */
	bool unread;     /* the bound on files read was reached */
	char buf[CREDSCAN_FILE_MAX + 1];
};

/* Directories whose files are no tool's settings: caches, toolchains,
 * package stores, repositories, trash. */
static bool skipped_dir(const char *name, int depth)
{
	static const char *const anywhere[] = { "node_modules", ".git", "Cache", "cache",
						"Trash", "logs", "registry", NULL };
	static const char *const top[] = { ".cache", ".npm", ".rustup", ".nvm", ".pyenv",
					   ".rbenv", ".sdkman", ".cpan", ".gem", ".vscode-server",
					   ".cursor-server", ".local", ".var", ".wine", NULL };
	for (const char *const *n = anywhere; *n; n++)
		if (strcmp(name, *n) == 0)
			return true;
	for (const char *const *n = top; depth == 0 && *n; n++)
		if (strcmp(name, *n) == 0)
			return true;
	return false;
}

/* The user named this path, or a directory above it inside the home,
 * writable: theirs to expose (`-w ~/.claude`, the README's recipe). */
static bool user_named(struct scan *s, const char *path)
{
	const struct cand *r = covering(&s->b->roots, path);
	return r && !path_is_under(s->home, r->path);
}

static bool masked(struct scan *s, const char *path)
{
	return covering(&s->b->masks, path) != NULL;
}

static void found(struct scan *s, const char *path, const struct credcache_entry *e)
{
	_cleanup_free_ char *origin =
		e->key[0] ? xasprintf("found by content: key `%s`, line %zu (%s)", e->key, e->line,
				      e->why)
			  : xasprintf("found by content: line %zu (%s)", e->line, e->why);
	add_mask(s->b, path, origin);
}

/* Reads the file name in dir (st its lstat) unless the cache knows it. */
static void judge_file(struct scan *s, int dir, const char *name, const char *path,
		       const struct stat *st)
{
	if (st->st_size <= 0 || st->st_size > CREDSCAN_FILE_MAX || masked(s, path) ||
	    user_named(s, path))
		return;
	struct credcache_entry e = {
		.dev = (uint64_t)st->st_dev, .ino = (uint64_t)st->st_ino,
		.ctime_s = (uint64_t)st->st_ctim.tv_sec, .ctime_ns = (uint64_t)st->st_ctim.tv_nsec,
		.size = (uint64_t)st->st_size,
	};
	const struct credcache_entry *c =
		credcache_find(&s->old, e.dev, e.ino, e.ctime_s, e.ctime_ns, e.size);
	if (c) {
		e = *c;
	} else {
		if (s->files >= CREDSCAN_FILES) {
			s->unread = true;
			return;
		}
		s->files++;
		int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			return; /* not ours to read: nor the jail's */
		struct stat fst;
		size_t n = 0;
		if (fstat(fd, &fst) == 0 && S_ISREG(fst.st_mode) && fst.st_ino == st->st_ino) {
			for (;;) {
				ssize_t r = read(fd, s->buf + n, CREDSCAN_FILE_MAX - n);
				if (r < 0 && errno == EINTR)
					continue;
				if (r <= 0 || (n += (size_t)r) >= CREDSCAN_FILE_MAX)
					break;
			}
		}
		close(fd);
		struct credfile_hit h;
		if (n && credfile_find(s->buf, n, &h)) {
			e.line = h.line;
			snprintf(e.key, sizeof e.key, "%s", h.key);
			snprintf(e.why, sizeof e.why, "%s", h.why);
		}
		explicit_bzero(s->buf, n);
	}
	credcache_add(&s->now, &e);
	if (e.line)
		found(s, path, &e);
}

/* The entries of dir (open, read-only), depth levels of directories
 * below it; dir is consumed. */
static void walk(struct scan *s, int dir, const char *path, int depth, int max)
{
	struct statfs fs;
	if (fstatfs(dir, &fs) == 0 && fs.f_type == FUSE_SUPER_MAGIC) {
		close(dir);
		return;
	}
	DIR *d = fdopendir(dir);
	if (!d) {
		close(dir);
		return;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *name = de->d_name;
		if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
			continue;
		/* the home itself: only its dot-files and dot-directories */
		if (depth == 0 && path == s->home && name[0] != '.')
			continue;
		if (++s->entries > CREDSCAN_ENTRIES) {
			s->full = true;
			break;
		}
		if (de->d_type != DT_REG && de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		struct stat st;
		if (fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		_cleanup_free_ char *p = xconcat(path, "/", name, (char *)NULL);
		if (S_ISREG(st.st_mode)) {
			judge_file(s, dirfd(d), name, p, &st);
			continue;
		}
		if (!S_ISDIR(st.st_mode) || depth >= max || skipped_dir(name, depth) ||
		    masked(s, p) || user_named(s, p))
			continue;
		int sub = openat(dirfd(d), name,
				 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		if (sub >= 0)
			walk(s, sub, p, depth + 1, strcmp(name, ".config") == 0 && depth == 0 ? 3 : max);
	}
	closedir(d);
}

/* The cache file, when the runtime directory is the caller's own and no
 * writable root of this run reaches it; NULL otherwise (scan it all). */
static char *cache_path(struct scan *s)
{
	const struct host *h = s->b->h;
	_cleanup_free_ char *def = xasprintf("/run/user/%u", h->uid);
	const char *dir = h->xdg_runtime_dir && h->xdg_runtime_dir[0] == '/' ? h->xdg_runtime_dir
										 : def;
	struct stat st;
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != h->uid ||
	    (st.st_mode & 077) || covering(&s->b->roots, dir))
		return NULL;
	return path_join(dir, CREDSCAN_CACHE);
}

static void cache_read(struct scan *s, const char *file)
{
	int fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == s->b->h->uid &&
	    !(st.st_mode & 077) && st.st_size > 0 && st.st_size <= 32 * 1024 * 1024) {
		size_t len = (size_t)st.st_size, n = 0;
		_cleanup_free_ char *text = xmalloc(len);
		while (n < len) {
			ssize_t r = read(fd, text + n, len - n);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			n += (size_t)r;
		}
		if (n != len || !credcache_parse(text, len, &s->old))
			credcache_free(&s->old);
	}
	close(fd);
}

/* Written whole to a new file, renamed over the old. */
static void cache_write(struct scan *s, const char *file)
{
	_cleanup_free_ char *dir = path_dirname(file);
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return;
	struct stat st;
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != s->b->h->uid ||
	    (st.st_mode & 077))
		return;
	_cleanup_free_ char *tmp = xasprintf("%s.%ld", file, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	struct strbuf out;
	sb_init(&out, 64 + s->now.n * 64);
	credcache_settle(&s->now);
	credcache_format(&s->now, &out);
	bool ok = fd_write_all(fd, out.s, out.len);
	ok = close(fd) == 0 && ok;
	sb_release(&out);
	if (!ok || rename(tmp, file) != 0)
		unlink(tmp);
}

static void scan_home(struct scan *s, const char *home)
{
	int fd = open(home, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	s->home = home;
	walk(s, fd, home, 0, 2);
}

void add_content_masks(struct builder *b)
{
	const struct host *h = b->h;
	if (!h->home || h->home[0] != '/')
		return;
	_cleanup_free_ char *home = path_resolve(h->home, "/");
	if (!home)
		return;
	struct scan *s = xcalloc(1, sizeof *s);
	s->b = b;
	_cleanup_free_ char *cache = cache_path(s);
	if (cache)
		cache_read(s, cache);
	scan_home(s, home);
	_cleanup_free_ char *env_home = h->home_env ? path_resolve(h->home_env, "/") : NULL;
	if (env_home && strcmp(env_home, home) != 0)
		scan_home(s, env_home);
	/* $XDG_CONFIG_HOME outside the homes' dot-directories */
	_cleanup_free_ char *xdg = h->xdg_config_home && h->xdg_config_home[0] == '/'
					   ? path_resolve(h->xdg_config_home, "/")
					   : NULL;
	if (xdg && !path_is_under(xdg, home) && (!env_home || !path_is_under(xdg, env_home))) {
		int fd = open(xdg, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
		s->home = xdg;
		if (fd >= 0)
			walk(s, fd, xdg, 1, 3);
	}
	if (s->full) {
		_cleanup_free_ char *why = xasprintf("credential scan: more than %d entries; what "
						     "lies beyond was not looked at",
						     CREDSCAN_ENTRIES);
		skip(b, home, why, "built-in: credentials found by content");
	}
	/* the next start reads on from what this one remembered */
	if (s->unread)
		warn_msg("credential scan: more than %d files changed since the last start; the "
			 "others are read at the next (kjail --explain lists what was masked)",
			 CREDSCAN_FILES);
	/* rewritten only when this start read a file, or one is gone */
	credcache_settle(&s->now);
	if (cache && !h->dry_run && (s->files || s->now.n != s->old.n))
		cache_write(s, cache);
	credcache_free(&s->old);
	credcache_free(&s->now);
	explicit_bzero(s->buf, sizeof s->buf);
	free(s);
}
