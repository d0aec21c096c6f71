#include "config.h"
#include "run.h"
#include "bwrap.h"
#include "entry-go.h"
#include "front.h"
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

/* The front's (front.c); all zeros where kjail is built without one. */
struct front_state kjail_front __attribute__((weak));

static bool executable_file(const char *path)
{
	struct stat st;
	return path[0] == '/' && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, X_OK) == 0;
}

const char *bwrap_find(void)
{
	static const char list[] = KJ_BWRAP_CANDIDATES;
	for (const char *c = list; *c; c += strlen(c) + 1)
		if (executable_file(c))
			return c;
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

/* What standard input, output and error were before the run: the jail
 * can change the mode and group of the caller's own files and terminal
 * through them (chmod 666 /dev/stdin needs no capability, and neither the
 * mounts nor Landlock hold it), and kjail puts them back afterwards. */
static struct {
	bool known;
	dev_t dev;
	ino_t ino;
	mode_t mode;
	gid_t gid;
} stdio_was[3];

void refuse_directory_stdio(void)
{
	for (int fd = 0; fd < 3; fd++) {
		struct stat st;
		stdio_was[fd].known = fstat(fd, &st) == 0;
		if (!stdio_was[fd].known)
			continue;
		if (S_ISDIR(st.st_mode))
			die("descriptor %d (%s) is a directory: through it the command could "
			    "reach around the jail; refusing",
			    fd, stdio_names[fd]);
		stdio_was[fd].dev = st.st_dev;
		stdio_was[fd].ino = st.st_ino;
		stdio_was[fd].mode = st.st_mode & 07777;
		stdio_was[fd].gid = st.st_gid;
	}
}

void restore_stdio(void)
{
	for (int fd = 0; fd < 3; fd++) {
		struct stat st;
		if (!stdio_was[fd].known || fstat(fd, &st) != 0 || st.st_dev != stdio_was[fd].dev ||
		    st.st_ino != stdio_was[fd].ino)
			continue;
		mode_t mode = st.st_mode & 07777, was = stdio_was[fd].mode;
		gid_t gid = st.st_gid, gwas = stdio_was[fd].gid;
		if (mode == was && gid == gwas)
			continue;
		bool back = (gid == gwas || fchown(fd, (uid_t)-1, gwas) == 0) &&
			    (mode == was || fchmod(fd, was) == 0);
		int err = errno;
		char link[32], path[PATH_MAX];
		snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
		ssize_t n = readlink(link, path, sizeof path - 1);
		if (n > 0)
			path[n] = '\0';
		else
			snprintf(path, sizeof path, "its file");
		if (back)
			warn_msg("warning: the jail changed %s (%s) from mode %04o group %ld to mode "
				 "%04o group %ld; put back",
				 path, stdio_names[fd], (unsigned)was, (long)gwas, (unsigned)mode,
				 (long)gid);
		else
			warn_msg("warning: the jail changed %s (%s) from mode %04o group %ld to mode "
				 "%04o group %ld, and it could not be put back (%s): change it back "
				 "yourself",
				 path, stdio_names[fd], (unsigned)was, (long)gwas, (unsigned)mode,
				 (long)gid, strerror(err));
	}
}

/* The bwrap backend is Linux's (memfd_create, prctl, pipe2, sigwaitinfo,
 * user namespaces); elsewhere run_bwrap() refuses. */
#ifdef KJ_OS_LINUX
/* Whether the jail (the caller's uid and groups, no capability) may open
 * the file for writing: its mode bits, as a process without
 * CAP_DAC_OVERRIDE sees them; access(2) through link (/proc/self/fd/N)
 * too, for ACLs, when not root (for root it answers yes to everything).
 * The owner may: chmod needs no capability, so a file of the caller's
 * without a write bit is made writable first (chmod u+w /dev/stdin). */
static bool jail_may_write(int fd, const struct stat *st, const char *link)
{
	struct statvfs vfs;
	if (fstatvfs(fd, &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
		return false;
	uid_t uid = geteuid();
	bool w;
	if (st->st_uid == uid)
		w = true;
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

/* kjail's side of one jail. bwrap is started as soon as kjail knows the
 * command and the bwrap binary (by kjail's front, before the C library's
 * start-up: front.h), so that bwrap's own
 * start-up (the dynamic loader, its libraries: about as long as kjail's
 * look at the host) runs while kjail works out the jail; bwrap then waits
 * for its options on a pipe (--args). Everything bwrap is started with is
 * made before it exists: the descriptors it reads later are numbered now
 * and filled once the plan is known. */
struct jail {
	const char *bwrap, *entry;
	char *const *cmd;
	bool allow_userns;
	int status_p[2], err_p[2], info_p[2], args_p[2];
	int user_err, seccomp;
	int policy; /* memfd: the policy file, written with pwrite */
	int go;     /* memfd: descriptor G of the entry helper (entry-go.h) */
	int *pool;  /* numbers of bwrap's /dev/null descriptors for masked files */
	size_t npool;
	struct jail_fds fds; /* the numbers bwrap has them at, from the start */
	pid_t pid;  /* bwrap; -1 before it runs and once it is reaped */
};


/* kjail's signals while it waits for the jail, set just before it hands
 * bwrap the jail. Until then they are the caller's: a Ctrl-C or SIGTERM
 * while kjail works out the jail kills kjail, PR_SET_PDEATHSIG takes
 * bwrap, and nothing runs. */
static struct {
	int sfd; /* SIGCHLD, SIGTERM, SIGHUP */
} sigs;

/* The bwrap a fatal error must not leave behind: killed and reaped as
 * kjail exits (die() calls exit()), before it reads the end of an option
 * list kjail never finished. (Were kjail itself killed, PR_SET_PDEATHSIG
 * takes bwrap, and the entry helper refuses to run the command without
 * kjail's go: entry-go.h.) */
static pid_t live_bwrap = -1;

static void kill_live_bwrap(void)
{
	if (live_bwrap > 0) {
		kill(live_bwrap, SIGKILL);
		while (waitpid(live_bwrap, NULL, 0) < 0 && errno == EINTR)
			;
		live_bwrap = -1;
	}
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
static void open_pool(struct jail *j, size_t need)
{
	struct rlimit rl;
	if (need && getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < need + 64) {
		if (rl.rlim_max < need + 64)
			die("%zu masked files need more descriptors than the hard limit %llu allows",
			    need, (unsigned long long)rl.rlim_max);
		rl.rlim_cur = need + 64 > rl.rlim_max ? rl.rlim_max : need + 64;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			die_errno("cannot raise the descriptor limit for %zu masked files", need);
	}
	j->pool = xreallocarray(NULL, need ? need : 1, sizeof *j->pool);
	j->npool = need;
	for (size_t i = 0; i < need; i++)
		if (i == 0)
			j->pool[i] = open_cloexec_devnull();
		else if ((j->pool[i] = fcntl(j->pool[0], F_DUPFD_CLOEXEC, 3)) < 0)
			die_errno("cannot duplicate the descriptor of /dev/null");
}

static int new_memfd(const char *name)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		die_errno("memfd_create");
	return fd;
}

/* Writes all of data at offset 0 of a memfd, leaving its file offset at 0
 * (shared with bwrap, which reads it from there). */
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

static void set_signals(void)
{
	sigset_t block;
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGPIPE);
	sigprocmask(SIG_BLOCK, &block, NULL);
	/* SIGPIPE stays blocked, out of the signalfd: a bwrap gone before it
	 * read its options is an EPIPE, diagnosed from its exit */
	sigdelset(&block, SIGPIPE);
	sigs.sfd = signalfd(-1, &block, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sigs.sfd < 0)
		die_errno("signalfd");
	/* Ctrl-C reaches the whole foreground group; the command decides. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	/* orphans of the jail come to kjail: see wait_jail_gone */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		die_errno("cannot become the jail's subreaper");
}

static void jail_open(struct jail *j, size_t npool)
{
	if (pipe2(j->status_p, O_CLOEXEC) < 0 || pipe2(j->err_p, O_CLOEXEC) < 0 ||
	    pipe2(j->info_p, O_CLOEXEC) < 0 || pipe2(j->args_p, O_CLOEXEC) < 0)
		die_errno("pipe");
	j->user_err = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (j->user_err < 0)
		die_errno("cannot duplicate stderr");
	open_pool(j, npool);
	j->policy = new_memfd("kjail-policy");
	j->go = new_memfd("kjail-go");
	/* empty until the plan says which program (jail_run): bwrap reads it
	 * only after its options */
	char scerr[512];
	j->seccomp = seccomp_memfd(scerr, sizeof scerr);
	if (j->seccomp < 0)
		die("%s", scerr);
	j->pid = -1;
	/* numbers only from here on: kjail closes its copies once bwrap has them */
	j->fds = (struct jail_fds){ .status = j->status_p[1], .user_err = j->user_err,
				    .seccomp = j->seccomp, .info = j->info_p[1],
				    .sig_default = default_signals(),
				    .go = j->go };
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The masked files' and the policy's descriptors, in the order bwrap
 * reads them; false when the pool is too small for the plan. */
static bool assign_fds(const struct jail *j, struct plan *pl)
{
	size_t k = 0, policies = 0;
	for (size_t i = 0; i < pl->nops; i++)
		if (pl->ops[i].kind == OP_MASK_FILE)
			k++;
		else if (pl->ops[i].kind == OP_POLICY)
			policies++;
	if (k > j->npool || policies > 1)
		return false;
	k = 0;
	for (size_t i = 0; i < pl->nops; i++)
		if (pl->ops[i].kind == OP_MASK_FILE)
			pl->ops[i].fd = j->pool[k++];
		else if (pl->ops[i].kind == OP_POLICY)
			pl->ops[i].fd = j->policy;
	return true;
}

static size_t masks_of(const struct plan *pl)
{
	size_t n = 0;
	for (size_t i = 0; i < pl->nops; i++)
		n += pl->ops[i].kind == OP_MASK_FILE;
	return n;
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
	json_t *go = json_array();
	size_t len;
	_cleanup_free_ char *data = bwrap_go_data(pl, &len);
	for (const char *w = data; w < data + len; w = jail_go_next(w))
		json_array_append_new(go, json_string(w));
	json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:o}", "type", "invocation", "backend", "bwrap",
			      "argv", arr, "env_unset", env, "go_words", go);
	char *s = json_dumps(o, JSON_COMPACT);
	printf("%s\n", s);
	free(s);
	json_decref(o);
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
	/* root in the jail holds no capability: a directory only its owner
	 * may enter (another user's 0700 home) stays shut to it */
	if (!fix[0] && geteuid() == 0 && strstr(msg, "Permission denied"))
		snprintf(fix, sizeof fix, "run as root, the jail cannot enter a directory only "
					  "another user may (mode 0700); run kjail as that user "
					  "(runuser -u USER -- kjail ...)");
	die("cannot start the jail: %s%s%s", what, fix[0] ? "; " : "", fix);
}

/* kjail and the bwrap it starts, each on a CPU of its own while bwrap
 * starts up and kjail looks at the host. Left to the scheduler, kjail,
 * woken by bwrap's exec, often lands on bwrap's CPU and waits there until
 * bwrap blocks on its options, the other CPU idle (a run in three or so
 * here), which undoes the point of starting bwrap early. So bwrap, before
 * its exec, stays on the CPU it was made on and sends kjail (asleep in
 * vfork, so it costs no move) to another; both get back the CPUs they
 * were allowed before kjail writes bwrap's options, so nothing of the
 * jail runs pinned. Not done with one CPU to run on, or a set-ID bwrap
 * (kjail may not change its CPUs back). */
static struct {
	bool split;
	cpu_set_t all;           /* kjail's, as it was started */
	cpu_set_t kjail, bwrap;
} cpus;

static void cpus_split(const char *bwrap)
{
	struct stat st;
	int here = sched_getcpu();
	cpus.split = false;
	if (here < 0 || here >= CPU_SETSIZE || stat(bwrap, &st) != 0 ||
	    (st.st_mode & (S_ISUID | S_ISGID)) ||
	    sched_getaffinity(0, sizeof cpus.all, &cpus.all) != 0 || CPU_COUNT(&cpus.all) < 2 ||
	    !CPU_ISSET(here, &cpus.all))
		return;
	int other = -1; /* the next allowed CPU after this one, round */
	for (int k = 1; k < CPU_SETSIZE && other < 0; k++)
		if (CPU_ISSET((here + k) % CPU_SETSIZE, &cpus.all))
			other = (here + k) % CPU_SETSIZE;
	CPU_ZERO(&cpus.bwrap);
	CPU_SET(here, &cpus.bwrap);
	CPU_ZERO(&cpus.kjail);
	CPU_SET(other, &cpus.kjail);
	cpus.split = true;
}

/* Both back on all their CPUs. */
static void cpus_join(pid_t bwrap)
{
	if (!cpus.split)
		return;
	if (bwrap > 0)
		(void)sched_setaffinity(bwrap, sizeof cpus.all, &cpus.all);
	(void)sched_setaffinity(0, sizeof cpus.all, &cpus.all);
	cpus.split = false;
}

/* In a vfork child: system calls only (no allocation, no stdio), since it
 * shares kjail's memory until the exec. Saves copying kjail's page tables on
 * every run. */
static KJ_NORETURN void exec_bwrap(const char *bwrap, char *const *argv,
				   const int *keep, size_t nkeep, int err_w, bool split)
{
	/* kjail going away for any reason takes the jail with it. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		_exit(KJ_EXIT_FAIL);
	if (split) { /* hints: bwrap starts up all the same without them */
		(void)sched_setaffinity(0, sizeof cpus.bwrap, &cpus.bwrap);
		(void)sched_setaffinity(getppid(), sizeof cpus.kjail, &cpus.kjail);
	}
	for (size_t i = 0; i < nkeep; i++)
		if (keep[i] >= 0 && fcntl(keep[i], F_SETFD, 0) < 0)
			_exit(KJ_EXIT_FAIL);
	if (dup2(err_w, STDERR_FILENO) < 0)
		_exit(KJ_EXIT_FAIL);
	/* bwrap ignores SIGINT and SIGQUIT (kjail still takes them until it
	 * hands over the jail): bwrap would die of Ctrl-C and take the jail
	 * with it before the command had handled it. The entry helper gives
	 * the command the caller's dispositions back. */
	struct sigaction ign = { .sa_handler = SIG_IGN };
	if (sigaction(SIGINT, &ign, NULL) < 0 || sigaction(SIGQUIT, &ign, NULL) < 0)
		_exit(KJ_EXIT_FAIL);
	/* no environment: the command's comes with the options (bwrap.c) */
	char *const no_env[] = { NULL };
	execve(bwrap, argv, no_env);
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

/* Once bwrap runs, the descriptors it holds are its own: kjail keeps the
 * numbers, the policy, G and the seccomp program to fill, and the pipes'
 * other ends. */
static void bwrap_has_them(struct jail *j)
{
	close_fd(&j->status_p[1]);
	close_fd(&j->err_p[1]);
	close_fd(&j->info_p[1]);
	close_fd(&j->args_p[0]);
	close_fd(&j->user_err);
	for (size_t i = 0; i < j->npool; i++)
		close(j->pool[i]);
}

/* Starts bwrap: its options come on the --args pipe once the plan is
 * known (jail_run). */
static void jail_spawn(struct jail *j, size_t npool)
{
	/* descriptors first, numbered as --print shows them */
	jail_open(j, npool);
	const struct jail_fds fds = j->fds;
	char fdbuf[16];
	snprintf(fdbuf, sizeof fdbuf, "%d", j->args_p[0]);
	struct strv exec_argv = STRV_INIT;
	strv_pushv(&exec_argv, (const char *const[]){ j->bwrap, "--args", fdbuf, NULL });
	bwrap_tail(j->entry, &fds, j->cmd, &exec_argv);
	size_t nkeep = 0;
	int *keep = xreallocarray(NULL, j->npool + 8, sizeof *keep);
	for (size_t i = 0; i < j->npool; i++)
		keep[nkeep++] = j->pool[i];
	keep[nkeep++] = j->args_p[0];
	keep[nkeep++] = fds.status;
	keep[nkeep++] = fds.user_err;
	keep[nkeep++] = fds.seccomp;
	keep[nkeep++] = fds.info;
	keep[nkeep++] = j->policy;
	keep[nkeep++] = j->go;

	cpus_split(j->bwrap);
	pid_t child = vfork();
	if (child < 0)
		die_errno("vfork");
	if (child == 0)
		exec_bwrap(j->bwrap, strv_argv(&exec_argv), keep, nkeep, j->err_p[1],
			   cpus.split);
	j->pid = live_bwrap = child;
	strv_free(&exec_argv);
	free(keep);
	bwrap_has_them(j);
}

/* Undoes jail_spawn: bwrap killed before it read a word of the jail. */
static void jail_cancel(struct jail *j)
{
	cpus_join(0);
	kill_live_bwrap();
	j->pid = -1;
	int *fds[] = { &j->status_p[0], &j->err_p[0], &j->info_p[0], &j->args_p[1], &j->policy,
		       &j->go, &j->seccomp };
	for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
		close_fd(fds[i]);
	free(j->pool);
	j->pool = NULL;
	j->npool = 0;
}

static bool exit_hooked;

static void hook_exit(void)
{
	if (!exit_hooked && atexit(kill_live_bwrap) != 0) {
		kill_live_bwrap();
		die("cannot register kjail's exit handler");
	}
	exit_hooked = true;
}

void jail_front_claim(void)
{
	struct front_state *f = &kjail_front;
	if (!f->started)
		return;
	live_bwrap = f->pid;
	hook_exit();
	if (f->split) {
		CPU_ZERO(&cpus.all);
		for (int c = 0; c < FRONT_CPU_WORDS * 64 && c < CPU_SETSIZE; c++)
			if (f->cpus_all[c / 64] >> (c % 64) & 1)
				CPU_SET(c, &cpus.all);
		cpus.split = true;
	}
}

void jail_front_discard(void)
{
	struct front_state *f = &kjail_front;
	if (!f->started)
		return;
	f->started = 0;
	cpus_join(0);
	kill_live_bwrap();
	int fds[] = { f->status_p[0], f->status_p[1], f->err_p[0], f->err_p[1], f->info_p[0],
		      f->info_p[1], f->args_p[0], f->args_p[1], f->user_err, f->policy, f->go,
		      f->seccomp };
	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] > 2)
			close(fds[i]);
	for (int i = 0; i < f->npool; i++)
		if (f->pool[i] > 2)
			close(f->pool[i]);
}

