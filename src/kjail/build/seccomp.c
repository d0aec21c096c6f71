/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "build/seccomp.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_SECCOMP
#include <seccomp.h>
#endif

#define TIOCSTI_REQ 0x5412
#define TIOCLINUX_REQ 0x541C
#define CLONE_NEWUSER_FLAG 0x10000000ULL
#define O_CREAT_FLAG 0100ULL
#define O_TMPFILE_FLAG 020000000ULL   /* __O_TMPFILE, without O_DIRECTORY */
#define SUID 04000ULL
#define SGID 02000ULL

struct rules {
	struct sc_rule *v;
	size_t n;
};

static struct sc_rule *add(struct rules *r, const char *sys, int err, const char *what,
			   const char *why)
{
	r->v = xreallocarray(r->v, r->n + 1, sizeof *r->v);
	struct sc_rule *x = &r->v[r->n++];
	memset(x, 0, sizeof *x);
	x->syscall = sys;
	x->err = err;
	x->what = what;
	x->why = why;
	return x;
}

static void cond(struct sc_rule *x, unsigned arg, enum sc_op op, uint64_t mask, uint64_t value)
{
	x->cond[x->ncond++] = (struct sc_cond){ arg, op, mask, value };
}

static void add_all(struct rules *r, const char *const *names, int err, const char *why)
{
	for (; *names; names++)
		add(r, *names, err, NULL, why);
}

/* A mode argument with the set-user-ID or set-group-ID bit: one rule per bit,
 * since a rule tests each argument once. flag, when not 0, must also be set
 * in argument flags_arg (O_CREAT or O_TMPFILE for open). */
static void add_mode_rules(struct rules *r, const char *sys, unsigned mode_arg,
			   unsigned flags_arg, uint64_t flag)
{
	static const struct { uint64_t bit; const char *what; } bits[] = {
		{ SUID, "set-user-ID bit" }, { SGID, "set-group-ID bit" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bits); i++) {
		struct sc_rule *x = add(r, sys, EPERM, bits[i].what,
					"no set-ID files left behind for others to run");
		if (flag)
			cond(x, flags_arg, SC_MASKED_EQ, flag, flag);
		cond(x, mode_arg, SC_MASKED_EQ, bits[i].bit, bits[i].bit);
	}
}

/* personality(2) is allowed for exactly 0 (PER_LINUX) and 0xffffffff (the
 * query). libseccomp takes one comparison per argument, so "neither" is
 * spelled bit by bit: bit 31 clear and any lower bit set, or bit 31 set and
 * any lower bit clear, or anything above 32 bits. */
/* Allowed: the query (0xffffffff), PER_LINUX (0), and PER_LINUX with
 * ADDR_NO_RANDOMIZE, which a debugger sets for the program it starts
 * (gdb's disable-randomization): it weakens only the caller's own
 * layout, and the kernel drops it on a set-ID exec. */
#define PER_ADDR_NO_RANDOMIZE 0x0040000ULL
static void add_personality(struct rules *r)
{
	const char *why = "execution domains weaken ASLR and W^X";
	const char *what = "other than PER_LINUX, ADDR_NO_RANDOMIZE or the query";
	struct sc_rule *x = add(r, "personality", EPERM, what, why);
	cond(x, 0, SC_GT, 0, 0xffffffffULL);
	for (unsigned i = 0; i < 31; i++) {
		uint64_t m = (1ULL << 31) | (1ULL << i);
		if ((1ULL << i) != PER_ADDR_NO_RANDOMIZE) {
			x = add(r, "personality", EPERM, what, why);
			cond(x, 0, SC_MASKED_EQ, m, 1ULL << i);
		}
		x = add(r, "personality", EPERM, what, why);
		cond(x, 0, SC_MASKED_EQ, m, 1ULL << 31);
	}
}

size_t seccomp_variant(const struct sc_opts *o)
{
	return (o->allow_userns ? 1u : 0u) | (o->no_network ? 2u : 0u);
}

