#include "config.h"
#include "landlock.h"
#include "util.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#ifdef KJ_OS_LINUX
#include <sys/prctl.h>
#include <sys/syscall.h>

/* Debian 12's headers predate the scoped field; the ABI is stable. */
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif
#ifndef __NR_landlock_restrict_self
#define __NR_landlock_restrict_self 446
#endif
#define KJ_LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#define KJ_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define KJ_LANDLOCK_SCOPE_SIGNAL (1ULL << 1)

struct kj_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

int landlock_abi(void)
{
	long v = syscall(__NR_landlock_create_ruleset, NULL, 0, KJ_LANDLOCK_CREATE_RULESET_VERSION);
	return v < 0 ? -1 : (int)v;
}

const char *landlock_status(void)
{
	int abi = landlock_abi();
	if (abi < 0)
		return "Landlock unavailable on this kernel: abstract Unix sockets and signals "
		       "outside the jail are not scoped (the PID namespace still hides processes)";
	if (abi < LANDLOCK_SCOPES_ABI)
		return "Landlock ABI too old for scopes (needs 6, Linux 6.12): abstract Unix "
		       "sockets outside the jail stay reachable while the network is shared";
	return "Landlock scopes on: no abstract Unix sockets or signals outside the jail";
}

int landlock_apply_scopes(char *err, size_t errlen)
{
	int abi = landlock_abi();
	if (abi < LANDLOCK_SCOPES_ABI)
		return LL_UNSUPPORTED;
	struct kj_ruleset_attr attr = {
		.scoped = KJ_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | KJ_LANDLOCK_SCOPE_SIGNAL,
	};
	int fd = (int)syscall(__NR_landlock_create_ruleset, &attr, sizeof attr, 0);
	if (fd < 0) {
		fmt_into(err, errlen, "landlock_create_ruleset: %s", strerror(errno));
		return LL_FAILED;
	}
	int rc = LL_APPLIED;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		fmt_into(err, errlen, "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
		rc = LL_FAILED;
	} else if (syscall(__NR_landlock_restrict_self, fd, 0) < 0) {
		fmt_into(err, errlen, "landlock_restrict_self: %s", strerror(errno));
		rc = LL_FAILED;
	}
	close(fd);
	return rc;
}
#else
/* Landlock is Linux's: nothing to apply, and the status says so. */
int landlock_abi(void)
{
	errno = ENOSYS;
	return -1;
}

const char *landlock_status(void)
{
	return "Landlock is Linux-only";
}

int landlock_apply_scopes(char *err, size_t errlen)
{
	(void)err, (void)errlen;
	return LL_UNSUPPORTED;
}
#endif
