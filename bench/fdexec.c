/* SPDX-License-Identifier: MIT */
/* fdexec: open descriptors at fixed numbers, then exec a command.
 *
 * The raw bwrap lines of the benchmark need what kjail hands bwrap: the
 * seccomp program on `--seccomp N`, an empty-data descriptor per masked
 * file (`--ro-bind-data N`), and for the entry helper its status and
 * stderr descriptors. A seccomp descriptor is read to its end by bwrap, so
 * it cannot be opened once and shared by every run: this opens each one
 * afresh and execs (no fork), so its whole cost is one small exec, which
 * the benchmark measures on its own (fdexec /bin/true) and reports. The
 * command gets an empty environment, as kjail starts bwrap (the jail's
 * comes with bwrap's options), so COMMAND is an absolute path.
 *
 *   fdexec [--wait] [SPEC]... -- COMMAND [ARG]...
 *   fdexec [--wait] @FILE
 *                     the same words, NUL-terminated, read from FILE (a
 *                     raw bwrap line with 1,000 masks is longer than one
 *                     argument may be, and needs no quoting this way)
 *   --wait            start COMMAND as a child (vfork, exec) and wait for
 *                     it, exiting with its status: what any program that
 *                     stays to wait for a jail pays, and nothing else (the
 *                     floor of kjail's start against the raw command)
 *   SPEC:  N:r:PATH    open PATH read-only on descriptor N
 *          N-M:r:PATH  the same on each of N..M
 *          N:w:PATH    open PATH write-only on descriptor N
 *          N:dup:K     descriptor N is a copy of descriptor K
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "fdexec: %s: %s: %s\n", what, arg, strerror(errno));
	exit(126);
}

static long num(const char *s, char **end, const char *spec)
{
	errno = 0;
	long v = strtol(s, end, 10);
	if (errno || *end == s || v < 0 || v > INT_MAX) {
		fprintf(stderr, "fdexec: bad spec '%s'\n", spec);
		exit(2);
	}
	return v;
}

static void place(int fd, int at, const char *spec)
{
	if (fd == at)
		return;
	if (dup2(fd, at) < 0)
		die("dup2", spec);
	close(fd);
}

static void raise_limit(long need)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && (rlim_t)need >= rl.rlim_cur &&
	    (rlim_t)need < rl.rlim_max) {
		rl.rlim_cur = (rlim_t)need + 1;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* The words of FILE (each NUL-terminated) as an argv, argv[0] first; *text
 * the buffer they point into (free it, and the argv, when done). */
static char **words_of(const char *argv0, const char *file, int *argc, char **text)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("open", file);
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (!buf)
			die("malloc", file);
		ssize_t r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die("read", file);
		if (r == 0)
			break;
		len += (size_t)r;
		if (len == cap)
			buf = realloc(buf, cap *= 2);
	}
	close(fd);
	size_t n = 1;
	for (size_t k = 0; k < len; k++)
		n += buf[k] == '\0';
	char **v = calloc(n + 1, sizeof *v);
	if (!v)
		die("calloc", file);
	v[0] = (char *)argv0;
	*argc = 1;
	for (size_t k = 0; k < len; k += strlen(buf + k) + 1)
		v[(*argc)++] = buf + k;
	v[*argc] = NULL;
	*text = buf;
	return v;
}

/* The command as a child, waited for; its status as ours. */
static int run_waiting(char *const *cmd, char *const *env)
{
	pid_t pid = vfork();
	if (pid < 0)
		die("vfork", cmd[0]);
	if (pid == 0) {
		execve(cmd[0], cmd, env);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die("waitpid", cmd[0]);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
	int wait_for = argc > 1 && strcmp(argv[1], "--wait") == 0;
	if (wait_for) {
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	char **words = NULL, *text = NULL;
	if (argc == 2 && argv[1][0] == '@')
		argv = words = words_of(argv[0], argv[1] + 1, &argc, &text);
	int i = 1;
	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *spec = argv[i];
		char *e;
		long lo = num(spec, &e, spec), hi = lo;
		if (*e == '-')
			hi = num(e + 1, &e, spec);
		if (*e != ':' || hi < lo) {
			fprintf(stderr, "fdexec: bad spec '%s'\n", spec);
			return 2;
		}
		raise_limit(hi);
		const char *mode = e + 1;
		if (strncmp(mode, "dup:", 4) == 0) {
			int from = (int)num(mode + 4, &e, spec);
			for (long n = lo; n <= hi; n++)
				if (dup2(from, (int)n) < 0)
					die("dup2", spec);
		} else if (strncmp(mode, "r:", 2) == 0 || strncmp(mode, "w:", 2) == 0) {
			int flags = mode[0] == 'r' ? O_RDONLY : O_WRONLY;
			for (long n = lo; n <= hi; n++) {
				int fd = open(mode + 2, flags);
				if (fd < 0)
					die("open", mode + 2);
				place(fd, (int)n, spec);
			}
		} else {
			fprintf(stderr, "fdexec: bad spec '%s'\n", spec);
			return 2;
		}
	}
	if (i + 1 >= argc) {
		fprintf(stderr, "usage: fdexec [--wait] [N:r:PATH|N-M:r:PATH|N:w:PATH|N:dup:K]... "
				"-- CMD...\n");
		return 2;
	}
	if (argv[i + 1][0] != '/') {
		fprintf(stderr, "fdexec: %s: give the command's absolute path\n", argv[i + 1]);
		return 2;
	}
	char *no_env[] = { NULL };
	if (wait_for) {
		/* this process exits: what it read goes back (a leak checker
		 * in a sanitizer build would fail the run otherwise) */
		int rc = run_waiting(argv + i + 1, no_env);
		free(words);
		free(text);
		return rc;
	}
	execve(argv[i + 1], argv + i + 1, no_env);
	die("exec", argv[i + 1]);
}