struct sc_opts seccomp_variant_opts(size_t i)
{
	return (struct sc_opts){ .allow_userns = i & 1, .no_network = i & 2 };
}

/* Under no network, the socket families a network namespace does not cut
 * off (include/linux/socket.h numbers). The jail's own network namespace
 * isolates every family that is per namespace: AF_INET, AF_INET6,
 * AF_PACKET, AF_NETLINK (the namespace's own routes and links; audit is
 * the initial namespace's only, uevents are a read-only view), AF_KEY,
 * AF_CAN, AF_TIPC, AF_RDS (its InfiniBand transport serves the initial
 * namespace only), AF_RXRPC, AF_PHONET, AF_CAIF and AF_IEEE802154 (per
 * namespace devices), AF_KCM and AF_SMC (over the namespace's TCP: SMC's
 * handshake is TCP), AF_XDP (a device of the namespace), AF_MCTP,
 * AF_PPPOX. AF_UNIX is the file system's (its sockets there are masked or
 * read-only) and the namespace's (abstract ones). AF_ALG is the kernel's
 * crypto, no network. The rest, refused with the answer of a kernel
 * without the family: */
static const struct {
	int family;
	const char *name, *why;
} no_netns_families[] = {
	/* the kernel keeps no per-namespace state for these: any namespace
	 * reaches them */
	{ 40, "AF_VSOCK", "VM sockets reach the hypervisor and host, whatever the network namespace" },
	{ 42, "AF_QIPCRTR", "Qualcomm IPC router: one node for the machine, modem and DSP services" },
	{ 32, "AF_IUCV", "s390 IUCV reaches other z/VM guests and the hypervisor" },
	{ 34, "AF_ISDN", "mISDN devices are the machine's, not a namespace's" },
	/* the kernel refuses these outside the initial namespace today:
	 * refused here too, so the jail does not depend on that */
	{ 31, "AF_BLUETOOTH", "the machine's Bluetooth adapters, not a namespace's" },
	{ 39, "AF_NFC", "the machine's NFC devices, not a namespace's" },
	{ 8, "AF_ATMPVC", "ATM devices are the initial namespace's" },
	{ 20, "AF_ATMSVC", "ATM devices are the initial namespace's" },
	{ 3, "AF_AX25", "amateur radio devices are the initial namespace's" },
	{ 6, "AF_NETROM", "amateur radio devices are the initial namespace's" },
	{ 11, "AF_ROSE", "amateur radio devices are the initial namespace's" },
	{ 9, "AF_X25", "X.25 devices are the initial namespace's" },
	{ 5, "AF_APPLETALK", "AppleTalk is the initial namespace's" },
	{ 26, "AF_LLC", "802.2 LLC is the initial namespace's" },
};

/* socket(2) and socketpair(2) with one of those families. On i386, libc
 * may create sockets through socketcall(2), whose arguments sit in memory
 * a filter cannot read: for these rules libseccomp refuses socketcall's
 * SYS_SOCKET and SYS_SOCKETPAIR whole, so a 32-bit program whose libc goes
 * that way creates no socket at all under no network (fails closed). */
static void add_no_network(struct rules *r)
{
	for (size_t i = 0; i < ARRAY_SIZE(no_netns_families); i++) {
		static const char *const calls[] = { "socket", "socketpair" };
		for (size_t c = 0; c < ARRAY_SIZE(calls); c++) {
			struct sc_rule *x = add(r, calls[c], EAFNOSUPPORT,
						no_netns_families[i].name,
						no_netns_families[i].why);
			cond(x, 0, SC_MASKED_EQ, 0xffffffffULL,
			     (uint64_t)no_netns_families[i].family);
		}
	}
}

/* Without --allow-userns the mount table is the jail's, whole. With it,
 * the command may build mount namespaces of its own (a nested bwrap, a
 * nested kjail): it holds the capability for mounting only over a
 * namespace it made, where every mount the jail made is locked
 * (MNT_LOCKED: no unmounting a mask; MNT_LOCK_READONLY: no making a
 * read-only bind writable), so mount(2), umount2(2) and pivot_root(2),
 * what bwrap uses, are let through. The newer mount API (fsopen,
 * fsconfig, ...) is not: it answers as a kernel without it, so mount(8)
 * falls back to mount(2), and its parsers stay out of reach. */
