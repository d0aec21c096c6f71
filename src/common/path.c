#include "config.h"
#include "path.h"
#include "util.h"

#include <errno.h>
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
	return xasprintf("%s%s", home, p + 1);
}

/* Append component c (length n) to the clean absolute path in buf. */
static void push_component(char **buf, size_t *len, const char *c, size_t n)
{
	*buf = xreallocarray(*buf, *len + n + 2, 1);
	if (*len > 1)
		(*buf)[(*len)++] = '/';
	else
		*len = 1; /* buf is "/" */
	memcpy(*buf + *len, c, n);
	*len += n;
	(*buf)[*len] = '\0';
}

static void pop_component(char *buf, size_t *len)
{
	char *slash = strrchr(buf, '/');
	*len = slash == buf ? 1 : (size_t)(slash - buf);
	buf[*len] = '\0';
}

char *path_normalize(const char *p, const char *base)
{
	if (p[0] != '/' && (!base || base[0] != '/')) {
		errno = EINVAL;
		return NULL;
	}
	char *joined = p[0] == '/' ? xstrdup(p) : xasprintf("%s/%s", base, p);
	char *out = xstrdup("/");
	size_t len = 1;
	for (char *s = joined; *s;) {
		while (*s == '/')
			s++;
		size_t n = strcspn(s, "/");
		if (n == 0)
			break;
		if (n == 1 && s[0] == '.')
			;
		else if (n == 2 && s[0] == '.' && s[1] == '.')
			pop_component(out, &len);
		else
			push_component(&out, &len, s, n);
		s += n;
	}
	free(joined);
	return out;
}

char *path_resolve(const char *p, const char *base)
{
	if (p[0] != '/' && (!base || base[0] != '/')) {
		errno = EINVAL;
		return NULL;
	}
	/* rest: what is still to walk; out: resolved so far, always real while
	 * missing is false, so ".." on it is the true parent. */
	char *rest = p[0] == '/' ? xstrdup(p) : xasprintf("%s/%s", base, p);
	char *out = xstrdup("/");
	size_t len = 1, pos = 0;
	int links = 0;
	bool missing = false;

	while (rest[pos]) {
		while (rest[pos] == '/')
			pos++;
		size_t n = strcspn(rest + pos, "/");
		if (n == 0)
			break;
		const char *c = rest + pos;
		pos += n;
		if (n == 1 && c[0] == '.')
			continue;
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			pop_component(out, &len);
			continue;
		}
		size_t save = len;
		push_component(&out, &len, c, n);
		if (missing)
			continue;
		struct stat st;
		if (lstat(out, &st) < 0) {
			/* Not there (or not reachable): the rest is taken as written. */
			missing = true;
			continue;
		}
		if (!S_ISLNK(st.st_mode))
			continue;
		if (++links > MAX_LINKS) {
			free(rest);
			free(out);
			errno = ELOOP;
			return NULL;
		}
		char target[PATH_MAX];
		ssize_t t = readlink(out, target, sizeof target - 1);
		if (t < 0) {
			missing = true;
			continue;
		}
		target[t] = '\0';
		char *next = xasprintf("%s/%s", target, rest + pos);
		free(rest);
		rest = next;
		pos = 0;
		if (target[0] == '/') {
			out[1] = '\0';
			len = 1;
		} else {
			out[save] = '\0';
			len = save;
		}
	}
	free(rest);
	return out;
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
		return xasprintf("%s%s", a, b[0] == '/' ? b + 1 : b);
	return xasprintf("%s/%s", a, b[0] == '/' ? b + 1 : b);
}

char *path_dirname(const char *p)
{
	char *d = xstrdup(p);
	size_t len = strlen(d);
	if (len > 1)
		pop_component(d, &len);
	return d;
}
