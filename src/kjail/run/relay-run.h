/* SPDX-License-Identifier: MIT */
/* The ssh-agent relay's run (--allow-socket ssh-agent): its listener
 * made before the jail's descriptors, the relay started with the proxy,
 * ended after the jail, its socket and directory removed. */
#ifndef KJ_RUN_RELAY_RUN_H
#define KJ_RUN_RELAY_RUN_H

#include "planner/plan.h"

#include <sys/types.h>

struct relay_run {
	int listener;      /* -1: no relay in this run */
	char *dir, *path;  /* the listener's directory and socket on the host */
	const char *agent; /* the agent's socket (the plan's) */
	pid_t pid;
	int stop;
};

/* Makes the listener for the agent at agent (dies with one line if it
 * cannot, or if the jail could write where it lies). Once a run. */
void relay_listen(struct relay_run *r, const struct plan *pl, const char *agent);

/* Starts the relay if there is a listener; dies with one line, nothing
 * run, when it does not say it is ready. */
void relay_start(struct relay_run *r);

/* Ends it, if started. */
void relay_stop(struct relay_run *r);

/* Ends it, closes the listener, removes its socket and directory. */
void relay_cleanup(struct relay_run *r);

#endif
