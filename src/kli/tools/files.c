/* SPDX-License-Identifier: MIT */
/* read, find, search, write: the file tools. mediate() has resolved and
 * checked every path and opened it (call->targets, fsat.h); they act
 * through those descriptors only and follow no symlink on the way down a
 * tree. */
#include "config.h"
#include "tools/text.h"
#include "tools/call.h"
#include "tools/files.h"
#include "tools/diff.h"
#include "tools/result.h"
#include "model/chat.h"
#include "path.h"
#include "strbuf.h"
#include "strv.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_MAX (8u * 1024 * 1024)
#define FIND_MAX 1000
#define SEARCH_MAX 500
#define WALK_MAX_DEPTH 64

/* ----------------------------------------------------------------- read */

/* The checked object's content, read through its descriptor. NULL with
 * errno (EINVAL: not a regular file, never opened for reading). */
static char *read_target(const struct fs_target *t, size_t max, size_t *len)
{
	_cleanup_close_ int fd = fsat_reopen_read(t);
	if (fd < 0)
		return NULL;
	return read_fd_capped(fd, max, len);
}

void tool_read(const struct tool_call *c, const struct tool_env *env, struct barrier_out *out)
{
	const char *p = c->paths[0];
	size_t len = 0;
	_cleanup_free_ char *text = read_target(&c->targets[0], READ_MAX, &len);
	if (!text) {
		if (errno == EFBIG)
			tool_fail(out, "%s is larger than 8 MiB; read it with bash (head, sed -n)",
				  tool_shown_path(p, env->workspace));
		else if (errno == EINVAL)
			tool_fail(out, "%s is not a regular file", tool_shown_path(p, env->workspace));
		else
			tool_fail(out, "cannot read %s: %s", tool_shown_path(p, env->workspace),
				  strerror(errno));
		return;
	}
	if (text_is_binary(text, len)) {
		tool_fail(out, "%s looks binary (%zu bytes); not shown",
			  tool_shown_path(p, env->workspace), len);
		return;
	}
	char err[200];
	char *lines = text_lines(text, len, c->first, c->count, err, sizeof err);
	if (!lines) {
		tool_fail(out, "%s", err);
		return;
	}
	utf8_scrub(lines, strlen(lines));
	tool_ok(out, lines);
}

/* ----------------------------------------------------------------- walk */

/* A walk goes down from the checked directory's descriptor with openat and
 * fdopendir, following no symlink: what it sees is below what was checked,
 * whatever is renamed meanwhile. */
struct walk {
	const char *root;     /* the checked path, for the names shown */
	const struct tool_call *call;
	const struct tool_env *env;
	struct strv found;    /* find: paths; search: matching lines */
	size_t limit;
	bool more;            /* stopped at the limit */
	size_t unread_dirs;   /* could not be listed */
	size_t unread_files;  /* search: too large or could not be read */
	regex_t re;
	char err[200];
};

/* DIR holds the entry NAME (opened with openat); PATH is its absolute
 * name as checked, BELOW its name relative to the walk's root. */
typedef void (*walk_fn)(struct walk *w, int dir, const char *name, const char *path,
			const char *below);

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted entries of the directory FD (taken), without "." and "..":
 * results must be stable. *UNREAD counts it when it cannot be listed. */
static struct strv list_dir(int fd, size_t *unread)
{
	struct strv names = STRV_INIT;
	int lfd = fd >= 0 ? dup(fd) : -1;
	DIR *d = lfd >= 0 ? fdopendir(lfd) : NULL;
	if (!d) {
		if (lfd >= 0)
			close(lfd);
		(*unread)++;
		return names;
	}
	for (struct dirent *e = readdir(d); e; e = readdir(d))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			strv_push(&names, e->d_name);
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof *names.v, cmp_names);
	return names;
}

static bool is_excluded(const struct tool_call *c, const struct stat *st)
{
	for (size_t i = 0; i < c->nexcluded; i++)
		if (c->excluded[i].st_dev == st->st_dev && c->excluded[i].st_ino == st->st_ino)
			return true;
	return false;
}

