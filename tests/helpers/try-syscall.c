/* SPDX-License-Identifier: MIT */
/* try-syscall [--abi=native|i386|x32] [--userns] [--dry-run] NAME [ARG...]
 * try-syscall --numbers
 *
 * Attempt ONE named system call (or ioctl) with raw syscall(2) and print
 * exactly one word: "OK" when it succeeded, else the errno name ("EPERM",
 * "ENOSYS", "EFAULT"...). Exit 0 either way; exit 2 on a usage error.
 * Other words:
 *   NOSYSCALL     the call has no number on that ABI (vm86 and vm86old
 *                 exist only for i386; uselib and nfsservctl not for x32):
 *                 nothing was attempted
 *   setup:ENAME   a preparatory step (opening FILE, a pty...) failed: the
 *                 probe itself never ran
 *   NOPARENT      "kill-parent" when getppid() is 0 (we are a PID 1)
 *   N             "landlock-abi" prints the Landlock ABI version number
 *
 * The arguments are chosen so that on the host, even as root, the call
 * either succeeds harmlessly or fails with an errno other than EPERM
 * (EFAULT, EINVAL, EBADF, ENOENT...) before it could change anything:
 * bad pointers, invalid flags, fd -1, a reboot magic of 0, never a real
 * mount, module, swap file, accounting file or kexec image. A jail whose
 * seccomp filter refuses the call shows the filter's errno instead.
 * Without CAP_SYS_ADMIN some calls fail with EPERM on the host too (swapoff,
 * acct, syslog with kernel.dmesg_restrict=1...): tests compare those inside
 * a throwaway user namespace, or say that the comparison shows nothing.
 *
 * --abi=i386 makes the call through "int $0x80" (the ia32 entry: seccomp
 * sees AUDIT_ARCH_I386 and the i386 numbers) and --abi=x32 with the
 * __X32_SYSCALL_BIT set (AUDIT_ARCH_X86_64, x32 numbers), both from this
 * 64-bit process, so a filter can be checked on every x86 ABI without a
 * 32-bit toolchain. Pointer arguments are placed below 4 GiB for them.
 * A kernel without x32 support answers ENOSYS on the host; a seccomp filter
 * still sees (and must refuse) the call before that.
 *
 * --dry-run makes no system call of the probe: it prints, one line each,
 * the calls it would make, "CALL NAME NR A0 A1 A2 A3 A4 A5" (NR as passed
 * to the kernel, x32's with __X32_SYSCALL_BIT; the arguments in hex as the
 * registers would carry them, but for a descriptor, -1 here, and where
 * pointers point), each answered as if refused, then the line
 * "MEASURED K": the K-th CALL line is the one whose answer the probe
 * prints (the others prepare or restore: personality's query); or, after a
 * CALL line whose NR is -1, "NOSYSCALL" (the call it names has no number
 * on that ABI, so nothing would be attempted). Setup that would touch the
 * system (a pty, opening FILE, --userns, the ia32 check) is left out;
 * usage errors as without it. For hardening-bpf.test, which evaluates
 * those calls under kjail's filter.
 * --numbers prints this program's table of numbers, "NAME NATIVE I386 X32"
 * (-1: none), so a test can hold it to libseccomp's.
 *
 * --userns first moves this process into a new user and mount namespace
 * (unshare(2), no id map needed): it then holds every capability over
 * them, as a command that builds its own sandbox does; "setup:EPERM" if
 * that is refused.
 *
 * Probes (FILE/PATH default to nothing: they are required):
 *   ioctl-tiocsti [FD|PATH|newpty]   TIOCSTI of one space (default fd 0);
 *                 "newpty": open a new pseudo-terminal, make it the
 *                 controlling terminal of a child in a new session and try
 *                 it there (a terminal we own, so only a filter or
 *                 dev.tty.legacy_tiocsti can refuse it)
 *   ioctl-tiocsti-hi [...]   the same request with the upper 32 bits set
 *                 (the kernel ignores them, so a filter must too)
 *   ioctl-tioclinux [...]    TIOCLINUX TIOCL_GETSHIFTSTATE (read-only)
 *   ioctl-tcgets [...]       TCGETS (an ordinary ioctl: must stay allowed)
 *   unshare-user unshare-mount unshare-net unshare-none (flags 0)
 *   clone-newuser            raw clone(CLONE_NEWUSER|SIGCHLD), child exits
 *   clone-plain              raw clone(SIGCHLD) (fork: must stay allowed)
 *   clone3                   raw clone3, flags 0, exit_signal SIGCHLD
 *   setns [PATH]             setns(-1 or open(PATH), 0)
 *   mount-tmpfs DIR          with --userns only: a real tmpfs mount on DIR
 *                            in the throwaway namespace (after making every
 *                            mount there private)
 *   mount umount2 umount(i386) pivot_root move_mount open_tree fsopen
 *   fsconfig fsmount fspick mount_setattr
 *   keyctl add_key request_key bpf perf_event_open userfaultfd kexec_load
 *   kexec_file_load init_module finit_module delete_module reboot swapon
 *   swapoff syslog acct quotactl lookup_dcookie uselib nfsservctl vm86
 *   vm86old io_uring_setup io_uring_enter io_uring_register
 *   personality [VALUE]      default 0x0040000 (ADDR_NO_RANDOMIZE); the
 *                            original persona is restored after a success
 *   chmod-{suid,sgid,plain} FILE      mode 04755 / 02755 / 0755
 *   fchmod-{suid,sgid,plain} FILE     fchmodat-... fchmodat2-... likewise
 *   {open,openat,creat,mknod,mknodat}-{suid,sgid,plain} PATH
 *                            create PATH (O_EXCL) with 04755/02755/0644
 *   {open,openat}-tmpfile-{suid,sgid,plain} DIR   O_TMPFILE in DIR
 *   chmod-suid-hi FILE, open-suid-hi PATH   the same with bit 32 set in
 *                            the mode (and open's flags): the kernel ignores
 *                            it, a filter must too
 *   openat2 PATH             open PATH read-only through openat2
 *   kill PID [SIG]           kill(PID, SIG), SIG default 0
 *   kill-parent [SIG]        kill(getppid(), SIG)
 *   socket FAMILY [TYPE]     socket(FAMILY, TYPE, 0), TYPE default 1
 *                            (SOCK_STREAM); the socket is closed at once,
 *                            nothing is connected (creation is the probe)
 *   socketpair FAMILY [TYPE] socketpair(FAMILY, TYPE, 0, sv) likewise
 *   socketcall-socket FAMILY [TYPE]   i386 only: socket through the
 *                            socketcall(2) multiplexer (SYS_SOCKET), whose
 *                            arguments sit in memory a filter cannot read
 *   getpid                   always allowed: shows the ABI works at all
 *   landlock-abi             the Landlock ABI version (a number)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#ifndef O_TMPFILE
#define O_TMPFILE (020000000 | O_DIRECTORY)
#endif
#ifndef CLONE_NEWUSER
#define CLONE_NEWUSER 0x10000000
#endif
#ifndef CLONE_NEWNS
#define CLONE_NEWNS 0x00020000
#endif
#ifndef CLONE_NEWNET
#define CLONE_NEWNET 0x40000000
#endif
#ifndef TIOCSTI
#define TIOCSTI 0x5412
#endif
#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif
#ifndef ADDR_NO_RANDOMIZE
#define ADDR_NO_RANDOMIZE 0x0040000
#endif
#define UFFD_USER_MODE_ONLY_ 1
#define TIOCL_GETSHIFTSTATE_ 6
#define LANDLOCK_CREATE_RULESET_VERSION_ (1U << 0)
#define X32_BIT 0x40000000L

/* ---- errno names -------------------------------------------------------- */

