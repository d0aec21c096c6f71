/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "entry/landlock.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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

const char *landlock_status(bool mounts)
{
	int abi = landlock_abi();
	if (mounts && abi >= LANDLOCK_SCOPES_ABI)
		return "Landlock scopes only: no abstract Unix sockets or signals outside the jail; "
		       "no write rules (--allow-userns: the jail mounts, which a domain with them "
		       "refuses), so a file passed in that you can write or own is refused";
	if (mounts && abi >= 0)
		return "Landlock applies nothing: --allow-userns turns the write rules off (the "
		       "jail mounts) and this ABI has no scopes (needs 6, Linux 6.12); a file "
		       "passed in that you can write or own is refused";
	if (abi < 0)
		return "Landlock unavailable on this kernel: abstract Unix sockets and signals "
		       "outside the jail are not scoped (the PID namespace still hides processes), "
		       "and a file passed in that you can write or own is refused";
	if (abi < LANDLOCK_WRITES_ABI)
		return "Landlock ABI too old for write rules (needs 3, Linux 6.2) and for scopes "
		       "(needs 6): scopes off, and a file passed in that you can write or own is refused";
	if (abi < LANDLOCK_SCOPES_ABI)
		return "Landlock on for writes (only under the writable paths, whatever descriptor "
		       "is reopened); ABI too old for scopes (needs 6, Linux 6.12), so scopes off: "
		       "abstract Unix sockets outside the jail stay reachable while the network is "
		       "shared";
	return "Landlock on: writes only under the writable paths (whatever descriptor is "
	       "reopened); no abstract Unix sockets or signals outside the jail";
}

#define KJ_LANDLOCK_RULE_PATH_BENEATH 1
#ifndef __NR_landlock_add_rule
#define __NR_landlock_add_rule 445
#endif

struct kj_path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

/* A rule letting the command write under path (a directory) or to it (a
 * file), opened O_PATH; false with errno. */
static bool add_writable(int ruleset, const char *path)
{
	int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	bool ok = fstat(fd, &st) == 0;
	if (ok) {
		struct kj_path_beneath pb = {
			.allowed_access = S_ISDIR(st.st_mode) ? LL_FS_WRITES : LL_FS_FILE_WRITES,
			.parent_fd = fd,
		};
		ok = syscall(__NR_landlock_add_rule, ruleset, KJ_LANDLOCK_RULE_PATH_BENEATH, &pb, 0) == 0;
	}
	int e = errno;
	close(fd);
	errno = e;
	return ok;
}

/* When the rules were all added (rc LL_APPLIED): no_new_privs, then the
 * ruleset fd enforced on this process; closes fd either way. */
static int enforce(int fd, int rc, char *err, size_t errlen)
{
	if (rc == LL_APPLIED && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		fmt_into(err, errlen, "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
		rc = LL_FAILED;
	} else if (rc == LL_APPLIED && syscall(__NR_landlock_restrict_self, fd, 0) < 0) {
		fmt_into(err, errlen, "landlock_restrict_self: %s", strerror(errno));
		rc = LL_FAILED;
	}
	close(fd);
	return rc;
}

int landlock_apply(const char *const *rw, size_t nrw, const int std[3], bool mounts,
		   char *err, size_t errlen)
{
	int abi = landlock_abi();
	/* a domain that handles any file-system right refuses every mount,
	 * umount and pivot_root, in any namespace */
	bool writes = abi >= LANDLOCK_WRITES_ABI && !mounts, scopes = abi >= LANDLOCK_SCOPES_ABI;
	if (!writes && !scopes)
		return LL_UNSUPPORTED;
	struct kj_ruleset_attr attr = {
		.handled_access_fs = writes ? LL_FS_WRITES : 0,
		.scoped = scopes ? KJ_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | KJ_LANDLOCK_SCOPE_SIGNAL : 0,
	};
	/* an older kernel takes the longer attribute when what it does not
	 * know is zero */
	int fd = (int)syscall(__NR_landlock_create_ruleset, &attr, sizeof attr, 0);
	if (fd < 0) {
		fmt_into(err, errlen, "landlock_create_ruleset: %s", strerror(errno));
		return LL_FAILED;
	}
	int rc = LL_APPLIED;
	for (size_t i = 0; writes && i < nrw && rc == LL_APPLIED; i++)
		if (!add_writable(fd, rw[i])) {
			fmt_into(err, errlen, "writable path %s: %s", rw[i], strerror(errno));
			rc = LL_FAILED;
		}
	/* standard input, output and error, as far as they were opened for
	 * writing: reopening them (/dev/stderr) writes no more than they can */
	for (int k = 0; writes && k < 3 && rc == LL_APPLIED; k++) {
		int s = std[k];
		struct stat st;
		int fl = fcntl(s, F_GETFL);
		if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY || fstat(s, &st) != 0 ||
		    !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)))
			continue;
		char path[32];
		snprintf(path, sizeof path, "/proc/self/fd/%d", s);
		if (!add_writable(fd, path)) {
			fmt_into(err, errlen, "descriptor %d: %s", s, strerror(errno));
			rc = LL_FAILED;
		}
	}
	return enforce(fd, rc, err, errlen);
}

