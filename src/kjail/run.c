#include "config.h"
#include "run.h"
#include "bwrap.h"
#include "landlock.h"
#include "probe.h"
#include "seccomp.h"
#include "path.h"
#include "strv.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <sched.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef KJ_OS_LINUX
#include <sys/mman.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/statvfs.h>
#endif
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const bwrap_candidates[] = {
	KJ_BWRAP_PATH, "/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap", NULL,
};

static bool executable_file(const char *path)
{
	struct stat st;
	return path[0] == '/' && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, X_OK) == 0;
}

const char *bwrap_find(void)
{
	for (const char *const *c = bwrap_candidates; *c; c++)
		if (executable_file(*c))
			return *c;
	return NULL;
}

const char *bwrap_search_list(void)
{
	return KJ_BWRAP_PATH ", /usr/bin/bwrap, /usr/local/bin/bwrap, /bin/bwrap";
}

/* A descriptor the caller leaked (a directory, a file on the host) reaches
 * around every mount of the jail: through /proc/self/fd/N, or openat, the
 * command could read a masked file or write outside the workspace. So none
 * above 2 outlives kjail's exec of the backend; kjail's own are opened
 * close-on-exec and handed over one by one. */
void seal_inherited_fds(void)
{
	if (!cloexec_above_2())
		die_errno("cannot mark the inherited descriptors close-on-exec");
}

static const char *const stdio_names[] = { "standard input", "standard output",
					   "standard error" };

void refuse_directory_stdio(void)
{
	for (int fd = 0; fd < 3; fd++) {
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
			die("descriptor %d (%s) is a directory: through it the command could "
			    "reach around the jail; refusing",
			    fd, stdio_names[fd]);
	}
}

/* The bwrap backend is Linux's (memfd_create, prctl, pipe2, sigwaitinfo,
 * user namespaces); elsewhere run_bwrap() refuses. */
#ifdef KJ_OS_LINUX
/* Whether the jail (the caller's uid and groups, no capability) may open
 * the file for writing: its mode bits, as a process without
 * CAP_DAC_OVERRIDE sees them; access(2) through link (/proc/self/fd/N)
 * too, for ACLs, when not root (for root it answers yes to everything). */
