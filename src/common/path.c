/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "path.h"
#include "strbuf.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINKS 40

char *path_expand_home(const char *p, const char *home)
{
	if (p[0] != '~')
		return xstrdup(p);
	if (p[1] != '\0' && p[1] != '/') {
		errno = EINVAL;
		return NULL;
	}
	if (!home || home[0] != '/') {
		errno = EINVAL;
		return NULL;
	}
	return xconcat(home, p + 1, NULL);
}

/* Append component c (length n) to the clean absolute path being built. */
static void push_component(struct strbuf *b, const char *c, size_t n)
{
	if (b->len > 1)
		sb_addc(b, '/');
	sb_add(b, c, n);
}

/* The length of p's parent: p up to its last '/', or "/". */
static size_t parent_len(const char *p)
{
	const char *slash = strrchr(p, '/');
	return slash == p ? 1 : (size_t)(slash - p);
}

/* Length of the component at s, up to the next '/' or the end. */
static size_t component_len(const char *s)
{
	size_t n = 0;
	while (s[n] && s[n] != '/')
		n++;
	return n;
}

/* p made absolute against base: p itself when it already is, else a fresh
 * "base/p" left in *owned for the caller to free. */
static const char *absolute(const char *p, const char *base, char **owned)
{
	*owned = NULL;
	if (p[0] == '/')
		return p;
	return *owned = xconcat(base, "/", p, NULL);
}

char *path_normalize(const char *p, const char *base)
{
	if (p[0] != '/' && (!base || base[0] != '/')) {
		errno = EINVAL;
		return NULL;
	}
	char *owned;
	const char *s = absolute(p, base, &owned);
	struct strbuf out;
	/* clean is never longer than what it was made from: components are
	 * appended in place, not by a realloc each */
	sb_init(&out, strlen(s) + 1);
	sb_addc(&out, '/');
	while (*s) {
		while (*s == '/')
			s++;
		size_t n = component_len(s);
		if (n == 0)
			break;
		if (n == 1 && s[0] == '.')
			;
		else if (n == 2 && s[0] == '.' && s[1] == '.')
			sb_setlen(&out, parent_len(out.s));
		else
			push_component(&out, s, n);
		s += n;
	}
	free(owned);
	return sb_detach(&out);
}

/* Lengths first: most entries differ in length, and then no bytes are
 * compared (a plan asks this for every component of every path). */
static bool memo_has_n(const struct path_memo *m, const char *dir, size_t n)
{
	for (size_t i = 0; m && i < ARRAY_SIZE(m->dir); i++)
		if (m->dir[i] && m->len[i] == n && memcmp(m->dir[i], dir, n) == 0)
			return true;
	return false;
}

static bool memo_has(const struct path_memo *m, const char *dir)
{
	return m && memo_has_n(m, dir, strlen(dir));
}

static void memo_add(struct path_memo *m, const char *dir)
{
	if (!m)
		return;
	size_t i = m->next++ % ARRAY_SIZE(m->dir);
	free(m->dir[i]);
	m->len[i] = strlen(dir);
	m->dir[i] = xstrndup(dir, m->len[i]);
}

bool path_memo_has(const struct path_memo *m, const char *dir)
{
	return memo_has(m, dir);
}

bool path_memo_has_n(const struct path_memo *m, const char *dir, size_t n)
{
	return memo_has_n(m, dir, n);
}

void path_memo_add(struct path_memo *m, const char *dir)
{
	if (!memo_has(m, dir))
		memo_add(m, dir);
}

void path_memo_add_ancestors(struct path_memo *m, const char *real)
{
	if (!m || real[0] != '/')
		return;
	size_t len = strlen(real);
	char *buf = xstrndup(real, len);
	for (size_t i = 1; i < len; i++)
		if (buf[i] == '/') {
			buf[i] = '\0';
			memo_add(m, buf);
			buf[i] = '/';
		}
	free(buf);
}

void path_memo_free(struct path_memo *m)
{
	for (size_t i = 0; i < ARRAY_SIZE(m->dir); i++)
		free(m->dir[i]);
	memset(m, 0, sizeof *m);
}

char *path_resolve(const char *p, const char *base)
{
	return path_resolve_memo(p, base, NULL);
}

/* The link's target, then "/" and what is left to walk; NULL when the link
 * cannot be read. Out of line: its buffer is off the stack of every lookup
 * that meets no link. */
KJ_NOINLINE static char *link_then(const char *link, const char *rest, bool *abs_target)
{
	char target[PATH_MAX];
	ssize_t t = readlink(link, target, sizeof target - 1);
	if (t < 0)
		return NULL;
	target[t] = '\0';
	*abs_target = target[0] == '/';
	return xconcat(target, "/", rest, NULL);
}

