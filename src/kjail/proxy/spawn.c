/* SPDX-License-Identifier: MIT */
/* The proxy's process (see proxy.h): forked from kjail, dies with it,
 * keeps three descriptors, writes no file, takes its listeners over
 * ctl_fd and serves until told to stop. */
#include "config.h"

#include "fdpass.h"
#include "entry/landlock.h"
#include "proxy/proxy.h"
#include "proxy/serve.h"
#include "proxy/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

enum { CTL_FD = 3, LOG_FD = 4, STOP_FD = 5 };

/* Moves the three descriptors kept to 3, 4, 5 (log may be -1: then 4 is
 * closed) and closes every other one above 2. */
static bool keep_only(int ctl, int log, int stop)
{
	int src[3] = { ctl, log, stop };
	int tmp[3];
	/* first above every target, so no dup2 lands on a source */
	for (int i = 0; i < 3; i++) {
		tmp[i] = src[i] < 0 ? -1 : fcntl(src[i], F_DUPFD_CLOEXEC, 16);
		if (src[i] >= 0 && tmp[i] < 0)
			return false;
	}
	for (int i = 0; i < 3; i++) {
		if (tmp[i] >= 0 && dup2(tmp[i], CTL_FD + i) < 0)
			return false;
		if (tmp[i] < 0)
			close(CTL_FD + i);
	}
#if defined(__linux__) && defined(SYS_close_range)
	if (syscall(SYS_close_range, (unsigned)STOP_FD + 1, ~0U, 0) == 0)
		return true;
#endif
	long max = sysconf(_SC_OPEN_MAX);
	for (long fd = STOP_FD + 1; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
		close((int)fd);
	return true;
}

/* No file may be written from here on: a ruleset that handles the write
 * rights and grants none (the log is already open). Quietly nothing on a
 * kernel without Landlock. */
static bool no_writes(void)
{
#ifdef __linux__
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return false;
#endif
	char err[160];
	int none[3] = { -1, -1, -1 };
	if (landlock_apply(NULL, 0, none, false, err, sizeof err) == LL_FAILED) {
		fprintf(stderr, "kjail: proxy: %s\n", err);
		return false;
	}
	return true;
}

static int child(const struct proxy_config *c, pid_t parent)
{
#ifdef __linux__
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		return 1;
#else
	if (getppid() != parent)
		return 1;
#endif
	int dn = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (dn >= 0) {
		dup2(dn, 0);
		dup2(dn, 1);
		close(dn);
	}
	if (!no_writes())
		return 1;
	int fds[FDPASS_MAX];
	char tags[FDPASS_MAX][FDPASS_TAG_MAX];
	int n = fdpass_recv(CTL_FD, fds, tags, FDPASS_MAX);
	if (n <= 0) {
		if (n < 0)
			fprintf(stderr, "kjail: proxy: receiving the listeners: %s\n",
				strerror(errno));
		return 1;
	}
	struct proxy_listener l[FDPASS_MAX];
	for (int i = 0; i < n; i++) {
		l[i].fd = fds[i];
		if (strcmp(tags[i], "http") == 0)
			l[i].proto = PROXY_HTTP;
		else if (strcmp(tags[i], "socks5") == 0)
			l[i].proto = PROXY_SOCKS5;
		else {
			fprintf(stderr, "kjail: proxy: a listener tagged '%s'\n", tags[i]);
			return 1;
		}
	}
	if (write(CTL_FD, "k", 1) != 1)
		return 1;
	struct proxy_config cc = *c;
	cc.log_fd = c->log_fd >= 0 ? LOG_FD : -1;
	return proxy_serve(&cc, l, (size_t)n, STOP_FD) == 0 ? 0 : 1;
}

pid_t proxy_spawn(const struct proxy_config *c, int ctl_fd, int *stop_wfd)
{
	int p[2];
	if (pipe(p) < 0) {
		fprintf(stderr, "kjail: proxy: pipe: %s\n", strerror(errno));
		return -1;
	}
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "kjail: proxy: fork: %s\n", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[1]);
		if (!keep_only(ctl_fd, c->log_fd, p[0]))
			_exit(1);
		_exit(child(c, parent));
	}
	close(p[0]);
	*stop_wfd = p[1];
	return pid;
}

int proxy_stop(pid_t pid, int stop_wfd)
{
	int st = 0;
	close(stop_wfd);
	/* it stops at once and waits a few seconds for its connections;
	 * past that, it is killed */
	for (int i = 0; i < 100; i++) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
		if (r < 0 && errno != EINTR)
			return -1;
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return -1;
}
