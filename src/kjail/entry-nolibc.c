/* kjail-entry without a C library: the first program in every jail.
 *
 * The same job as entry_core.c's jail_entry() (which kjail itself runs as
 * `kjail --jail-entry=...` where this file cannot be built): apply
 * Landlock (writes only under the writable paths, the scopes), tell kjail
 * the jail is up, give the command the user's
 * stderr and signal dispositions, close every other descriptor, exec it.
 * It runs once per jailed command, and a static C library's start-up
 * (relocations, CPU feature probes, TLS) costs more than everything this
 * does, so it makes its system calls itself: about 10 KB, nothing to
 * initialise.
 *
 * Built for x86-64 when configure finds a compiler that links it (not with
 * sanitizers: they need their runtime); elsewhere the C version is
 * kjail-entry. tests/integration/kjail-entry.test holds both to the same
 * behaviour: exit 125 and one line for a bad invocation, 126 and 127 as a
 * shell gives them, execvp's PATH search and its /bin/sh fallback for a
 * script without "#!". */
#include <asm/unistd.h>
#include <linux/errno.h>
#include <linux/prctl.h>
#include <linux/signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "entry-abi.h"
#include "entry-go.h"
#include "nolibc.h"

#define NR_landlock_create_ruleset 444
#define NR_landlock_restrict_self 446
#define LL_CREATE_RULESET_VERSION 1u
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET 1u
#define LL_SCOPE_SIGNAL 2u
#define PATH_MAX_ 4096

/* ---- system calls ------------------------------------------------------ */

__asm__(".text\n"
	".global _start\n"
	"_start:\n"
	"	xor %ebp, %ebp\n"
	"	mov %rsp, %rdi\n"      /* argc, argv..., NULL, envp... */
	"	and $-16, %rsp\n"
	"	call entry_main\n"
	"	hlt\n");

/* The kernel returns -errno in [-4095, -1]. */
static int err_of(long r) { return r < 0 && r > -4096 ? (int)-r : 0; }

static __attribute__((noreturn)) void sys_exit(int code)
{
	for (;;)
		sys3(__NR_exit_group, code, 0, 0);
}

/* The compiler may call these for struct copies and initialisers. */
void *memset(void *d, int c, size_t n)
{
	unsigned char *p = d;
	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;
	while (n--)
		*p++ = *q++;
	return d;
}

/* ---- strings and messages ---------------------------------------------- */

static size_t slen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

static bool has_slash(const char *s)
{
	for (; *s; s++)
		if (*s == '/')
			return true;
	return false;
}

/* glibc's wording, for the errors an exec or these calls can give */
static const char *err_text(int e)
{
	switch (e) {
	case EPERM: return "Operation not permitted";
	case ENOENT: return "No such file or directory";
	case EIO: return "Input/output error";
	case E2BIG: return "Argument list too long";
	case ENOEXEC: return "Exec format error";
	case EBADF: return "Bad file descriptor";
	case ENOMEM: return "Cannot allocate memory";
	case EACCES: return "Permission denied";
	case EFAULT: return "Bad address";
	case ENOTDIR: return "Not a directory";
	case EISDIR: return "Is a directory";
	case EINVAL: return "Invalid argument";
	case ENFILE: return "Too many open files in system";
	case EMFILE: return "Too many open files";
	case ETXTBSY: return "Text file busy";
	case ENOSPC: return "No space left on device";
	case EPIPE: return "Broken pipe";
	case ENAMETOOLONG: return "File name too long";
	case ENOSYS: return "Function not implemented";
	case ELOOP: return "Too many levels of symbolic links";
	case EOPNOTSUPP: return "Operation not supported";
	default: return NULL;
	}
}

/* One line on stderr, "WHO: " first, as die() in util.c writes it. */
static void say_as(const char *who, const char *a, const char *b, int e)
{
	char buf[1024];
	size_t n = 0;
	const char *parts[] = { who, ": ", a, b };
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
		for (const char *p = parts[i]; p && *p && n < sizeof buf - 40; p++)
			buf[n++] = *p;
	if (e) {
		buf[n++] = ':';
		buf[n++] = ' ';
		const char *t = err_text(e);
		char num[16];
		if (!t) { /* as strerror does */
			for (const char *u = "Unknown error "; *u; u++)
				buf[n++] = *u;
			char *q = num + sizeof num;
			*--q = '\0';
			unsigned v = (unsigned)e;
			do
				*--q = (char)('0' + v % 10);
			while (v /= 10);
			t = q;
		}
		for (; *t && n < sizeof buf - 1; t++)
			buf[n++] = *t;
	}
	buf[n++] = '\n';
	sys3(__NR_write, 2, (long)buf, (long)n);
}

