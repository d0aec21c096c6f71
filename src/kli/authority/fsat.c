/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "authority/fsat.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef RESOLVE_NO_MAGICLINKS
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_NO_SYMLINKS 0x04
#endif

struct kli_open_how {
	uint64_t flags, mode, resolve;
};

/* The O_NOFOLLOW walk: every component from "/" opened below the last. */
static int open_walk(const char *path, int flags)
{
	int dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	const char *p = path + 1;
	while (dir >= 0 && *p) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		_cleanup_free_ char *comp = xstrndup(p, n);
		bool last = !slash || !slash[1];
		int next = openat(dir, comp, last ? (flags | O_NOFOLLOW | O_CLOEXEC)
					    : (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
		int e = errno;
		close(dir);
		errno = e;
		if (last)
			return next;
		dir = next;
		p = slash + 1;
	}
	/* PATH is "/" itself */
	if (dir >= 0 && !(flags & O_PATH)) {
		int fd = openat(dir, ".", flags | O_CLOEXEC);
		close(dir);
		return fd;
	}
	return dir;
}

int fsat_open(const char *path, int flags)
{
	if (path[0] != '/' || strstr(path, "/../") || strstr(path, "/./")) {
		errno = EINVAL;
		return -1;
	}
#ifdef SYS_openat2
	struct kli_open_how how = { .flags = (uint64_t)(flags | O_NOFOLLOW | O_CLOEXEC),
				    .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
	long fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
	if (fd >= 0 || (errno != ENOSYS && errno != EPERM && errno != E2BIG))
		return (int)fd;
#endif
	return open_walk(path, flags);
}

void fsat_target_close(struct fs_target *t)
{
	if (t->dir >= 0)
		close(t->dir);
	if (t->fd >= 0)
		close(t->fd);
	free(t->rest);
	*t = (struct fs_target){ .dir = -1, .fd = -1 };
}

static bool target_open(struct fs_target *t, const char *path, bool create);

bool fsat_target_open(struct fs_target *t, const char *path, bool create)
{
	if (target_open(t, path, create))
		return true;
	t->error = errno;
	return false;
}

static bool target_open(struct fs_target *t, const char *path, bool create)
{
	*t = (struct fs_target){ .dir = -1, .fd = -1 };
	size_t n = strlen(path);
	if (path[0] != '/' || (n > 1 && path[n - 1] == '/')) {
		errno = EINVAL;
		return false;
	}
	if (n == 1) {   /* "/" is its own parent */
		t->dir = fsat_open("/", O_PATH | O_DIRECTORY);
		t->fd = t->dir >= 0 ? dup(t->dir) : -1;
		t->rest = xstrdup(".");
		return t->fd >= 0 && fstat(t->fd, &t->st) == 0;
	}
	/* the deepest directory on the way that exists */
	_cleanup_free_ char *dir = xstrdup(path);
	char *cut = strrchr(dir, '/');
	for (;;) {
		if (cut == dir) {
			t->dir = fsat_open("/", O_PATH | O_DIRECTORY);
		} else {
			*cut = '\0';
			t->dir = fsat_open(dir, O_PATH | O_DIRECTORY);
		}
		if (t->dir >= 0 || errno != ENOENT || !create || cut == dir)
			break;
		cut = strrchr(dir, '/');
	}
	if (t->dir < 0)
		return false;
	t->rest = xstrdup(path + (cut - dir) + 1);
	if (!strchr(t->rest, '/')) {
		t->fd = openat(t->dir, t->rest, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (t->fd >= 0 && fstat(t->fd, &t->st) < 0) {
			int e = errno;
			fsat_target_close(t);
			errno = e;
			return false;
		}
	}
	if (t->fd < 0 && (!create || (errno != ENOENT && strchr(t->rest, '/') == NULL))) {
		int e = t->fd < 0 && !strchr(t->rest, '/') ? errno : ENOENT;
		fsat_target_close(t);
		errno = e;
		return false;
	}
	return true;
}

bool fsat_make_parents(struct fs_target *t)
{
	if (t->dir < 0) {
		errno = t->error ? t->error : EBADF;
		return false;
	}
	char *p = t->rest, *slash;
	while ((slash = strchr(p, '/'))) {
		*slash = '\0';
		if (mkdirat(t->dir, p, 0777) < 0 && errno != EEXIST)
			return false;
		int next = openat(t->dir, p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			return false;
		close(t->dir);
		t->dir = next;
		p = slash + 1;
	}
	char *name = xstrdup(p);
	free(t->rest);
	t->rest = name;
	return true;
}

int fsat_reopen_read(const struct fs_target *t)
{
	if (t->fd < 0) {
		errno = t->error ? t->error : ENOENT;
		return -1;
	}
	if (!S_ISREG(t->st.st_mode)) {
		errno = S_ISDIR(t->st.st_mode) ? EISDIR : EINVAL;
		return -1;
	}
	char proc[40];
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", t->fd);
	int fd = open(proc, O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)   /* no /proc: the name again, nonblocking, then compared */
		fd = openat(t->dir, t->rest, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
					     O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) < 0 || st.st_dev != t->st.st_dev ||
			st.st_ino != t->st.st_ino)) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

static void temp_name(char tmp[16])
{
	static const char al[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	static unsigned long ctr;
	unsigned long v = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16) ^
			  (++ctr * 2654435761UL);
	memcpy(tmp, ".kli-", 5);
	for (int i = 5; i < 11; i++, v /= 62)
		tmp[i] = al[v % 62];
	tmp[11] = '\0';
}

int fsat_write_temp(int dir, const char *text, size_t len, mode_t mode, char tmp[16])
{
	int fd = -1;
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		temp_name(tmp);
		fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			return -1;
	}
	if (fd < 0)
		return -1;
	bool ok = fchmod(fd, mode & 07777) == 0 && fd_write_all(fd, text, len) && fsync(fd) == 0;
	int e = errno;
	ok = close(fd) == 0 && ok;
	if (!ok) {
		unlinkat(dir, tmp, 0);
		errno = e;
		return -1;
	}
	return 0;
}

bool fsat_replace(int dir, const char *name, const char *text, size_t len, mode_t mode)
{
	char tmp[16];
	if (fsat_write_temp(dir, text, len, mode, tmp) < 0)
		return false;
	if (renameat(dir, tmp, dir, name) == 0)
		return true;
	int e = errno;
	unlinkat(dir, tmp, 0);
	errno = e;
	return false;
}
