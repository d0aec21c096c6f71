/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "run/spawn.h"
#include "run/aftercare.h"
#include "planner/gitjail.h"
#include "git/report.h"
#include "build/bwrap.h"
#include "run/devlock.h"
#include "run/egress.h"
#include "run/relay-run.h"
#include "build/explain.h"
#include "run/notice.h"
#include "run/probe.h"
#include "run/reap.h"
#include "build/seccomp.h"
#include "run/seccomp_load.h"
#include "run/secret.h"
#include "run/stdio_guard.h"
#include "strv.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef KJ_OS_LINUX
#include <sys/mman.h>
#include <sys/prctl.h>
#endif
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef KJ_OS_LINUX
/* kjail's side of one jail: what bwrap is started with. Every descriptor is
 * opened close-on-exec; bwrap's child gets the ones it needs by number. */
struct jail {
	int status_p[2]; /* the entry program writes 'R' just before the exec */
	int err_p[2];    /* bwrap's own stderr, read by kjail for diagnose() */
	int user_err;    /* the caller's stderr, for the command */
	int *masks;      /* one empty-data descriptor per masked file */
	size_t nmasks;
	int *sockets;    /* O_PATH, one per allowed socket (OP_SOCKET) */
	size_t nsockets;
	int *secrets;    /* sealed memfd, one per secret, in plan order */
	size_t nsecrets;
	int policy;      /* memfd: the policy file */
	int seccomp;     /* sealed memfd: the seccomp program */
	int args;        /* memfd: bwrap's options (--args) */
	struct egress_run net; /* with kjail's proxy: its socket and log */
	struct relay_run relay; /* with --allow-socket ssh-agent: kjail's relay */
	struct jail_fds fds;
};

static int new_memfd(const char *name)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		die_errno("memfd_create");
	return fd;
}

/* Writes all of data at offset 0 of a memfd, leaving its file offset at 0,
 * where bwrap reads it from. */