#include "errname.h"

/* ---- system call numbers per ABI ---------------------------------------- */

enum abi { ABI_NATIVE, ABI_I386, ABI_X32 };
static enum abi abi = ABI_NATIVE;

struct scnr {
	const char *name;
	long native;  /* this build's own ABI: __NR_*, or -1 */
	long i386;    /* x86 only; -1: none */
	long x32;     /* x86 only, without the X32 bit; -1: none */
};

#ifdef __NR_vm86
#define NATIVE_vm86 __NR_vm86
#else
#define NATIVE_vm86 -1
#endif
#ifdef __NR_vm86old
#define NATIVE_vm86old __NR_vm86old
#else
#define NATIVE_vm86old -1
#endif
#ifdef __NR_umount
#define NATIVE_umount __NR_umount
#else
#define NATIVE_umount -1
#endif
#ifdef __NR_uselib
#define NATIVE_uselib __NR_uselib
#else
#define NATIVE_uselib -1
#endif
#ifdef __NR_nfsservctl
#define NATIVE_nfsservctl __NR_nfsservctl
#else
#define NATIVE_nfsservctl -1
#endif
#ifdef __NR_lookup_dcookie
#define NATIVE_lookup_dcookie __NR_lookup_dcookie
#else
#define NATIVE_lookup_dcookie -1
#endif
#ifdef __NR_kexec_file_load
#define NATIVE_kexec_file_load __NR_kexec_file_load
#else
#define NATIVE_kexec_file_load -1
#endif
#ifdef __NR_open
#define NATIVE_open __NR_open
#else
#define NATIVE_open -1
#endif
#ifdef __NR_creat
#define NATIVE_creat __NR_creat
#else
#define NATIVE_creat -1
#endif
#ifdef __NR_mknod
#define NATIVE_mknod __NR_mknod
#else
#define NATIVE_mknod -1
#endif
#ifdef __NR_socketcall
#define NATIVE_socketcall __NR_socketcall
#else
#define NATIVE_socketcall -1
#endif
#ifdef __NR_chmod
#define NATIVE_chmod __NR_chmod
#else
#define NATIVE_chmod -1
#endif
/* Numbers from 424 on are the same on every architecture; old headers may
 * lack them. */
