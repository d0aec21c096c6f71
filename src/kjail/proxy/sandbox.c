/* SPDX-License-Identifier: MIT */
/* The proxy's confinement (proxy/sandbox.h): the resolver warmed up, a
 * Landlock domain over its directories, a seccomp allowlist. */
#include "config.h"

#include "proxy/sandbox.h"
#include "entry/landlock.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifdef KJ_OS_LINUX
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#endif
#ifdef HAVE_SECCOMP
#include <seccomp.h>
#endif

/* /etc for resolv.conf, hosts, nsswitch.conf, host.conf, gai.conf and
 * localtime; the rest are where resolv.conf's link points on the usual
 * systems (systemd-resolved, NetworkManager, resolvconf, connman). */
static const char *const dirs[] = {
	"/etc", "/run/systemd/resolve", "/run/NetworkManager", "/run/resolvconf",
	"/run/connman", NULL,
};

/* The files whose real directories are granted too (NixOS links /etc/hosts
 * into its store, resolvconf or a VPN client may link resolv.conf into a
 * directory of its own). */
static const char *const files[] = {
	"/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/host.conf",
	"/etc/gai.conf", NULL,
};

const char *const *proxy_sandbox_dirs(void)
{
	return dirs;
}

/* Everything the resolver loads on first use loaded now, while the files
 * it comes from (NSS modules in the library directories) can be read. */
static void warm_up(void)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *ai = NULL;
	if (getaddrinfo("localhost", "80", &hints, &ai) == 0)
		freeaddrinfo(ai);
	tzset();
}

#ifdef KJ_OS_LINUX
static int confine_reads(bool resolves, char *err, size_t errlen)
{
	const char *ro[ARRAY_SIZE(dirs) + ARRAY_SIZE(files)];
	char real[ARRAY_SIZE(files)][PATH_MAX];
	size_t n = 0;
	if (!resolves)
		return landlock_restrict_reads(NULL, 0, err, errlen);
	for (size_t i = 0; dirs[i]; i++)
		ro[n++] = dirs[i];
	for (size_t i = 0; files[i]; i++) {
		if (!realpath(files[i], real[i]))
			continue;
		char *slash = strrchr(real[i], '/');
		if (!slash || slash == real[i])
			continue; /* not the whole file system for one file */
		*slash = '\0';
		ro[n++] = real[i];
	}
	return landlock_restrict_reads(ro, n, err, errlen);
}
#endif

#ifdef HAVE_SECCOMP
/* Allowed with any arguments. Names this ABI does not have are skipped. */
static const char *const plain[] = {
	/* descriptors */
	"read", "readv", "pread64", "write", "writev", "close", "lseek", "_llseek", "dup",
	"dup3", "fcntl", "fcntl64", "pipe", "pipe2",
	/* the log's cap (proxy/log.c) rewrites the log in place, at the
	 * proxy's own offset: pread above, and fstat and fcntl(F_SETFL) on
	 * it; the only file it can write is the one kjail opened for it */
	"pwrite64", "ftruncate", "ftruncate64",
	/* sockets already made, and those socket() below allows */
	"connect", "accept", "accept4", "shutdown", "getsockopt", "setsockopt", "getsockname",
	"getpeername", "recv", "recvfrom", "recvmsg", "recvmmsg", "recvmmsg_time64", "send",
	"sendto", "sendmsg", "sendmmsg",
	/* waiting */
	"poll", "ppoll", "ppoll_time64", "select", "_newselect", "pselect6", "pselect6_time64",
	"epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait",
	"epoll_pwait2",
	/* memory (mmap and mprotect below) */
	"brk", "munmap", "mremap", "madvise",
	/* threads (clone below) */
	"futex", "futex_time64", "set_robust_list", "rseq", "set_tid_address", "sched_yield",
	"sched_getaffinity",
	/* signals (tgkill below) */
	"rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigreturn", "sigaltstack",
	"restart_syscall",
	/* time */
	"clock_gettime", "clock_gettime64", "clock_getres", "clock_getres_time64",
	"clock_nanosleep", "clock_nanosleep_time64", "nanosleep", "gettimeofday", "time",
	/* the resolver's reading (open and openat below) */
	"fstat", "fstat64", "newfstatat", "fstatat64", "stat", "stat64", "lstat", "lstat64",
	"statx", "uname", "getrandom",
	/* who it is */
	"getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getuid32",
	"geteuid32", "getgid32", "getegid32", "getrlimit", "ugetrlimit", "setrlimit",
	"exit", "exit_group",
	NULL,
};

#define SC(a, op, x, y) ((struct scmp_arg_cmp){ (a), (op), (x), (y) })
#define OPEN_WRITES (O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND | 020000000 /* __O_TMPFILE */)

struct ctx {
	scmp_filter_ctx f;
	char *err;
	size_t errlen;
	bool bad;
};

static void rule(struct ctx *x, uint32_t action, const char *name, unsigned n,
		 const struct scmp_arg_cmp *c)
{
	if (x->bad)
		return;
	int nr = seccomp_syscall_resolve_name(name);
	if (nr == __NR_SCMP_ERROR)
		return; /* not a call of this ABI */
	int rc = seccomp_rule_add_array(x->f, action, nr, n, c);
	if (rc < 0) {
		fmt_into(x->err, x->errlen, "seccomp: the rule for %s: %s", name, strerror(-rc));
		x->bad = true;
	}
}

/* socket(): AF_INET and AF_INET6, stream or datagram; any other family
 * refused with EPERM (each range its own rule, so none overlaps an
 * allowed one); a raw or packet socket of those two families is left to
 * the default. */