/* The command's errors speak as kjail: the user asked kjail for it. */
static void say(const char *a, int e)
{
	say_as("kjail", a, NULL, e);
}

static __attribute__((noreturn)) void fail(const char *msg, int e)
{
	say(msg, e);
	sys_exit(KJ_EXIT_FAIL);
}

/* ---- the entry --------------------------------------------------------- */

/* A descriptor number as strtol would take it here: digits, <= INT_MAX. */
static const char *parse_fd(const char *s, int *out)
{
	long v = 0;
	const char *p = s;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (*p++ - '0');
		if (v > 0x7fffffff)
			fail("--jail-entry: bad descriptor list", 0);
	}
	if (p == s)
		fail("--jail-entry: bad descriptor list", 0);
	*out = (int)v;
	return p;
}

static bool prefix(const char *s, const char *pre)
{
	for (; *pre; s++, pre++)
		if (*s != *pre)
			return false;
	return true;
}

static void default_disposition(int sig)
{
	struct {
		unsigned long handler, flags, restorer, mask;
	} sa = { 0, 0, 0, 0 }; /* SIG_DFL */
	sys6(__NR_rt_sigaction, sig, (long)&sa, 0, 8, 0, 0);
}

#define NR_landlock_add_rule 445
#define LL_RULE_PATH_BENEATH 1
#define O_PATH_ 010000000
#define O_CLOEXEC_ 02000000
#define S_IFMT_ 0170000
#define S_IFDIR_ 0040000
#define S_IFREG_ 0100000
#define S_IFCHR_ 0020000
#define S_IFBLK_ 0060000

/* struct stat on x86-64: st_mode is the 32-bit word at offset 24 */
static unsigned file_type(long fd)
{
	unsigned long st[18];
	if (err_of(sys3(__NR_fstat, fd, (long)st, 0)))
		return 0;
	unsigned mode;
	memcpy(&mode, (const char *)st + 24, sizeof mode);
	return mode & S_IFMT_;
}

/* A rule letting the command write under path (a directory) or to it (a
 * file); 0 or the errno. */
static int add_writable(long ruleset, const char *path)
{
	long fd = sys3(__NR_open, (long)path, O_PATH_ | O_CLOEXEC_, 0);
	if (err_of(fd))
		return err_of(fd);
	unsigned t = file_type(fd);
	struct {
		uint64_t allowed_access;
		int32_t parent_fd;
	} __attribute__((packed)) pb = { t == S_IFDIR_ ? LL_FS_WRITES : LL_FS_FILE_WRITES, (int32_t)fd };
	long r = t ? sys6(NR_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, (long)&pb, 0, 0, 0)
		   : -EBADF;
	sys3(__NR_close, fd, 0, 0);
	return err_of(r);
}

/* As landlock.c's landlock_apply: writes only under the writable paths
 * (and to stdin, stdout and stderr as far as they were opened for
 * writing), and the scopes, as far as the kernel's ABI goes. */