#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_clone3
#define __NR_clone3 435
#endif
#ifndef __NR_openat2
#define __NR_openat2 437
#endif
#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442
#endif
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_open_tree
#define __NR_open_tree 428
#endif
#ifndef __NR_move_mount
#define __NR_move_mount 429
#endif
#ifndef __NR_fsopen
#define __NR_fsopen 430
#endif
#ifndef __NR_fsconfig
#define __NR_fsconfig 431
#endif
#ifndef __NR_fsmount
#define __NR_fsmount 432
#endif
#ifndef __NR_fspick
#define __NR_fspick 433
#endif
#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif
#ifndef __NR_io_uring_enter
#define __NR_io_uring_enter 426
#endif
#ifndef __NR_io_uring_register
#define __NR_io_uring_register 427
#endif

/* The numbers: x86-syscalls.h (i386 and x32 there; the native one is this
 * build's __NR_*). */
#include "x86-syscalls.h"
#define SCNR_ROW(name, native, i386, x32) { #name, native, i386, x32 },
static const struct scnr nrs[] = { X86_SYSCALLS(SCNR_ROW) };

static long
nr_of(const char *name)
{
	for (size_t i = 0; i < sizeof nrs / sizeof nrs[0]; i++) {
		if (strcmp(nrs[i].name, name) != 0)
			continue;
		switch (abi) {
		case ABI_NATIVE: return nrs[i].native;
		case ABI_I386: return nrs[i].i386;
		case ABI_X32: return nrs[i].x32 < 0 ? -1 : nrs[i].x32 | X32_BIT;
		}
	}
	fprintf(stderr, "try-syscall: internal: no number for %s\n", name);
	exit(2);
}

#define NOSYSCALL_RET (-100000L)

#if defined(__x86_64__)
static long
int80(long nr, long a, long b, long c, long d, long e)
{
	long r;

	/* The ia32 entry returns a 32-bit value in eax; r8-r11 are not
	 * preserved by every kernel version on this path. */
	__asm__ volatile("int $0x80"
		: "=a"(r)
		: "0"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
		: "memory", "cc", "r8", "r9", "r10", "r11");
	return (long)(int)r;
}
#endif

#if defined(__x86_64__)
/* A kernel built or booted without the ia32 entry (ia32_emulation=0)
 * kills a process that makes "int $0x80" with SIGSEGV: then there is no
 * i386 system call to refuse. A child tries a harmless one first. */
static int
ia32_entry_works(void)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return 1; /* cannot tell: the probe itself will say */
	if (pid == 0) {
		/* the kernel's SIGSEGV, not a sanitizer's report of it:
		 * SIG_DFL set with the raw call (ASan keeps its handler
		 * against signal() and sigaction()) */
		struct { void *handler; unsigned long flags; void *restorer; unsigned long mask; }
			dfl = { 0 };
		syscall(SYS_rt_sigaction, SIGSEGV, &dfl, NULL, sizeof dfl.mask);
		int80(20 /* getpid */, 0, 0, 0, 0, 0);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) < 0)
		return 1;
	return !(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
}
#endif

static int dry_run;
static long dry_calls;
#define DRY_RET_BASE 4000L /* dry-run answers: -(4000 + K), an errno range */

/* sc NAME ARGS: the raw kernel answer, -errno on failure (never touches
 * errno's meaning of libc wrappers: there are none on this path). With
 * --dry-run: the CALL line, and the K-th call's answer -(4000 + K). */
static long
sc6(const char *name, long a, long b, long c, long d, long e, long f)
{
	long nr = nr_of(name), r;

	if (dry_run) {
		printf("CALL %s %ld %#lx %#lx %#lx %#lx %#lx %#lx\n", name, nr,
		       (unsigned long)a, (unsigned long)b, (unsigned long)c,
		       (unsigned long)d, (unsigned long)e,
		       abi == ABI_I386 ? 0UL : (unsigned long)f);
		if (nr < 0)
			return NOSYSCALL_RET;
		return -(DRY_RET_BASE + ++dry_calls);
	}
	if (nr < 0)
		return NOSYSCALL_RET;
	switch (abi) {
	case ABI_I386:
#if defined(__x86_64__)
		(void)f;
		return int80(nr, a, b, c, d, e);
#else
		return -ENOSYS;
#endif
	case ABI_X32:
	case ABI_NATIVE:
	default:
		r = syscall(nr, a, b, c, d, e, f);
		return r == -1 ? -(long)errno : r;
	}
}
#define sc(name, a, b, c, d, e) sc6((name), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0L)

