/* SPDX-License-Identifier: MIT */
/* hs-probe32 [--userns] NAME [ARG]: a real 32-bit (i386) program, for the
 * seccomp tests: a 32-bit binary must not walk around the filter.
 *
 * It needs no 32-bit libc: it is built freestanding by the test itself,
 *   cc -m32 -static -nostdlib -ffreestanding -fno-pic -no-pie
 *      -fno-stack-protector -fno-builtin -O1 -o hs-probe32 hs-probe32.c
 * and the test skips (with the compiler's reason) when that fails. Like
 * try-syscall it prints one word: "OK", the errno name, "NOSYSCALL" (no
 * such call on i386: nothing attempted) or "setup:ENAME" (a preparatory
 * step failed: the probe itself never ran).
 *
 * NAME and ARG are try-syscall's (see try-syscall.c), with the same
 * harmless arguments, so the rows of tests/integration/hardening-syscalls.table
 * run through it unchanged: every probe there but the "-hi" ones (bits
 * above 32, which an i386 register cannot carry) and a TTY given by path
 * (ioctl-* take "newpty" or a descriptor number). The numbers come from
 * x86-syscalls.h, the table try-syscall uses (and hardening-bpf.test holds
 * to libseccomp's).
 * --userns: first unshare(CLONE_NEWUSER|CLONE_NEWNS), as try-syscall does.
 */
#if !defined(__i386__)
#error "hs-probe32 is an i386 program: build it with -m32"
#endif

#include "x86-syscalls.h"

struct scnr {
	const char *name;
	long nr;
};
#define P32_ROW(name, native, i386, x32) { #name, i386 },
static const struct scnr nrs[] = { X86_SYSCALLS(P32_ROW) };

#define NOSYSCALL_RET (-100000L)
#define SETUP_BASE (-200000L)
#define BADPTR 1L /* never mapped: the kernel answers EFAULT */

#define SIGCHLD_ 17
#define CLONE_NEWUSER_ 0x10000000L
#define CLONE_NEWNS_ 0x00020000L
#define CLONE_NEWNET_ 0x40000000L
#define O_RDONLY_ 0
#define O_WRONLY_ 01
#define O_RDWR_ 02
#define O_CREAT_ 0100
#define O_EXCL_ 0200
#define O_NOCTTY_ 0400
#define O_NONBLOCK_ 04000
#define O_CLOEXEC_ 02000000
#define O_TMPFILE_ 020200000 /* __O_TMPFILE | O_DIRECTORY */
#define AT_FDCWD_ (-100L)
#define S_IFREG_ 0100000
#define MS_NOSUID_ 2
#define MS_NODEV_ 4
#define MS_REC_ 0x4000
#define MS_PRIVATE_ 0x40000
#define TIOCSTI_ 0x5412
#define TIOCLINUX_ 0x541C
#define TCGETS_ 0x5401
#define TIOCSCTTY_ 0x540E
#define TIOCSPTLCK_ 0x40045431
#define TIOCGPTN_ 0x80045430
#define ADDR_NO_RANDOMIZE_ 0x0040000L
#define WALL_ 0x40000000L

static long
sys(long nr, long a, long b, long c, long d, long e)
{
	long r;

	__asm__ volatile("push %%ebp\n\t"
		"int $0x80\n\t"
		"pop %%ebp"
		: "=a"(r)
		: "0"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
		: "memory", "cc");
	return r;
}

static int
eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static long
nr_of(const char *name)
{
	for (unsigned i = 0; i < sizeof nrs / sizeof nrs[0]; i++)
		if (eq(nrs[i].name, name))
			return nrs[i].nr;
	return -2;
}

/* sc NAME ARGS: the raw answer; NOSYSCALL_RET when i386 has no such call */
static long
sc(const char *name, long a, long b, long c, long d, long e)
{
	long nr = nr_of(name);

	if (nr == -2)
		sys(nr_of("exit_group"), 3, 0, 0, 0, 0); /* not in the table */
	if (nr < 0)
		return NOSYSCALL_RET;
	return sys(nr, a, b, c, d, e);
}

static unsigned long
len(const char *s)
{
	unsigned long n = 0;

	while (s[n])
		n++;
	return n;
}

static void
say(const char *s)
{
	sc("write", 1, (long)s, (long)len(s), 0, 0);
	sc("write", 1, (long)"\n", 1, 0, 0);
}

static void
leave(int code)
{
	sc("exit_group", code, 0, 0, 0, 0);
}