/* Takes over the bwrap the front started, when it is the one kjail would
 * start now: the same bwrap and entry helper, the same command, the same
 * signal dispositions, descriptors enough for the masks. Otherwise it is
 * killed (it has read nothing) and false returned. */
static bool front_adopt(struct jail *j, size_t npool)
{
	struct front_state *f = &kjail_front;
	if (!f->started)
		return false;
	bool same = strcmp(f->bwrap, j->bwrap) == 0 && strcmp(f->entry, j->entry) == 0 &&
		    (size_t)f->npool >= npool && f->sig_default == default_signals();
	int k = 0;
	for (; same && j->cmd[k] && k < f->ncmd; k++)
		same = strcmp(j->cmd[k], f->cmd[k]) == 0;
	if (!same || j->cmd[k] || k != f->ncmd) {
		jail_front_discard();
		return false;
	}
	f->started = 0;
	j->status_p[0] = f->status_p[0], j->status_p[1] = f->status_p[1];
	j->err_p[0] = f->err_p[0], j->err_p[1] = f->err_p[1];
	j->info_p[0] = f->info_p[0], j->info_p[1] = f->info_p[1];
	j->args_p[0] = f->args_p[0], j->args_p[1] = f->args_p[1];
	j->user_err = f->user_err;
	j->policy = f->policy;
	j->go = f->go;
	j->seccomp = f->seccomp;
	j->npool = (size_t)f->npool;
	j->pool = xreallocarray(NULL, j->npool ? j->npool : 1, sizeof *j->pool);
	for (size_t i = 0; i < j->npool; i++)
		j->pool[i] = f->pool[i];
	j->fds = (struct jail_fds){ .status = j->status_p[1], .user_err = j->user_err,
				    .seccomp = j->seccomp, .info = j->info_p[1],
				    .sig_default = f->sig_default, .go = j->go };
	j->pid = live_bwrap = f->pid;
	/* (the front made those bwrap keeps without close-on-exec; kjail's
	 * own copies have it again since seal_inherited_fds) */
	bwrap_has_them(j);
	return true;
}

