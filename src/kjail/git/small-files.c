/* SPDX-License-Identifier: MIT */
/* git's small files after a run, read as the files they are (small-files.h). */
#include "config.h"
#include "git/small-files.h"
#include "util.h"

#ifdef KJ_OS_LINUX
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A component of a name kjail walks: not empty, not . or .., no NUL. */
bool plain_component(const char *c, size_t n)
{
	return n > 0 && n <= 255 && !(n == 1 && c[0] == '.') && !(n == 2 && c[0] == '.' && c[1] == '.');
}

/* rel ("a/b/c") under the directory open on dir, as the jail left it:
 * every component opened with O_NOFOLLOW (a symlink the jail made leads
 * nowhere), the last a regular file, read up to max bytes (more: NULL).
 * Never through git, never a path from what is read. */
char *read_small_at(int dir, const char *rel, size_t max, size_t *len)
{
	*len = 0;
	if (dir < 0 || !rel || strlen(rel) > 1024)
		return NULL;
	int d = dir;
	char *text = NULL;
	for (const char *c = rel;;) {
		size_t n = strcspn(c, "/");
		if (!plain_component(c, n))
			break;
		_cleanup_free_ char *comp = xstrndup(c, n);
		if (c[n] == '\0') {
			int fd = openat(d, comp, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
			struct stat st;
			if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
			    (uint64_t)st.st_size <= max)
				text = read_fd_capped(fd, max, len);
			if (fd >= 0)
				close(fd);
			break;
		}
		int next = openat(d, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (d != dir)
			close(d);
		d = next;
		if (d < 0)
			break;
		c += n + 1;
	}
	if (d >= 0 && d != dir)
		close(d);
	return text;
}

/* The first line of rel under dir (a ref, HEAD: 4 KiB at most). */
char *first_line_at(int dir, const char *rel)
{
	size_t len = 0;
	char *t = read_small_at(dir, rel, 4096, &len);
	if (t)
		t[strcspn(t, "\r\n")] = '\0';
	return t;
}

bool exists_at(int dir, const char *name)
{
	struct stat st;
	return dir >= 0 && fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* An object name as git writes one: 40 or 64 lowercase hex digits. */
bool is_oid(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");
	return (n == 40 || n == 64) && s[n] == '\0';
}

/* The line of packed-refs (in common) for ref, its object name; or NULL. */
static char *packed_ref(int common, const char *ref)
{
	size_t len = 0;
	_cleanup_free_ char *text = read_small_at(common, "packed-refs", 64u << 20, &len);
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *sp = strchr(line, ' ');
		if (line[0] != '#' && line[0] != '^' && sp && strcmp(sp + 1, ref) == 0) {
			*sp = '\0';
			return is_oid(line) ? xstrdup(line) : NULL;
		}
		if (!next)
			break;
	}
	return NULL;
}

char *ref_oid(int gitdir, int common, const char *ref)
{
	if (!str_has_prefix(ref, "refs/"))
		return NULL;
	const int dirs[] = { gitdir, common };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		char *line = first_line_at(dirs[i], ref);
		if (line && is_oid(line))
			return line;
		free(line);
	}
	return packed_ref(common, ref);
}

/* The commit HEAD names (one symbolic level, as git keeps it), or NULL. */
char *head_oid(int gitdir, int common)
{
	_cleanup_free_ char *line = first_line_at(gitdir, "HEAD");
	if (!line)
		return NULL;
	if (str_has_prefix(line, "ref: "))
		return ref_oid(gitdir, common, line + strlen("ref: "));
	return is_oid(line) ? xstrdup(line) : NULL;
}
#endif
