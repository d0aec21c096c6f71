/* SPDX-License-Identifier: MIT */
/* On SIGINT, SIGTERM or SIGHUP, kli takes every process it started with it:
 * background jobs (in their own process groups, so the terminal's Ctrl-C
 * never reaches them), the command a tool is running, and whatever those
 * left behind. kli is their subreaper, so an orphan of any of them is still
 * kli's child: killing the children it has, reaping them and looking again
 * until none is left reaches the whole tree.
 *
 * All of it runs in the signal handler, with system calls only (open, read,
 * kill, waitpid, nanosleep: async-signal-safe), then kli dies of the same
 * signal, as it would have without the handler. */
#include "config.h"
#include "agent/shutdown.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

/* Rounds of kill, reap and look again: a fork bomb could outrun any bound,
 * but a tool's tree is a few levels deep. */
#define ROUNDS 200

static size_t put_uint(char *p, unsigned long v)
{
	char tmp[24];
	size_t n = 0;
	do
		tmp[n++] = (char)('0' + v % 10);
	while (v /= 10);
	for (size_t i = 0; i < n; i++)
		p[i] = tmp[n - 1 - i];
	return n;
}

/* SIGKILL each pid listed in /proc/self/task/TID/children (and its process
 * group, where it leads one). True when there was any. */
static bool kill_children_of_task(const char *tid)
{
	char path[64] = "/proc/self/task/";
	size_t n = strlen(path), t = strlen(tid);
	if (n + t + sizeof "/children" > sizeof path)
		return false;
	memcpy(path + n, tid, t);
	memcpy(path + n + t, "/children", sizeof "/children");
	int pids[256]; /* more are killed in the next round */
	int got = proc_children_read(path, pids, 256);
	bool any = false;
	for (int i = 0; i < got; i++)
		if (pids[i] > 1) {
			kill(-(pid_t)pids[i], SIGKILL);
			kill((pid_t)pids[i], SIGKILL);
			any = true;
		}
	return any;
}

/* One pass over every thread of kli (a child belongs to the thread that
 * forked it). */
static bool kill_children(void)
{
#if defined(__linux__) && defined(SYS_getdents64)
	int dir = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0) {
		char self[24];
		self[put_uint(self, (unsigned long)getpid())] = '\0';
		return kill_children_of_task(self);
	}
	bool any = false;
	char buf[4096];
	long r;
	while ((r = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0)
		for (long off = 0; off < r;) {
			unsigned short reclen;
			memcpy(&reclen, buf + off + 16, sizeof reclen);
			const char *name = buf + off + 19;
			if (name[0] >= '0' && name[0] <= '9')
				any |= kill_children_of_task(name);
			off += reclen;
		}
	close(dir);
	return any;
#else
	return false;
#endif
}

void shutdown_kill_descendants(void)
{
	int saved = errno;
	for (int round = 0; round < ROUNDS; round++) {
		bool any = kill_children();
		bool reaped = false;
		while (waitpid(-1, NULL, WNOHANG) > 0)
			reaped = true;
		if (!any && !reaped)
			break;
		/* let the killed ones exit, and their orphans come to kli */
		struct timespec ts = { 0, 2 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	errno = saved;
}

static void on_signal(int sig)
{
	shutdown_kill_descendants();
	signal(sig, SIG_DFL);
	raise(sig);
}

void shutdown_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		/* one ignored at start stays ignored (nohup kli, or kli in the
		 * background of a script): kli would not have died of it */
		struct sigaction sa;
		if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigfillset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}
