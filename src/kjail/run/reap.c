/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "run/reap.h"
#include "entry/abi.h"
#include "util.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

void reap_prepare(struct reap_signals *rs)
{
	sigset_t block;
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGPIPE);
	sigaddset(&block, SIGTTOU);
	if (sigprocmask(SIG_BLOCK, &block, &rs->was) < 0)
		die_errno("sigprocmask");
	/* SIGPIPE stays blocked, out of the signalfd: kjail writes to no pipe
	 * bwrap reads, and its stderr may be a closed one. So does SIGTTOU:
	 * the jail shares kjail's terminal and session, and can take the
	 * terminal's foreground for itself with tostop set; kjail's lines
	 * after the run would then stop kjail (or fail, EIO) instead of being
	 * written, and with it the renames after the first line */
	sigdelset(&block, SIGPIPE);
	sigdelset(&block, SIGTTOU);
	rs->sfd = signalfd(-1, &block, SFD_NONBLOCK | SFD_CLOEXEC);
	if (rs->sfd < 0)
		die_errno("signalfd");
	struct sigaction ign = { .sa_handler = SIG_IGN };
	sigemptyset(&ign.sa_mask);
	if (sigaction(SIGINT, &ign, &rs->int_was) < 0 || sigaction(SIGQUIT, &ign, &rs->quit_was) < 0)
		die_errno("sigaction");
	/* orphans of the jail come to kjail: see reap_jail */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		die_errno("cannot become the jail's subreaper");
}

int reap_bwrap(pid_t bwrap, struct reap_signals *rs)
{
	for (;;) {
		int st;
		pid_t r = waitpid(bwrap, &st, WNOHANG);
		if (r == bwrap) {
			close(rs->sfd);
			rs->sfd = -1;
			return st;
		}
		if (r < 0 && errno != EINTR)
			die_errno("waitpid");
		struct pollfd pf = { .fd = rs->sfd, .events = POLLIN };
		if (poll(&pf, 1, -1) < 0 && errno != EINTR)
			die_errno("poll");
		struct signalfd_siginfo si;
		while (read(rs->sfd, &si, sizeof si) == (ssize_t)sizeof si)
			if (si.ssi_signo == SIGTERM || si.ssi_signo == SIGHUP)
				kill(bwrap, (int)si.ssi_signo);
	}
}

/* bwrap's monitor leaves as soon as the command exits. The jail's init
 * (PID 1 of its namespace, SIGKILLed by --die-with-parent as the monitor
 * exits) may still be waiting for processes the command left behind; the
 * kernel kills those once that init is gone, and the init is reaped only
 * after them. As subreaper, kjail has the init as its child now: it waits
 * for it (the command's CPU time, which the init collected, comes with
 * it: `time kjail -- CMD` shows CMD's). Without a PID namespace
 * (--nested-userns) the command's orphans are kjail's children: every
 * child is killed and reaped, again, until none is left. */
void reap_jail(void)
{
	for (;;) {
		pid_t r;
		while ((r = waitpid(-1, NULL, WNOHANG)) > 0)
			;
		if (r < 0 && errno == ECHILD)
			return;
		int kids[64];
		int n = proc_children_read("/proc/thread-self/children", kids, 64);
		for (int i = 0; i < n; i++)
			kill(kids[i], SIGKILL);
		/* one that cannot be listed is waited for all the same */
		while (waitpid(-1, NULL, 0) < 0 && errno == EINTR)
			;
	}
}

void reap_release(const struct reap_signals *rs)
{
	sigset_t un;
	sigemptyset(&un);
	if (!sigismember(&rs->was, SIGTERM))
		sigaddset(&un, SIGTERM);
	if (!sigismember(&rs->was, SIGHUP))
		sigaddset(&un, SIGHUP);
	sigaction(SIGINT, &rs->int_was, NULL);
	sigaction(SIGQUIT, &rs->quit_was, NULL);
	sigprocmask(SIG_UNBLOCK, &un, NULL);
}

int reap_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return KJ_EXIT_FAIL;
}
