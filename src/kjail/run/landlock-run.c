// SPDX-License-Identifier: MIT
/* The Landlock backend (Linux): for where user namespaces are blocked. No
 * namespace, no mount, no setuid: kjail forks, the child confines itself
 * (run/ll-domain.h) and execs the command; kjail stays the parent, reaps
 * the command and all it left, and does the aftercare. What it cannot
 * promise against bwrap is said on every run (build/landlock-degraded.h). */
#include "config.h"
#include "run/backend.h"
#include "build/explain.h"
#include "entry/abi.h"
#include "entry/entry.h"
#include "entry/landlock.h"
#include "git/report.h"
#include "run/aftercare.h"
#include "run/caches.h"
#include "build/landlock-degraded.h"
#include "run/ll-domain.h"
#include "run/ll-restore.h"
#include "run/notice.h"
#include "run/reap.h"
#include "run/stdio_guard.h"
#include "strv.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef KJ_OS_LINUX
#include <sys/prctl.h>
#define RUNS_HERE true
#else
#define RUNS_HERE false
#endif

static void describe(char *buf, size_t len)
{
#ifdef KJ_OS_LINUX
	int abi = landlock_abi();
	fmt_into(buf, len, abi >= LL_BACKEND_MIN_ABI ? "landlock (ABI %d)" : "landlock (ABI %d: too old)",
		 abi < 0 ? 0 : abi);
#else
	(void)len;
	buf[0] = '\0';
#endif
}

static bool available(char *why, size_t len)
{
	int abi = landlock_abi();
	if (abi >= LL_BACKEND_MIN_ABI)
		return true;
	fmt_into(why, len, "--backend landlock needs Landlock ABI %d (Linux 6.2); this kernel has %s",
		 LL_BACKEND_MIN_ABI, abi < 0 ? "none (or it is off: lsm= on the kernel command line)"
					     : "an older one");
	return false;
}

/* What this backend cannot honour at all: one line each, status 125. */
static void refuse(const struct plan *pl)
{
	char why[256];
	if (!available(why, sizeof why))
		die("%s", why);
	if (pl->net == NET_ALLOWLIST)
		die("--allow-host is refused by --backend landlock: Landlock's network rules name a "
		    "port, not an address, so the proxy's port would let the jail reach any host "
		    "(use --backend bwrap)");
	if (pl->nsockets)
		die("--allow-socket is refused by --backend landlock: Landlock cannot refuse "
		    "connect(2) to a pathname socket, so allowing AF_UNIX would open every socket "
		    "on the host (use --backend bwrap)");
	if (pl->net == NET_NONE && landlock_abi() < LL_BACKEND_NET_ABI)
		die("-n is refused by --backend landlock on this kernel: it needs Landlock's network "
		    "rules (ABI %d, Linux 6.7), this one has ABI %d", LL_BACKEND_NET_ABI,
		    landlock_abi());
	if (pl->allow_userns)
		die("--allow-userns is refused by --backend landlock: it has no namespaces to nest in");
	const char *root, *mask = ll_mask_in_writable(pl, &root);
	if (mask)
		die("%s is masked inside the writable root %s: --backend landlock cannot hold a "
		    "mask there (the root's rights would read it, a rename carry it out); use "
		    "--backend bwrap, or a workspace that holds no credential store", mask, root);
	if (!pl->cache_dir)
		die("--backend landlock keeps the command's TMPDIR and the protected names' copies in "
		    "the per-workspace cache directory, and there is none (%s)",
		    pl->cache_note ? pl->cache_note : "cache = false");
}

static int print(const struct launch *l)
{
	refuse(l->plan);
	strv_print_argv(stdout, l->cmd);
	finish_stdout();
	return 0;
}

#ifdef KJ_OS_LINUX
/* DIR, made 0700 if missing, refused unless it is a directory of ours. */
static void own_dir(const char *dir)
{
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		die_errno("cannot make %s", dir);
	struct stat st;
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		die("%s: not a directory of this user's: refusing it as the jail's TMPDIR", dir);
}

