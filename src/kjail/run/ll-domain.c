// SPDX-License-Identifier: MIT
#include "config.h"
#include "run/ll-domain.h"
#include "build/seccomp.h"
#include "entry/abi.h"
#include "entry/landlock.h"
#include "run/seccomp_load.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/securebits.h>
#include <linux/seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef HAVE_SECCOMP
#include <seccomp.h>
#endif

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif
#ifndef __NR_landlock_add_rule
#define __NR_landlock_add_rule 445
#endif
#ifndef __NR_landlock_restrict_self
#define __NR_landlock_restrict_self 446
#endif

#define FS_EXECUTE (1ULL << 0)
#define FS_READ_FILE (1ULL << 2)
#define FS_READ_DIR (1ULL << 3)
#define FS_READ (FS_EXECUTE | FS_READ_FILE | FS_READ_DIR)
#define FS_FILE_READ (FS_EXECUTE | FS_READ_FILE)
#define NET_BIND_TCP (1ULL << 0)
#define NET_CONNECT_TCP (1ULL << 1)
#define SCOPE_ABSTRACT (1ULL << 0)
#define SCOPE_SIGNAL (1ULL << 1)
#define RULE_PATH_BENEATH 1

struct ll_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

struct ll_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

/* Every file-system right of ABI abi but IOCTL_DEV (a terminal's ioctls
 * stay; TIOCSTI and the like are the seccomp filter's). */
static uint64_t handled_fs(int abi)
{
	uint64_t all = (1ULL << 13) - 1;
	if (abi >= 2)
		all |= LL_FS_REFER;
	if (abi >= 3)
		all |= LL_FS_TRUNCATE;
	return all;
}

struct ctx {
	int ruleset;
	uint64_t handled;
	const struct plan *pl;
	char *err;
	size_t errlen;
};

/* A rule granting want (cut to what a file may carry when path is no
 * directory) on path, never following a final symlink: a symlink gets no
 * rule (access is decided at its target). Missing: skipped. */
static bool grant(struct ctx *c, const char *path, uint64_t want)
{
	int fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == EACCES || errno == ELOOP || errno == ENOTDIR;
	struct stat st;
	bool ok = true;
	if (fstat(fd, &st) == 0 && !S_ISLNK(st.st_mode)) {
		uint64_t a = want & c->handled;
		if (!S_ISDIR(st.st_mode))
			a &= FS_EXECUTE | LL_FS_WRITE_FILE | FS_READ_FILE | LL_FS_TRUNCATE;
		struct ll_beneath pb = { .allowed_access = a, .parent_fd = fd };
		if (a && syscall(__NR_landlock_add_rule, c->ruleset, RULE_PATH_BENEATH, &pb, 0) < 0) {
			fmt_into(c->err, c->errlen, "landlock rule on %s: %s", path, strerror(errno));
			ok = false;
		}
	}
	close(fd);
	return ok;
}

/* Whether path is a mask (1), holds one below it (2), or neither (0). */
static int mask_relation(const struct plan *pl, const char *path)
{
	size_t n = strlen(path);
	int rel = 0;
	for (size_t i = 0; i < pl->nops; i++) {
		const struct op *o = &pl->ops[i];
		if (o->kind != OP_MASK_FILE && o->kind != OP_MASK_DIR)
			continue;
		if (strcmp(o->path, path) == 0)
			return 1;
		if (n == 1 || (strncmp(o->path, path, n) == 0 && o->path[n] == '/'))
			rel = 2;
	}
	return rel;
}

/* The first mask strictly below root, or NULL. */
static const char *mask_inside(const struct plan *pl, const char *root)
{
	size_t n = strlen(root);
	for (size_t i = 0; i < pl->nops; i++) {
		const struct op *o = &pl->ops[i];
		if ((o->kind == OP_MASK_FILE || o->kind == OP_MASK_DIR) &&
		    strncmp(o->path, root, n) == 0 && o->path[n] == '/')
			return o->path;
	}
	return NULL;
}

/* The device nodes a command reads and writes (as bwrap's --dev gives
 * them), and nothing else of the host's /dev: its disks (a root command
 * owns them, and owners need no capability), /dev/pts (the user's other
 * terminals: their keystrokes), /dev/shm (the user's other processes'). */
