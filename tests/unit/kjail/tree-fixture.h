/* SPDX-License-Identifier: MIT */
/* tree-fixture.h: a scratch directory tree for a unit test's group, made
 * under the current directory and resolved (root has no link in it), and
 * removed after. One group per test binary: root is the binary's. */
#ifndef KJAIL_TREE_FIXTURE_H
#define KJAIL_TREE_FIXTURE_H

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[PATH_MAX];

/* root/rel, a fresh string */
static inline char *at(const char *rel)
{
	return xasprintf("%s/%s", root, rel);
}

/* an empty directory or file at root/rel */
static inline void mk(const char *rel, bool dir)
{
	_cleanup_free_ char *p = at(rel);
	if (dir)
		assert_int_equal(mkdir(p, 0755), 0);
	else {
		int fd = open(p, O_CREAT | O_WRONLY, 0644);
		assert_true(fd >= 0);
		close(fd);
	}
}

/* root: a new directory NAME.XXXXXX under the current one */
static inline void tree_make(const char *name)
{
	char cwd[PATH_MAX / 2];
	assert_non_null(getcwd(cwd, sizeof cwd));
	snprintf(root, sizeof root, "%s/%s.XXXXXX", cwd, name);
	assert_non_null(mkdtemp(root));
	char *real = realpath(root, NULL);
	assert_non_null(real);
	snprintf(root, sizeof root, "%s", real);
	free(real);
}

static inline int teardown(void **state)
{
	(void)state;
	_cleanup_free_ char *cmd = xasprintf("rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

#endif