static void fill_memfd(int fd, const char *name, const char *data, size_t len)
{
	size_t off = 0;
	while (off < len) {
		ssize_t w = pwrite(fd, data + off, len - off, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			die_errno("writing %s", name);
		off += (size_t)w;
	}
}

static size_t masks_of(const struct plan *pl)
{
	size_t n = 0;
	for (size_t i = 0; i < pl->nops; i++)
		n += pl->ops[i].kind == OP_MASK_FILE;
	return n;
}

/* One data descriptor per masked file, in plan order: bwrap reads each to
 * EOF and closes it. The empty ones share one open /dev/null, which reads
 * as EOF at any offset; a filtered copy (plan.h) is a sealed memfd of its
 * own. Many masks need many descriptors, so lift the soft limit. */
static void open_masks(struct jail *j, const struct plan *pl)
{
	size_t need = masks_of(pl);
	struct rlimit rl;
	if (need && getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < need + 64) {
		if (rl.rlim_max < need + 64)
			die("%zu masked files need more descriptors than the hard limit %llu allows",
			    need, (unsigned long long)rl.rlim_max);
		rl.rlim_cur = need + 64;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			die_errno("cannot raise the descriptor limit for %zu masked files", need);
	}
	j->masks = xreallocarray(NULL, need ? need : 1, sizeof *j->masks);
	j->nmasks = need;
	int empty = -1;
	for (size_t i = 0, m = 0; i < pl->nops; i++) {
		const struct op *o = &pl->ops[i];
		if (o->kind != OP_MASK_FILE)
			continue;
		if (o->data) {
			j->masks[m] = memfd_create("kjail-filtered", MFD_CLOEXEC | MFD_ALLOW_SEALING);
			if (j->masks[m] < 0)
				die_errno("memfd_create");
			fill_memfd(j->masks[m], "a filtered config file", o->data, o->len);
			/* nothing changes it after this, not even by accident */
			(void)fcntl(j->masks[m], F_ADD_SEALS,
				    F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
		} else {
			j->masks[m] = empty < 0 ? open("/dev/null", O_RDONLY | O_CLOEXEC)
						: fcntl(empty, F_DUPFD_CLOEXEC, 3);
			if (j->masks[m] < 0)
				die_errno("cannot open /dev/null for a masked file");
			if (empty < 0)
				empty = j->masks[m];
		}
		m++;
	}
}

/* The allowed socket planned at path (plan.h), or NULL. */
static const struct plan_socket *socket_at(const struct plan *pl, const char *path)
{
	for (size_t i = 0; i < pl->nsockets; i++)
		if (strcmp(pl->sockets[i].path, path) == 0)
			return &pl->sockets[i];
	return NULL;
}

/* What is bound at an OP_SOCKET or OP_SHOW: the relay's listener, the
 * restricted socket beside the agent's, or the path itself. */
static const char *bind_source(struct jail *j, const struct plan *pl, const struct op *o,
			       bool dry_run)
{
	const struct plan_socket *ps = o->kind == OP_SOCKET ? socket_at(pl, o->path) : NULL;
	if (ps && ps->source)
		return ps->source;
	/* --print makes no relay: its line shows the bind from the agent's
	 * path, which a run replaces with the relay's socket */
	if (!ps || !ps->relay || dry_run)
		return o->path;
	relay_listen(&j->relay, pl, ps->agent);
	return j->relay.path;
}

/* Each allowed socket (and each file shown with one), opened at the real
 * path the planner checked without following a link there (O_NOFOLLOW)
 * and found, by the kernel's name for what was opened, at that very path
 * (no directory on the way swapped for a link since): bwrap binds this
 * descriptor, so what the jail reaches is what was checked. */
static void open_sockets(struct jail *j, const struct plan *pl, bool dry_run)
{
	j->nsockets = 0;
	j->sockets = xreallocarray(NULL, pl->nops ? pl->nops : 1, sizeof *j->sockets);
	for (size_t i = 0; i < pl->nops; i++) {
		const struct op *o = &pl->ops[i];
		if (o->kind != OP_SOCKET && o->kind != OP_SHOW)
			continue;
		const char *path = bind_source(j, pl, o, dry_run);
		int fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			die_errno("allowed socket %s", path);
		j->sockets[j->nsockets++] = fd;
		struct stat st;
		char link[64], real[PATH_MAX];
		snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
		ssize_t n = readlink(link, real, sizeof real - 1);
		real[n > 0 ? n : 0] = '\0';
		bool kind_ok = fstat(fd, &st) == 0 &&
			       (o->kind == OP_SHOW ? S_ISREG(st.st_mode) : S_ISSOCK(st.st_mode));
		if (!kind_ok || strcmp(real, path) != 0)
			die("allowed %s %s changed since kjail checked it (no longer a %s at "
			    "that real path); refusing it", o->kind == OP_SHOW ? "file" : "socket",
			    path, o->kind == OP_SHOW ? "regular file" : "socket");
	}
}

/* Which of SIGINT and SIGQUIT the caller left at their default: the entry
 * program gives them back to the command. */
static int default_signals(void)
{
	struct sigaction sa;
	int m = 0;
	if (sigaction(SIGINT, NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
		m |= JAIL_SIGINT_DEFAULT;
	if (sigaction(SIGQUIT, NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
		m |= JAIL_SIGQUIT_DEFAULT;
	return m;
}

/* The descriptors of a jail, in the same order for a run and for --print
 * (which shows their numbers): the pipes, the caller's stderr, the masks,
 * the policy file, the seccomp program. */
static void jail_open(struct jail *j, const struct plan *pl, bool dry_run)
{
	if (pipe2(j->status_p, O_CLOEXEC) < 0 || pipe2(j->err_p, O_CLOEXEC) < 0)
		die_errno("pipe");
	j->user_err = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (j->user_err < 0)
		die_errno("cannot duplicate stderr");
	open_masks(j, pl);
	j->relay = (struct relay_run){ .listener = -1, .stop = -1, .pid = -1 };
	open_sockets(j, pl, dry_run);
	j->nsecrets = pl->secrets.n;
	j->secrets = xreallocarray(NULL, j->nsecrets ? j->nsecrets : 1, sizeof *j->secrets);
	for (size_t i = 0; i < j->nsecrets; i++)
		j->secrets[i] = secret_open(pl->secrets.v[i].value, pl->secrets.v[i].origin);
	j->policy = new_memfd("kjail-policy");
	struct sc_opts so = { .allow_userns = pl->allow_userns, .no_network = !pl->network };
	char err[512];
	j->seccomp = seccomp_export(&so, err, sizeof err);
	if (j->seccomp < 0)
		die("%s", err);
	j->args = -1;
	egress_open(&j->net, pl, dry_run);
	j->fds = (struct jail_fds){ .status = j->status_p[1], .user_err = j->user_err,
				    .seccomp = j->seccomp, .policy = j->policy,
				    .masks = j->masks, .nmasks = j->nmasks,
				    .sockets = j->sockets, .nsockets = j->nsockets,
				    .secrets = j->secrets, .nsecrets = j->nsecrets,
				    .sig_default = default_signals(),
				    .net_log = j->net.log_r, .proxy = j->net.ctl[1] };
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* kjail's copies: the command holds its own from the exec of bwrap on */
static void close_secrets(struct jail *j)
{
	for (size_t i = 0; i < j->nsecrets; i++)
		close(j->secrets[i]);
	free(j->secrets);
	j->secrets = NULL;
	j->nsecrets = 0;
}

static void jail_close(struct jail *j)
{
	int *fds[] = { &j->status_p[0], &j->status_p[1], &j->err_p[0], &j->err_p[1],
		       &j->user_err, &j->policy, &j->seccomp, &j->args };
	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		close_fd(fds[i]);
	for (size_t i = 0; i < j->nmasks; i++)
		close(j->masks[i]);
	free(j->masks);
	j->masks = NULL;
	j->nmasks = 0;
	for (size_t i = 0; i < j->nsockets; i++)
		close(j->sockets[i]);
	free(j->sockets);
	j->sockets = NULL;
	j->nsockets = 0;
	close_secrets(j);
	egress_close(&j->net);
	relay_cleanup(&j->relay);
}

/* bwrap's options (the words between bwrap and "--"), NUL-terminated, as
 * --args reads them: a policy of any size fits. */
static char *args_data(const struct strv *argv, size_t *len)
{
	size_t end = 1, total = 0;
	while (end < argv->n && strcmp(argv->v[end], "--") != 0)
		total += strlen(argv->v[end++]) + 1;
	if (end - 1 > BWRAP_MAX_WORDS)
		die("the jail takes %zu option words, more than the %d bwrap reads: the "
		    "environment (three words a variable) and the masks count; remove variables "
		    "(--deny-env) or name fewer --deny-read paths",
		    end - 1, BWRAP_MAX_WORDS);
	char *buf = xmalloc(total ? total : 1), *p = buf;
	for (size_t i = 1; i < end; i++) {
		size_t l = strlen(argv->v[i]) + 1;
		memcpy(p, argv->v[i], l);
		p += l;
	}
	*len = total;
	return buf;
}

/* In the vfork child: why devlock_read_only() failed, on stderr (kjail's
 * pipe, for diagnose()), as one line; write(2) only. */
static void say_devlock_failed(const char *path, int err)
{
	char num[16], *p = num + sizeof num;
	unsigned v = (unsigned)err;
	*--p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	const char *part[] = { "run as root, kjail cannot ",
			       path ? "bind " : "make a mount namespace of its own",
			       path ? path : "",
			       path ? " read-only" : "",
			       " (errno ", p, err == EPERM ? ", EPERM: it needs CAP_SYS_ADMIN" : "",
			       "), without which the jail could change the host's device nodes "
			       "behind its /dev; run kjail as a user, or as root with "
			       "CAP_SYS_ADMIN\n" };
	for (size_t i = 0; i < ARRAY_SIZE(part); i++)
		(void)!write(STDERR_FILENO, part[i], strlen(part[i]));
}

/* In the vfork child: system calls only (it shares kjail's memory until
 * the exec). The host's device nodes the jail would own are bound
 * read-only first (devlock.h); the descriptors bwrap reads lose
 * close-on-exec; stderr becomes kjail's pipe; the caller's signal mask
 * comes back, SIGINT and SIGQUIT ignored (bwrap would die of a Ctrl-C
 * before the command had handled it; the entry program gives the command
 * the caller's dispositions back); no environment (the command's comes with the
 * options, so no process of the jail holds a scrubbed variable). */
static KJ_NORETURN void exec_bwrap(const char *bwrap, char *const *argv, const int *keep,
				   size_t nkeep, int err_w, int out_w, const sigset_t *mask,
				   char *const *devices)
{
	/* kjail going away for any reason takes the jail with it */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		_exit(KJ_EXIT_FAIL);
	for (size_t i = 0; i < nkeep; i++)
		if (keep[i] >= 0 && fcntl(keep[i], F_SETFD, 0) < 0)
			_exit(KJ_EXIT_FAIL);
	/* a captured run (jail_capture): standard output is kjail's pipe,
	 * standard input nothing */
	if (out_w >= 0) {
		int in = open("/dev/null", O_RDONLY);
		if (in < 0 || dup2(in, STDIN_FILENO) < 0 || dup2(out_w, STDOUT_FILENO) < 0)
			_exit(KJ_EXIT_FAIL);
	}
	struct sigaction ign = { .sa_handler = SIG_IGN };
	if (dup2(err_w, STDERR_FILENO) < 0 || sigaction(SIGINT, &ign, NULL) < 0 ||
	    sigaction(SIGQUIT, &ign, NULL) < 0 || sigprocmask(SIG_SETMASK, mask, NULL) < 0)
		_exit(KJ_EXIT_FAIL);
	const char *failed;
	if (devlock_read_only(devices, &failed) != 0) {
		say_devlock_failed(failed, errno);
		_exit(KJ_EXIT_FAIL);
	}
	char *const no_env[] = { NULL };
	execve(bwrap, argv, no_env);
	/* stderr is kjail's pipe: diagnose() reads this */
	static const char msg[] = "cannot execute bwrap\n";
	(void)!write(STDERR_FILENO, msg, sizeof msg - 1);
	_exit(KJ_EXIT_FAIL);
}

/* The one place bwrap is started. vfork: nothing of kjail's memory is
 * copied for a child that only execs; not inlined, so no local of a
 * caller lives across it. */
KJ_NOINLINE static pid_t start_bwrap(const char *bwrap, char *const *argv, const int *keep,
				     size_t nkeep, int err_w, int out_w, const sigset_t *mask,
				     char *const *devices)
{
	pid_t pid = vfork();
	if (pid < 0)
		die_errno("vfork");
	if (pid == 0)
		exec_bwrap(bwrap, argv, keep, nkeep, err_w, out_w, mask, devices);
	return pid;
}

/* Starts bwrap as "bwrap --args FD -- ENTRY ... -- CMD...", its options in
 * the memfd FD; returns its pid. */
static pid_t jail_spawn(struct jail *j, const struct plan *pl, const struct strv *argv,
			const char *bwrap, const sigset_t *mask, int out_w)
{
	size_t len;
	_cleanup_free_ char *args = args_data(argv, &len);
	j->args = new_memfd("kjail-args");
	fill_memfd(j->args, "bwrap's options", args, len);
	char fdbuf[16];
	snprintf(fdbuf, sizeof fdbuf, "%d", j->args);
	struct strv exec_argv = STRV_INIT;
	strv_pushv(&exec_argv, (const char *const[]){ bwrap, "--args", fdbuf, NULL });
	size_t dash = 1;
	while (dash < argv->n && strcmp(argv->v[dash], "--") != 0)
		dash++;
	for (size_t i = dash; i < argv->n; i++)
		strv_push(&exec_argv, argv->v[i]);
	size_t nkeep = 0;
	int *keep = xreallocarray(NULL, j->nmasks + j->nsockets + j->nsecrets + 8, sizeof *keep);
	for (size_t i = 0; i < j->nsecrets; i++)
		keep[nkeep++] = j->secrets[i];
	for (size_t i = 0; i < j->nmasks; i++)
		keep[nkeep++] = j->masks[i];
	for (size_t i = 0; i < j->nsockets; i++)
		keep[nkeep++] = j->sockets[i];
	const int more[] = { j->args, j->status_p[1], j->user_err, j->seccomp, j->policy,
			     j->net.log_r, j->net.ctl[1] };
	for (size_t i = 0; i < ARRAY_SIZE(more); i++)
		keep[nkeep++] = more[i];
	pid_t pid = start_bwrap(bwrap, strv_argv(&exec_argv), keep, nkeep, j->err_p[1], out_w, mask,
				pl->host_devices.n ? pl->host_devices.v : NULL);
	strv_free(&exec_argv);
	free(keep);
	return pid;
}

/* Why the jail did not start, with the fix, as one line. */
static KJ_NORETURN void diagnose(const char *bwrap, char *msg)
{
	msg[strcspn(msg, "\n")] = '\0';
	const char *what = msg[0] ? msg : "bwrap exited before the command started";
	char fix[512] = "";
	if (!probe_inside_kjail(fix, sizeof fix) && !probe_userns(fix, sizeof fix) &&
	    !(strstr(msg, "Can't mount proc") && probe_fresh_proc(fix, sizeof fix)) &&
	    (strstr(msg, "Unknown option") || strstr(msg, "unrecognized option")))
		probe_bwrap_too_old(bwrap, fix, sizeof fix);
	/* root in the jail holds no capability: a directory only its owner
	 * may enter (another user's 0700 home) stays shut to it */
	if (!fix[0] && geteuid() == 0 && strstr(msg, "Permission denied"))
		snprintf(fix, sizeof fix, "run as root, the jail cannot enter a directory only "
					  "another user may (mode 0700); run kjail as that user "
					  "(runuser -u USER -- kjail ...)");
	die("cannot start the jail: %s%s%s", what, fix[0] ? "; " : "", fix);
}

static int exit_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return KJ_EXIT_FAIL;
}

/* The output of the captured jail on fd, up to cap bytes, before the
 * deadline (CLOCK_MONOTONIC, ms); NULL when it says more, or is late. */
static char *read_until(int fd, size_t cap, long long deadline, size_t *len)
{
	size_t n = 0, size = 4096;
	char *buf = xmalloc(size + 1);
	for (;;) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		long long left = deadline - (now.tv_sec * 1000LL + now.tv_nsec / 1000000);
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = left > 0 ? poll(&p, 1, (int)(left > 60000 ? 60000 : left)) : 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break; /* late, or poll failed */
		if (n == size) {
			if (size >= cap)
				break; /* says more than it may */
			size = size * 2 > cap ? cap : size * 2;
			buf = xreallocarray(buf, size + 1, 1);
		}
		ssize_t got = read(fd, buf + n, size - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			break;
		if (got == 0) {
			buf[n] = '\0';
			*len = n;
			return buf;
		}
		n += (size_t)got;
	}
	free(buf);
	return NULL;
}

/* Waits for bwrap until the deadline (CLOCK_MONOTONIC, ms; 0: not at
 * all), then kills it (its death kills the jail: --die-with-parent) and
 * reaps it; false when it was killed. A command that closed its output
 * and went on is not waited for past the deadline. */
static bool wait_until(pid_t pid, long long deadline, int *st)
{
	long sleep_ns = 1000000;
	for (;;) {
		pid_t r = waitpid(pid, st, WNOHANG);
		if (r == pid)
			return true;
		if (r < 0 && errno != EINTR)
			break;
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec * 1000LL + now.tv_nsec / 1000000 >= deadline)
			break;
		struct timespec ts = { .tv_sec = 0, .tv_nsec = sleep_ns };
		nanosleep(&ts, NULL);
		if (sleep_ns < 50000000)
			sleep_ns *= 2;
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, st, 0) < 0 && errno == EINTR)
		;
	return false;
}

char *jail_capture(const struct plan *pl, const char *bwrap, const char *entry,
		   char *const *cmd, size_t cap, int timeout_ms, size_t *len)
{
	*len = 0;
	struct jail j;
	jail_open(&j, pl, false);
	/* its diagnostics are the jail's words: nowhere */
	close_fd(&j.user_err);
	j.user_err = open("/dev/null", O_WRONLY | O_CLOEXEC);
	int out[2] = { -1, -1 };
	if (j.user_err < 0 || pipe2(out, O_CLOEXEC) < 0) {
		jail_close(&j);
		return NULL;
	}
	j.fds.user_err = j.user_err;
	j.fds.sig_default = 0;
	struct strv argv = STRV_INIT;
	bwrap_build(pl, bwrap, entry, &j.fds, cmd, &argv);
	sigset_t mask;
	sigprocmask(SIG_SETMASK, NULL, &mask);
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = jail_spawn(&j, pl, &argv, bwrap, &mask, out[1]);
	strv_free(&argv);
	close_fd(&out[1]);
	close_fd(&j.status_p[1]);
	close_fd(&j.err_p[1]);
	long long deadline = t0.tv_sec * 1000LL + t0.tv_nsec / 1000000 + timeout_ms;
	char *text = read_until(out[0], cap, deadline, len);
	close_fd(&out[0]);
	int st = 0;
	if (!wait_until(pid, text ? deadline : 0, &st)) {
		free(text);
		text = NULL;
	}
	reap_jail();
	char ready = 0;
	bool started = read(j.status_p[0], &ready, 1) == 1 && ready == 'R';
	jail_close(&j);
	if (!started || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		free(text);
		*len = 0;
		return NULL;
	}
	return text;
}

/* git/report.h's runner: git in a jail of its own (gitjail.h), built from
 * the run's plan. */
struct git_jail {
	const struct plan *pl;
	const struct gitreport *report;
	const char *bwrap, *entry, *home;
};

static char *run_git_jailed(void *ctx, const char *dir, char *const *env, char *const *argv,
			    const struct gitjail_file *file, size_t cap, size_t *len)
{
	const struct git_jail *g = ctx;
	struct plan gp;
	/* the entry program and git (real paths) may lie in the home, which
	 * that jail hides; a linked worktree's git directories lie elsewhere */
	const char *ro[5] = { g->entry, argv[0], NULL, NULL, NULL };
	for (size_t i = 0, n = 2; i < g->report->n && n == 2; i++)
		if (strcmp(g->report->v[i].tree, dir) == 0) {
			ro[n++] = g->report->v[i].gitdir;
			if (strcmp(g->report->v[i].common, g->report->v[i].gitdir) != 0)
				ro[n++] = g->report->v[i].common;
		}
	gitjail_plan(g->pl, dir, g->home, ro, file, env, &gp);
	char *text = jail_capture(&gp, g->bwrap, g->entry, argv, cap, GIT_JAIL_TIMEOUT_MS, len);
	plan_free(&gp);
	return text;
}

int jail_run(const struct plan *pl, const char *bwrap, const char *entry, char *const *cmd,
	     char *policy_json)
{
	struct jail j;
	jail_open(&j, pl, false);
	const char *policy = policy_json ? policy_json : "{}\n";
	fill_memfd(j.policy, "the policy file", policy, strlen(policy));
	free(policy_json);
	struct strv argv = STRV_INIT;
	bwrap_build(pl, bwrap, entry, &j.fds, cmd, &argv);

	/* from here a SIGTERM or SIGHUP waits in the signalfd and goes to
	 * bwrap once it runs */
	struct reap_signals rs;
	reap_prepare(&rs);
	struct passwd *pw = getpwuid(getuid());
	_cleanup_free_ char *home = pw && pw->pw_dir ? xstrdup(pw->pw_dir) : NULL;
	struct gitreport git;
	struct git_jail gj = { .pl = pl, .report = &git, .bwrap = bwrap, .entry = entry,
			       .home = home };
	gitreport_before(pl, &git);
	git.run = run_git_jailed;
	git.run_ctx = &gj;
	/* the proxy first (if it cannot start, nothing runs), after
	 * reap_prepare: it inherits kjail's ignored Ctrl-C and Ctrl-\, which
	 * the command may use without losing its network, and SIGPIPE
	 * blocked; it ends when kjail does */
	egress_start(&j.net, pl);
	relay_start(&j.relay);
	pid_t pid = jail_spawn(&j, pl, &argv, bwrap, &rs.was, -1);
	strv_free(&argv);
	/* bwrap holds its own copies now */
	close_fd(&j.status_p[1]);
	close_fd(&j.err_p[1]);
	close_fd(&j.net.ctl[1]);
	close_secrets(&j);
	int st = reap_bwrap(pid, &rs);
	/* the proxy ends first: reap_jail() kills every child left */
	egress_stop(&j.net);
	relay_stop(&j.relay);
	reap_jail();

	char ready = 0;
	bool started = read(j.status_p[0], &ready, 1) == 1 && ready == 'R';
	char msg[4096];
	size_t n = read_text(j.err_p[0], msg, sizeof msg);
	struct notice note = { .reset = false };
	if (!started) {
		jail_close(&j);
		diagnose(bwrap, msg);
	}
	if (n) /* bwrap had something to say after the start: pass it on */
		(void)!write(STDERR_FILENO, msg, n);
	/* kjail's lines from here on: after a reset of what the jail left
	 * set on the terminal to hide them */
	restore_stdio(&note);
	int status = exit_status(st);
	/* the jail is gone; first what it planted goes aside, with signals
	 * held (nothing cuts it short), before any report: until then a
	 * tool outside (a shell prompt's git) could read what the jail left.
	 * A planted name kjail could not move aside outweighs the command's
	 * status: the last line gives it, and what to delete */
	bool moved = aftercare_move_aside(pl, &note, status);
	/* the reports: the workspace is safe again, and Ctrl-C ends them */
	reap_release(&rs);
	egress_report(&j.net, &note);
	jail_close(&j);
	/* then what git left half done because of the jail */
	gitreport_after(pl, &git, &note);
	gitreport_free(&git);
	return moved ? status : KJ_EXIT_FAIL;
}

static void print_invocation(const struct strv *argv, const struct plan *pl, bool json)
{
	if (!json) {
		_cleanup_free_ char *line = strv_shell_line(argv);
		printf("%s\n", line);
		return;
	}
	json_t *arr = json_array();
	for (size_t i = 0; i < argv->n; i++)
		json_array_append_new(arr, json_string(argv->v[i]));
	json_t *env = json_array();
	for (size_t i = 0; i < pl->env_removed.n; i++)
		json_array_append_new(env, json_string(pl->env_removed.v[i].value));
	json_t *o = json_pack("{s:s, s:s, s:o, s:o}", "type", "invocation", "backend", "bwrap",
			      "argv", arr, "env_unset", env);
	char *s = json_dumps(o, JSON_COMPACT);
	printf("%s\n", s);
	free(s);
	json_decref(o);
}

int jail_print(const struct plan *pl, const char *bwrap, const char *entry, char *const *cmd,
	       bool json)
{
	struct jail j;
	jail_open(&j, pl, true);
	struct strv argv = STRV_INIT;
	bwrap_build(pl, bwrap, entry, &j.fds, cmd, &argv);
	/* an allowlist's rules, as comments before the line they shape (-n
	 * has none: its line stays alone) */
	if (!json && pl->net == NET_ALLOWLIST)
		explain_allowlist(stdout, pl, "# ");
	print_invocation(&argv, pl, json);
	strv_free(&argv);
	jail_close(&j);
	return fflush(stdout) == 0 ? 0 : KJ_EXIT_FAIL;
}
#endif