static void landlock_jail(const char *rw, const char *rw_end, int user_err)
{
	long abi = sys3(NR_landlock_create_ruleset, 0, 0, LL_CREATE_RULESET_VERSION);
	bool writes = abi >= LANDLOCK_WRITES_ABI, scopes = abi >= LANDLOCK_SCOPES_ABI;
	if (!writes && !scopes) /* also an error: Landlock is off or missing */
		return;
	struct {
		uint64_t handled_access_fs, handled_access_net, scoped;
	} attr = { writes ? LL_FS_WRITES : 0, 0,
		   scopes ? LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL : 0 };
	long fd = sys3(NR_landlock_create_ruleset, (long)&attr, sizeof attr, 0);
	if (err_of(fd))
		fail("cannot apply the jail's Landlock rules: landlock_create_ruleset", err_of(fd));
	for (const char *w = rw; writes && w < rw_end; w = jail_go_next(w)) {
		const char *path = w + sizeof JAIL_RW_PREFIX - 1;
		int e = add_writable(fd, path);
		if (e) {
			say_as("kjail", "cannot apply the jail's Landlock rules: writable path ", path, e);
			sys_exit(KJ_EXIT_FAIL);
		}
	}
	/* the command's stderr is the user's, still on its own descriptor */
	int std[3] = { 0, 1, user_err };
	for (int k = 0; writes && k < 3; k++) {
		int s = std[k];
		long fl = sys3(__NR_fcntl, s, 3 /* F_GETFL */, 0);
		unsigned t = file_type(s);
		if (err_of(fl) || (fl & 3) == 0 /* O_RDONLY */ ||
		    !(t == S_IFREG_ || t == S_IFCHR_ || t == S_IFBLK_))
			continue;
		char path[32] = "/proc/self/fd/";
		size_t n = slen(path);
		char num[12];
		size_t d = 0;
		unsigned v = (unsigned)s;
		do
			num[d++] = (char)('0' + v % 10);
		while (v /= 10);
		while (d)
			path[n++] = num[--d];
		path[n] = 0;
		int e = add_writable(fd, path);
		if (e)
			fail("cannot apply the jail's Landlock rules: a standard descriptor", e);
	}
	long r = sys6(__NR_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0);
	if (err_of(r))
		fail("cannot apply the jail's Landlock rules: PR_SET_NO_NEW_PRIVS", err_of(r));
	r = sys3(NR_landlock_restrict_self, fd, 0, 0);
	if (err_of(r))
		fail("cannot apply the jail's Landlock rules: landlock_restrict_self", err_of(r));
	sys3(__NR_close, fd, 0, 0);
}

/* Nothing but stdin, stdout and stderr passes to the command (see
 * entry_core.c): close_range, or before Linux 5.9 the list in /proc. */
#ifndef __NR_close_range
#define __NR_close_range 436
#endif
static void close_inherited(void)
{
	long r = sys3(__NR_close_range, 3, ~0U, 0);
	if (!err_of(r))
		return;
	if (err_of(r) != ENOSYS)
		fail("--jail-entry: cannot close the inherited descriptors", err_of(r));
	long dir = sys3(__NR_open, (long)"/proc/self/fd", 0200000 /* O_DIRECTORY */, 0);
	if (err_of(dir))
		fail("--jail-entry: cannot list the inherited descriptors", err_of(dir));
	/* closing while reading the list would skip some: read, close, again */
	for (;;) {
		long buf[512];
		int fds[256];
		size_t n = 0;
		sys3(__NR_lseek, dir, 0, 0);
		long got = 0;
		while (n < 256 && (got = sys3(__NR_getdents64, dir, (long)buf, sizeof buf)) > 0) {
			for (long off = 0; off < got && n < 256;) {
				const char *ent = (const char *)buf + off;
				unsigned short reclen;
				memcpy(&reclen, ent + 16, sizeof reclen);
				const char *name = ent + 19;
				long fd = 0;
				bool num = *name != 0;
				for (const char *s = name; *s; s++) {
					if (*s < '0' || *s > '9' || fd > 1 << 24) {
						num = false;
						break;
					}
					fd = fd * 10 + (*s - '0');
				}
				if (num && fd >= 3 && fd != dir)
					fds[n++] = (int)fd;
				off += reclen;
			}
		}
		if (err_of(got))
			fail("--jail-entry: cannot list the inherited descriptors", err_of(got));
		if (!n)
			break;
		for (size_t i = 0; i < n; i++)
			sys3(__NR_close, fds[i], 0, 0);
	}
	sys3(__NR_close, dir, 0, 0);
}

