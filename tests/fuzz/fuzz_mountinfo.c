/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the mountinfo parser and the alias finder
 * (src/kjail/planner/mountinfo.h).
 *
 * Besides crashes and sanitizer reports, it checks what they promise: a
 * table that parses has only absolute mount points and no escape left
 * undone that the parser should have taken; a refused one comes back
 * empty with the number of a line the text has; mount_of gives a mount
 * whose point holds the path; every alias is an absolute path naming
 * another mount of the same device at or under its point, and what it
 * shows lies at or under the path. A broken promise aborts. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/mountinfo.h"
#include "path.h"
#include "util.h"

#include "fuzz.h"

static size_t lines_of(const uint8_t *data, size_t size)
{
	size_t n = 0;
	for (size_t i = 0; i < size; i++)
		n += data[i] == '\n';
	return n + (size && data[size - 1] != '\n');
}

/* Aliases of path, checked. */
static void aliases(const struct mount_table *t, const char *path)
{
	const struct mount_entry *m = mount_of(t, path);
	if (!m)
		return;
	CHECK(path_is_under(path, m->point));
	struct mount_aliases a;
	mount_aliases_of(t, m, path, &a);
	for (size_t i = 0; i < a.n; i++) {
		const struct mount_alias *x = &a.v[i];
		CHECK(x->path[0] == '/' && x->orig[0] == '/');
		CHECK(strcmp(x->path, path) != 0);
		CHECK(path_is_under(x->path, x->via));
		CHECK(path_is_under(x->orig, path));
		bool found = false;
		for (size_t j = 0; j < t->n && !found; j++)
			found = t->v[j].point == x->via && t->v[j].major == m->major &&
				t->v[j].minor == m->minor && &t->v[j] != m;
		CHECK(found);
	}
	mount_aliases_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mount_table t;
	size_t bad = 0;
	if (!mountinfo_parse((const char *)data, size, &t, &bad)) {
		CHECK(t.n == 0 && t.v == NULL);
		CHECK(bad >= 1 && bad <= lines_of(data, size));
		return 0;
	}
	for (size_t i = 0; i < t.n; i++) {
		CHECK(t.v[i].point[0] == '/');
		CHECK(t.v[i].root[0] != '\0');
		CHECK(t.v[i].type != NULL);
	}
	/* the paths the table itself names, and a few fixed ones */
	static const char *const fixed[] = { "/", "/home/u/.ssh", "/home/u/.netrc", "/etc/shadow" };
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		aliases(&t, fixed[i]);
	for (size_t i = 0; i < t.n && i < 16; i++) {
		char *p = path_normalize(t.v[i].point, "/");
		if (p && strcmp(p, t.v[i].point) == 0) {
			aliases(&t, p);
			char *below = xconcat(strcmp(p, "/") ? p : "", "/x", (char *)NULL);
			aliases(&t, below);
			free(below);
		}
		free(p);
	}
	mount_table_free(&t);
	return 0;
}