/* Memory below 4 GiB, so that pointers survive the i386 entry. */
static char *arena;
static size_t arena_used;
#define ARENA_SIZE 65536

static void *
low(const void *p, size_t n)
{
	char *q;

	if (!arena) {
		int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_32BIT
		flags |= MAP_32BIT;
#endif
		arena = mmap(NULL, ARENA_SIZE, PROT_READ | PROT_WRITE, flags, -1, 0);
		if (arena == MAP_FAILED) {
			printf("setup:%s\n", errname(errno));
			exit(0);
		}
	}
	n = (n + 15) & ~(size_t)15;
	if (arena_used + n > ARENA_SIZE) {
		fprintf(stderr, "try-syscall: argument too large\n");
		exit(2);
	}
	q = arena + arena_used;
	arena_used += n;
	if (p)
		memcpy(q, p, n);
	else
		memset(q, 0, n);
	return q;
}

static char *
lstr(const char *s)
{
	size_t n = strlen(s) + 1;
	char *q = low(NULL, n);

	memcpy(q, s, n);
	return q;
}

#define BADPTR ((long)1)  /* never mapped: the kernel answers EFAULT */

static const char *progname = "try-syscall";

static void
usage(void)
{
	fprintf(stderr, "usage: %s [--abi=native|i386|x32] [--userns] [--dry-run] NAME [ARG...]\n"
		"       %s --numbers\n"
		"  (see the comment at the top of try-syscall.c for the names)\n", progname, progname);
	exit(2);
}

static void
report(long r)
{
	if (dry_run && r <= -(DRY_RET_BASE + 1) && r >= -(DRY_RET_BASE + dry_calls))
		printf("MEASURED %ld\n", -r - DRY_RET_BASE);
	else if (r == NOSYSCALL_RET)
		puts("NOSYSCALL");
	else if (r < 0 && r >= -4095)
		puts(errname((int)-r));
	else
		puts("OK");
}

static void
setup_failed(void)
{
	printf("setup:%s\n", errname(errno));
	exit(0);
}

/* The child side of a fork made by a raw clone: leave at once, without
 * running anything of the parent's (atexit, stdio buffers). */
static void
child_exit(void)
{
	syscall(__NR_exit_group, 0);
	_exit(0);
}

static long
reap(long r)
{
	if (r == 0)
		child_exit();
	if (r > 0) {
		int st;

		while (waitpid((pid_t)r, &st, __WALL) < 0 && errno == EINTR)
			;
		return 0;
	}
	return r;
}

/* ---- terminal ioctls ----------------------------------------------------- */

static int
tty_fd(const char *arg)
{
	char *end;
	long n;
	int fd;

	if (!arg)
		return 0;
	if (dry_run)
		return -1;
	n = strtol(arg, &end, 10);
	if (*arg && !*end && n >= 0 && n < 100000)
		return (int)n;
	fd = open(arg, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		setup_failed();
	return fd;
}

static long
do_ioctl(int fd, unsigned long req, unsigned long hi)
{
	long r;

	if (req == TIOCSTI) {
		char *c = lstr(" ");
		r = sc("ioctl", fd, req | hi, c, 0, 0);
	} else if (req == TIOCLINUX) {
		char *sub = low(NULL, 1);
		*sub = TIOCL_GETSHIFTSTATE_;
		r = sc("ioctl", fd, req | hi, sub, 0, 0);
	} else {
		struct termios *t = low(NULL, sizeof(struct termios));
		r = sc("ioctl", fd, req | hi, t, 0, 0);
	}
	return r;
}

/* Run the ioctl in a child whose controlling terminal is a new pty that
 * we own. The child's answer (the raw return value) comes back on a pipe. */
static long
ioctl_on_new_pty(unsigned long req, unsigned long hi)
{
	int master, p[2], st;
	long r = -EIO;
	pid_t pid;

	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0)
		setup_failed();
	if (pipe2(p, O_CLOEXEC) < 0)
		setup_failed();
	pid = fork();
	if (pid < 0)
		setup_failed();
	if (pid == 0) {
		const char *name;
		int slave;
		long res;

		close(p[0]);
		res = -EIO;
		name = ptsname(master);
		if (setsid() < 0 || !name) {
			res = -100000 - errno;
		} else if ((slave = open(name, O_RDWR | O_CLOEXEC)) < 0) {
			res = -100000 - errno;
		} else {
			/* Opening it as a session leader made it our
			 * controlling terminal; be explicit anyway. */
			(void)ioctl(slave, TIOCSCTTY, 0);
			res = do_ioctl(slave, req, hi);
		}
		if (write(p[1], &res, sizeof res) != (ssize_t)sizeof res)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &r, sizeof r) != (ssize_t)sizeof r)
		r = -EIO;
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	close(master);
	if (r <= -100000) {
		errno = (int)(-100000 - r);
		setup_failed();
	}
	return r;
}

