/* SPDX-License-Identifier: MIT */
/* The mount table's text, parsed, and the other names of a path through
 * it (mountinfo.h). No I/O. */
#include "config.h"
#include "planner/mountinfo.h"
#include "path.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

void mountinfo_unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

static bool parse_ulong(const char *s, char stop, const char **end, unsigned long *out)
{
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	char *e;
	unsigned long v = strtoul(s, &e, 10);
	if (errno || *e != stop)
		return false;
	*out = v;
	*end = e;
	return true;
}

/* "MAJ:MIN" */
static bool parse_dev(const char *s, unsigned *major, unsigned *minor)
{
	unsigned long ma, mi;
	const char *e;
	if (!parse_ulong(s, ':', &e, &ma) || !parse_ulong(e + 1, '\0', &e, &mi) || ma > UINT_MAX ||
	    mi > UINT_MAX)
		return false;
	*major = (unsigned)ma;
	*minor = (unsigned)mi;
	return true;
}

/* One line (NUL-terminated, no newline, modified in place). */
static bool parse_line(char *line, struct mount_entry *e)
{
	char *f[6], *save = NULL, *tok = strtok_r(line, " ", &save);
	size_t n = 0;
	for (; tok && n < 6; tok = strtok_r(NULL, " ", &save))
		f[n++] = tok;
	if (n < 6)
		return false;
	/* optional fields up to the separator, then at least the type */
	bool sep = false;
	for (; tok && !sep; tok = strtok_r(NULL, " ", &save))
		sep = strcmp(tok, "-") == 0;
	if (!sep || !tok)
		return false;
	const char *end;
	if (!parse_ulong(f[0], '\0', &end, &e->id) || !parse_ulong(f[1], '\0', &end, &e->parent) ||
	    !parse_dev(f[2], &e->major, &e->minor))
		return false;
	mountinfo_unescape(f[3]);
	mountinfo_unescape(f[4]);
	mountinfo_unescape(tok);
	/* a root need not be a path (nsfs: "net:[4026531840]"), a point must */
	if (!f[3][0] || f[4][0] != '/')
		return false;
	e->root = xstrdup(f[3]);
	e->point = xstrdup(f[4]);
	e->type = xstrdup(tok);
	return true;
}

bool mountinfo_parse(const char *text, size_t len, struct mount_table *t, size_t *bad_line)
{
	memset(t, 0, sizeof *t);
	size_t cap = 0, lineno = 0;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t l = nl ? (size_t)(nl - (text + at)) : len - at;
		lineno++;
		if (l == 0) {
			at += 1;
			continue;
		}
		char *line = xstrndup(text + at, l);
		struct mount_entry e = { 0 };
		/* a NUL inside a line is no mountinfo either */
		bool ok = strlen(line) == l && parse_line(line, &e);
		free(line);
		if (!ok) {
			mount_table_free(t);
			*bad_line = lineno;
			return false;
		}
		if (t->n == cap) {
			cap = cap ? 2 * cap : 32;
			t->v = xreallocarray(t->v, cap, sizeof *t->v);
		}
		t->v[t->n++] = e;
		at += l + (nl ? 1 : 0);
	}
	return true;
}

void mount_table_free(struct mount_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].root);
		free(t->v[i].point);
		free(t->v[i].type);
	}
	free(t->v);
	memset(t, 0, sizeof *t);
}

const struct mount_entry *mount_of(const struct mount_table *t, const char *path)
{
	const struct mount_entry *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct mount_entry *e = &t->v[i];
		if (!path_is_under(path, e->point))
			continue;
		size_t l = strlen(e->point);
		/* at the same point, the one mounted on the other is on top;
		 * else the later line (mounted later) */
		if (!best || l > best_len || (l == best_len && best->parent != e->id)) {
			best = e;
			best_len = l;
		}
	}
	return best;
}

static void push(struct mount_aliases *a, char *path, const char *via, char *orig)
{
	a->v = xreallocarray(a->v, a->n + 1, sizeof *a->v);
	a->v[a->n++] = (struct mount_alias){ path, via, orig };
}

/* dir + "/" + rest, without doubling the slash of "/" */
static char *join(const char *dir, const char *rest)
{
	if (!*rest)
		return xstrdup(dir);
	if (strcmp(dir, "/") == 0)
		return xconcat("/", rest, (char *)NULL);
	return xconcat(dir, "/", rest, (char *)NULL);
}

void mount_aliases_of(const struct mount_table *t, const struct mount_entry *m,
		      const char *path, struct mount_aliases *out)
{
	memset(out, 0, sizeof *out);
	const char *below = path_relative_to(path, m->point);
	if (!below || m->root[0] != '/')
		return;
	/* path's place in its file system */
	_cleanup_free_ char *fs = join(m->root, below);
	for (size_t i = 0; i < t->n; i++) {
		const struct mount_entry *e = &t->v[i];
		if (e == m || e->major != m->major || e->minor != m->minor || e->root[0] != '/')
			continue;
		const char *rest = path_relative_to(fs, e->root);
		if (rest) {
			char *alias = join(e->point, rest);
			if (strcmp(alias, path) == 0) {
				free(alias);
				continue;
			}
			push(out, alias, e->point, xstrdup(path));
			continue;
		}
		const char *inside = path_relative_to(e->root, fs);
		if (inside && strcmp(e->point, path) != 0)
			push(out, xstrdup(e->point), e->point, join(path, inside));
	}
}

void mount_aliases_free(struct mount_aliases *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i].path);
		free(a->v[i].orig);
	}
	free(a->v);
	memset(a, 0, sizeof *a);
}