static void add_mounts(struct rules *r, const struct sc_opts *o)
{
	static const char *const classic[] = { "mount", "umount", "umount2", "pivot_root", NULL };
	static const char *const api[] = {
		"move_mount", "open_tree", "fsopen", "fsconfig", "fsmount", "fspick",
		"mount_setattr", NULL,
	};
	if (!o->allow_userns)
		add_all(r, classic, EPERM, "the mount table is the jail");
	if (o->allow_userns)
		add_all(r, api, ENOSYS,
			"only mount(2) in a namespace of its own (--allow-userns); mount(8) "
			"falls back to it");
	else
		add_all(r, api, EPERM, "the mount table is the jail");
}

struct sc_rule *seccomp_rules(const struct sc_opts *o, size_t *n)
{
	struct rules r = { 0 };
	struct sc_rule *x;

	x = add(&r, "ioctl", EPERM, "TIOCSTI", "typing into the user's terminal");
	cond(x, 1, SC_MASKED_EQ, 0xffffffffULL, TIOCSTI_REQ);
	x = add(&r, "ioctl", EPERM, "TIOCLINUX", "typing into the user's terminal");
	cond(x, 1, SC_MASKED_EQ, 0xffffffffULL, TIOCLINUX_REQ);

	if (!o->allow_userns) {
		const char *why = "a new user namespace would let it rebuild its view";
		add(&r, "unshare", EPERM, NULL, why);
		add(&r, "setns", EPERM, NULL, why);
		x = add(&r, "clone", EPERM, "CLONE_NEWUSER", why);
		cond(x, 0, SC_MASKED_EQ, CLONE_NEWUSER_FLAG, CLONE_NEWUSER_FLAG);
	}
	/* clone3 passes its flags in memory a filter cannot read; ENOSYS makes
	 * libc fall back to clone, whose flags the rule above sees. */
	add(&r, "clone3", ENOSYS, NULL, "its flags cannot be inspected; libc falls back to clone");

	add_mounts(&r, o);
	static const char *const keys[] = { "keyctl", "add_key", "request_key", NULL };
	add_all(&r, keys, EPERM, "the kernel keyring is shared across namespaces");
	static const char *const kernel[] = {
		"bpf", "perf_event_open", "userfaultfd", "kexec_load", "kexec_file_load",
		"init_module", "finit_module", "delete_module", "reboot", "swapon", "swapoff",
		"syslog", "acct", "quotactl", "lookup_dcookie", "uselib", "nfsservctl", "vm86",
		"vm86old", NULL,
	};
	add_all(&r, kernel, EPERM, "kernel attack surface no agent needs");
	add_personality(&r);
	static const char *const uring[] = {
		"io_uring_setup", "io_uring_enter", "io_uring_register", NULL,
	};
	add_all(&r, uring, EPERM, "io_uring bypasses syscall filtering");

	add_mode_rules(&r, "chmod", 1, 0, 0);
	add_mode_rules(&r, "fchmod", 1, 0, 0);
	add_mode_rules(&r, "fchmodat", 2, 0, 0);
	add_mode_rules(&r, "fchmodat2", 2, 0, 0);
	add_mode_rules(&r, "creat", 1, 0, 0);
	add_mode_rules(&r, "open", 2, 1, O_CREAT_FLAG);
	add_mode_rules(&r, "open", 2, 1, O_TMPFILE_FLAG);
	add_mode_rules(&r, "openat", 3, 2, O_CREAT_FLAG);
	add_mode_rules(&r, "openat", 3, 2, O_TMPFILE_FLAG);
	add_mode_rules(&r, "mknod", 1, 0, 0);
	add_mode_rules(&r, "mknodat", 2, 0, 0);
	add(&r, "openat2", ENOSYS, NULL, "its mode sits in memory a filter cannot read");
	if (o->no_network)
		add_no_network(&r);
	*n = r.n;
	return r.v;
}