struct jail *jail_start(const char *bwrap, const char *entry, char *const *cmd,
			bool allow_userns, size_t deny_read)
{
	struct jail *j = xcalloc(1, sizeof *j);
	*j = (struct jail){ .bwrap = bwrap, .entry = entry, .cmd = cmd,
			    .allow_userns = allow_userns, .pid = -1 };
	hook_exit();
	if (!front_adopt(j, deny_read + JAIL_POOL_SPARE))
		jail_spawn(j, deny_read + JAIL_POOL_SPARE);
	return j;
}

/* Writes all of len bytes to a pipe; false once its reader is gone. */
static bool write_pipe(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t w = write(fd, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EPIPE)
			return false;
		if (w < 0)
			die_errno("writing bwrap's options");
		data += w;
		len -= (size_t)w;
	}
	return true;
}

/* bwrap's options (not the command): NUL-terminated words, as --args
 * reads them, so a policy of any size fits. */
static char *args_data(const struct strv *argv, size_t *len)
{
	size_t end = 1, total = 0;
	while (end < argv->n && strcmp(argv->v[end], "--") != 0)
		total += strlen(argv->v[end++]) + 1;
	char *buf = xmalloc(total ? total : 1), *p = buf;
	for (size_t i = 1; i < end; i++) {
		size_t l = strlen(argv->v[i]) + 1;
		memcpy(p, argv->v[i], l);
		p += l;
	}
	*len = total;
	return buf;
}