static char *resolve(const char *p, const char *base, struct path_memo *memo,
		     void (*on_link)(void *ctx, const char *link), void *ctx)
{
	if (memo) {
		memo->absent = false;
		memo->last = 0;
	}
	mode_t last = 0; /* of out, when its final component was looked up */
	if (p[0] != '/' && (!base || base[0] != '/')) {
		errno = EINVAL;
		return NULL;
	}
	/* rest: what is still to walk (owned once a link replaced it); out:
	 * resolved so far, always real while missing is false, so ".." on it
	 * is the true parent. */
	char *owned;
	const char *rest = absolute(p, base, &owned);
	struct strbuf out;
	size_t pos = 0;
	int links = 0;
	bool missing = false;
	size_t real_len = 0; /* while missing: out's length before its first missing component */

	sb_init(&out, strlen(rest) + 1);
	sb_addc(&out, '/');
	while (rest[pos]) {
		while (rest[pos] == '/')
			pos++;
		size_t n = component_len(rest + pos);
		if (n == 0)
			break;
		const char *c = rest + pos;
		pos += n;
		if (n == 1 && c[0] == '.')
			continue;
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			sb_setlen(&out, parent_len(out.s));
			last = 0;
			/* back above the missing part, in what exists: looked up
			 * again, since a link there leads elsewhere ("new/../link") */
			if (missing && out.len <= real_len) {
				missing = false;
				if (memo)
					memo->absent = false;
			}
			continue;
		}
		size_t save = out.len;
		push_component(&out, c, n);
		last = 0;
		if (missing)
			continue;
		if (memo_has_n(memo, out.s, out.len))
			continue;
		struct stat st;
		if (lstat(out.s, &st) < 0) {
			/* Not there (or not reachable): the rest is taken as written,
			 * until a ".." leads back above it. */
			missing = true;
			real_len = save;
			if (memo && (errno == ENOENT || errno == ENOTDIR))
				memo->absent = true;
			continue;
		}
		if (S_ISDIR(st.st_mode))
			memo_add(memo, out.s);
		if (!S_ISLNK(st.st_mode)) {
			last = st.st_mode;
			continue;
		}
		if (on_link)
			on_link(ctx, out.s);
		if (++links > MAX_LINKS) {
			free(owned);
			sb_release(&out);
			errno = ELOOP;
			return NULL;
		}
		bool abs_target;
		char *next = link_then(out.s, rest + pos, &abs_target);
		if (!next) {
			missing = true;
			real_len = save;
			continue;
		}
		free(owned);
		rest = owned = next;
		pos = 0;
		sb_setlen(&out, abs_target ? 1 : save);
	}
	if (memo)
		memo->last = last;
	free(owned);
	return sb_detach(&out);
}

char *path_resolve_memo(const char *p, const char *base, struct path_memo *memo)
{
	return resolve(p, base, memo, NULL, NULL);
}

char *path_resolve_links(const char *p, const char *base,
			 void (*on_link)(void *ctx, const char *link), void *ctx)
{
	return resolve(p, base, NULL, on_link, ctx);
}

void path_links_note(void *ctx, const char *link)
{
	struct path_links *l = ctx;
	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	l->v[l->n++] = xstrdup(link);
}

void path_links_free(struct path_links *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (struct path_links){ 0 };
}

const char *path_relative_to(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return path[0] == '/' ? path + 1 : NULL;
	if (strncmp(path, dir, n) != 0)
		return NULL;
	if (path[n] == '\0')
		return path + n;
	if (path[n] == '/')
		return path + n + 1;
	return NULL;
}

bool path_is_under(const char *path, const char *dir)
{
	return path_relative_to(path, dir) != NULL;
}

char *path_join(const char *a, const char *b)
{
	size_t n = strlen(a);
	if (n && a[n - 1] == '/')
		return xconcat(a, b[0] == '/' ? b + 1 : b, NULL);
	return xconcat(a, "/", b[0] == '/' ? b + 1 : b, NULL);
}

char *path_dirname(const char *p)
{
	char *d = xstrdup(p);
	size_t len = strlen(d);
	if (len > 1)
		d[parent_len(d)] = '\0';
	return d;
}

/* ---- who could change a file: file_owned_safely ----------------------- */

/* Whether owner is how this user namespace shows a uid it does not map
 * (the kernel's overflow uid, unmapped here): in a jail, root's files
 * (/, /home, /etc) show so, and are root's outside. In the first
 * namespace, which maps every uid, it is the real user "nobody". */