static const char *const dev_nodes[] = {
	"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", NULL,
};

static bool grant_dev(struct ctx *c)
{
	bool ok = grant(c, "/dev", FS_READ_DIR);
	for (size_t i = 0; ok && dev_nodes[i]; i++)
		ok = grant(c, dev_nodes[i], FS_FILE_READ | LL_FS_WRITE_FILE | LL_FS_TRUNCATE);
	return ok;
}

const char *ll_mask_in_writable(const struct plan *pl, const char **root)
{
	for (size_t i = 0; i < pl->nops; i++) {
		if (pl->ops[i].kind != OP_BIND)
			continue;
		const char *m = mask_inside(pl, pl->ops[i].path);
		if (m) {
			*root = pl->ops[i].path;
			return m;
		}
	}
	return NULL;
}

/* Read rights under dir (a directory holding a mask): listing dir itself,
 * and everything in it but the masks, down to each; /dev only as
 * grant_dev() gives it. */
static bool grant_reads(struct ctx *c, const char *dir)
{
	if (!grant(c, dir, FS_READ_DIR))
		return false;
	DIR *d = opendir(dir);
	if (!d)
		return true; /* no rule under it: refused, fails closed */
	bool ok = true;
	struct dirent *e;
	while (ok && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		_cleanup_free_ char *p = xconcat(strcmp(dir, "/") == 0 ? "" : dir, "/", e->d_name,
						 (char *)NULL);
		if (strcmp(p, "/dev") == 0) {
			ok = grant_dev(c);
			continue;
		}
		switch (mask_relation(c->pl, p)) {
		case 1:
			break;
		case 2:
			ok = grant_reads(c, p);
			break;
		default:
			ok = grant(c, p, FS_READ);
		}
	}
	closedir(d);
	return ok;
}

static bool add_rules(struct ctx *c, const char *tmpdir, const char *ro)
{
	const struct plan *pl = c->pl;
	/* "/" always holds /dev, which grant_reads() cuts down */
	bool ok = grant_reads(c, "/");
	for (size_t i = 0; ok && i < pl->nops; i++) {
		const struct op *o = &pl->ops[i];
		if (o->kind != OP_BIND)
			continue;
		const char *inside = mask_inside(pl, o->path);
		if (inside) {
			/* a rename inside the root would carry the mask out */
			fmt_into(c->err, c->errlen, "%s is masked inside the writable root %s: "
				 "Landlock cannot hold a mask there (a rename would carry it "
				 "out); use --backend bwrap", inside, o->path);
			return false;
		}
		ok = grant(c, o->path, FS_READ | LL_FS_WRITES);
	}
	if (ok)
		ok = grant(c, tmpdir, FS_READ | LL_FS_WRITES);
	if (ok && ro)
		ok = grant(c, ro, FS_READ);
	/* standard input, output and error (the command's terminal among
	 * them, /dev/pts/N), as they were opened: reopening one reads or
	 * writes no more than it could */
	for (int k = 0; ok && k < 3; k++) {
		struct stat st;
		int fl = fcntl(k, F_GETFL);
		if (fl < 0 || fstat(k, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode)))
			continue;
		uint64_t a = (fl & O_ACCMODE) == O_WRONLY ? 0 : FS_READ_FILE;
		if ((fl & O_ACCMODE) != O_RDONLY)
			a |= LL_FS_WRITE_FILE | LL_FS_TRUNCATE;
		char path[32];
		snprintf(path, sizeof path, "/proc/self/fd/%d", k);
		int fd = open(path, O_PATH | O_CLOEXEC);
		if (fd < 0)
			continue;
		struct ll_beneath pb = { .allowed_access = a, .parent_fd = fd };
		if (syscall(__NR_landlock_add_rule, c->ruleset, RULE_PATH_BENEATH, &pb, 0) < 0) {
			fmt_into(c->err, c->errlen, "landlock rule on descriptor %d: %s", k, strerror(errno));
			ok = false;
		}
		close(fd);
	}
	return ok;
}