static const char *
errname(long e)
{
	static char num[16];
	int i = 15;

	switch (e) {
	case 1: return "EPERM";
	case 2: return "ENOENT";
	case 3: return "ESRCH";
	case 4: return "EINTR";
	case 5: return "EIO";
	case 6: return "ENXIO";
	case 7: return "E2BIG";
	case 8: return "ENOEXEC";
	case 9: return "EBADF";
	case 10: return "ECHILD";
	case 11: return "EAGAIN";
	case 12: return "ENOMEM";
	case 13: return "EACCES";
	case 14: return "EFAULT";
	case 16: return "EBUSY";
	case 17: return "EEXIST";
	case 18: return "EXDEV";
	case 19: return "ENODEV";
	case 20: return "ENOTDIR";
	case 21: return "EISDIR";
	case 22: return "EINVAL";
	case 23: return "ENFILE";
	case 24: return "EMFILE";
	case 25: return "ENOTTY";
	case 26: return "ETXTBSY";
	case 28: return "ENOSPC";
	case 30: return "EROFS";
	case 36: return "ENAMETOOLONG";
	case 38: return "ENOSYS";
	case 40: return "ELOOP";
	case 65: return "ENOPKG";
	case 87: return "EUSERS";
	case 95: return "EOPNOTSUPP";
	case 97: return "EAFNOSUPPORT";
	case 126: return "ENOKEY";
	default: break;
	}
	num[i] = 0;
	do {
		num[--i] = (char)('0' + e % 10);
		e /= 10;
	} while (e && i > 1);
	num[--i] = 'E';
	return num + i;
}

static void
report(long r)
{
	if (r == NOSYSCALL_RET)
		say("NOSYSCALL");
	else if (r >= 0 || r < -4095)
		say("OK");
	else
		say(errname(-r));
}

static void
setup_failed(long r)
{
	static char buf[32] = "setup:";
	const char *n = errname(r < 0 ? -r : 5);
	int i = 6;

	while (*n && i < 31)
		buf[i++] = *n++;
	buf[i] = 0;
	say(buf);
	leave(0);
}

static void
usage(void)
{
	say("usage: hs-probe32 [--userns] NAME [ARG] (try-syscall's names)");
	leave(2);
}

static long
number(const char *s)
{
	unsigned long v = 0, base = 10;

	if (!*s)
		usage();
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	else if (s[0] == '0' && s[1])
		base = 8, s++;
	for (; *s; s++) {
		unsigned long d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned long)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned long)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned long)(*s - 'A' + 10);
		else
			d = 99;
		if (d >= base)
			usage();
		v = v * base + d;
	}
	return (long)v;
}

static long
close_ok(long r)
{
	if (r >= 0)
		sc("close", r, 0, 0, 0, 0);
	return r >= 0 ? 0 : r;
}

static long
reap(long r)
{
	if (r == 0)
		leave(0);
	if (r > 0) {
		static int st;
		sc("wait4", r, (long)&st, WALL_, 0, 0);
		return 0;
	}
	return r;
}

/* ---- terminal ioctls ------------------------------------------------------ */

static long
do_ioctl(long fd, long req)
{
	static char space[2] = " ";
	static char sub[4];
	static char termios[64];

	if (req == TIOCSTI_)
		return sc("ioctl", fd, req, (long)space, 0, 0);
	if (req == TIOCLINUX_) {
		sub[0] = 6; /* TIOCL_GETSHIFTSTATE */
		return sc("ioctl", fd, req, (long)sub, 0, 0);
	}
	return sc("ioctl", fd, req, (long)termios, 0, 0);
}

/* A child whose controlling terminal is a new pty we own tries the ioctl;
 * its answer comes back on a pipe (as try-syscall's ioctl_on_new_pty). */
