/* SPDX-License-Identifier: MIT */
/* The planner's tools: candidate mounts in tree order, lookups answered
 * from what is known already, one-read directory scans, and its errors. */
#include "config.h"
#include "planner/internal.h"
#include "planner/plan-take.h"
#include "planner/tools.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif
#include <unistd.h>

enum kind kind_of(const char *path, bool follow)
{
	struct stat st;
	if ((follow ? stat(path, &st) : lstat(path, &st)) < 0)
		return K_MISSING;
	if (S_ISLNK(st.st_mode))
		return K_LINK;
	return S_ISDIR(st.st_mode) ? K_DIR : K_FILE;
}

void cand_push(struct cands *c, struct cand x)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->v = xreallocarray(c->v, c->cap, sizeof *c->v);
	}
	c->v[c->n++] = x;
}

/* Adds a candidate that takes ownership of path. */
void cand_take(struct plan *pl, struct cands *c, enum op_kind kind, char *path,
	       const char *rule, const char *origin)
{
	cand_push(c, (struct cand){ path, strpool_intern(&pl->strings, rule),
				    strpool_intern(&pl->strings, origin), kind, c->n });
}

void cand_add(struct plan *pl, struct cands *c, enum op_kind kind, const char *path,
	      const char *rule, const char *origin)
{
	cand_take(pl, c, kind, xstrdup(path), rule, origin);
}

void cands_free(struct cands *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].path);
	free(c->v);
	memset(c, 0, sizeof *c);
}

/* Tree order: '/' sorts before every other byte, so a directory is followed
 * by everything under it ("/a", "/a/b", "/a-b"), and parents come first. */
static int tree_cmp(const char *a, const char *b)
{
	/* equal bytes compare equal either way: map only where they differ */
	while (*a == *b && *a)
		a++, b++;
	unsigned char x = *a == '/' ? 1 : (unsigned char)*a;
	unsigned char y = *b == '/' ? 1 : (unsigned char)*b;
	return x - y;
}

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c = tree_cmp(x->path, y->path);
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* Sorted in tree order, one entry per path (the first added). */
void cands_sort_unique(struct cands *c)
{
	if (!c->n)
		return;
	qsort(c->v, c->n, sizeof *c->v, cand_cmp);
	size_t out = 1;
	for (size_t i = 1; i < c->n; i++) {
		struct cand *kept = &c->v[out - 1];
		if (strcmp(c->v[i].path, kept->path) == 0) {
			/* both bind it onto itself; only the seal also keeps
			 * new entries out, whichever came first */
			if (c->v[i].kind == OP_SEAL && kept->kind == OP_PIN) {
				kept->kind = OP_SEAL;
				kept->rule = c->v[i].rule;
				kept->origin = c->v[i].origin;
			}
			free(c->v[i].path);
		} else
			c->v[out++] = c->v[i];
	}
	c->n = out;
}

static bool sorted_unique(const struct cands *c)
{
	for (size_t i = 1; i < c->n; i++)
		if (tree_cmp(c->v[i - 1].path, c->v[i].path) >= 0)
			return false;
	return true;
}

/* Parents sort before children, so mounts stack the right way round. */
void emit_sorted(struct plan *pl, struct cands *c)
{
	if (!sorted_unique(c))
		cands_sort_unique(c);
	/* the paths move into the plan */
	for (size_t i = 0; i < c->n; i++)
		plan_take(pl, c->v[i].kind, c->v[i].path, c->v[i].rule, c->v[i].origin);
	free(c->v);
	memset(c, 0, sizeof *c);
}

bool in_private_area(const char *path)
{
	return path_is_under(path, "/tmp") || path_is_under(path, "/dev") ||
	       path_is_under(path, "/proc");
}

const struct cand *covering(const struct cands *c, const char *path)
{
	for (size_t i = 0; i < c->n; i++)
		if (path_is_under(path, c->v[i].path))
			return &c->v[i];
	return NULL;
}

/* kind_of, answered from the memo when the path is a directory already
 * found real (a real directory is the same with or without following). */
enum kind kind_in(struct builder *b, const char *path, bool follow)
{
	if (path_memo_has(&b->memo, path))
		return K_DIR;
	enum kind k = kind_of(path, follow);
	/* a directory that is no link, in a real directory, is real too */
	const char *slash = strrchr(path, '/');
	if (k == K_DIR && !follow && slash && slash != path &&
	    path_memo_has_n(&b->memo, path, (size_t)(slash - path)))
		path_memo_add(&b->memo, path);
	return k;
}

KJ_PRINTF(2, 3) bool fail(struct builder *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b->err, b->errlen, fmt, ap);
	va_end(ap);
	return false;
}

void skip(struct builder *b, const char *path, const char *why, const char *origin)
{
	/* only --explain shows them: a run need not pay for the dozens of
	 * built-in masks a host does not have */
	if (!b->h->explain)
		return;
	if (entry_list_has(&b->pl->skipped, path))
		return;
	_cleanup_free_ char *o = xconcat(why, " (", origin, ")", NULL);
	entry_add(&b->pl->skipped, path, o);
}

/* What kjail makes itself changes a directory: no listing is trusted
 * after that. */
void listings_forget(struct builder *b)
{
	for (size_t i = 0; i < LISTINGS; i++) {
		free(b->listings[i].dir);
		free(b->listings[i].buf);
		b->listings[i] = (struct listing){ 0 };
	}
}

bool scan_dir(struct builder *b, const char *dir, const char *const *name,
	      const size_t *len, size_t n, bool *present, bool *link)
{
#if defined(__linux__) && defined(SYS_getdents64)
	struct listing *free_slot = NULL;
	for (size_t i = 0; i < LISTINGS; i++) {
		struct listing *l = &b->listings[i];
		if (!l->dir) {
			free_slot = free_slot ? free_slot : l;
			continue;
		}
		if (strcmp(l->dir, dir) != 0)
			continue;
		memset(present, 0, n * sizeof *present);
		if (link)
			memset(link, 0, n * sizeof *link);
		dirents_match(l->buf, l->size, name, len, n, present, link);
		return true;
	}
#endif
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool ok;
#if defined(__linux__) && defined(SYS_getdents64)
	union {
		char c[4096];
		uint64_t align;
	} buf;
	ssize_t size = dir_read_one(fd, buf.c, sizeof buf.c);
	if (size >= 0) {
		memset(present, 0, n * sizeof *present);
		if (link)
			memset(link, 0, n * sizeof *link);
		dirents_match(buf.c, (size_t)size, name, len, n, present, link);
		if (free_slot) {
			free_slot->dir = xstrdup(dir);
			free_slot->buf = xmemdup(buf.c, (size_t)size);
			free_slot->size = (size_t)size;
		}
		ok = true;
	} else {
		ok = dir_names_linked(fd, name, len, n, present, link);
	}
#else
	ok = dir_names_linked(fd, name, len, n, present, link);
#endif
	close(fd);
	return ok;
}
