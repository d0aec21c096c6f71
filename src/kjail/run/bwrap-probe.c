/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "run/bwrap-probe.h"
#include "util.h"

#ifdef KJ_OS_LINUX
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CACHE_NAME "bwrap-probe"

/* What would change the answer: the boot (the kernel and its sysctls),
 * the bwrap binary, the mount namespace (a read-only /proc/sys), the user
 * namespace and the uid. */
static bool probe_key(const char *bwrap, char *key, size_t len)
{
	char boot[64];
	_cleanup_close_ int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read_text(fd, boot, sizeof boot) < 32)
		return false;
	boot[strcspn(boot, "\n")] = '\0';
	struct stat b, mnt, user;
	if (stat(bwrap, &b) < 0 || stat("/proc/self/ns/mnt", &mnt) < 0 ||
	    stat("/proc/self/ns/user", &user) < 0)
		return false;
	fmt_into(key, len,
		 "boot=%s bwrap=%s:%llx:%llu:%lld:%lld.%09ld:%lld.%09ld mnt=%llu user=%llu uid=%u",
		 boot, bwrap, (unsigned long long)b.st_dev, (unsigned long long)b.st_ino,
		 (long long)b.st_size, (long long)b.st_mtim.tv_sec, b.st_mtim.tv_nsec,
		 (long long)b.st_ctim.tv_sec, b.st_ctim.tv_nsec, (unsigned long long)mnt.st_ino,
		 (unsigned long long)user.st_ino, (unsigned)geteuid());
	return strlen(key) + 1 < len;
}

/* A directory of the caller's that no one else may write, or -1. */
static int own_dir(int at, const char *path)
{
	int fd = openat(at, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 022))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* kjail's state directory ($XDG_RUNTIME_DIR/kjail, as the credential
 * scan's memory: /run/user/UID without the variable; root's /run/kjail),
 * with make made 0700 if missing; or -1: then nothing is kept. */
static int state_dir(bool make)
{
	const char *x = getenv("XDG_RUNTIME_DIR");
	char def[64];
	fmt_into(def, sizeof def, "/run/user/%u", (unsigned)geteuid());
	_cleanup_close_ int base = own_dir(AT_FDCWD, x && x[0] == '/' ? x : def);
	if (base < 0 && geteuid() == 0)
		base = open("/run", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (base < 0)
		return -1;
	if (make && mkdirat(base, "kjail", 0700) < 0 && errno != EEXIST)
		return -1;
	return own_dir(base, "kjail");
}

static bool cache_read(int dir, const char *key, struct bwrap_probe *out)
{
	_cleanup_close_ int fd = openat(dir, CACHE_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char buf[1024];
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022) || st.st_size >= (off_t)sizeof buf)
		return false;
	size_t n = read_text(fd, buf, sizeof buf);
	return probe_cache_parse(buf, n, key, out);
}

/* Written beside it, then renamed over it: a reader sees the old file or
 * the new, whole. A failure costs only the next run's probe. */
static void cache_write(int dir, const char *key, const struct bwrap_probe *r)
{
	_cleanup_free_ char *text = probe_cache_text(key, r);
	if (!text)
		return;
	char tmp[64];
	snprintf(tmp, sizeof tmp, "." CACHE_NAME ".%ld", (long)getpid());
	unlinkat(dir, tmp, 0);
	int fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	size_t len = strlen(text);
	bool ok = fchmod(fd, 0600) == 0 && write(fd, text, len) == (ssize_t)len;
	ok = close(fd) == 0 && ok;
	if (!ok || renameat(dir, tmp, dir, CACHE_NAME) < 0)
		unlinkat(dir, tmp, 0);
}

/* bwrap's exit status around "BWRAP --version", its stderr in err. */
static int try_bwrap(const char *bwrap, bool disable, char *err, size_t len)
{
	err[0] = '\0';
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	char *with[] = { (char *)bwrap, "--unshare-user", "--disable-userns", "--ro-bind", "/", "/",
			 "--", (char *)bwrap, "--version", NULL };
	char *without[] = { (char *)bwrap, "--unshare-user", "--ro-bind", "/", "/",
			    "--", (char *)bwrap, "--version", NULL };
	char *const no_env[] = { NULL };
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(null, STDOUT_FILENO) < 0 ||
		    dup2(p[1], STDERR_FILENO) < 0)
			_exit(127);
		execve(bwrap, disable ? with : without, no_env);
		_exit(127);
	}
	close(p[1]);
	if (pid > 0)
		read_text(p[0], err, len);
	close(p[0]);
	int st = 0;
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return pid < 0 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void probe_now(const char *bwrap, struct bwrap_probe *out)
{
	char err[1024];
	*out = (struct bwrap_probe){ .state = BWRAP_PROBE_WORKS };
	if (try_bwrap(bwrap, true, err, sizeof err) == 0)
		return;
	probe_cache_reason(err, out->why, sizeof out->why);
	out->state = try_bwrap(bwrap, false, err, sizeof err) == 0 ? BWRAP_PROBE_NO_DISABLE
								     : BWRAP_PROBE_BWRAP_FAILS;
}

void bwrap_probe(const char *bwrap, bool may_probe, struct bwrap_probe *out)
{
	*out = (struct bwrap_probe){ .state = BWRAP_PROBE_UNKNOWN };
	char key[1024];
	bool keyed = probe_key(bwrap, key, sizeof key);
	/* --print and --explain make nothing */
	_cleanup_close_ int dir = keyed ? state_dir(may_probe) : -1;
	if (dir >= 0 && cache_read(dir, key, out))
		return;
	if (!may_probe)
		return;
	probe_now(bwrap, out);
	if (dir >= 0 && out->state != BWRAP_PROBE_BWRAP_FAILS)
		cache_write(dir, key, out);
}

void bwrap_probe_stale(const char *bwrap, char *fix, size_t len)
{
	fix[0] = '\0';
	struct bwrap_probe r;
	probe_now(bwrap, &r);
	char key[1024];
	_cleanup_close_ int dir = probe_key(bwrap, key, sizeof key) ? state_dir(true) : -1;
	if (dir >= 0 && r.state != BWRAP_PROBE_BWRAP_FAILS)
		cache_write(dir, key, &r);
	if (r.state == BWRAP_PROBE_NO_DISABLE)
		fmt_into(fix, len,
			 "kjail's cached probe said bwrap could --disable-userns here, a fresh one "
			 "says it cannot, and is kept: run kjail again (user namespaces will be "
			 "refused by seccomp alone)");
}
#else
void bwrap_probe(const char *bwrap, bool may_probe, struct bwrap_probe *out)
{
	(void)bwrap;
	(void)may_probe;
	*out = (struct bwrap_probe){ .state = BWRAP_PROBE_UNKNOWN };
}

void bwrap_probe_stale(const char *bwrap, char *fix, size_t len)
{
	(void)bwrap;
	if (len)
		fix[0] = '\0';
}
#endif