static void write_policy(const char *path, const char *json)
{
	_cleanup_free_ char *tmp = xconcat(path, ".new", (char *)NULL);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0444);
	if (fd < 0)
		die_errno("cannot write %s", tmp);
	size_t n = strlen(json);
	if (write(fd, json, n) != (ssize_t)n || close(fd) < 0 || rename(tmp, path) < 0)
		die_errno("cannot write %s", path);
}

static KJ_NORETURN void child(const struct launch *l, const struct reap_signals *rs,
			      const char *tmpdir, const char *state, const char *policy_file)
{
	const struct plan *pl = l->plan;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	sigprocmask(SIG_SETMASK, &rs->was, NULL);
	sigaction(SIGINT, &rs->int_was, NULL);
	sigaction(SIGQUIT, &rs->quit_was, NULL);
	if (chdir(pl->workspace) < 0)
		die_errno("cannot enter the workspace %s", pl->workspace);
	struct strv env = STRV_INIT;
	for (size_t i = 0; i < pl->env.n; i++)
		if (strncmp(pl->env.v[i], "TMPDIR=", 7) != 0 &&
		    strncmp(pl->env.v[i], KJ_POLICY_ENV "=", sizeof KJ_POLICY_ENV) != 0)
			strv_push(&env, pl->env.v[i]);
	strv_pushf(&env, "TMPDIR=%s", tmpdir);
	strv_pushf(&env, "%s=%s", KJ_POLICY_ENV, policy_file);
	/* none of kjail's descriptors passes (ll_confine's own are
	 * close-on-exec) */
	if (close_range(3, ~0U, 0) < 0)
		die_errno("cannot start the jail: close_range");
	char err[1024];
	if (!ll_confine(pl, tmpdir, state, err, sizeof err))
		die("cannot start the jail: %s", err);
	exec_command(l->cmd, strv_argv(&env));
}

static int run(const struct launch *l)
{
	const struct plan *pl = l->plan;
	refuse(pl);
	_cleanup_free_ char *line = ll_degraded_line(landlock_abi());
	warn_msg("%s", line);
	/* beside the workspace's cache directory (a writable root): the
	 * policy and the copies, readable, not writable, by the jail */
	_cleanup_free_ char *state = xconcat(pl->cache_dir, LL_STATE_SUFFIX, (char *)NULL);
	_cleanup_free_ char *tmpdir = xconcat(pl->cache_dir, "/tmp", (char *)NULL);
	_cleanup_free_ char *policy_file = xconcat(state, "/policy.json", (char *)NULL);
	own_dir(state);
	own_dir(tmpdir);
	char *policy_json = explain_policy_for_jail(l->policy, pl, NULL);
	write_policy(policy_file, policy_json);
	free(policy_json);
	struct ll_snapshot snap;
	ll_snapshot_take(pl, state, &snap);

	struct reap_signals rs;
	reap_prepare(&rs);
	struct gitreport git;
	gitreport_before(pl, &git);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (pid == 0)
		child(l, &rs, tmpdir, state, policy_file);
	int st = reap_bwrap(pid, &rs);
	reap_jail();
	struct notice note = { .reset = false };
	restore_stdio(&note);
	int status = reap_status(st);
	bool moved = aftercare_move_aside(pl, &note, status);
	bool restored = ll_snapshot_restore(pl, &snap, &note);
	ll_snapshot_free(&snap);
	reap_release(&rs);
	gitreport_after(pl, &git, &note);
	gitreport_free(&git);
	return moved && restored ? status : KJ_EXIT_FAIL;
}
#else
static int run(const struct launch *l)
{
	refuse(l->plan);
	return KJ_EXIT_FAIL;
}
#endif

const struct backend_ops backend_landlock = {
	.id = BACKEND_LANDLOCK,
	.name = "landlock",
	.runs_here = RUNS_HERE,
	.describe = describe,
	.available = available,
	.print = print,
	.run = run,
};
