/* SPDX-License-Identifier: MIT */
/* hs-probe32 NAME [FILE]: a real 32-bit (i386) program, for the seccomp
 * tests: a 32-bit binary must not walk around the filter.
 *
 * It needs no 32-bit libc: it is built freestanding by the test itself,
 *   cc -m32 -static -nostdlib -ffreestanding -fno-pic -no-pie
 *      -fno-stack-protector -fno-builtin -O1 -o hs-probe32 hs-probe32.c
 * and the test skips (with the compiler's reason) when that fails. Like
 * try-syscall it prints one word: "OK" or the errno name.
 *
 * NAME: getpid | keyctl | unshare-user | clone-newuser | clone3 | mount |
 *       personality | io_uring_setup | ioctl-tiocsti (fd 0) |
 *       chmod-suid FILE | open-suid FILE
 * The arguments are the harmless ones of try-syscall.c.
 */
#if !defined(__i386__)
#error "hs-probe32 is an i386 program: build it with -m32"
#endif

typedef unsigned long size_t_;

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

#define NR_exit_group 252
#define NR_write 4
#define NR_getpid 20
#define NR_waitpid 7
#define NR_keyctl 288
#define NR_unshare 310
#define NR_clone 120
#define NR_clone3 435
#define NR_mount 21
#define NR_personality 136
#define NR_io_uring_setup 425
#define NR_ioctl 54
#define NR_chmod 15
#define NR_open 5
#define NR_close 6

static size_t_
len(const char *s)
{
	size_t_ n = 0;

	while (s[n])
		n++;
	return n;
}

static int
eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static void
say(const char *s)
{
	sys(NR_write, 1, (long)s, (long)len(s), 0, 0);
	sys(NR_write, 1, (long)"\n", 1, 0, 0);
}

static void
report(long r)
{
	static char num[16];
	const char *s = 0;
	int i = 15;
	long v;

	if (r >= 0 || r < -4095) {
		say("OK");
		return;
	}
	switch (-r) {
	case 1: s = "EPERM"; break;
	case 2: s = "ENOENT"; break;
	case 5: s = "EIO"; break;
	case 9: s = "EBADF"; break;
	case 13: s = "EACCES"; break;
	case 14: s = "EFAULT"; break;
	case 17: s = "EEXIST"; break;
	case 22: s = "EINVAL"; break;
	case 25: s = "ENOTTY"; break;
	case 30: s = "EROFS"; break;
	case 38: s = "ENOSYS"; break;
	case 95: s = "EOPNOTSUPP"; break;
	default: break;
	}
	if (s) {
		say(s);
		return;
	}
	num[i] = 0;
	v = -r;
	do {
		num[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v && i > 1);
	num[--i] = 'E';
	say(num + i);
}

static long
reap(long r)
{
	if (r == 0)
		sys(NR_exit_group, 0, 0, 0, 0, 0);
	if (r > 0) {
		int st;
		sys(NR_waitpid, r, (long)&st, 0x40000000 /* __WALL */, 0, 0);
		return 0;
	}
	return r;
}

static unsigned long long clone_args[8];

void cstart(long *sp);

__attribute__((used)) void
cstart(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	const char *name = argc > 1 ? argv[1] : "";
	const char *file = argc > 2 ? argv[2] : 0;
	long r;

	if (eq(name, "getpid")) {
		r = sys(NR_getpid, 0, 0, 0, 0, 0);
	} else if (eq(name, "keyctl")) {
		r = sys(NR_keyctl, 0x7fff, 0, 0, 0, 0);
	} else if (eq(name, "unshare-user")) {
		r = sys(NR_unshare, 0x10000000, 0, 0, 0, 0);
	} else if (eq(name, "clone-newuser")) {
		r = reap(sys(NR_clone, 0x10000000 | 17, 0, 0, 0, 0));
	} else if (eq(name, "clone3")) {
		clone_args[4] = 17;  /* exit_signal = SIGCHLD */
		r = reap(sys(NR_clone3, (long)clone_args, 64, 0, 0, 0));
	} else if (eq(name, "mount")) {
		r = sys(NR_mount, (long)"none", (long)"/", 1 /* bad pointer */, 0, 0);
	} else if (eq(name, "personality")) {
		long old = sys(NR_personality, -1, 0, 0, 0, 0);
		r = sys(NR_personality, 0x0040000, 0, 0, 0, 0);
		if (r >= 0 && old >= 0)
			sys(NR_personality, old, 0, 0, 0, 0);
	} else if (eq(name, "io_uring_setup")) {
		r = sys(NR_io_uring_setup, 1, 1 /* bad pointer */, 0, 0, 0);
	} else if (eq(name, "ioctl-tiocsti")) {
		r = sys(NR_ioctl, 0, 0x5412, (long)" ", 0, 0);
	} else if (eq(name, "chmod-suid") && file) {
		r = sys(NR_chmod, (long)file, 04755, 0, 0, 0);
	} else if (eq(name, "open-suid") && file) {
		/* O_WRONLY|O_CREAT|O_EXCL */
		r = sys(NR_open, (long)file, 01 | 0100 | 0200, 04755, 0, 0);
		if (r >= 0)
			sys(NR_close, r, 0, 0, 0, 0);
	} else {
		say("usage: hs-probe32 NAME [FILE]");
		sys(NR_exit_group, 2, 0, 0, 0, 0);
		return;
	}
	report(r);
	sys(NR_exit_group, 0, 0, 0, 0, 0);
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