static bool jail_may_write(int fd, const struct stat *st, const char *link)
{
	struct statvfs vfs;
	if (fstatvfs(fd, &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
		return false;
	uid_t uid = geteuid();
	bool w;
	if (st->st_uid == uid)
		w = st->st_mode & S_IWUSR;
	else if (getegid() == st->st_gid || group_member(st->st_gid))
		w = st->st_mode & S_IWGRP;
	else
		w = st->st_mode & S_IWOTH;
	return w || (uid != 0 && access(link, W_OK) == 0);
}

void refuse_reopenable_stdio(const struct plan *pl)
{
	for (int fd = 0; fd < 3; fd++) {
		struct stat st;
		char link[32], path[PATH_MAX];
		snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
		int fl = fcntl(fd, F_GETFL);
		if (fl < 0 || (fl & O_ACCMODE) != O_RDONLY || fstat(fd, &st) != 0 ||
		    !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) || !jail_may_write(fd, &st, link))
			continue;
		ssize_t n = readlink(link, path, sizeof path - 1);
		if (n <= 0)
			die_errno("cannot tell which file descriptor %d (%s) is", fd, stdio_names[fd]);
		path[n] = '\0';
		bool inside = false;
		for (size_t i = 0; i < pl->nops && !inside; i++)
			inside = pl->ops[i].kind == OP_BIND && path_is_under(path, pl->ops[i].path);
		if (!inside)
			die("descriptor %d (%s) is %s, which the jail could reopen for writing through "
			    "%s (you gave it to read); pass it through a pipe instead "
			    "(cat FILE | kjail ...)",
			    fd, stdio_names[fd], path, link);
	}
}

char *entry_helper(const char *self)
{
	const char *slash = strrchr(self, '/');
	if (slash) {
		char *p = xasprintf("%.*s/kjail-entry", (int)(slash - self), self);
		if (executable_file(p))
			return p;
		free(p);
	}
	char *p = xconcat(KJ_PKGLIBEXECDIR, "/kjail-entry", (char *)NULL);
	if (executable_file(p))
		return p;
	free(p);
	return xstrdup(self);
}

static int open_cloexec_devnull(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die_errno("cannot open /dev/null");
	return fd;
}

/* One empty-data descriptor per masked file: bwrap reads each to EOF and
 * closes it. They share one open /dev/null, which reads as EOF at any
 * offset (a dup costs a fifth of an open). Many masks need many
 * descriptors, so lift the soft limit. */
static void open_mask_fds(struct plan *pl)
{
	size_t need = 0;
	for (size_t i = 0; i < pl->nops; i++)
		need += pl->ops[i].kind == OP_MASK_FILE;
	struct rlimit rl;
	if (need && getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < need + 64) {
		if (rl.rlim_max < need + 64)
			die("%zu masked files need more descriptors than the hard limit %llu allows",
			    need, (unsigned long long)rl.rlim_max);
		rl.rlim_cur = need + 64 > rl.rlim_max ? rl.rlim_max : need + 64;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			die_errno("cannot raise the descriptor limit for %zu masked files", need);
	}
	int first = -1;
	for (size_t i = 0; i < pl->nops; i++) {
		if (pl->ops[i].kind != OP_MASK_FILE)
			continue;
		if (first < 0)
			pl->ops[i].fd = first = open_cloexec_devnull();
		else if ((pl->ops[i].fd = fcntl(first, F_DUPFD_CLOEXEC, 3)) < 0)
			die_errno("cannot duplicate the descriptor of /dev/null");
	}
}

/* A memfd holding len bytes of data, rewound for reading. */
static int bytes_memfd(const char *name, const char *data, size_t len)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		die_errno("memfd_create");
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			die_errno("writing %s", name);
		off += (size_t)w;
	}
	if (lseek(fd, 0, SEEK_SET) < 0)
		die_errno("lseek");
	return fd;
}

static int data_memfd(const char *name, const char *data)
{
	return bytes_memfd(name, data, strlen(data));
}

static void open_policy_fd(struct plan *pl, const char *json)
{
	for (size_t i = 0; i < pl->nops; i++)
		if (pl->ops[i].kind == OP_POLICY)
			pl->ops[i].fd = data_memfd("kjail-policy", json ? json : "{}\n");
}