/* Every file-system right of ABI abi, as the kernel numbers them: 13 in
 * ABI 1, REFER from 2, TRUNCATE from 3, IOCTL_DEV from 5. */
static uint64_t fs_rights(int abi)
{
	uint64_t all = (1ULL << 13) - 1;
	if (abi >= 2)
		all |= LL_FS_REFER;
	if (abi >= 3)
		all |= LL_FS_TRUNCATE;
	if (abi >= 5)
		all |= 1ULL << 15;
	return all;
}

#define KJ_LL_FS_READ_FILE (1ULL << 2)
#define KJ_LL_FS_READ_DIR (1ULL << 3)
#define KJ_LL_NET_BIND_TCP (1ULL << 0)
#define KJ_LL_NET_ABI 4

int landlock_restrict_reads(const char *const *ro, size_t nro, char *err, size_t errlen)
{
	int abi = landlock_abi();
	if (abi < 1)
		return LL_UNSUPPORTED;
	struct kj_ruleset_attr attr = {
		.handled_access_fs = fs_rights(abi),
		.handled_access_net = abi >= KJ_LL_NET_ABI ? KJ_LL_NET_BIND_TCP : 0,
		.scoped = abi >= LANDLOCK_SCOPES_ABI
				  ? KJ_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | KJ_LANDLOCK_SCOPE_SIGNAL
				  : 0,
	};
	/* the longer attribute, as in landlock_apply() */
	int fd = (int)syscall(__NR_landlock_create_ruleset, &attr, sizeof attr, 0);
	if (fd < 0) {
		fmt_into(err, errlen, "landlock_create_ruleset: %s", strerror(errno));
		return LL_FAILED;
	}
	int rc = LL_APPLIED;
	for (size_t i = 0; i < nro && rc == LL_APPLIED; i++) {
		int d = open(ro[i], O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (d < 0 && (errno == ENOENT || errno == ENOTDIR))
			continue;
		struct kj_path_beneath pb = { KJ_LL_FS_READ_FILE | KJ_LL_FS_READ_DIR, d };
		if (d < 0 || syscall(__NR_landlock_add_rule, fd, KJ_LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0) {
			fmt_into(err, errlen, "readable directory %s: %s", ro[i], strerror(errno));
			rc = LL_FAILED;
		}
		if (d >= 0)
			close(d);
	}
	return enforce(fd, rc, err, errlen);
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

int landlock_apply(const char *const *rw, size_t nrw, const int std[3], bool mounts,
		   char *err, size_t errlen)
{
	(void)rw, (void)nrw, (void)std, (void)mounts, (void)err, (void)errlen;
	return LL_UNSUPPORTED;
}

int landlock_restrict_reads(const char *const *ro, size_t nro, char *err, size_t errlen)
{
	(void)ro, (void)nro, (void)err, (void)errlen;
	return LL_UNSUPPORTED;
}
#endif
