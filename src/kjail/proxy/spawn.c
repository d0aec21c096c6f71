/* SPDX-License-Identifier: MIT */
/* The proxy's process (see proxy.h): forked from kjail, dies with it,
 * executes kjail-proxy with four descriptors and no environment, takes
 * its configuration over a socket, and is waited for when told to stop. */
#include "config.h"

#include "proxy/handoff.h"
#include "proxy/proxy.h"
#include "proxy/spawn.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/syscall.h>
#endif

#ifndef SOCK_CLOEXEC
#define SOCK_CLOEXEC 0 /* macOS: set below */
#endif

enum { NKEEP = PROXY_FD_CONFIG - PROXY_FD_CTL + 1 };

/* Moves the descriptors kept to 3, 4, 5, 6 in the order given (log may
 * be -1: then 4 is closed), open across exec, and closes every other one
 * above 2. */
static bool keep_only(const int src[NKEEP])
{
	int tmp[NKEEP];
	/* first above every target, so no dup2 lands on a source */
	for (int i = 0; i < NKEEP; i++) {
		tmp[i] = src[i] < 0 ? -1 : fcntl(src[i], F_DUPFD_CLOEXEC, 16);
		if (src[i] >= 0 && tmp[i] < 0)
			return false;
	}
	for (int i = 0; i < NKEEP; i++) {
		if (tmp[i] >= 0 && dup2(tmp[i], PROXY_FD_CTL + i) < 0)
			return false;
		if (tmp[i] < 0)
			close(PROXY_FD_CTL + i);
	}
#if defined(__linux__) && defined(SYS_close_range)
	if (syscall(SYS_close_range, (unsigned)PROXY_FD_CONFIG + 1, ~0U, 0) == 0)
		return true;
#endif
	long max = sysconf(_SC_OPEN_MAX);
	for (long fd = PROXY_FD_CONFIG + 1; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
		close((int)fd);
	return true;
}

/* In the child: only async-signal-safe calls until the exec. */
static void child(const char *prog, const int keep[NKEEP], pid_t parent)
{
	child_tie_to_parent(parent);
	if (!keep_only(keep))
		_exit(1);
	/* kjail's ignored Ctrl-C and Ctrl-\ and its blocked signals are kept
	 * across the exec (run/spawn.c says why) */
	char *const argv[] = { (char *)PROXY_PROGRAM, (char *)PROXY_PROGRAM_ARG, NULL };
	char *const envp[] = { NULL };
	execve(prog, argv, envp);
	static const char msg[] = "kjail: proxy: cannot execute kjail-proxy\n";
	(void)!write(2, msg, sizeof msg - 1);
	_exit(127);
}

pid_t proxy_spawn(const char *prog, const struct proxy_config *c, int ctl_fd, int *stop_wfd)
{
	int p[2], cfg[2];
	if (pipe(p) < 0) {
		fprintf(stderr, "kjail: proxy: pipe: %s\n", strerror(errno));
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, cfg) < 0) {
		fprintf(stderr, "kjail: proxy: socketpair: %s\n", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(p[i], F_SETFD, FD_CLOEXEC);
		fcntl(cfg[i], F_SETFD, FD_CLOEXEC);
	}
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		int keep[NKEEP] = { ctl_fd, c->log_fd, p[0], cfg[1] };
		child(prog, keep, parent);
	}
	close(p[0]);
	close(cfg[1]);
	if (pid < 0) {
		fprintf(stderr, "kjail: proxy: fork: %s\n", strerror(errno));
		close(p[1]);
		close(cfg[0]);
		return -1;
	}
	/* a proxy that is gone before it has read this says why itself */
	int sent = proxy_handoff_send(cfg[0], c, parent);
	close(cfg[0]);
	if (sent < 0) {
		fprintf(stderr, "kjail: proxy: handing over its configuration: %s\n",
			strerror(errno));
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		close(p[1]);
		return -1;
	}
	*stop_wfd = p[1];
	return pid;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Blocks until pid has ended or the deadline has passed: poll on a pidfd
 * where there is one (Linux 5.3); else waitpid(WNOHANG) between waits
 * that double from 1 ms to 64 ms (macOS), so an exit is seen at most as
 * late again as it took, and never more than 64 ms late. True with *st
 * once pid has been reaped. */
static bool wait_until(pid_t pid, long long deadline, int *st)
{
#if defined(__linux__) && defined(SYS_pidfd_open)
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pfd >= 0) {
		for (;;) {
			long long left = deadline - now_ms();
			struct pollfd pf = { pfd, POLLIN, 0 };
			int r = left > 0 ? poll(&pf, 1, (int)left) : 0;
			if (r < 0 && errno == EINTR)
				continue;
			break;
		}
		close(pfd);
		pid_t r;
		while ((r = waitpid(pid, st, WNOHANG)) < 0 && errno == EINTR)
			;
		return r == pid;
	}
#endif
	for (long step = 1;; step = step < 64 ? step * 2 : 64) {
		pid_t r = waitpid(pid, st, WNOHANG);
		if (r == pid)
			return true;
		if (r < 0 && errno != EINTR)
			return false;
		long long left = deadline - now_ms();
		if (left <= 0)
			return false;
		long ms = step < left ? step : (long)left;
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
	}
}

int proxy_stop(pid_t pid, int stop_wfd)
{
	int st = 0;
	long long deadline = now_ms() + PROXY_STOP_DEADLINE_MS;
	close(stop_wfd);
	/* it stops at once and waits a few seconds for its connections;
	 * past the deadline, it is killed */
	if (wait_until(pid, deadline, &st))
		return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return -1;
}