static void walk_dir(struct walk *w, int dfd, const char *dir, const char *below, int depth,
		     walk_fn fn)
{
	struct strv names = list_dir(dfd, &w->unread_dirs);
	for (size_t i = 0; i < names.n && !w->more; i++) {
		/* Version control internals are noise for a search. */
		if (strcmp(names.v[i], ".git") == 0)
			continue;
		_cleanup_free_ char *p = path_join(dir, names.v[i]);
		_cleanup_free_ char *b = *below ? path_join(below, names.v[i]) : xstrdup(names.v[i]);
		struct stat st;
		if (fstatat(dfd, names.v[i], &st, AT_SYMLINK_NOFOLLOW) < 0 || is_excluded(w->call, &st))
			continue;
		if (S_ISDIR(st.st_mode) && depth < WALK_MAX_DEPTH) {
			int sub = openat(dfd, names.v[i],
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			walk_dir(w, sub, p, b, depth + 1, fn);
			if (sub >= 0)
				close(sub);
		} else if (S_ISREG(st.st_mode)) {
			fn(w, dfd, names.v[i], p, b);
		}
	}
	strv_free(&names);
}
static void add_found(struct walk *w, char *line)
{
	if (w->found.n >= w->limit) {
		w->more = true;
		free(line);
		return;
	}
	strv_take(&w->found, line);
}

static char *join_found(struct walk *w, const char *none, const char *more)
{
	if (w->found.n == 0)
		return xstrdup(none);
	struct strbuf s = STRBUF_INIT;
	for (size_t i = 0; i < w->found.n; i++)
		sb_addf(&s, "%s\n", w->found.v[i]);
	if (w->more)
		sb_addf(&s, "%s\n", more);
	utf8_scrub(s.s, s.len);
	return sb_detach(&s);
}

/* TEXT (join_found's) with what the walk could not look into said after
 * it: a file or directory skipped is not one without a match. */
static char *with_unread(char *text, const struct walk *w)
{
	if (!w->unread_dirs && !w->unread_files)
		return text;
	char dirs[80] = "", files[160] = "";
	if (w->unread_dirs)
		fmt_into(dirs, sizeof dirs, "[%zu director%s could not be read]\n", w->unread_dirs,
			 w->unread_dirs == 1 ? "y" : "ies");
	if (w->unread_files)
		fmt_into(files, sizeof files, "[%zu file%s not searched: larger than 8 MiB or "
					      "unreadable; search it with bash (grep)]\n",
			 w->unread_files, w->unread_files == 1 ? " was" : "s were");
	size_t len = strlen(text);
	char *s = xasprintf("%s%s%s%s", text, len && text[len - 1] != '\n' ? "\n" : "", dirs,
			    files);
	free(text);
	return s;
}

/* The start of a walk: the checked directory, or (search) one file. */
static bool walk_start(struct walk *w, bool file_ok, walk_fn fn, struct barrier_out *out)
{
	const struct fs_target *t = &w->call->targets[0];
	const char *shown = tool_shown_path(w->root, w->env->workspace);
	if (t->fd < 0) {
		tool_fail(out, "cannot open %s: %s", shown, strerror(t->error ? t->error : ENOENT));
		return false;
	}
	if (S_ISREG(t->st.st_mode) && file_ok) {
		const char *base = strrchr(w->root, '/');
		fn(w, t->dir, t->rest, w->root, base ? base + 1 : w->root);
		return true;
	}
	if (!S_ISDIR(t->st.st_mode)) {
		tool_fail(out, "%s is not a directory", shown);
		return false;
	}
	_cleanup_close_ int dfd = openat(t->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	walk_dir(w, dfd, w->root, "", 0, fn);
	return true;
}

/* ----------------------------------------------------------------- find */

static void find_one(struct walk *w, int dir, const char *name, const char *path,
		     const char *below)
{
	(void)dir;
	(void)name;
	if (glob_match(w->call->text, below))
		add_found(w, xstrdup(tool_shown_path(path, w->env->workspace)));
}

void tool_find(const struct tool_call *c, const struct tool_env *env, struct barrier_out *out)
{
	struct walk w = { .root = c->paths[0], .call = c, .env = env, .limit = FIND_MAX };
	if (walk_start(&w, false, find_one, out))
		tool_ok(out, with_unread(join_found(&w, "no files match",
						    "[more files match; narrow the pattern or the path]"),
					 &w));
	strv_free(&w.found);
}

/* --------------------------------------------------------------- search */

static void search_lines(struct walk *w, const char *text, size_t len, const char *rel)
{
	long line = 1;
	for (size_t i = 0; i < len && !w->more; line++) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - text) : len;
		_cleanup_free_ char *l = xstrndup(text + i, e - i);
		if (regexec(&w->re, l, 0, NULL, 0) == 0)
			add_found(w, xasprintf("%s:%ld:%.300s", rel, line, l));
		i = e + 1;
	}
}