static const char *getenv_(char **envp, const char *name)
{
	size_t n = slen(name);
	for (; *envp; envp++)
		if (prefix(*envp, name) && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

/* A file the kernel would not run, but a shell would: as execvp does. */
static void exec_script(const char *file, char **argv, char **envp)
{
	size_t argc = 0;
	while (argv[argc])
		argc++;
	if (argc > 4096)
		return;
	const char *v[argc + 2];
	v[0] = "/bin/sh";
	v[1] = file;
	for (size_t i = 1; i <= argc; i++)
		v[i + 1] = argv[i];
	sys3(__NR_execve, (long)"/bin/sh", (long)v, (long)envp);
}

/* execve, then the shell for ENOEXEC; the errno of the attempt. */
static int try_exec(const char *file, char **argv, char **envp)
{
	int e = err_of(sys3(__NR_execve, (long)file, (long)argv, (long)envp));
	if (e == ENOEXEC)
		exec_script(file, argv, envp);
	return e;
}

/* execvp(3): a name without '/' is looked for along PATH (the command's
 * environment's, "/bin:/usr/bin" without one); a directory that cannot be
 * searched is passed over, and EACCES is remembered. */
static __attribute__((noreturn)) void exec_command(char **argv, char **envp)
{
	const char *file = argv[0];
	int e;
	if (!file[0]) {
		e = ENOENT;
	} else if (has_slash(file)) {
		e = try_exec(file, argv, envp);
	} else {
		const char *path = getenv_(envp, "PATH");
		if (!path)
			path = "/bin:/usr/bin";
		size_t flen = slen(file);
		bool eacces = false;
		e = ENOENT;
		for (const char *p = path;; p++) {
			const char *end = p;
			while (*end && *end != ':')
				end++;
			size_t dlen = (size_t)(end - p);
			if (dlen + 1 + flen < PATH_MAX_) {
				char full[PATH_MAX_];
				size_t n = 0;
				for (size_t i = 0; i < dlen; i++)
					full[n++] = p[i];
				if (dlen)
					full[n++] = '/';
				for (size_t i = 0; i <= flen; i++)
					full[n++] = file[i];
				int r = try_exec(full, argv, envp);
				if (r == EACCES)
					eacces = true;
				else if (r != ENOENT && r != ENOTDIR && r != ESTALE && r != ENODEV &&
					 r != ETIMEDOUT) {
					e = r;
					break;
				}
			}
			if (!*end) {
				if (eacces)
					e = EACCES;
				break;
			}
			p = end;
		}
	}
	say(file, e);
	sys_exit(e == ENOENT || e == ENOTDIR ? KJ_EXIT_NOTFOUND : KJ_EXIT_NOEXEC);
}

/* G of --jail-entry: read from its start (kjail wrote it with pwrite). */
static char go_data[JAIL_GO_MAX + 1];

/* The writable-path words of G, once kjail has said go; else refuses. */
static const char *read_go(int fd, const char **end)
{
	unsigned long n = 0;
	long r = 0;
	while (n < sizeof go_data &&
	       ((r = sys6(__NR_pread64, fd, (long)(go_data + n), (long)(sizeof go_data - n),
			  (long)n, 0, 0)) > 0 ||
		r == -EINTR))
		if (r > 0)
			n += (unsigned long)r;
	if (err_of(r))
		fail("--jail-entry: cannot read what kjail handed over", err_of(r));
	sys3(__NR_close, fd, 0, 0);
	long body = jail_go_check(go_data, n);
	if (body < 0)
		fail("--jail-entry: kjail did not finish setting up the jail; not running the "
		     "command", 0);
	*end = go_data + body;
	return go_data;
}

__attribute__((noreturn, used)) void entry_main(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;
	if (argc < 3 || !prefix(argv[1], "--jail-entry=") || argv[2][0] != '-' ||
	    argv[2][1] != '-' || argv[2][2]) {
		say_as("kjail-entry", "this is kjail's entry helper, started by kjail inside a jail: "
			"run kjail instead", NULL, 0);
		sys_exit(KJ_EXIT_FAIL);
	}
	int status, user_err, sig, go;
	const char *p = parse_fd(argv[1] + slen("--jail-entry="), &status);
	if (*p != ',')
		fail("--jail-entry: bad descriptor list", 0);
	p = parse_fd(p + 1, &user_err);
	if (*p != ',')
		fail("--jail-entry: bad descriptor list", 0);
	p = parse_fd(p + 1, &sig);
	if (*p != ',')
		fail("--jail-entry: bad descriptor list", 0);
	p = parse_fd(p + 1, &go);
	if (*p)
		fail("--jail-entry: bad descriptor list", 0);
	char **cmd = argv + 3;
	if (!cmd[0])
		fail("--jail-entry: no command", 0);
	const char *rw_end, *rw = read_go(go, &rw_end);
	if (sig & JAIL_SIGINT_DEFAULT)
		default_disposition(SIGINT);
	if (sig & JAIL_SIGQUIT_DEFAULT)
		default_disposition(SIGQUIT);
	landlock_jail(rw, rw_end, user_err);
	long w = sys3(__NR_write, status, (long)"R", 1);
	if (w != 1)
		fail("--jail-entry: cannot report readiness", err_of(w) ? err_of(w) : EIO);
	sys3(__NR_close, status, 0, 0);
	if (user_err != 2) {
		long d = sys3(__NR_dup2, user_err, 2, 0);
		if (err_of(d))
			fail("--jail-entry: cannot restore stderr", err_of(d));
		sys3(__NR_close, user_err, 0, 0);
	}
	close_inherited();
	exec_command(cmd, envp);
}