static long
probe_ioctl(const char *arg, unsigned long req, int high)
{
	unsigned long hi = 0;

	if (high && sizeof(long) == 8 && abi == ABI_NATIVE)
		hi = (unsigned long)0xffffffff << 16 << 16;
	if (arg && strcmp(arg, "newpty") == 0 && !dry_run)
		return ioctl_on_new_pty(req, hi);
	return do_ioctl(tty_fd(arg), req, hi);
}

/* ---- modes and file creation --------------------------------------------- */

static int
mode_suffix(const char *s, mode_t *mode, mode_t plain)
{
	if (strcmp(s, "suid") == 0)
		*mode = 04755;
	else if (strcmp(s, "sgid") == 0)
		*mode = 02755;
	else if (strcmp(s, "plain") == 0)
		*mode = plain;
	else
		return -1;
	return 0;
}

static long
close_ok(long r)
{
	if (r >= 0)
		close((int)r);
	return r >= 0 ? 0 : r;
}

/* NAME is "<op>-<suid|sgid|plain>"; returns 1 if it was a mode probe */
static int
mode_probe(const char *name, const char *arg, long *res)
{
	static const char *ops[] = {
		"chmod", "fchmod", "fchmodat", "fchmodat2",
		"open", "openat", "creat", "mknod", "mknodat",
		"open-tmpfile", "openat-tmpfile",
	};
	const char *op = NULL, *suffix = NULL;
	mode_t mode = 0;
	size_t n;

	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		n = strlen(ops[i]);
		if (strncmp(name, ops[i], n) == 0 && name[n] == '-' &&
		    mode_suffix(name + n + 1, &mode, 0) == 0) {
			op = ops[i];
			suffix = name + n + 1;
		}
	}
	if (!op)
		return 0;
	if (!arg)
		usage();
	mode_suffix(suffix, &mode, strstr(op, "chmod") ? 0755 : 0644);

	if (strcmp(op, "chmod") == 0) {
		*res = sc("chmod", lstr(arg), mode, 0, 0, 0);
	} else if (strcmp(op, "fchmod") == 0) {
		int fd = dry_run ? -1 : open(arg, O_RDONLY | O_CLOEXEC);
		if (fd < 0 && !dry_run)
			setup_failed();
		*res = sc("fchmod", fd, mode, 0, 0, 0);
		if (fd >= 0)
			close(fd);
	} else if (strcmp(op, "fchmodat") == 0) {
		*res = sc("fchmodat", AT_FDCWD, lstr(arg), mode, 0, 0);
	} else if (strcmp(op, "fchmodat2") == 0) {
		*res = sc("fchmodat2", AT_FDCWD, lstr(arg), mode, 0, 0);
	} else if (strcmp(op, "open") == 0) {
		*res = close_ok(sc("open", lstr(arg), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode, 0, 0));
	} else if (strcmp(op, "openat") == 0) {
		*res = close_ok(sc("openat", AT_FDCWD, lstr(arg), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode, 0));
	} else if (strcmp(op, "creat") == 0) {
		*res = close_ok(sc("creat", lstr(arg), mode, 0, 0, 0));
	} else if (strcmp(op, "mknod") == 0) {
		*res = sc("mknod", lstr(arg), S_IFREG | mode, 0, 0, 0);
	} else if (strcmp(op, "mknodat") == 0) {
		*res = sc("mknodat", AT_FDCWD, lstr(arg), S_IFREG | mode, 0, 0);
	} else if (strcmp(op, "open-tmpfile") == 0) {
		*res = close_ok(sc("open", lstr(arg), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode, 0, 0));
	} else {
		*res = close_ok(sc("openat", AT_FDCWD, lstr(arg), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode, 0));
	}
	return 1;
}

/* ---- the rest ------------------------------------------------------------ */

static unsigned long
number(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end)
		usage();
	return v;
}