static long
ioctl_on_new_pty(long req)
{
	static char path[32] = "/dev/pts/";
	static char digits[12];
	static int zero, ptn, fds[2], st;
	static long res;
	long m, r, pid;
	int i = 9, d = 0;
	unsigned v;

	m = sc("open", (long)"/dev/ptmx", O_RDWR_ | O_NOCTTY_ | O_CLOEXEC_, 0, 0, 0);
	if (m < 0)
		setup_failed(m);
	if ((r = sc("ioctl", m, TIOCSPTLCK_, (long)&zero, 0, 0)) < 0 ||
	    (r = sc("ioctl", m, TIOCGPTN_, (long)&ptn, 0, 0)) < 0 ||
	    (r = sc("pipe2", (long)fds, O_CLOEXEC_, 0, 0, 0)) < 0)
		setup_failed(r);
	v = (unsigned)ptn;
	do {
		digits[d++] = (char)('0' + v % 10);
		v /= 10;
	} while (v && d < 11);
	while (d > 0)
		path[i++] = digits[--d];
	path[i] = 0;
	pid = sc("clone", SIGCHLD_, 0, 0, 0, 0);
	if (pid < 0)
		setup_failed(pid);
	if (pid == 0) {
		long s;

		sc("close", fds[0], 0, 0, 0, 0);
		if ((s = sc("setsid", 0, 0, 0, 0, 0)) < 0) {
			res = SETUP_BASE + s;
		} else if ((s = sc("open", (long)path, O_RDWR_ | O_CLOEXEC_, 0, 0, 0)) < 0) {
			res = SETUP_BASE + s;
		} else {
			/* opened as a session leader: our controlling
			 * terminal; explicit anyway */
			sc("ioctl", s, TIOCSCTTY_, 0, 0, 0);
			res = do_ioctl(s, req);
		}
		sc("write", fds[1], (long)&res, sizeof res, 0, 0);
		leave(0);
	}
	sc("close", fds[1], 0, 0, 0, 0);
	res = -5;
	if (sc("read", fds[0], (long)&res, sizeof res, 0, 0) != (long)sizeof res)
		res = -5;
	sc("close", fds[0], 0, 0, 0, 0);
	sc("wait4", pid, (long)&st, 0, 0, 0);
	sc("close", m, 0, 0, 0, 0);
	if (res <= SETUP_BASE)
		setup_failed(res - SETUP_BASE);
	return res;
}

static long
probe_ioctl(const char *arg, long req)
{
	if (arg && eq(arg, "newpty"))
		return ioctl_on_new_pty(req);
	return do_ioctl(arg ? number(arg) : 0, req);
}

/* ---- modes and file creation ------------------------------------------------ */

static int
prefix(const char *s, const char *p)
{
	while (*p && *s == *p)
		s++, p++;
	return *p == 0;
}

/* NAME is "<op>-<suid|sgid|plain>"; 1 if it was one (answer in *res) */
static int
mode_probe(const char *name, const char *arg, long *res)
{
	static const char *const ops[] = {
		"chmod", "fchmod", "fchmodat", "fchmodat2",
		"open", "openat", "creat", "mknod", "mknodat",
		"open-tmpfile", "openat-tmpfile",
	};
	const char *op = 0, *suffix = 0;
	long mode, cflags = O_CREAT_ | O_EXCL_ | O_WRONLY_ | O_CLOEXEC_;
	long tflags = O_TMPFILE_ | O_WRONLY_ | O_CLOEXEC_;
	int chmodlike;

	for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		const char *s = name + len(ops[i]);

		if (prefix(name, ops[i]) && *s == '-' &&
		    (eq(s + 1, "suid") || eq(s + 1, "sgid") || eq(s + 1, "plain"))) {
			op = ops[i];
			suffix = s + 1;
		}
	}
	if (!op)
		return 0;
	if (!arg)
		usage();
	chmodlike = eq(op, "chmod") || eq(op, "fchmod") || eq(op, "fchmodat") || eq(op, "fchmodat2");
	mode = eq(suffix, "suid") ? 04755 : eq(suffix, "sgid") ? 02755 : chmodlike ? 0755 : 0644;

	if (eq(op, "chmod")) {
		*res = sc("chmod", (long)arg, mode, 0, 0, 0);
	} else if (eq(op, "fchmod")) {
		long fd = sc("open", (long)arg, O_RDONLY_ | O_CLOEXEC_, 0, 0, 0);
		if (fd < 0)
			setup_failed(fd);
		*res = sc("fchmod", fd, mode, 0, 0, 0);
		sc("close", fd, 0, 0, 0, 0);
	} else if (eq(op, "fchmodat")) {
		*res = sc("fchmodat", AT_FDCWD_, (long)arg, mode, 0, 0);
	} else if (eq(op, "fchmodat2")) {
		*res = sc("fchmodat2", AT_FDCWD_, (long)arg, mode, 0, 0);
	} else if (eq(op, "open")) {
		*res = close_ok(sc("open", (long)arg, cflags, mode, 0, 0));
	} else if (eq(op, "openat")) {
		*res = close_ok(sc("openat", AT_FDCWD_, (long)arg, cflags, mode, 0));
	} else if (eq(op, "creat")) {
		*res = close_ok(sc("creat", (long)arg, mode, 0, 0, 0));
	} else if (eq(op, "mknod")) {
		*res = sc("mknod", (long)arg, S_IFREG_ | mode, 0, 0, 0);
	} else if (eq(op, "mknodat")) {
		*res = sc("mknodat", AT_FDCWD_, (long)arg, S_IFREG_ | mode, 0, 0);
	} else if (eq(op, "open-tmpfile")) {
		*res = close_ok(sc("open", (long)arg, tflags, mode, 0, 0));
	} else {
		*res = close_ok(sc("openat", AT_FDCWD_, (long)arg, tflags, mode, 0));
	}
	return 1;
}