static void sockets(struct ctx *x)
{
	static const unsigned fam[] = { AF_INET, AF_INET6 }, type[] = { SOCK_STREAM, SOCK_DGRAM };
	for (size_t i = 0; i < ARRAY_SIZE(fam); i++)
		for (size_t k = 0; k < ARRAY_SIZE(type); k++) {
			struct scmp_arg_cmp c[2] = { SC(0, SCMP_CMP_EQ, fam[i], 0),
						     SC(1, SCMP_CMP_MASKED_EQ, 0xf, type[k]) };
			rule(x, SCMP_ACT_ALLOW, "socket", 2, c);
		}
	_Static_assert(AF_INET == 2 && AF_INET6 == 10, "the ranges below assume these");
	struct scmp_arg_cmp lo = SC(0, SCMP_CMP_LT, AF_INET, 0),
			    hi = SC(0, SCMP_CMP_GT, AF_INET6, 0);
	rule(x, SCMP_ACT_ERRNO(EPERM), "socket", 1, &lo);
	rule(x, SCMP_ACT_ERRNO(EPERM), "socket", 1, &hi);
	for (unsigned f = AF_INET + 1; f < AF_INET6; f++) {
		struct scmp_arg_cmp c = SC(0, SCMP_CMP_EQ, f, 0);
		rule(x, SCMP_ACT_ERRNO(EPERM), "socket", 1, &c);
	}
}

static void conditional(struct ctx *x)
{
	/* opening for reading only: no write, create, truncate or temporary file */
	struct scmp_arg_cmp ro2 = SC(2, SCMP_CMP_MASKED_EQ, OPEN_WRITES, 0),
			    ro1 = SC(1, SCMP_CMP_MASKED_EQ, OPEN_WRITES, 0);
	rule(x, SCMP_ACT_ALLOW, "openat", 1, &ro2);
	rule(x, SCMP_ACT_ALLOW, "open", 1, &ro1);
	/* no new executable memory */
	struct scmp_arg_cmp nox = SC(2, SCMP_CMP_MASKED_EQ, PROT_EXEC, 0);
	rule(x, SCMP_ACT_ALLOW, "mmap", 1, &nox);
	rule(x, SCMP_ACT_ALLOW, "mmap2", 1, &nox);
	rule(x, SCMP_ACT_ALLOW, "mprotect", 1, &nox);
	/* threads, never processes; clone3's flags lie in memory a filter
	 * cannot read, and glibc falls back to clone on ENOSYS */
#if defined(__s390__) || defined(__s390x__)
	struct scmp_arg_cmp thread = SC(1, SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD);
#else
	struct scmp_arg_cmp thread = SC(0, SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD);
#endif
	rule(x, SCMP_ACT_ALLOW, "clone", 1, &thread);
	rule(x, SCMP_ACT_ERRNO(ENOSYS), "clone3", 0, NULL);
	/* a signal to itself (abort, raise), to no other process */
	struct scmp_arg_cmp self = SC(0, SCMP_CMP_EQ, (scmp_datum_t)getpid(), 0);
	rule(x, SCMP_ACT_ALLOW, "tgkill", 1, &self);
	/* its own limits only (setrlimit and getrlimit are prlimit64(0, ...)) */
	struct scmp_arg_cmp own = SC(0, SCMP_CMP_EQ, 0, 0);
	rule(x, SCMP_ACT_ALLOW, "prlimit64", 1, &own);
	/* what is waiting on a socket, non-blocking mode; a terminal probe
	 * (isatty) answered "not a terminal" */
	static const unsigned long ok_ioctl[] = { FIONREAD, FIONBIO };
	for (size_t i = 0; i < ARRAY_SIZE(ok_ioctl); i++) {
		struct scmp_arg_cmp c = SC(1, SCMP_CMP_EQ, ok_ioctl[i], 0);
		rule(x, SCMP_ACT_ALLOW, "ioctl", 1, &c);
	}
	struct scmp_arg_cmp tcgets = SC(1, SCMP_CMP_EQ, TCGETS, 0);
	rule(x, SCMP_ACT_ERRNO(ENOTTY), "ioctl", 1, &tcgets);
	sockets(x);
}

static bool filter(char *err, size_t errlen)
{
	struct ctx x = { seccomp_init(SCMP_ACT_KILL_PROCESS), err, errlen, false };
	if (!x.f) {
		fmt_into(err, errlen, "seccomp: cannot initialise libseccomp");
		return false;
	}
	int rc = seccomp_attr_set(x.f, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	if (rc == 0)
		rc = seccomp_attr_set(x.f, SCMP_FLTATR_CTL_TSYNC, 1);
	if (rc < 0) {
		fmt_into(err, errlen, "seccomp: %s", strerror(-rc));
		x.bad = true;
	}
	for (size_t i = 0; plain[i]; i++)
		rule(&x, SCMP_ACT_ALLOW, plain[i], 0, NULL);
	conditional(&x);
	if (!x.bad && (rc = seccomp_load(x.f)) < 0) {
		fmt_into(err, errlen, "seccomp: cannot load the proxy's filter: %s", strerror(-rc));
		x.bad = true;
	}
	seccomp_release(x.f);
	return !x.bad;
}
#endif

bool proxy_sandbox_apply(bool resolves, char *err, size_t errlen)
{
	if (resolves)
		warm_up();
#ifdef KJ_OS_LINUX
	if (confine_reads(resolves, err, errlen) == LL_FAILED)
		return false;
#ifdef HAVE_SECCOMP
	return filter(err, errlen);
#else
	fmt_into(err, errlen, "this kjail was built without libseccomp: its proxy does not run "
			      "unfiltered; rebuild with libseccomp");
	return false;
#endif
#else
	(void)err, (void)errlen;
	return true;
#endif
}