/* bwrap's options in full, then the go: a jail cut short runs nothing.
 * Not inlined: the bench counts kjail's instructions up to here
 * (callgrind --dump-before=jail_hand_over). */
KJ_NOINLINE static void jail_hand_over(struct jail *j, const char *args, size_t args_len,
				       const char *go, size_t go_len)
{
	if (write_pipe(j->args_p[1], args, args_len))
		fill_memfd(j->go, "kjail-go", go, go_len);
	close_fd(&j->go);
	close_fd(&j->args_p[1]);
}

int jail_run(struct jail *j, struct plan *pl, char *policy_json)
{
	if (!assign_fds(j, pl)) {
		/* more masked files than bwrap was started with */
		jail_cancel(j);
		jail_spawn(j, masks_of(pl));
		if (!assign_fds(j, pl))
			die("internal error: the jail's descriptors do not fit its plan");
	}
	fill_memfd(j->policy, "kjail-policy", policy_json ? policy_json : "{}\n",
		   strlen(policy_json ? policy_json : "{}\n"));
	free(policy_json);
	close_fd(&j->policy);
	struct sc_opts so = { .allow_userns = pl->allow_userns };
	char scerr[512];
	if (!seccomp_fill(j->seccomp, &so, scerr, sizeof scerr))
		die("%s", scerr);
	close_fd(&j->seccomp);
	size_t go_len, args_len;
	_cleanup_free_ char *go = bwrap_go_data(pl, &go_len);
	if (go_len > JAIL_GO_MAX)
		die("the jail's writable paths take %zu bytes, more than the %d its entry helper "
		    "reads; name fewer or shorter --writable paths",
		    go_len, JAIL_GO_MAX);
	struct strv argv = STRV_INIT;
	bwrap_build(pl, j->bwrap, j->entry, &j->fds, j->cmd, &argv);
	size_t words = 0;
	while (words + 1 < argv.n && strcmp(argv.v[words + 1], "--") != 0)
		words++;
	if (words > BWRAP_MAX_WORDS)
		die("the jail takes %zu option words, more than the %d bwrap reads: the environment "
		    "(%zu variables, three words each) and the masks count; remove variables "
		    "(--deny-env) or name fewer --deny-read paths",
		    words, BWRAP_MAX_WORDS, pl->env.n);
	_cleanup_free_ char *args = args_data(&argv, &args_len);
	for (size_t i = 0; i < pl->nops; i++)
		pl->ops[i].fd = -1;
	/* from here a SIGTERM or SIGHUP waits in the signalfd and goes to
	 * bwrap as soon as kjail waits for it */
	set_signals();
	cpus_join(j->pid);
	jail_hand_over(j, args, args_len, go, go_len);
	/* freed once bwrap is on its way: thousands of words with many masks */
	strv_free(&argv);

	/* bwrap is on its way: what the end needs is made meanwhile */
	fcntl(j->status_p[0], F_SETFL, O_NONBLOCK);
	fcntl(j->err_p[0], F_SETFL, O_NONBLOCK);
	struct jail_watch w = { .children = open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC),
				.init = -1, .init_stat = -1, .init_children = -1 };
	int st = wait_forwarding(j->pid, sigs.sfd, j->info_p[0], &w);
	j->info_p[0] = -1; /* closed there */
	j->pid = live_bwrap = -1; /* reaped */
	close_fd(&sigs.sfd);
	wait_jail_gone(!pl->nested_userns, &w);
	watch_close(&w);
	char ready = 0;
	bool started = read(j->status_p[0], &ready, 1) == 1 && ready == 'R';
	char msg[4096];
	size_t n = read_text(j->err_p[0], msg, sizeof msg);
	close_fd(&j->status_p[0]);
	close_fd(&j->err_p[0]);
	const char *bwrap = j->bwrap;
	free(j->pool);
	free(j);
	if (!started)
		diagnose(bwrap, msg);
	if (n) /* bwrap had something to say after the start: pass it on */
		(void)!write(STDERR_FILENO, msg, n);
	restore_stdio();
	warn_unguarded(pl);
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return KJ_EXIT_FAIL;
}