static void search_one(struct walk *w, int dir, const char *name, const char *path,
		       const char *below)
{
	if (w->call->glob && !glob_match(w->call->glob, below))
		return;
	size_t len = 0;
	/* O_NONBLOCK: a FIFO renamed in since the listing must not hang */
	_cleanup_close_ int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
						   O_NOCTTY | O_CLOEXEC);
	struct stat st;
	_cleanup_free_ char *text = fd >= 0 && fstat(fd, &st) == 0 && !is_excluded(w->call, &st)
					    ? read_fd_capped(fd, READ_MAX, &len) : NULL;
	if (!text)
		w->unread_files++;
	if (!text || text_is_binary(text, len))
		return;
	search_lines(w, text, len, tool_shown_path(path, w->env->workspace));
}

void tool_search(const struct tool_call *c, const struct tool_env *env,
		 struct barrier_out *out)
{
	struct walk w = { .root = c->paths[0], .call = c, .env = env, .limit = SEARCH_MAX };
	int flags = REG_EXTENDED | REG_NOSUB | (c->ignore_case ? REG_ICASE : 0);
	int rc = regcomp(&w.re, c->text, flags);
	if (rc != 0) {
		regerror(rc, &w.re, w.err, sizeof w.err);
		tool_fail(out, "bad regular expression: %s", w.err);
		return;
	}
	if (walk_start(&w, true, search_one, out))
		tool_ok(out, with_unread(join_found(&w, "no matches",
						    "[more lines match; narrow the pattern or the path]"),
					 &w));
	regfree(&w.re);
	strv_free(&w.found);
}

/* ---------------------------------------------------------------- write */

/* Replace the checked name with TEXT (fsat_replace): never through the
 * file, so other hard links keep their content. It keeps its mode; a new
 * file gets 0666 & umask. */
static bool replace_target(struct fs_target *t, const char *text)
{
	if (t->fd >= 0 && !S_ISREG(t->st.st_mode)) {
		errno = EINVAL;
		return false;
	}
	mode_t um = umask(0);
	umask(um);
	mode_t mode = t->fd >= 0 ? (t->st.st_mode & 07777) : (0666 & ~um);
	return fsat_replace(t->dir, t->rest, text, strlen(text), mode);
}

void tool_write(const struct tool_call *c, const struct tool_env *env, struct barrier_out *out)
{
	const char *p = c->paths[0];
	const char *shown = tool_shown_path(p, env->workspace);
	struct fs_target *t = &c->targets[0];
	if (!fsat_make_parents(t)) {
		tool_fail(out, "cannot make the directories for %s: %s", shown, strerror(errno));
		return;
	}
	/* the content before, for the diff the person watching sees */
	size_t oldlen = 0;
	_cleanup_free_ char *old = NULL;
	if (t->fd >= 0 && S_ISREG(t->st.st_mode)) {
		_cleanup_close_ int fd = fsat_reopen_read(t);
		old = fd < 0 ? NULL : read_fd_capped(fd, EDIT_MAX, &oldlen);
	}
	if (!replace_target(t, c->text)) {
		tool_fail(out, "cannot write %s: %s", shown,
			  errno == EINVAL ? "it is not a regular file" : strerror(errno));
		return;
	}
	tool_ok(out, xasprintf("wrote %zu bytes to %s", strlen(c->text), shown));
	struct diff_count n;
	_cleanup_free_ char *d = diff_unified(shown, old ? old : "", old ? oldlen : 0, c->text,
					      strlen(c->text), SHOW_DIFF_LINES, &n);
	out->show = xasprintf("(%s+%zu \u2212%zu)\n%s", old ? "" : "new file, ", n.added,
			      n.removed, d);
}
