/* kjail's ELF entry point (see front.h): starts bwrap before the C library
 * starts up, then jumps to the C library's _start.
 *
 * Nothing of the C library may run here, nor anything it sets up: no
 * relocation is applied yet (so no table of pointers, no function
 * pointer), there is no TLS (so no stack protector, no errno), no
 * sanitizer runtime. Every function carries FRONT, and the file is built
 * with -ffreestanding -fno-builtin (no memset or memcpy the compiler would
 * call). Anything unexpected makes it give up quietly: main() then does
 * everything itself, as when there is no front. */
#include "config.h"
#include "front.h"
#include "entry-abi.h"
#include "nolibc.h"

#include <asm/stat.h>
#include <linux/fcntl.h>
#include <linux/prctl.h>
#include <linux/signal.h>
#include <stdbool.h>
#include <stddef.h>

#define FRONT __attribute__((no_stack_protector, no_instrument_function, \
			     no_sanitize("address", "undefined")))

struct front_state kjail_front;

#define MFD_CLOEXEC_ 1u
#define MFD_ALLOW_SEALING_ 2u
#define CLOSE_RANGE_CLOEXEC_ (1u << 2)
#define RLIMIT_NOFILE_ 7
#define X_OK_ 1
#define SIGCHLD_ 17

FRONT static size_t front_len(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

FRONT static bool front_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

FRONT static bool front_prefix(const char *s, const char *p)
{
	while (*p && *s == *p)
		s++, p++;
	return *p == '\0';
}

/* Appends s to buf (of FRONT_PATH_MAX) at *at; false when it does not fit. */
FRONT static bool front_put(char *buf, size_t *at, const char *s)
{
	size_t n = front_len(s);
	if (*at + n >= FRONT_PATH_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		buf[*at + i] = s[i];
	*at += n;
	buf[*at] = '\0';
	return true;
}

FRONT static void front_num(char *out, int v)
{
	char t[12];
	int n = 0;
	do
		t[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	while (n)
		*out++ = t[--n];
	*out = '\0';
}

/* run.c's executable_file: a regular file this user may execute. */
FRONT static bool front_executable(const char *path)
{
	struct stat st;
	return path[0] == '/' && sys3(__NR_stat, (long)path, (long)&st, 0) == 0 &&
	       (st.st_mode & 0170000) == 0100000 && sys3(__NR_access, (long)path, X_OK_, 0) == 0;
}

/* run.c's entry_helper(): kjail-entry beside kjail, else in kjail's
 * libexec directory, else kjail itself. */
FRONT static bool front_entry(char *out)
{
	char self[FRONT_PATH_MAX];
	long n = sys3(__NR_readlink, (long)"/proc/self/exe", (long)self, FRONT_PATH_MAX - 1);
	if (n <= 0)
		return false;
	self[n] = '\0';
	long slash = n;
	while (slash > 0 && self[slash] != '/')
		slash--;
	size_t at = 0;
	out[0] = '\0';
	if (self[slash] == '/') {
		self[slash] = '\0';
		bool fits = front_put(out, &at, self) && front_put(out, &at, "/kjail-entry");
		self[slash] = '/';
		if (fits && front_executable(out))
			return true;
	}
	at = 0;
	if (front_put(out, &at, KJ_PKGLIBEXECDIR "/kjail-entry") && front_executable(out))
		return true;
	at = 0;
	return front_put(out, &at, self);
}

/* bwrap_find(): the first of KJ_BWRAP_CANDIDATES (NUL-separated) there. */
FRONT static bool front_bwrap(char *out)
{
	static const char list[] = KJ_BWRAP_CANDIDATES;
	for (const char *c = list; *c; c += front_len(c) + 1)
		if (front_executable(c)) {
			size_t at = 0;
			return front_put(out, &at, c);
		}
	return false;
}

/* Whether the long option word a abbreviates name (getopt_long takes any
 * unambiguous prefix, "--do" for "--doctor"), min characters at least. */
FRONT static bool front_abbrev(const char *a, const char *name, size_t min)
{
	size_t n = 0;
	while (a[n] && a[n] != '=' && a[n] == name[n])
		n++;
	return n >= min && (a[n] == '\0' || a[n] == '=');
}

/* Whether this run is one the front may start bwrap for: a command after
 * "--", and none of the options that run nothing (--print, --explain,
 * --doctor, --help, --version, however abbreviated, or a short -h or -V
 * anywhere in a cluster), nor kjail as an entry helper. Returns the
 * command's index, 0 for none. The rest of the options main() judges. */
FRONT static int front_command(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (front_eq(a, "--"))
			return i + 1 < argc ? i + 1 : 0;
		if (front_prefix(a, "--jail-entry") || front_abbrev(a, "--print", 3) ||
		    front_abbrev(a, "--explain", 3) || front_abbrev(a, "--doctor", 4) ||
		    front_abbrev(a, "--help", 3) || front_abbrev(a, "--version", 3))
			return 0;
		if (a[0] == '-' && a[1] != '-')
			for (const char *c = a + 1; *c; c++)
				if (*c == 'h' || *c == 'V')
					return 0;
	}
	return 0;
}

/* --deny-read entries on the command line: a descriptor each. */
FRONT static int front_masks(int cmd_at, char **argv)
{
	int n = 0;
	for (int i = 1; i < cmd_at - 1; i++)
		if (front_prefix(argv[i], "--deny-read") || (argv[i][0] == '-' && argv[i][1] == 'r'))
			n++;
	return n;
}

FRONT static int front_sig_default(void)
{
	struct { unsigned long handler, flags, restorer, mask; } sa;
	int m = 0;
	if (sys6(__NR_rt_sigaction, SIGINT, 0, (long)&sa, 8, 0, 0) == 0 && sa.handler != 1)
		m |= JAIL_SIGINT_DEFAULT;
	if (sys6(__NR_rt_sigaction, SIGQUIT, 0, (long)&sa, 8, 0, 0) == 0 && sa.handler != 1)
		m |= JAIL_SIGQUIT_DEFAULT;
	return m;
}

FRONT static void front_close_all(struct front_state *f)
{
	int *fds[] = { &f->status_p[0], &f->status_p[1], &f->err_p[0], &f->err_p[1],
		       &f->info_p[0], &f->info_p[1], &f->args_p[0], &f->args_p[1],
		       &f->user_err, &f->policy, &f->go, &f->seccomp };
	for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
		if (*fds[i] > 2)
			sys3(__NR_close, *fds[i], 0, 0);
	for (int i = 0; i < f->npool; i++)
		if (f->pool[i] > 2)
			sys3(__NR_close, f->pool[i], 0, 0);
}

/* jail_open()'s descriptors, in its order, so that they get the numbers
 * kjail --print shows. Those bwrap keeps are made without close-on-exec
 * (main() marks every descriptor above 2 close-on-exec first thing:
 * seal_inherited_fds), so the child clears it on three pipe ends only:
 * fewer system calls between the fork and bwrap's exec. */
FRONT static bool front_open(struct front_state *f, int npool)
{
	f->npool = 0;
	f->status_p[0] = f->status_p[1] = f->err_p[0] = f->err_p[1] = -1;
	f->info_p[0] = f->info_p[1] = f->args_p[0] = f->args_p[1] = -1;
	f->user_err = f->policy = f->go = f->seccomp = -1;
	if (sys3(__NR_pipe2, (long)f->status_p, O_CLOEXEC, 0) < 0 ||
	    sys3(__NR_pipe2, (long)f->err_p, O_CLOEXEC, 0) < 0 ||
	    sys3(__NR_pipe2, (long)f->info_p, O_CLOEXEC, 0) < 0 ||
	    sys3(__NR_pipe2, (long)f->args_p, O_CLOEXEC, 0) < 0)
		return false;
	if ((f->user_err = (int)sys3(__NR_fcntl, 2, F_DUPFD, 3)) < 0)
		return false;
	for (int i = 0; i < npool; i++) {
		long fd = i == 0 ? sys3(__NR_open, (long)"/dev/null", O_RDONLY, 0)
				 : sys3(__NR_fcntl, f->pool[0], F_DUPFD, 3);
		if (fd < 0)
			return false;
		f->pool[f->npool++] = (int)fd;
	}
	f->policy = (int)sys3(__NR_memfd_create, (long)"kjail-policy", 0, 0);
	f->go = (int)sys3(__NR_memfd_create, (long)"kjail-go", 0, 0);
	f->seccomp = (int)sys3(__NR_memfd_create, (long)"kjail-seccomp", MFD_ALLOW_SEALING_, 0);
	return f->policy >= 0 && f->go >= 0 && f->seccomp >= 0;
}

/* The child: run.c's exec_bwrap(). */
FRONT static __attribute__((noreturn)) void front_child(struct front_state *f, char **bargv,
						       int parent)
{
	if (sys3(__NR_prctl, PR_SET_PDEATHSIG, SIGKILL, 0) < 0 ||
	    sys3(__NR_getppid, 0, 0, 0) != parent)
		for (;;)
			sys3(__NR_exit_group, KJ_EXIT_FAIL, 0, 0);
	int keep[] = { f->args_p[0], f->status_p[1], f->info_p[1] };
	for (size_t i = 0; i < sizeof keep / sizeof *keep; i++)
		if (sys3(__NR_fcntl, keep[i], F_SETFD, 0) < 0)
			sys3(__NR_exit_group, KJ_EXIT_FAIL, 0, 0);
	if (sys3(__NR_dup2, f->err_p[1], 2, 0) < 0)
		sys3(__NR_exit_group, KJ_EXIT_FAIL, 0, 0);
	struct { unsigned long handler, flags, restorer, mask; } ign = { 1, 0, 0, 0 };
	if (sys6(__NR_rt_sigaction, SIGINT, (long)&ign, 0, 8, 0, 0) < 0 ||
	    sys6(__NR_rt_sigaction, SIGQUIT, (long)&ign, 0, 8, 0, 0) < 0)
		sys3(__NR_exit_group, KJ_EXIT_FAIL, 0, 0);
	char *envp[] = { 0 };
	sys3(__NR_execve, (long)f->bwrap, (long)bargv, (long)envp);
	static const char msg[] = "cannot execute bwrap\n";
	sys3(__NR_write, 2, (long)msg, sizeof msg - 1);
	for (;;)
		sys3(__NR_exit_group, KJ_EXIT_FAIL, 0, 0);
}

/* Called by kjail_front with the process's first stack: argc, argv..., 0,
 * envp... */
FRONT __attribute__((used)) void kjail_front_main(long *sp)
{
	struct front_state *f = &kjail_front;
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	int cmd_at = front_command(argc, argv);
	if (!cmd_at)
		return;
	int npool = front_masks(cmd_at, argv) + JAIL_POOL_SPARE;
	struct { unsigned long cur, max; } rl;
	if (npool > FRONT_POOL_MAX ||
	    sys6(__NR_prlimit64, 0, RLIMIT_NOFILE_, 0, (long)&rl, 0, 0) < 0 ||
	    rl.cur < (unsigned long)npool + 64)
		return;
	/* what kjail refuses or seals before it starts bwrap; a closed
	 * standard descriptor (whose number a pipe would take) is left to
	 * main() too */
	for (int fd = 0; fd < 3; fd++) {
		struct stat st;
		if (sys3(__NR_fstat, fd, (long)&st, 0) != 0 || (st.st_mode & 0170000) == 0040000)
			return;
	}
	if (sys3(__NR_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC_) < 0)
		return;
	if (!front_bwrap(f->bwrap) || !front_entry(f->entry))
		return;
	if (!front_open(f, npool)) {
		front_close_all(f);
		return;
	}
	f->sig_default = front_sig_default();

	/* bwrap --args A -- ENTRY --jail-entry=S,E,M,G -- CMD... */
	char argsfd[12], spec[64], num[12];
	front_num(argsfd, f->args_p[0]);
	size_t at = 0;
	int parts[] = { f->status_p[1], f->user_err, f->sig_default, f->go };
	spec[0] = '\0';
	for (int i = 0; i < 4; i++) {
		front_num(num, parts[i]);
		if (!front_put(spec, &at, i ? "," : "--jail-entry=") || !front_put(spec, &at, num)) {
			front_close_all(f);
			return;
		}
	}
	int ncmd = argc - cmd_at;
	if (ncmd > FRONT_CMD_MAX) { /* bwrap's argv goes on this stack */
		front_close_all(f);
		return;
	}
	char *bargv[ncmd + 8];
	bargv[0] = f->bwrap;
	bargv[1] = (char *)"--args";
	bargv[2] = argsfd;
	bargv[3] = (char *)"--";
	bargv[4] = f->entry;
	bargv[5] = spec;
	bargv[6] = (char *)"--";
	for (int i = 0; i < ncmd; i++)
		bargv[7 + i] = f->cmd[i] = argv[cmd_at + i];
	bargv[7 + ncmd] = 0;

	/* cpus_split(): bwrap stays on this CPU, kjail moves to the next one
	 * it may use; both get all of them back before bwrap gets its
	 * options (cpus_join). Not with one CPU or a set-ID bwrap. */
	unsigned cpu = 0;
	int here = -1, other = -1;
	struct stat bst;
	if (sys3(__NR_getcpu, (long)&cpu, 0, 0) == 0 && cpu < FRONT_CPU_WORDS * 64 &&
	    sys3(__NR_stat, (long)f->bwrap, (long)&bst, 0) == 0 && !(bst.st_mode & 06000) &&
	    sys3(__NR_sched_getaffinity, 0, sizeof f->cpus_all, (long)f->cpus_all) > 0 &&
	    (f->cpus_all[cpu / 64] >> (cpu % 64) & 1)) {
		for (unsigned k = 1; k < FRONT_CPU_WORDS * 64 && other < 0; k++) {
			unsigned c = (cpu + k) % (FRONT_CPU_WORDS * 64);
			if (f->cpus_all[c / 64] >> (c % 64) & 1)
				other = (int)c;
		}
		if (other >= 0 && other != (int)cpu)
			here = (int)cpu;
		else
			other = -1;
	}

	int parent = (int)sys3(__NR_getpid, 0, 0, 0);
	unsigned long one[FRONT_CPU_WORDS];
	if (here >= 0) { /* the child is made on this CPU, and stays there */
		for (int i = 0; i < FRONT_CPU_WORDS; i++)
			one[i] = 0;
		one[here / 64] |= 1UL << (here % 64);
		if (sys3(__NR_sched_setaffinity, 0, sizeof one, (long)one) < 0)
			here = -1;
	}
	/* a copy of this small process (no shared memory: the child may call
	 * functions on its own stack), which execs bwrap; this one goes on
	 * with kjail at once */
	long pid = sys6(__NR_clone, SIGCHLD_, 0, 0, 0, 0, 0);
	if (pid == 0)
		front_child(f, bargv, parent);
	if (here >= 0) { /* kjail to the other CPU; cpus_join() gives all back */
		one[here / 64] = 0;
		one[other / 64] |= 1UL << (other % 64);
		(void)sys3(__NR_sched_setaffinity, 0, sizeof one, (long)one);
		f->split = 1;
	}
	if (pid < 0) {
		if (here >= 0)
			(void)sys3(__NR_sched_setaffinity, 0, sizeof f->cpus_all, (long)f->cpus_all);
		f->split = 0;
		front_close_all(f);
		return;
	}
	f->pid = (int)pid;
	f->ncmd = ncmd;
	f->started = 1;
}

/* The entry point: the C function above with the initial stack, then the C
 * library's _start with that stack and %rdx (the dynamic loader's
 * finaliser, where there is one) as the kernel or loader left them. */
__asm__(".text\n"
	".global kjail_front_entry\n"
	".type kjail_front_entry,@function\n"
	"kjail_front_entry:\n"
	"	mov %rsp, %r12\n"
	"	mov %rdx, %r13\n"
	"	mov %rsp, %rdi\n"
	"	and $-16, %rsp\n"
	"	call kjail_front_main\n"
	"	mov %r12, %rsp\n"
	"	mov %r13, %rdx\n"
	"	jmp _start\n");
