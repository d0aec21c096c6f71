/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef KJ_OS_LINUX
#include <sys/syscall.h>
#include <sys/prctl.h>
#endif

static int fatal_exit_status = 1;

void set_fatal_status(int status) { fatal_exit_status = status; }
int fatal_status(void) { return fatal_exit_status; }

static const char *prog(void)
{
#ifdef KJ_OS_DARWIN
	return getprogname();
#else
	extern char *program_invocation_short_name;
	return program_invocation_short_name;
#endif
}

static void vmsg(const char *fmt, va_list ap, int errnum)
{
	/* One write, so concurrent writers cannot interleave within the line. */
	char buf[2048];
	int n = snprintf(buf, sizeof buf, "%s: ", prog());
	if (n < 0 || (size_t)n >= sizeof buf)
		n = 0;
	int m = vsnprintf(buf + n, sizeof buf - n, fmt, ap);
	if (m > 0)
		n = (size_t)(n + m) >= sizeof buf ? (int)sizeof buf - 1 : n + m;
	if (errnum)
		n += snprintf(buf + n, sizeof buf - n, ": %s", strerror(errnum));
	if ((size_t)n >= sizeof buf - 1)
		n = sizeof buf - 2;
	buf[n++] = '\n';
	(void)!write(STDERR_FILENO, buf, n);
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
	va_end(ap);
	exit(fatal_exit_status);
}

void die_errno(const char *fmt, ...)
{
	int e = errno;
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap, e);
	va_end(ap);
	exit(fatal_exit_status);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
	va_end(ap);
}

void finish_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		die_errno("cannot write to standard output");
}

int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void child_tie_to_parent(pid_t parent)
{
#ifdef KJ_OS_LINUX
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		_exit(1);
#endif
	if (getppid() != parent)
		_exit(1);
	int dn = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (dn >= 0) {
		dup2(dn, STDIN_FILENO);
		dup2(dn, STDOUT_FILENO);
		if (dn > STDERR_FILENO)
			close(dn);
	}
}

static void *oom(void)
{
	die("out of memory");
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	return p ? p : oom();
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	return p ? p : oom();
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	n = n ? n : 1;
	size = size ? size : 1;
#ifdef HAVE_REALLOCARRAY
	void *q = reallocarray(p, n, size);
#else
	void *q = n > SIZE_MAX / size ? NULL : realloc(p, n * size);
#endif
	return q ? q : oom();
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);
	return p ? p : oom();
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);
	return p ? p : oom();
}

void *xmemdup(const void *p, size_t n)
{
	void *q = xmalloc(n ? n : 1);
	memcpy(q, p, n);
	return q;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *p;
	if (vasprintf(&p, fmt, ap) < 0)
		oom();
	return p;
}

bool cloexec_above_2(void)
{
#if defined(KJ_OS_LINUX) && defined(SYS_close_range)
	/* CLOSE_RANGE_CLOEXEC, which <linux/close_range.h> before 5.11 lacks */
	if (syscall(SYS_close_range, 3U, ~0U, 1U << 2) == 0)
		return true;
	if (errno != ENOSYS && errno != EINVAL)
		return false;
#endif
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		d = opendir("/dev/fd");
	if (!d)
		return false;
	struct dirent *e;
	bool ok = true;
	while (ok && (e = readdir(d))) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);
		if (*end || end == e->d_name || fd < 3 || fd == dirfd(d))
			continue;
		ok = fcntl((int)fd, F_SETFD, FD_CLOEXEC) == 0 || errno == EBADF;
	}
	int saved = errno;
	closedir(d);
	errno = saved;
	return ok;
}