#ifdef KJ_OS_LINUX
int seccomp_memfd(char *err, size_t errlen)
{
	int fd = memfd_create("kjail-seccomp", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		fmt_into(err, errlen, "seccomp: memfd_create: %s", strerror(errno));
	return fd;
}

/* Sealed, nobody can swap the program between here and bwrap's read. */
bool seccomp_seal(int fd)
{
	return lseek(fd, 0, SEEK_SET) == 0 &&
	       fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) == 0;
}
#else
/* No memfd and no seccomp off Linux: the bwrap backend is never used. */
int seccomp_memfd(char *err, size_t errlen)
{
	fmt_into(err, errlen, "seccomp is Linux-only");
	errno = ENOSYS;
	return -1;
}

bool seccomp_seal(int fd)
{
	(void)fd;
	return false;
}
#endif

#ifdef HAVE_SECCOMP
bool seccomp_built_in(void) { return true; }

static bool add_arches(scmp_filter_ctx ctx, char *err, size_t errlen)
{
	if (seccomp_arch_native() != SCMP_ARCH_X86_64)
		return true;
	static const uint32_t extra[] = { SCMP_ARCH_X86, SCMP_ARCH_X32 };
	for (size_t i = 0; i < ARRAY_SIZE(extra); i++) {
		int rc = seccomp_arch_add(ctx, extra[i]);
		if (rc < 0 && rc != -EEXIST) {
			fmt_into(err, errlen, "seccomp: cannot add a compat ABI: %s", strerror(-rc));
			return false;
		}
	}
	return true;
}

static bool add_rule(scmp_filter_ctx ctx, const struct sc_rule *x, char *err, size_t errlen)
{
	int nr = seccomp_syscall_resolve_name(x->syscall);
	if (nr == __NR_SCMP_ERROR) {
		fmt_into(err, errlen, "seccomp: libseccomp does not know %s", x->syscall);
		return false;
	}
	struct scmp_arg_cmp c[2];
	for (unsigned i = 0; i < x->ncond; i++) {
		const struct sc_cond *k = &x->cond[i];
		if (k->op == SC_MASKED_EQ)
			c[i] = (struct scmp_arg_cmp){ k->arg, SCMP_CMP_MASKED_EQ, k->mask, k->value };
		else
			c[i] = (struct scmp_arg_cmp){ k->arg, SCMP_CMP_GT, k->value, 0 };
	}
	int rc = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(x->err), nr, x->ncond, c);
	if (rc < 0) {
		fmt_into(err, errlen, "seccomp: cannot add the rule for %s: %s", x->syscall,
			 strerror(-rc));
		return false;
	}
	return true;
}

int seccomp_compile(const struct sc_opts *o, char *err, size_t errlen)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx) {
		fmt_into(err, errlen, "seccomp: cannot initialise libseccomp");
		return -1;
	}
	size_t n;
	struct sc_rule *rules = seccomp_rules(o, &n);
	bool ok = add_arches(ctx, err, errlen);
	for (size_t i = 0; ok && i < n; i++)
		ok = add_rule(ctx, &rules[i], err, errlen);
	free(rules);
	int fd = -1;
	if (ok) {
		fd = seccomp_memfd(err, errlen);
		if (fd >= 0) {
			int rc = seccomp_export_bpf(ctx, fd);
			if (rc < 0 || !seccomp_seal(fd)) {
				fmt_into(err, errlen, "seccomp: cannot export the filter: %s",
					 strerror(rc < 0 ? -rc : errno));
				close(fd);
				fd = -1;
			}
		}
	}
	seccomp_release(ctx);
	return fd;
}
#else
bool seccomp_built_in(void) { return false; }

int seccomp_compile(const struct sc_opts *o, char *err, size_t errlen)
{
	(void)o;
	fmt_into(err, errlen, "this kjail was built without libseccomp: it cannot filter "
			      "system calls; rebuild with libseccomp, or choose --backend container");
	return -1;
}
#endif