/* socket creation only: what is made is closed at once, never connected */
static long
probe_socket(const char *name, const char *fam, const char *type)
{
	long f, t = type ? (long)number(type) : 1 /* SOCK_STREAM */, r;

	if (!fam)
		usage();
	f = (long)number(fam);
	if (strcmp(name, "socketpair") == 0) {
		int *sv = low(NULL, 2 * sizeof *sv);
		r = sc("socketpair", f, t, 0, sv, 0);
		if (r >= 0) {
			close(sv[0]);
			close(sv[1]);
		}
		return r;
	}
	if (strcmp(name, "socketcall-socket") == 0) {
		/* unsigned long args[3], as the i386 ABI lays them out */
		uint32_t *args = low(NULL, 3 * sizeof *args);
		args[0] = (uint32_t)f;
		args[1] = (uint32_t)t;
		return close_ok(sc("socketcall", 1 /* SYS_SOCKET */, args, 0, 0, 0));
	}
	return close_ok(sc("socket", f, t, 0, 0, 0));
}

int
main(int argc, char **argv)
{
	const char *name, *arg;
	int userns = 0;
	long r;

	if (argc > 0)
		progname = argv[0];
	while (argc > 1 && strncmp(argv[1], "--", 2) == 0) {
		const char *a = argv[1] + 6;

		if (strcmp(argv[1], "--userns") == 0)
			userns = 1;
		else if (strcmp(argv[1], "--dry-run") == 0)
			dry_run = 1;
		else if (strcmp(argv[1], "--numbers") == 0 && argc == 2) {
			for (size_t i = 0; i < sizeof nrs / sizeof nrs[0]; i++)
				printf("%s %ld %ld %ld\n", nrs[i].name, nrs[i].native, nrs[i].i386,
				       nrs[i].x32 < 0 ? -1 : nrs[i].x32 | X32_BIT);
			return fflush(stdout) != 0;
		} else if (strncmp(argv[1], "--abi=", 6) != 0)
			usage();
		else if (strcmp(a, "native") == 0)
			abi = ABI_NATIVE;
#if defined(__x86_64__)
		else if (strcmp(a, "i386") == 0)
			abi = ABI_I386;
		else if (strcmp(a, "x32") == 0)
			abi = ABI_X32;
#endif
		else
			usage();
		argv++;
		argc--;
	}
	if (argc < 2 || argc > 4)
		usage();
	name = argv[1];
	arg = argc > 2 ? argv[2] : NULL;
	setvbuf(stdout, NULL, _IOLBF, 0);
#if defined(__x86_64__)
	if (abi == ABI_I386 && !dry_run && !ia32_entry_works()) {
		puts("setup:NOIA32"); /* no ia32 entry in this kernel */
		return 0;
	}
#endif

	/* --userns: first a user and mount namespace of our own, natively
	 * and without an id map: this process then holds every capability
	 * over them (no exec follows that would drop them), which is where
	 * only a seccomp filter still stands between it and mount(2). */
	if (userns && !dry_run && syscall(__NR_unshare, CLONE_NEWUSER | CLONE_NEWNS) != 0)
		setup_failed();

	if (strcmp(name, "chmod-suid-hi") == 0 || strcmp(name, "open-suid-hi") == 0) {
		/* bits above the 32 the kernel reads (mode is a umode_t, flags
		 * an int): ignored by the kernel, so a filter must ignore them */
		unsigned long hi = sizeof(long) == 8 && abi == ABI_NATIVE ?
			(unsigned long)1 << 16 << 16 : 0;
		if (!arg)
			usage();
		if (name[0] == 'c')
			r = sc("chmod", lstr(arg), hi | 04755, 0, 0, 0);
		else
			r = close_ok(sc("open", lstr(arg), hi | O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, hi | 04755, 0, 0));
	} else if (mode_probe(name, arg, &r)) {
		/* done */
	} else if (strcmp(name, "ioctl-tiocsti") == 0) {
		r = probe_ioctl(arg, TIOCSTI, 0);
	} else if (strcmp(name, "ioctl-tiocsti-hi") == 0) {
		r = probe_ioctl(arg, TIOCSTI, 1);
	} else if (strcmp(name, "ioctl-tioclinux") == 0) {
		r = probe_ioctl(arg, TIOCLINUX, 0);
	} else if (strcmp(name, "ioctl-tcgets") == 0) {
		r = probe_ioctl(arg, TCGETS, 0);
	} else if (strcmp(name, "unshare-user") == 0) {
		r = sc("unshare", CLONE_NEWUSER, 0, 0, 0, 0);
	} else if (strcmp(name, "unshare-mount") == 0) {
		r = sc("unshare", CLONE_NEWNS, 0, 0, 0, 0);
	} else if (strcmp(name, "unshare-net") == 0) {
		r = sc("unshare", CLONE_NEWNET, 0, 0, 0, 0);
	} else if (strcmp(name, "unshare-none") == 0) {
		r = sc("unshare", 0, 0, 0, 0, 0);
	} else if (strcmp(name, "clone-newuser") == 0) {
		fflush(NULL);
		r = reap(sc("clone", CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0));
	} else if (strcmp(name, "clone-plain") == 0) {
		fflush(NULL);
		r = reap(sc("clone", SIGCHLD, 0, 0, 0, 0));
	} else if (strcmp(name, "clone3") == 0) {
		/* struct clone_args, CLONE_ARGS_SIZE_VER0 = 64 bytes: flags,
		 * pidfd, child_tid, parent_tid, exit_signal, stack,
		 * stack_size, tls. All zero but exit_signal: a plain fork. */
		uint64_t *ca = low(NULL, 64);
		ca[4] = SIGCHLD;
		fflush(NULL);
		r = reap(sc("clone3", ca, 64, 0, 0, 0));
	} else if (strcmp(name, "setns") == 0) {
		int fd = -1;
		if (arg && !dry_run && (fd = open(arg, O_RDONLY | O_CLOEXEC)) < 0)
			setup_failed();
		r = sc("setns", fd, 0, 0, 0, 0);
	} else if (strcmp(name, "mount") == 0) {
		/* the type string is copied first: a bad pointer is EFAULT
		 * before any lookup or permission check */
		r = sc("mount", lstr("none"), lstr("/"), BADPTR, 0, 0);
	} else if (strcmp(name, "mount-tmpfs") == 0) {
		/* A real mount, so only in the throwaway namespace of
		 * --userns: first every mount private (nothing propagates
		 * anywhere; itself a mount(2) call), then a tmpfs on DIR. */
		if (!userns || !arg)
			usage();
		r = sc("mount", lstr("none"), lstr("/"), 0, MS_REC | MS_PRIVATE, 0);
		if (r == 0)
			r = sc("mount", lstr("none"), lstr(arg), lstr("tmpfs"), MS_NOSUID | MS_NODEV, 0);
	} else if (strcmp(name, "umount2") == 0) {
		/* invalid flags: EINVAL before the path is looked at */
		r = sc("umount2", BADPTR, 0x80000000UL, 0, 0, 0);
	} else if (strcmp(name, "umount") == 0) {
		r = sc("umount", BADPTR, 0, 0, 0, 0);
	} else if (strcmp(name, "pivot_root") == 0) {
		r = sc("pivot_root", BADPTR, BADPTR, 0, 0, 0);
	} else if (strcmp(name, "move_mount") == 0) {
		r = sc("move_mount", -1, BADPTR, -1, BADPTR, 0xffffffffUL);
	} else if (strcmp(name, "open_tree") == 0) {
		/* no OPEN_TREE_CLONE: an O_PATH-like descriptor, harmless */
		r = close_ok(sc("open_tree", AT_FDCWD, lstr("."), O_CLOEXEC, 0, 0));
	} else if (strcmp(name, "fsopen") == 0) {
		r = sc("fsopen", lstr("tmpfs"), 0xfffffff0UL, 0, 0, 0);
	} else if (strcmp(name, "fsconfig") == 0) {
		r = sc("fsconfig", -1, 0, 0, 0, 0);
	} else if (strcmp(name, "fsmount") == 0) {
		r = sc("fsmount", -1, 0xfffffff0UL, 0, 0, 0);
	} else if (strcmp(name, "fspick") == 0) {
		r = sc("fspick", -1, BADPTR, 0xfffffff0UL, 0, 0);
	} else if (strcmp(name, "mount_setattr") == 0) {
		r = sc("mount_setattr", -1, BADPTR, 0xfffffff0UL, 0, 0);
	} else if (strcmp(name, "keyctl") == 0) {
		r = sc("keyctl", 0x7fff, 0, 0, 0, 0);  /* no such operation */
	} else if (strcmp(name, "add_key") == 0) {
		r = sc("add_key", BADPTR, BADPTR, 0, 0, 0);
	} else if (strcmp(name, "request_key") == 0) {
		r = sc("request_key", BADPTR, BADPTR, 0, 0, 0);
	} else if (strcmp(name, "bpf") == 0) {
		r = sc("bpf", 0x7fff, 0, 0, 0, 0);  /* no such command */
	} else if (strcmp(name, "perf_event_open") == 0) {
		r = sc("perf_event_open", BADPTR, 0, -1, -1, 0);
	} else if (strcmp(name, "userfaultfd") == 0) {
		/* user-mode-only is allowed without privilege: a harmless fd */
		r = close_ok(sc("userfaultfd", O_CLOEXEC | UFFD_USER_MODE_ONLY_, 0, 0, 0, 0));
	} else if (strcmp(name, "kexec_load") == 0) {
		/* a foreign architecture and too many segments: EINVAL */
		r = sc("kexec_load", 0, 1000, 0, 0xffff0000UL, 0);
	} else if (strcmp(name, "kexec_file_load") == 0) {
		r = sc("kexec_file_load", -1, -1, 0, 0, 0x80000000UL);
	} else if (strcmp(name, "init_module") == 0) {
		r = sc("init_module", 0, 0, lstr(""), 0, 0);  /* empty image */
	} else if (strcmp(name, "finit_module") == 0) {
		r = sc("finit_module", -1, lstr(""), 0x80000000UL, 0, 0);
	} else if (strcmp(name, "delete_module") == 0) {
		r = sc("delete_module", lstr("kjail_no_such_module"), O_NONBLOCK, 0, 0, 0);
	} else if (strcmp(name, "reboot") == 0) {
		/* magic 0: always EINVAL once permitted; never a real magic */
		r = sc("reboot", 0, 0, 0, 0, 0);
	} else if (strcmp(name, "swapon") == 0) {
		r = sc("swapon", BADPTR, 0x80000000UL, 0, 0, 0);  /* bad flags first */
	} else if (strcmp(name, "swapoff") == 0) {
		r = sc("swapoff", BADPTR, 0, 0, 0, 0);
	} else if (strcmp(name, "syslog") == 0) {
		r = sc("syslog", 10, 0, 0, 0, 0);  /* SYSLOG_ACTION_SIZE_BUFFER */
	} else if (strcmp(name, "acct") == 0) {
		r = sc("acct", BADPTR, 0, 0, 0, 0);  /* never NULL, never a file */
	} else if (strcmp(name, "quotactl") == 0) {
		r = sc("quotactl", (0x800001UL << 8) | 99, 0, 0, 0, 0);  /* Q_SYNC, type 99 */
	} else if (strcmp(name, "lookup_dcookie") == 0) {
		r = sc("lookup_dcookie", 0, 0, 0, 0, 0);
	} else if (strcmp(name, "uselib") == 0) {
		r = sc("uselib", BADPTR, 0, 0, 0, 0);
	} else if (strcmp(name, "nfsservctl") == 0) {
		r = sc("nfsservctl", 0, 0, 0, 0, 0);
	} else if (strcmp(name, "vm86") == 0) {
		r = sc("vm86", 0, 0, 0, 0, 0);
	} else if (strcmp(name, "vm86old") == 0) {
		r = sc("vm86old", 0, 0, 0, 0, 0);
	} else if (strcmp(name, "personality") == 0) {
		unsigned long want = arg ? number(arg) : ADDR_NO_RANDOMIZE;
		long old = sc("personality", 0xffffffffUL, 0, 0, 0, 0);
		r = sc("personality", want, 0, 0, 0, 0);
		if (r >= 0 && old >= 0 && want != 0xffffffffUL)
			(void)sc("personality", old, 0, 0, 0, 0);
	} else if (strcmp(name, "io_uring_setup") == 0) {
		r = close_ok(sc("io_uring_setup", 1, BADPTR, 0, 0, 0));
	} else if (strcmp(name, "io_uring_enter") == 0) {
		r = sc("io_uring_enter", -1, 0, 0, 0, 0);
	} else if (strcmp(name, "io_uring_register") == 0) {
		r = sc("io_uring_register", -1, 0, 0, 0, 0);
	} else if (strcmp(name, "openat2") == 0) {
		/* struct open_how { u64 flags, mode, resolve; } */
		uint64_t *how = low(NULL, 24);
		if (!arg)
			usage();
		how[0] = O_RDONLY | O_CLOEXEC;
		r = close_ok(sc("openat2", AT_FDCWD, lstr(arg), how, 24, 0));
	} else if (strcmp(name, "kill") == 0) {
		if (!arg)
			usage();
		r = sc("kill", (long)number(arg), argc > 3 ? (long)number(argv[3]) : 0, 0, 0, 0);
	} else if (strcmp(name, "kill-parent") == 0) {
		pid_t pp = getppid();
		if (pp == 0) {
			puts("NOPARENT");
			return 0;
		}
		r = sc("kill", pp, arg ? (long)number(arg) : 0, 0, 0, 0);
	} else if (strcmp(name, "getpid") == 0) {
		r = sc("getpid", 0, 0, 0, 0, 0);
	} else if (strcmp(name, "socket") == 0 || strcmp(name, "socketpair") == 0 ||
		   strcmp(name, "socketcall-socket") == 0) {
		r = probe_socket(name, arg, argc > 3 ? argv[3] : NULL);
	} else if (strcmp(name, "landlock-abi") == 0) {
		r = sc("landlock_create_ruleset", 0, 0, LANDLOCK_CREATE_RULESET_VERSION_, 0, 0);
		if (r >= 0) {
			printf("%ld\n", r);
			return 0;
		}
	} else {
		fprintf(stderr, "%s: unknown probe '%s'\n", progname, name);
		usage();
		return 2;
	}
	report(r);
	return 0;
}