char *xconcat(const char *first, ...)
{
	size_t total = 1;
	va_list ap;
	va_start(ap, first);
	for (const char *s = first; s; s = va_arg(ap, const char *))
		total += strlen(s);
	va_end(ap);
	char *out = xmalloc(total), *p = out;
	va_start(ap, first);
	for (const char *s = first; s; s = va_arg(ap, const char *)) {
		size_t n = strlen(s);
		memcpy(p, s, n);
		p += n;
	}
	va_end(ap);
	*p = '\0';
	return out;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

void fmt_into(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

bool str_has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool str_eq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

void closep(int *fd)
{
	if (*fd >= 0) {
		int e = errno;
		close(*fd);
		errno = e;
	}
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
size_t utf8_seq(const unsigned char *s, size_t n)
{
	if (s[0] < 0x80)
		return 1;
	size_t len;
	unsigned min;
	unsigned cp;
	if ((s[0] & 0xe0) == 0xc0)
		len = 2, min = 0x80, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3, min = 0x800, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		len = 4, min = 0x10000, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

bool utf8_printable(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		if (u[i] < 0x20 || u[i] == 0x7f)
			return false;
		size_t k = utf8_seq(u + i, n - i);
		if (k == 0)
			return false;
		i += k;
	}
	return true;
}

void ctrl_scrub(char *s)
{
	for (unsigned char *p = (unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			*p = '?';
}

/* All of fd from where it stands, cap bytes of room to start with. Grown
 * by hand, not in a strbuf: strbuf is built on this file's die() and
 * xreallocarray(), and source-graph.test allows no loop between files. */
static char *read_rest(int fd, size_t max, size_t cap, size_t *len_out)
{
	size_t len = 0;
	char *buf = xmalloc(cap + 1);
	for (;;) {
		ssize_t r = read(fd, buf + len, cap - len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(buf);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		len += (size_t)r;
		if (len > max) {
			free(buf);
			errno = EFBIG;
			return NULL;
		}
		if (len == cap) {
			cap *= 2;
			buf = xreallocarray(buf, cap + 1, 1);
		}
	}
	buf[len] = '\0';
	if (len_out)
		*len_out = len;
	return buf;
}

char *read_fd_capped(int fd, size_t max, size_t *len_out)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return NULL;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return NULL;
	}
	if ((size_t)st.st_size > max) {
		errno = EFBIG;
		return NULL;
	}
	/* a /proc file says 0 whatever it holds: a page to start with, not
	 * a byte (/proc/self/mountinfo took eleven reads) */
	size_t hint = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
	return read_rest(fd, max, hint < max + 1 ? hint : max + 1, len_out);
}

char *read_stream_capped(int fd, size_t max, size_t *len_out)
{
	return read_rest(fd, max, 4096, len_out);
}

char *read_file_capped(const char *path, size_t max, size_t *len_out)
{
	/* O_NONBLOCK: opening a FIFO planted in place of a config must not hang. */
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	return read_fd_capped(fd, max, len_out);
}

size_t read_text(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	while (n + 1 < cap) {
		ssize_t r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	return n;
}

int proc_children_read_fd(int fd, int *out, int max)
{
	int n = 0;
	long pid = -1; /* the number being read, -1 between numbers */
	char buf[512];
	ssize_t r = 0;
	off_t at = 0;
	while (n < max && ((r = pread(fd, buf, sizeof buf, at)) > 0 || (r < 0 && errno == EINTR))) {
		if (r < 0)
			continue;
		at += r;
		for (ssize_t i = 0; i < r && n < max; i++) {
			if (buf[i] >= '0' && buf[i] <= '9') {
				pid = (pid < 0 ? 0 : pid * 10) + (buf[i] - '0');
				if (pid > 0x3fffffff)
					pid = 0; /* no such pid: dropped below */
			} else {
				if (pid > 0)
					out[n++] = (int)pid;
				pid = -1;
			}
		}
	}
	if (n < max && pid > 0)
		out[n++] = (int)pid;
	return r < 0 && n < max ? -1 : n;
}

int proc_children_read(const char *path, int *out, int max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int n = proc_children_read_fd(fd, out, max);
	int e = errno;
	close(fd);
	errno = e;
	return n;
}

bool dir_names_present(int fd, const char *const *name, const size_t *len, size_t n,
		       bool *present)
{
	return dir_names_linked(fd, name, len, n, present, NULL);
}

#if defined(__linux__) && defined(SYS_getdents64)
void dirents_match(const char *buf, size_t size, const char *const *name, const size_t *len,
		   size_t n, bool *present, bool *link)
{
	for (size_t off = 0; off + 19 < size;) {
		/* struct linux_dirent64: ino, off, reclen, type, name */
		unsigned short reclen;
		memcpy(&reclen, buf + off + 16, sizeof reclen);
		if (reclen < 20 || off + reclen > size)
			break;
		const char *d = buf + off + 19;
		size_t dlen = strnlen(d, reclen - 19);
		/* d_type: a file system that does not say may hold a link */
		unsigned char type = (unsigned char)buf[off + 18];
		for (size_t i = 0; i < n; i++)
			if (!present[i] && len[i] == dlen && memcmp(d, name[i], dlen) == 0) {
				present[i] = true;
				if (link)
					link[i] = type == DT_LNK || type == DT_UNKNOWN;
			}
		off += reclen;
	}
}

ssize_t dir_read_one(int fd, char *buf, size_t cap)
{
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	long r = syscall(SYS_getdents64, fd, buf, cap);
	if (r <= 0)
		return r < 0 ? -1 : 0;
	char probe[512];
	long more = syscall(SYS_getdents64, fd, probe, sizeof probe);
	if (more != 0)
		return -1; /* more than one buffer, or an error */
	return r;
}
#endif

bool dir_names_linked(int fd, const char *const *name, const size_t *len, size_t n,
		      bool *present, bool *link)
{
#if defined(__linux__) && defined(SYS_getdents64)
	memset(present, 0, n * sizeof *present);
	if (link)
		memset(link, 0, n * sizeof *link);
	if (lseek(fd, 0, SEEK_SET) < 0)
		return false;
	union {
		char c[4096]; /* a page: most directories are read in one call */
		uint64_t align;
	} buf;
	long r;
	while ((r = syscall(SYS_getdents64, fd, buf.c, sizeof buf.c)) > 0)
		dirents_match(buf.c, (size_t)r, name, len, n, present, link);
	return r == 0;
#else
	(void)fd, (void)name, (void)len, (void)n, (void)present, (void)link;
	return false;
#endif
}

bool fd_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n > 0) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return false;
		}
		c += w;
		n -= (size_t)w;
	}
	return true;
}