static bool unmapped_owner(uid_t owner)
{
	char buf[16384];
	_cleanup_close_ int fd = open("/proc/sys/kernel/overflowuid", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, 64) : -1;
	if (n <= 0)
		return false;
	buf[n] = '\0';
	if (strtoul(buf, NULL, 10) != (unsigned long)owner)
		return false;
	_cleanup_close_ int map = open("/proc/self/uid_map", O_RDONLY | O_CLOEXEC);
	if (map < 0)
		return false;
	size_t len = 0;
	while ((n = read(map, buf + len, sizeof buf - 1 - len)) > 0)
		len += (size_t)n;
	if (n < 0 || len == sizeof buf - 1)
		return false; /* unread or cut short: taken as mapped */
	buf[len] = '\0';
	for (char *line = buf; *line;) {
		char *end;
		unsigned long in = strtoul(line, &end, 10);
		(void)strtoul(end, &end, 10);
		unsigned long count = strtoul(end, &end, 10);
		if ((unsigned long)owner >= in && (unsigned long)owner - in < count)
			return false; /* mapped: a real owner */
		char *nl = strchr(end, '\n');
		line = nl ? nl + 1 : end + strlen(end);
	}
	return true;
}

/* uid, root, or where allowed, an owner this namespace does not map */
static bool owner_ok(uid_t owner, uid_t uid, bool unmapped_ok)
{
	return owner == uid || owner == 0 || (unmapped_ok && unmapped_owner(owner));
}

/* One of file_owned_safely's checks: p itself (lstat: a link is judged as
 * the link). */
static bool owned_safely(const char *p, bool dir, bool unmapped_ok, uid_t uid, struct stat *st,
			 char *why, size_t whylen)
{
	if (lstat(p, st) != 0)
		return false;
	if (!owner_ok(st->st_uid, uid, unmapped_ok)) {
		snprintf(why, whylen, "%s belongs to uid %lu", p, (unsigned long)st->st_uid);
		errno = EPERM;
		return false;
	}
	if (S_ISLNK(st->st_mode))
		return true; /* a link's own mode means nothing */
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(dir && (st->st_mode & S_ISVTX))) {
		snprintf(why, whylen, "%s is writable by %s", p,
			 st->st_mode & S_IWOTH ? "everyone" : "its group");
		errno = EPERM;
		return false;
	}
	return true;
}

/* dir (a real, absolute path) and every directory above it. */
static bool dirs_owned_safely(const char *dir, uid_t uid, char *why, size_t whylen)
{
	_cleanup_free_ char *d = xstrdup(dir);
	struct stat st;
	for (;;) {
		if (!owned_safely(d, true, true, uid, &st, why, whylen))
			return false;
		char *slash = strrchr(d, '/');
		if (!slash || (slash == d && d[1] == '\0'))
			return true;
		slash[slash == d ? 1 : 0] = '\0';
	}
}


static bool links_owned_safely(const struct path_links *l, uid_t uid, char *why, size_t whylen)
{
	for (size_t i = 0; i < l->n; i++) {
		struct stat st;
		if (!owned_safely(l->v[i], false, true, uid, &st, why, whylen))
			return false;
		_cleanup_free_ char *dir = xstrdup(l->v[i]);
		char *slash = strrchr(dir, '/');
		slash[slash == dir ? 1 : 0] = '\0';
		if (!dirs_owned_safely(dir, uid, why, whylen))
			return false;
	}
	return true;
}

bool file_owned_safely(const char *path, uid_t uid, int flags, struct stat *st, char *why,
		       size_t whylen)
{
	why[0] = '\0';
	char cwd[PATH_MAX];
	const char *base = NULL;
	if (path[0] != '/' && !(base = getcwd(cwd, sizeof cwd)))
		return false;
	struct path_links l = { 0 };
	_cleanup_free_ char *real = path_resolve_links(path, base, path_links_note, &l);
	bool ok = real && links_owned_safely(&l, uid, why, whylen);
	int e = errno;
	path_links_free(&l);
	errno = e;
	if (!ok)
		return false;
	_cleanup_free_ char *dir = xstrdup(real);
	char *slash = strrchr(dir, '/');
	slash[slash == dir ? 1 : 0] = '\0';
	if (lstat(real, st) == 0)
		return owned_safely(real, false, flags & OWNED_UNMAPPED_OK, uid, st, why, whylen) &&
		       dirs_owned_safely(dir, uid, why, whylen);
	if (errno != ENOENT && errno != ENOTDIR)
		return false;
	/* not there: nobody else may be able to make it, either */
	while (lstat(dir, st) != 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			return false;
		slash = strrchr(dir, '/');
		slash[slash == dir ? 1 : 0] = '\0';
	}
	if (!dirs_owned_safely(dir, uid, why, whylen))
		return false;
	errno = ENOENT;
	return false;
}

bool path_mkdirs(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) == 0)
		return S_ISDIR(st.st_mode) || (errno = ENOTDIR, false);
	_cleanup_free_ char *up = path_dirname(dir);
	if (strcmp(up, dir) != 0 && !path_mkdirs(up))
		return false;
	return mkdir(dir, 0700) == 0 || errno == EEXIST;
}
