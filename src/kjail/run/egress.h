/* SPDX-License-Identifier: MIT */
/* kjail's side of the proxy's run (Linux), under an allowlist and under
 * -n (plan.h's proxied): the proxy's control socket and log, the proxy
 * started before bwrap and ended after the jail, and the line about what
 * it refused. spawn.c calls these; the proxy itself is proxy.h's. */
#ifndef KJ_EGRESS_RUN_H
#define KJ_EGRESS_RUN_H

#include <stdbool.h>
#include <sys/types.h>

#include "run/notice.h"
#include "planner/plan.h"

struct egress_run {
	int ctl[2];     /* SOCK_SEQPACKET: [0] the proxy's, [1] the jail entry's */
	int log_w;      /* O_APPEND: the proxy writes the log here */
	int log_r;      /* read-only: bwrap binds it at KJ_NET_LOG; the summary */
	char *dir;      /* the log's 0700 directory on the host, removed after */
	char *path;
	pid_t pid;      /* the proxy, or -1 */
	int stop;       /* its stop pipe */
	bool ran;       /* it was started and has been stopped */
	bool stopped_ill; /* and did not end well */
	bool cut;       /* -n: no rule, it only refuses */
	const char *origin; /* what decided the network (the plan's) */
	/* --net-log (planner/netlog.h): the kept log's directory (O_PATH,
	 * opened before the jail starts), its name there, its whole path,
	 * and why it could not be kept (NULL: it was, or none was asked) */
	int keep_dir;
	char *keep_name;
	const char *keep_path;
	char *keep_err;
};

/* With the proxy (pl->proxied): the control socket and the log,
 * everything close-on-exec; dry_run (--print): the same descriptor
 * numbers, nothing made on disk. Otherwise every descriptor is -1. Dies
 * (125) on failure. */
void egress_open(struct egress_run *e, const struct plan *pl, bool dry_run);

/* Starts the proxy (before bwrap: a proxy that cannot start fails the
 * run, 125, before anything runs) and drops kjail's end of the control
 * socket. Nothing without the proxy. */
void egress_start(struct egress_run *e, const struct plan *pl);

/* When bwrap has ended, before what is left of the jail is reaped (which
 * would kill the proxy too): ends the proxy, which writes its summary as
 * the log's last line, copies the log to --net-log's file if one was
 * asked (a new file beside it, O_EXCL and O_NOFOLLOW, renamed over the
 * name: a link there is replaced, never followed, and a reader never
 * sees half a log), and removes the log from the disk (log_r still reads
 * it), so nothing else is left there however kjail ends after. */
void egress_stop(struct egress_run *e);

/* Once the protected names are moved aside: says what the proxy refused,
 * in one line naming the --allow-host values that would allow it, read
 * from that last line alone (proxy/summary.h: the cost does not grow with
 * the log). */
void egress_report(struct egress_run *e, struct notice *note);

/* Closes what is still open and removes the log (also for --print). */
void egress_close(struct egress_run *e);

/* --doctor: whether the proxy can start here, as one line into msg. */
bool egress_doctor(char *msg, size_t len);

#endif