static void print_invocation(const struct strv *argv, const struct plan *pl, bool json)
{
	if (!json) {
		_cleanup_free_ char *line = strv_shell_join(argv);
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

/* bwrap reads its options (not the command) from --args FD, so a policy
 * of any size fits; *cmd_at is where "--" and the command start. */
static int make_args_fd(const struct strv *argv, size_t *cmd_at)
{
	size_t end = 1, total = 0;
	while (end < argv->n && strcmp(argv->v[end], "--") != 0)
		total += strlen(argv->v[end++]) + 1;
	*cmd_at = end;
	/* one buffer, one write: NUL-terminated words, as bwrap reads them */
	_cleanup_free_ char *buf = xmalloc(total ? total : 1);
	char *p = buf;
	for (size_t i = 1; i < end; i++) {
		size_t len = strlen(argv->v[i]) + 1;
		memcpy(p, argv->v[i], len);
		p += len;
	}
	return bytes_memfd("kjail-args", buf, total);
}

/* Why the jail did not start, with the fix, as one line. */
static KJ_NORETURN void diagnose(const char *bwrap, char *msg)
{
	msg[strcspn(msg, "\n")] = '\0';
	const char *what = msg[0] ? msg : "bwrap exited before the command started";
	char fix[512] = "";
	if (!probe_userns(fix, sizeof fix) &&
	    (strstr(msg, "Unknown option") || strstr(msg, "unrecognized option")))
		probe_bwrap_too_old(bwrap, fix, sizeof fix);
	die("cannot start the jail: %s%s%s", what, fix[0] ? "; " : "", fix);
}

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

/* In a vfork child: system calls only (no allocation, no stdio), since it
 * shares kjail's memory until the exec. Saves copying kjail's page tables on
 * every run. */
static KJ_NORETURN void exec_bwrap(const char *bwrap, char *const *argv, char *const *envp,
				   const int *keep, size_t nkeep, int err_w, const sigset_t *old)
{
	/* kjail going away for any reason takes the jail with it. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		_exit(KJ_EXIT_FAIL);
	for (size_t i = 0; i < nkeep; i++)
		if (keep[i] >= 0 && fcntl(keep[i], F_SETFD, 0) < 0)
			_exit(KJ_EXIT_FAIL);
	if (dup2(err_w, STDERR_FILENO) < 0)
		_exit(KJ_EXIT_FAIL);
	/* SIGINT and SIGQUIT stay ignored: bwrap would die of Ctrl-C and take
	 * the jail with it before the command had handled it. */
	sigprocmask(SIG_SETMASK, old, NULL);
	execve(bwrap, argv, envp);
	/* stderr is kjail's pipe: diagnose() reads this */
	static const char msg[] = "cannot execute bwrap\n";
	(void)!write(STDERR_FILENO, msg, sizeof msg - 1);
	_exit(KJ_EXIT_FAIL);
}

/* What kjail reads of the jail once bwrap has exited, opened while bwrap
 * runs: the first lookup of a new process in /proc costs ~50 µs here, and
 * kjail is idle then. A descriptor is tied to its process, so a pid reused
 * later reads as gone, not as another process. -1: not open (the path is
 * looked up then). */
struct jail_watch {
	int children;      /* /proc/thread-self/children: kjail's own */
	pid_t init;        /* bwrap's child (the jail's init), from --info-fd */
	int init_stat;     /* its /proc/PID/stat */
	int init_children; /* its /proc/PID/task/PID/children */
	char info[256];    /* what --info-fd gave so far */
	size_t info_len;
};

static void watch_close(struct jail_watch *w)
{
	int *fds[] = { &w->children, &w->init_stat, &w->init_children };
	for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
}

/* bwrap writes {"child-pid": N, ...} on --info-fd before its child may go
 * on, so nothing of the jail's own can come first; read up to the '}'.
 * True once done (the object read, or bwrap gone without it). */
static bool watch_info(struct jail_watch *w, int fd)
{
	ssize_t r;
	do
		r = read(fd, w->info + w->info_len, sizeof w->info - 1 - w->info_len);
	while (r < 0 && errno == EINTR);
	if (r > 0)
		w->info_len += (size_t)r;
	w->info[w->info_len] = '\0';
	if (r > 0 && !strchr(w->info, '}') && w->info_len < sizeof w->info - 1)
		return false;
	const char *k = strstr(w->info, "\"child-pid\":");
	if (!k || !strchr(k, '}'))
		return true;
	const char *num = k + strlen("\"child-pid\":");
	char *end;
	errno = 0;
	long pid = strtol(num, &end, 10);
	if (errno || end == num || pid <= 0 || pid > INT_MAX)
		return true;
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	w->init_stat = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", pid, pid);
	w->init_children = open(path, O_RDONLY | O_CLOEXEC);
	w->init = (pid_t)pid;
	return true;
}

/* Wait for bwrap, passing on the signals meant for the whole jail, and
 * reading its --info-fd meanwhile. */
static int wait_forwarding(pid_t child, int sfd, int info_fd, struct jail_watch *w)
{
	for (;;) {
		int st;
		pid_t r = waitpid(child, &st, WNOHANG);
		if (r == child) {
			if (info_fd >= 0)
				close(info_fd);
			return st;
		}
		if (r < 0 && errno != EINTR)
			die_errno("waitpid");
		struct pollfd pf[2] = { { .fd = sfd, .events = POLLIN },
					{ .fd = info_fd, .events = POLLIN } };
		if (poll(pf, info_fd >= 0 ? 2 : 1, -1) < 0 && errno != EINTR)
			die_errno("poll");
		if (info_fd >= 0 && pf[1].revents && watch_info(w, info_fd)) {
			close(info_fd);
			info_fd = -1;
		}
		struct signalfd_siginfo si;
		while (read(sfd, &si, sizeof si) == (ssize_t)sizeof si)
			if (si.ssi_signo == SIGTERM || si.ssi_signo == SIGHUP)
				kill(child, (int)si.ssi_signo);
	}
}

/* Reads a small /proc file, open on fd, from its start into buf
 * (NUL-terminated); its length, or -1. Not read_text: a read error must
 * not pass for an empty file. */
static ssize_t read_proc_fd(int fd, char *buf, size_t size)
{
	size_t n = 0;
	ssize_t r = 0;
	while (n < size - 1 &&
	       ((r = pread(fd, buf + n, size - 1 - n, (off_t)n)) > 0 || (r < 0 && errno == EINTR)))
		if (r > 0)
			n += (size_t)r;
	buf[n] = '\0';
	return r < 0 ? -1 : (ssize_t)n;
}

static ssize_t read_proc(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read_proc_fd(fd, buf, size);
	close(fd);
	return n;
}

/* True when pid is one thread with no child: nothing below it can act. */
static bool alone(pid_t pid, const struct jail_watch *w)
{
	bool ahead = pid == w->init && w->init_stat >= 0 && w->init_children >= 0;
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((ahead ? read_proc_fd(w->init_stat, buf, sizeof buf) : read_proc(path, buf, sizeof buf)) < 0)
		return false;
	/* field 20, num_threads, counted after the command name's ')' */
	char *p = strrchr(buf, ')');
	for (int field = 2; p && field < 20; field++)
		p = strchr(p + 1, ' ');
	if (!p || strtol(p + 1, NULL, 10) != 1)
		return false;
	snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", (long)pid, (long)pid);
	int child;
	return (ahead ? proc_children_read_fd(w->init_children, &child, 1)
		      : proc_children_read(path, &child, 1)) == 0;
}

/* bwrap's monitor leaves as soon as the command exits. The jail's init
 * (PID 1 of its namespace, SIGKILLed by --die-with-parent as the monitor
 * exits) may still be waiting for processes the command left behind, and
 * the kernel kills those only once that init is gone: until then they run,
 * and would act after kjail's checks and after the caller thinks the jail
 * is over. kjail is their subreaper, so the init is now its child; kjail
 * returns only when no process of the jail can act any more.
 *
 * The common case costs no wait: an init that is alone (one thread, no
 * child) is bwrap's own code, with a SIGKILL pending, that forks nothing
 * and writes nothing (the jail can neither trace it nor write its
 * memory: tested). Otherwise (the command left processes behind, or no
 * PID namespace with --nested-userns) every child is killed and reaped,
 * again and again, until none is left. */
static void wait_jail_gone(bool pid_ns, const struct jail_watch *w)
{
	for (;;) {
		pid_t r;
		while ((r = waitpid(-1, NULL, WNOHANG)) > 0)
			;
		if (r < 0 && errno == ECHILD)
			return;
		int kids[64];
		int n = w->children >= 0 ? proc_children_read_fd(w->children, kids, 64)
					 : proc_children_read("/proc/thread-self/children", kids, 64);
		if (pid_ns && n == 1 && alone(kids[0], w))
			return;
		for (int i = 0; i < n; i++)
			kill(kids[i], SIGKILL);
		/* a child to wait for: a jail's init is already being killed; one
		 * that cannot be listed is waited for all the same */
		while (waitpid(-1, NULL, 0) < 0 && errno == EINTR)
			;
	}
}

/* The writable root that holds path (the jail could not rename a root: it
 * is a mount point there), and path relative to it. */
static const char *root_of(const struct plan *pl, const char *path, const char **rel)
{
	for (size_t i = 0; i < pl->nops; i++) {
		if (pl->ops[i].kind != OP_BIND)
			continue;
		const char *r = path_relative_to(path, pl->ops[i].path);
		if (r && r[0]) {
			*rel = r;
			return pl->ops[i].path;
		}
	}
	return NULL;
}

enum found { FOUND_NONE, FOUND_NAME, FOUND_LINK };

/* REL under the writable root open on ROOT as the jail left it, one
 * component at a time, following no symlink (a symlink the jail made on the
 * way would otherwise send kjail's rename to a file outside the workspace).
 * FOUND_NAME: the name itself exists, of any type; FOUND_LINK: a component
 * above it is a symlink, which git would follow. For both, *dir is the
 * directory holding that component (ROOT itself, or an O_PATH descriptor
 * the caller closes) and *len the length of REL up to its end. FOUND_NONE:
 * nothing is there, or a component above it is not a directory, so nothing
 * resolves. */
static enum found find_nofollow(int root, const char *rel, int *dir, size_t *len)
{
	int d = root;
	char comp[NAME_MAX + 1];
	for (size_t at = 0;;) {
		while (rel[at] == '/')
			at++;
		size_t n = strcspn(rel + at, "/");
		if (n == 0 || n > NAME_MAX)
			break;
		memcpy(comp, rel + at, n);
		comp[n] = '\0';
		at += n;
		bool last = rel[at + strspn(rel + at, "/")] == '\0';
		struct stat st;
		if (last) {
			if (fstatat(d, comp, &st, AT_SYMLINK_NOFOLLOW) != 0)
				break;
			*dir = d;
			*len = at;
			return FOUND_NAME;
		}
		/* a directory above it: opened straight away (no symlink opens
		 * with O_DIRECTORY | O_NOFOLLOW); only when that says "not a
		 * directory" is it looked at, to tell a symlink from a file */
		int next = openat(d, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			if (errno == ENOTDIR && fstatat(d, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode)) {
				*dir = d;
				*len = at;
				return FOUND_LINK;
			}
			break;
		}
		if (d != root)
			close(d);
		d = next;
	}
	if (d != root)
		close(d);
	return FOUND_NONE;
}

/* After the run (every process of the jail is gone): a protected name the
 * jail created is reported; one git never makes itself (a common-directory
 * link, through which git would take its config and hooks from elsewhere)
 * or a config file git includes is also renamed aside, so that the next git
 * command outside does not follow it. So is a symlink the jail put on the
 * way to one. Consecutive names under the same writable root share one
 * descriptor of it. */
static void warn_unguarded(const struct plan *pl)
{
	enum { RUN_MAX = 128 };
	const char *open_root = NULL;
	int rootfd = -1;
	/* which first components of a run of names under one root are there:
	 * one read of the root instead of a lookup each */
	bool present[RUN_MAX], scanned = false;
	size_t run_start = 0, run_len = 0;
	for (size_t i = 0; i < pl->unguarded.n; i++) {
		const char *p = pl->unguarded.v[i].value, *why = pl->unguarded.v[i].origin;
		const char *rel;
		const char *root = root_of(pl, p, &rel);
		if (!root)
			continue;
		if (root != open_root) {
			if (rootfd >= 0)
				close(rootfd);
			open_root = root;
			rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			const char *first[RUN_MAX];
			size_t len[RUN_MAX];
			run_start = i;
			run_len = 0;
			for (size_t j = i; j < pl->unguarded.n && run_len < RUN_MAX; j++) {
				const char *r;
				if (root_of(pl, pl->unguarded.v[j].value, &r) != root)
					break;
				first[run_len] = r + strspn(r, "/");
				len[run_len++] = strcspn(r + strspn(r, "/"), "/");
			}
			scanned = rootfd >= 0 && dir_names_present(rootfd, first, len, run_len, present);
		}
		if (scanned && i - run_start < run_len && !present[i - run_start])
			continue; /* nothing of it is there */
		int dir;
		size_t len;
		enum found f = rootfd >= 0 ? find_nofollow(rootfd, rel, &dir, &len) : FOUND_NONE;
		if (f == FOUND_NONE)
			continue;
		/* one name can be protected twice over (the home directory and
		 * $XDG_CONFIG_HOME naming the same one): told once */
		bool told = false;
		for (size_t j = 0; j < i && !told; j++)
			told = strcmp(pl->unguarded.v[j].value, p) == 0;
		if (told) {
			if (dir != rootfd)
				close(dir);
			continue;
		}
		/* what was found: rel up to len, and its last component */
		_cleanup_free_ char *relp = xstrndup(rel, len);
		_cleanup_free_ char *found = path_join(root, relp);
		const char *base = strrchr(relp, '/') ? strrchr(relp, '/') + 1 : relp;
		const char *what = f == FOUND_LINK ? "a symlink on the way to " : "";
		if (!entry_list_has(&pl->move_aside, p)) {
			if (f == FOUND_LINK)
				warn_msg("warning: the jail created %s, a symlink on the way to %s "
					 "(%s): review it before you trust it", found, p, why);
			else
				warn_msg("warning: the jail created %s (%s): review it before you "
					 "trust it", p, why);
		} else {
			char aside[NAME_MAX + 1];
			int n = snprintf(aside, sizeof aside, "%s.kjail-moved-aside.%ld", base,
					 (long)getpid());
			bool moved = false;
			if (n < 0 || (size_t)n >= sizeof aside)
				errno = ENAMETOOLONG;
			else
				moved = renameat(dir, base, dir, aside) == 0;
			if (moved)
				warn_msg("warning: the jail created %s%s (%s); moved aside to "
					 "%s.kjail-moved-aside.%ld, so that git outside the jail does "
					 "not follow it",
					 what, f == FOUND_LINK ? p : found, why, found, (long)getpid());
			else
				warn_msg("warning: the jail created %s%s (%s) and it could not be "
					 "moved aside (%s): remove it before running git there", what,
					 f == FOUND_LINK ? p : found, why, strerror(errno));
		}
		if (dir != rootfd)
			close(dir);
	}
	if (rootfd >= 0)
		close(rootfd);
}

int run_bwrap(struct plan *pl, const char *bwrap, const char *self, char *const *cmd,
	      char *policy_json, enum run_mode mode)
{
	int status_p[2], err_p[2], info_p[2];
	if (pipe2(status_p, O_CLOEXEC) < 0 || pipe2(err_p, O_CLOEXEC) < 0 ||
	    pipe2(info_p, O_CLOEXEC) < 0)
		die_errno("pipe");
	int user_err = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (user_err < 0)
		die_errno("cannot duplicate stderr");
	open_mask_fds(pl);
	open_policy_fd(pl, policy_json);
	free(policy_json); /* in its descriptor now: its memory is the argv's */
	struct sc_opts so = { .allow_userns = pl->allow_userns };
	char scerr[512];
	int seccomp_fd = seccomp_export(&so, scerr, sizeof scerr);
	if (seccomp_fd < 0)
		die("%s", scerr);
	struct jail_fds fds = { .status = status_p[1], .user_err = user_err, .seccomp = seccomp_fd,
				.info = info_p[1], .sig_default = default_signals() };
	struct strv argv = STRV_INIT;
	bwrap_build(pl, bwrap, self, &fds, cmd, &argv);
	if (mode != RUN_EXEC) {
		print_invocation(&argv, pl, mode == RUN_PRINT_JSON);
		strv_free(&argv);
		return fflush(stdout) == 0 ? 0 : KJ_EXIT_FAIL;
	}
	size_t cmd_at;
	int args_fd = make_args_fd(&argv, &cmd_at);

	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	int sfd = signalfd(-1, &block, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd < 0)
		die_errno("signalfd");
	/* Ctrl-C reaches the whole foreground group; the command decides. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);

	/* Everything the child needs is made before it exists. */
	char fdbuf[16];
	snprintf(fdbuf, sizeof fdbuf, "%d", args_fd);
	struct strv exec_argv = STRV_INIT;
	strv_pushv(&exec_argv, (const char *const[]){ bwrap, "--args", fdbuf, NULL });
	strv_pushv(&exec_argv, (const char *const *)argv.v + cmd_at);
	size_t nkeep = 0;
	int *keep = xreallocarray(NULL, pl->nops + 5, sizeof *keep);
	for (size_t i = 0; i < pl->nops; i++)
		if (pl->ops[i].fd >= 0)
			keep[nkeep++] = pl->ops[i].fd;
	keep[nkeep++] = args_fd;
	keep[nkeep++] = fds.status;
	keep[nkeep++] = fds.user_err;
	keep[nkeep++] = fds.seccomp;
	keep[nkeep++] = fds.info;
	char *const *envp = strv_argv(&pl->env);

	/* orphans of the jail come to kjail: see wait_jail_gone */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		die_errno("cannot become the jail's subreaper");
	pid_t child = vfork();
	if (child < 0)
		die_errno("vfork");
	if (child == 0)
		exec_bwrap(bwrap, strv_argv(&exec_argv), envp, keep, nkeep, err_p[1], &old);
	/* freed once bwrap is on its way: thousands of words with many masks */
	strv_free(&argv);
	strv_free(&exec_argv);
	free(keep);

	close(status_p[1]);
	close(err_p[1]);
	close(info_p[1]);
	close(args_fd);
	close(user_err);
	close(seccomp_fd);
	for (size_t i = 0; i < pl->nops; i++)
		if (pl->ops[i].fd >= 0) {
			close(pl->ops[i].fd);
			pl->ops[i].fd = -1;
		}

	/* bwrap is on its way: what the end needs is made meanwhile */
	fcntl(status_p[0], F_SETFL, O_NONBLOCK);
	fcntl(err_p[0], F_SETFL, O_NONBLOCK);
	struct jail_watch w = { .children = open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC),
				.init = -1, .init_stat = -1, .init_children = -1 };
	int st = wait_forwarding(child, sfd, info_p[0], &w);
	close(sfd);
	wait_jail_gone(!pl->nested_userns, &w);
	watch_close(&w);
	char ready = 0;
	bool started = read(status_p[0], &ready, 1) == 1 && ready == 'R';
	char msg[4096];
	size_t n = read_text(err_p[0], msg, sizeof msg);
	close(status_p[0]);
	close(err_p[0]);
	if (!started)
		diagnose(bwrap, msg);
	if (n) /* bwrap had something to say after the start: pass it on */
		(void)!write(STDERR_FILENO, msg, n);
	warn_unguarded(pl);
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return KJ_EXIT_FAIL;
}

#else
/* No /proc/self/fd to reopen, and no bwrap backend that would call it. */
void refuse_reopenable_stdio(const struct plan *pl)
{
	(void)pl;
}

int run_bwrap(struct plan *pl, const char *bwrap, const char *self, char *const *cmd,
	      char *policy_json, enum run_mode mode)
{
	(void)pl, (void)bwrap, (void)self, (void)cmd, (void)mode;
	free(policy_json);
	die("--backend bwrap needs Linux (bubblewrap); on macOS use --backend seatbelt");
}
#endif

void run_container(const struct plan *pl, char *const *cmd)
{
	warn_msg("--backend container: no jail is set up; the container is the boundary "
		 "(environment scrubbed only)");
	if (chdir(pl->workspace) < 0)
		die_errno("cannot enter the workspace %s", pl->workspace);
	exec_command(cmd, strv_argv((struct strv *)&pl->env));
}

