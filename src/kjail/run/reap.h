/* SPDX-License-Identifier: MIT */
/* Waiting for the jail: kjail is the subreaper of everything bwrap starts,
 * and returns only once none of it is left. */
#ifndef KJ_REAP_H
#define KJ_REAP_H

#include <signal.h>
#include <sys/types.h>

/* kjail's signals while the jail runs, set before bwrap is started:
 * SIGCHLD, SIGTERM, SIGHUP wait in the returned signalfd (the caller's mask
 * in *was, for the child to restore), SIGPIPE and SIGTTOU blocked (kjail
 * writes its lines after the run to a terminal the jail may have taken the
 * foreground of, tostop set), SIGINT and SIGQUIT
 * ignored (they reach the whole foreground group: the command decides),
 * and kjail made the subreaper of the jail. Dies when it cannot. */
struct reap_signals {
	int sfd;
	sigset_t was;
	struct sigaction int_was, quit_was; /* the caller's */
};
void reap_prepare(struct reap_signals *rs);

/* Waits for bwrap, passing SIGTERM and SIGHUP on to it; its wait status.
 * Closes the signalfd. */
int reap_bwrap(pid_t bwrap, struct reap_signals *rs);

/* After bwrap: every process of the jail left (the jail's init, orphans
 * without a PID namespace) is killed and reaped, so none acts after kjail
 * returns, and their CPU time is counted as kjail's children's. */
void reap_jail(void);

/* The command's status from the wait status: its exit code, 128 + the
 * signal that ended it (as a shell says), else KJ_EXIT_FAIL. */
int reap_status(int st);

/* Once the jail is gone and what it planted is moved aside (aftercare.h):
 * the caller's SIGINT and SIGQUIT dispositions come back, and SIGTERM and
 * SIGHUP are unblocked unless the caller blocked them, so a Ctrl-C during
 * kjail's reports ends kjail (a SIGTERM that came during the move-aside,
 * held until now, ends it here; a Ctrl-C then was ignored). SIGPIPE and
 * SIGTTOU stay blocked. */
void reap_release(const struct reap_signals *rs);

#endif