static bool apply_landlock(const struct plan *pl, const char *tmpdir, const char *ro, char *err,
			   size_t errlen)
{
	int abi = landlock_abi();
	if (abi < LL_BACKEND_MIN_ABI) {
		fmt_into(err, errlen, "--backend landlock needs Landlock ABI %d (Linux 6.2), this "
			 "kernel has %d", LL_BACKEND_MIN_ABI, abi < 0 ? 0 : abi);
		return false;
	}
	bool no_net = pl->net == NET_NONE;
	if (no_net && abi < LL_BACKEND_NET_ABI) {
		fmt_into(err, errlen, "-n with --backend landlock needs Landlock's network rules "
			 "(ABI %d, Linux 6.7); this kernel has ABI %d", LL_BACKEND_NET_ABI, abi);
		return false;
	}
	struct ll_attr attr = {
		.handled_access_fs = handled_fs(abi),
		.handled_access_net = no_net ? NET_BIND_TCP | NET_CONNECT_TCP : 0,
		.scoped = abi >= LANDLOCK_SCOPES_ABI ? SCOPE_ABSTRACT | SCOPE_SIGNAL : 0,
	};
	size_t size = abi >= LANDLOCK_SCOPES_ABI ? sizeof attr
		      : abi >= LL_BACKEND_NET_ABI ? offsetof(struct ll_attr, scoped)
						  : offsetof(struct ll_attr, handled_access_net);
	int fd = (int)syscall(__NR_landlock_create_ruleset, &attr, size, 0);
	if (fd < 0) {
		fmt_into(err, errlen, "landlock_create_ruleset: %s", strerror(errno));
		return false;
	}
	struct ctx c = { .ruleset = fd, .handled = attr.handled_access_fs, .pl = pl,
			 .err = err, .errlen = errlen };
	bool ok = add_rules(&c, tmpdir, ro);
	if (ok && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		fmt_into(err, errlen, "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
		ok = false;
	}
	if (ok && syscall(__NR_landlock_restrict_self, fd, 0) < 0) {
		fmt_into(err, errlen, "landlock_restrict_self: %s", strerror(errno));
		ok = false;
	}
	close(fd);
	return ok;
}

/* Every capability gone for good: securebits first (they need
 * CAP_SETPCAP), then the bounding set, the ambient set, and the rest. A
 * process without CAP_SETPCAP has nothing to drop there but its own sets
 * (no_new_privs keeps exec from adding any). */
static bool drop_caps(char *err, size_t errlen)
{
	bool setpcap = prctl(PR_CAPBSET_READ, CAP_SETPCAP, 0, 0, 0) == 1;
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = { { 0 } };
	if (syscall(SYS_capget, &h, d) == 0)
		setpcap = d[0].effective & (1U << CAP_SETPCAP);
	if (setpcap) {
		unsigned long bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
				     SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
				     SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
				     SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
		if (prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) < 0) {
			fmt_into(err, errlen, "PR_SET_SECUREBITS: %s", strerror(errno));
			return false;
		}
		for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
			if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0) {
				fmt_into(err, errlen, "PR_CAPBSET_DROP %d: %s", cap, strerror(errno));
				return false;
			}
	}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL) {
		fmt_into(err, errlen, "PR_CAP_AMBIENT_CLEAR_ALL: %s", strerror(errno));
		return false;
	}
	memset(d, 0, sizeof d);
	if (syscall(SYS_capset, &h, d) < 0) {
		fmt_into(err, errlen, "capset: %s", strerror(errno));
		return false;
	}
	return true;
}

/* kjail's filter, as the bwrap backend's jail gets it. */
static bool load_kjail_filter(const struct plan *pl, char *err, size_t errlen)
{
	struct sc_opts o = { .allow_userns = false, .no_network = pl->net == NET_NONE };
	int fd = seccomp_export(&o, err, errlen);
	if (fd < 0)
		return false;
	struct stat st;
	bool ok = fstat(fd, &st) == 0 && st.st_size > 0 &&
		  st.st_size % (off_t)sizeof(struct sock_filter) == 0;
	struct sock_filter *prog = ok ? xmalloc((size_t)st.st_size) : NULL;
	ok = ok && pread(fd, prog, (size_t)st.st_size, 0) == st.st_size;
	struct sock_fprog fp = { .len = (unsigned short)(st.st_size / (off_t)sizeof *prog),
				 .filter = prog };
	if (!ok)
		fmt_into(err, errlen, "reading kjail's seccomp program: %s",
			 errno ? strerror(errno) : "short");
	else if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0) < 0) {
		fmt_into(err, errlen, "loading kjail's seccomp filter: %s", strerror(errno));
		ok = false;
	}
	free(prog);
	close(fd);
	return ok;
}