int run_bwrap(struct plan *pl, const char *bwrap, const char *self, char *const *cmd,
	      char *policy_json, bool json, size_t deny_read)
{
	/* the descriptors a run would hand over, numbered as it would */
	struct jail j = { .bwrap = bwrap, .entry = self, .cmd = cmd, .pid = -1,
			  .allow_userns = pl->allow_userns };
	size_t npool = deny_read + JAIL_POOL_SPARE;
	jail_open(&j, masks_of(pl) > npool ? masks_of(pl) : npool);
	if (!assign_fds(&j, pl))
		die("internal error: the jail's descriptors do not fit its plan");
	free(policy_json);
	struct strv argv = STRV_INIT;
	bwrap_build(pl, bwrap, self, &j.fds, cmd, &argv);
	print_invocation(&argv, pl, json);
	strv_free(&argv);
	free(j.pool);
	return fflush(stdout) == 0 ? 0 : KJ_EXIT_FAIL;
}

#else
/* No /proc/self/fd to reopen, and no bwrap backend that would call it. */
void refuse_reopenable_stdio(const struct plan *pl)
{
	(void)pl;
}

int run_bwrap(struct plan *pl, const char *bwrap, const char *self, char *const *cmd,
	      char *policy_json, bool json, size_t deny_read)
{
	(void)pl, (void)bwrap, (void)self, (void)cmd, (void)json, (void)deny_read;
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