/* ---- the probes ----------------------------------------------------------------- */

static unsigned long long clone_args[8];
static unsigned long long open_how[3];

static long
probe(const char *name, const char *arg, int userns)
{
	long r;

	if (mode_probe(name, arg, &r))
		return r;
	if (eq(name, "getpid"))
		return sc("getpid", 0, 0, 0, 0, 0);
	if (eq(name, "ioctl-tiocsti"))
		return probe_ioctl(arg, TIOCSTI_);
	if (eq(name, "ioctl-tioclinux"))
		return probe_ioctl(arg, TIOCLINUX_);
	if (eq(name, "ioctl-tcgets"))
		return probe_ioctl(arg, TCGETS_);
	if (eq(name, "unshare-user"))
		return sc("unshare", CLONE_NEWUSER_, 0, 0, 0, 0);
	if (eq(name, "unshare-mount"))
		return sc("unshare", CLONE_NEWNS_, 0, 0, 0, 0);
	if (eq(name, "unshare-net"))
		return sc("unshare", CLONE_NEWNET_, 0, 0, 0, 0);
	if (eq(name, "unshare-none"))
		return sc("unshare", 0, 0, 0, 0, 0);
	if (eq(name, "clone-newuser"))
		return reap(sc("clone", CLONE_NEWUSER_ | SIGCHLD_, 0, 0, 0, 0));
	if (eq(name, "clone-plain"))
		return reap(sc("clone", SIGCHLD_, 0, 0, 0, 0));
	if (eq(name, "clone3")) {
		clone_args[4] = SIGCHLD_; /* exit_signal: a plain fork */
		return reap(sc("clone3", (long)clone_args, 64, 0, 0, 0));
	}
	if (eq(name, "setns")) {
		long fd = -1;
		if (arg && (fd = sc("open", (long)arg, O_RDONLY_ | O_CLOEXEC_, 0, 0, 0)) < 0)
			setup_failed(fd);
		return sc("setns", fd, 0, 0, 0, 0);
	}
	if (eq(name, "mount"))
		return sc("mount", (long)"none", (long)"/", BADPTR, 0, 0);
	if (eq(name, "mount-tmpfs")) {
		/* a real mount: only in the throwaway namespace of --userns */
		if (!userns || !arg)
			usage();
		r = sc("mount", (long)"none", (long)"/", 0, MS_REC_ | MS_PRIVATE_, 0);
		if (r == 0)
			r = sc("mount", (long)"none", (long)arg, (long)"tmpfs", MS_NOSUID_ | MS_NODEV_, 0);
		return r;
	}
	if (eq(name, "umount2"))
		return sc("umount2", BADPTR, (long)0x80000000UL, 0, 0, 0);
	if (eq(name, "umount"))
		return sc("umount", BADPTR, 0, 0, 0, 0);
	if (eq(name, "pivot_root"))
		return sc("pivot_root", BADPTR, BADPTR, 0, 0, 0);
	if (eq(name, "move_mount"))
		return sc("move_mount", -1, BADPTR, -1, BADPTR, (long)0xffffffffUL);
	if (eq(name, "open_tree"))
		return close_ok(sc("open_tree", AT_FDCWD_, (long)".", O_CLOEXEC_, 0, 0));
	if (eq(name, "fsopen"))
		return sc("fsopen", (long)"tmpfs", (long)0xfffffff0UL, 0, 0, 0);
	if (eq(name, "fsconfig"))
		return sc("fsconfig", -1, 0, 0, 0, 0);
	if (eq(name, "fsmount"))
		return sc("fsmount", -1, (long)0xfffffff0UL, 0, 0, 0);
	if (eq(name, "fspick"))
		return sc("fspick", -1, BADPTR, (long)0xfffffff0UL, 0, 0);
	if (eq(name, "mount_setattr"))
		return sc("mount_setattr", -1, BADPTR, (long)0xfffffff0UL, 0, 0);
	if (eq(name, "keyctl"))
		return sc("keyctl", 0x7fff, 0, 0, 0, 0);
	if (eq(name, "add_key"))
		return sc("add_key", BADPTR, BADPTR, 0, 0, 0);
	if (eq(name, "request_key"))
		return sc("request_key", BADPTR, BADPTR, 0, 0, 0);
	if (eq(name, "bpf"))
		return sc("bpf", 0x7fff, 0, 0, 0, 0);
	if (eq(name, "perf_event_open"))
		return sc("perf_event_open", BADPTR, 0, -1, -1, 0);
	if (eq(name, "userfaultfd"))
		return close_ok(sc("userfaultfd", O_CLOEXEC_ | 1 /* UFFD_USER_MODE_ONLY */, 0, 0, 0, 0));
	if (eq(name, "kexec_load"))
		return sc("kexec_load", 0, 1000, 0, (long)0xffff0000UL, 0);
	if (eq(name, "kexec_file_load"))
		return sc("kexec_file_load", -1, -1, 0, 0, (long)0x80000000UL);
	if (eq(name, "init_module"))
		return sc("init_module", 0, 0, (long)"", 0, 0);
	if (eq(name, "finit_module"))
		return sc("finit_module", -1, (long)"", (long)0x80000000UL, 0, 0);
	if (eq(name, "delete_module"))
		return sc("delete_module", (long)"kjail_no_such_module", O_NONBLOCK_, 0, 0, 0);
	if (eq(name, "reboot"))
		return sc("reboot", 0, 0, 0, 0, 0);
	if (eq(name, "swapon"))
		return sc("swapon", BADPTR, (long)0x80000000UL, 0, 0, 0);
	if (eq(name, "swapoff"))
		return sc("swapoff", BADPTR, 0, 0, 0, 0);
	if (eq(name, "syslog"))
		return sc("syslog", 10, 0, 0, 0, 0);
	if (eq(name, "acct"))
		return sc("acct", BADPTR, 0, 0, 0, 0);
	if (eq(name, "quotactl"))
		return sc("quotactl", (long)((0x800001UL << 8) | 99), 0, 0, 0, 0);
	if (eq(name, "lookup_dcookie"))
		return sc("lookup_dcookie", 0, 0, 0, 0, 0);
	if (eq(name, "uselib"))
		return sc("uselib", BADPTR, 0, 0, 0, 0);
	if (eq(name, "nfsservctl"))
		return sc("nfsservctl", 0, 0, 0, 0, 0);
	if (eq(name, "vm86"))
		return sc("vm86", 0, 0, 0, 0, 0);
	if (eq(name, "vm86old"))
		return sc("vm86old", 0, 0, 0, 0, 0);
	if (eq(name, "personality")) {
		long want = arg ? number(arg) : ADDR_NO_RANDOMIZE_;
		long old = sc("personality", (long)0xffffffffUL, 0, 0, 0, 0);

		r = sc("personality", want, 0, 0, 0, 0);
		if (r >= 0 && old >= 0 && want != (long)0xffffffffUL)
			sc("personality", old, 0, 0, 0, 0);
		return r;
	}
	if (eq(name, "io_uring_setup"))
		return close_ok(sc("io_uring_setup", 1, BADPTR, 0, 0, 0));
	if (eq(name, "io_uring_enter"))
		return sc("io_uring_enter", -1, 0, 0, 0, 0);
	if (eq(name, "io_uring_register"))
		return sc("io_uring_register", -1, 0, 0, 0, 0);
	if (eq(name, "openat2")) {
		if (!arg)
			usage();
		open_how[0] = O_RDONLY_ | O_CLOEXEC_;
		return close_ok(sc("openat2", AT_FDCWD_, (long)arg, (long)open_how, 24, 0));
	}
	usage();
	return 0;
}

void cstart(long *sp);

__attribute__((used)) void
cstart(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	int userns = 0;
	long r;

	if (argc > 1 && eq(argv[1], "--userns")) {
		userns = 1;
		argv++;
		argc--;
	}
	if (argc < 2 || argc > 3)
		usage();
	/* --userns: a user and mount namespace of our own first, where we
	 * hold every capability (as try-syscall --userns) */
	if (userns && (r = sc("unshare", CLONE_NEWUSER_ | CLONE_NEWNS_, 0, 0, 0, 0)) != 0)
		setup_failed(r);
	report(probe(argv[1], argc > 2 ? argv[2] : 0, userns));
	leave(0);
}

__asm__(".text\n"
	".globl _start\n"
	"_start:\n\t"
	"xor %ebp, %ebp\n\t"
	"mov %esp, %eax\n\t"
	"and $-16, %esp\n\t"
	"sub $12, %esp\n\t"
	"push %eax\n\t"
	"call cstart\n\t"
	"hlt\n");