#ifdef HAVE_SECCOMP
#define AF_LAST 46 /* AF_MAX today; a larger family is refused too */

/* socket(2): no AF_UNIX (Landlock cannot refuse connecting to a pathname
 * socket); under -n, only AF_INET and AF_INET6 SOCK_STREAM with protocol
 * 0 or IPPROTO_TCP (MPTCP is 262: it passes Landlock's TCP rules). */
static bool load_socket_filter(const struct plan *pl, char *err, size_t errlen)
{
	scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
	if (!f) {
		fmt_into(err, errlen, "seccomp_init failed");
		return false;
	}
	int sock = SCMP_SYS(socket), rc = 0;
	/* i386 and x32 programs too, as kjail's own filter (on i386, a
	 * socketcall(2) the rules cannot read is refused whole) */
	if (seccomp_arch_native() == SCMP_ARCH_X86_64) {
		static const uint32_t extra[] = { SCMP_ARCH_X86, SCMP_ARCH_X32 };
		for (size_t i = 0; i < 2 && rc == 0; i++) {
			rc = seccomp_arch_add(f, extra[i]);
			rc = rc == -EEXIST ? 0 : rc;
		}
	}
	uint32_t no = SCMP_ACT_ERRNO(EACCES);
	rc |= seccomp_rule_add(f, no, sock, 1, SCMP_A0(SCMP_CMP_EQ, AF_UNIX));
	if (pl->net == NET_NONE) {
		for (int fam = 0; fam < AF_LAST; fam++)
			if (fam != AF_UNIX && fam != AF_INET && fam != AF_INET6)
				rc |= seccomp_rule_add(f, no, sock, 1, SCMP_A0(SCMP_CMP_EQ, fam));
		rc |= seccomp_rule_add(f, no, sock, 1, SCMP_A0(SCMP_CMP_GE, AF_LAST));
		static const int fams[] = { AF_INET, AF_INET6 };
		for (size_t i = 0; i < 2; i++) {
			/* the type: anything but a stream */
			for (int t = 0; t < 16; t++)
				if (t != SOCK_STREAM)
					rc |= seccomp_rule_add(f, no, sock, 2,
							       SCMP_A0(SCMP_CMP_EQ, fams[i]),
							       SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, t));
			/* the protocol: 0 or IPPROTO_TCP (6) only */
			rc |= seccomp_rule_add(f, no, sock, 2, SCMP_A0(SCMP_CMP_EQ, fams[i]),
					       SCMP_A2(SCMP_CMP_GT, 6));
			for (int p = 1; p < 6; p++)
				rc |= seccomp_rule_add(f, no, sock, 2, SCMP_A0(SCMP_CMP_EQ, fams[i]),
						       SCMP_A2(SCMP_CMP_EQ, p));
		}
	}
	if (rc == 0)
		rc = seccomp_load(f);
	seccomp_release(f);
	if (rc != 0)
		fmt_into(err, errlen, "the landlock backend's socket filter: %s", strerror(-rc));
	return rc == 0;
}
#else
static bool load_socket_filter(const struct plan *pl, char *err, size_t errlen)
{
	(void)pl;
	fmt_into(err, errlen, "--backend landlock needs kjail built with seccomp (libseccomp)");
	return false;
}
#endif

bool ll_confine(const struct plan *pl, const char *tmpdir, const char *ro, char *err,
		size_t errlen)
{
	return apply_landlock(pl, tmpdir, ro, err, errlen) && drop_caps(err, errlen) &&
	       load_socket_filter(pl, err, errlen) && load_kjail_filter(pl, err, errlen);
}
