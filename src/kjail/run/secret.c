/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "run/secret.h"
#include "policy/secret.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef KJ_OS_LINUX
#include <sys/mman.h>
#endif

/* Up to SECRET_MAX + 1 bytes of the file at path into buf, or -1 with errno. */
static ssize_t read_source(const char *path, char *buf, bool *dir)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		*dir = true;
		return -1;
	}
	size_t n = 0;
	while (n < SECRET_MAX + 1) {
		ssize_t r = read(fd, buf + n, SECRET_MAX + 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	return (ssize_t)n;
}

int secret_open(const char *value, const char *origin)
{
#ifdef KJ_OS_LINUX
	struct secret_ref r;
	secret_split(value, &r);
	char *buf = xmalloc(SECRET_MAX + 1);
	size_t n;
	if (r.kind == SECRET_ENV) {
		const char *v = getenv(r.source);
		if (!v) {
			free(buf); /* nothing in it yet; LeakSanitizer checks the exit */
			die("%s: secret %s: the variable %s is not set", origin, r.name, r.source);
		}
		n = strlen(v);
		memcpy(buf, v, n > SECRET_MAX ? SECRET_MAX + 1 : n);
	} else {
		bool dir = false;
		ssize_t got = read_source(r.source, buf, &dir);
		if (got < 0) {
			const char *why = dir ? "a directory" : strerror(errno);
			explicit_bzero(buf, SECRET_MAX + 1);
			free(buf);
			die("%s: secret %s: cannot read %s: %s", origin, r.name, r.source, why);
		}
		n = (size_t)got;
	}
	if (n == 0 || n > SECRET_MAX) {
		explicit_bzero(buf, SECRET_MAX + 1);
		free(buf);
		die("%s: secret %s from %s is %s", origin, r.name, r.source,
		    n ? "larger than 64 KiB" : "empty");
	}
	int fd = memfd_create("kjail-secret", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		die_errno("memfd_create");
	for (size_t off = 0; off < n;) {
		ssize_t w = pwrite(fd, buf + off, n - off, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			die_errno("writing secret %s", r.name);
		off += (size_t)w;
	}
	explicit_bzero(buf, SECRET_MAX + 1);
	free(buf);
	/* the command reads it; nothing in the jail changes it */
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) < 0)
		die_errno("sealing secret %s", r.name);
	return fd;
#else
	(void)value;
	die("%s: --secret needs the bwrap backend (Linux)", origin);
#endif
}
