/* SPDX-License-Identifier: MIT */
/* The relay's confinement (agent/sandbox.h). */
#include "config.h"
#include "agent/sandbox.h"
#include "entry/landlock.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifdef KJ_OS_LINUX
#include <sys/ioctl.h>
#include <sys/mman.h>
#endif
#ifdef HAVE_SECCOMP
#include <seccomp.h>
#endif

#ifdef HAVE_SECCOMP
/* Allowed with any arguments; names this ABI does not have are skipped.
 * No open, no execve, no fork: the relay holds what it needs. */
static const char *const plain[] = {
	"read", "write", "writev", "close", "fcntl", "fcntl64",
	"connect", "accept", "accept4", "shutdown", "getsockopt", "setsockopt", "recv",
	"recvfrom", "recvmsg", "send", "sendto", "sendmsg",
	"poll", "ppoll", "ppoll_time64",
	"brk", "munmap", "mremap", "madvise",
	"rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigreturn", "restart_syscall",
	"sigaltstack", "futex", "sched_yield", "getrlimit", "ugetrlimit",
	"clock_gettime", "clock_gettime64", "clock_nanosleep", "nanosleep", "gettimeofday",
	"fstat", "fstat64", "newfstatat", "fstatat64", "statx", "getrandom",
	"getpid", "gettid", "getppid", "exit", "exit_group",
	NULL,
};

#define SC(a, op, x, y) ((struct scmp_arg_cmp){ (a), (op), (x), (y) })

static bool add(scmp_filter_ctx f, uint32_t action, const char *name, unsigned n,
		const struct scmp_arg_cmp *c, char *err, size_t errlen)
{
	int nr = seccomp_syscall_resolve_name(name);
	if (nr == __NR_SCMP_ERROR)
		return true;
	int rc = seccomp_rule_add_array(f, action, nr, n, c);
	if (rc < 0)
		fmt_into(err, errlen, "seccomp: the rule for %s: %s", name, strerror(-rc));
	return rc == 0;
}

static bool filter(char *err, size_t errlen)
{
	scmp_filter_ctx f = seccomp_init(SCMP_ACT_KILL_PROCESS);
	if (!f) {
		fmt_into(err, errlen, "seccomp: cannot initialise libseccomp");
		return false;
	}
	bool ok = seccomp_attr_set(f, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) == 0;
	for (size_t i = 0; ok && plain[i]; i++)
		ok = add(f, SCMP_ACT_ALLOW, plain[i], 0, NULL, err, errlen);
	/* a Unix stream socket, the agent's kind; any other refused */
	struct scmp_arg_cmp unix_stream[2] = { SC(0, SCMP_CMP_EQ, AF_UNIX, 0),
					       SC(1, SCMP_CMP_MASKED_EQ, 0xf, SOCK_STREAM) };
	ok = ok && add(f, SCMP_ACT_ALLOW, "socket", 2, unix_stream, err, errlen);
	/* no new executable memory */
	struct scmp_arg_cmp nox = SC(2, SCMP_CMP_MASKED_EQ, PROT_EXEC, 0);
	ok = ok && add(f, SCMP_ACT_ALLOW, "mmap", 1, &nox, err, errlen);
	ok = ok && add(f, SCMP_ACT_ALLOW, "mmap2", 1, &nox, err, errlen);
	ok = ok && add(f, SCMP_ACT_ALLOW, "mprotect", 1, &nox, err, errlen);
	/* a signal to itself (abort), to no other process */
	struct scmp_arg_cmp self = SC(0, SCMP_CMP_EQ, (scmp_datum_t)getpid(), 0);
	ok = ok && add(f, SCMP_ACT_ALLOW, "tgkill", 1, &self, err, errlen);
	/* stdio's terminal probe answered "not a terminal" */
	struct scmp_arg_cmp tcgets = SC(1, SCMP_CMP_EQ, TCGETS, 0);
	ok = ok && add(f, SCMP_ACT_ERRNO(ENOTTY), "ioctl", 1, &tcgets, err, errlen);
	int rc;
	if (ok && (rc = seccomp_load(f)) < 0) {
		fmt_into(err, errlen, "seccomp: cannot load the relay's filter: %s", strerror(-rc));
		ok = false;
	}
	seccomp_release(f);
	return ok;
}
#endif

bool agent_sandbox_apply(const char *agent_path, char *err, size_t errlen)
{
#ifdef KJ_OS_LINUX
	_cleanup_free_ char *dir = xstrdup(agent_path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir)
		*slash = '\0';
	const char *ro[1] = { dir };
	/* the root itself is never granted for one socket */
	if (landlock_restrict_reads(ro, slash && slash != dir ? 1 : 0, err, errlen) == LL_FAILED)
		return false;
#ifdef HAVE_SECCOMP
	return filter(err, errlen);
#else
	fmt_into(err, errlen, "this kjail was built without libseccomp: its ssh-agent relay does "
			      "not run unfiltered; rebuild with libseccomp");
	return false;
#endif
#else
	(void)agent_path, (void)err, (void)errlen;
	return true;
#endif
}
