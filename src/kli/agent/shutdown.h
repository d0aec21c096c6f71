/* SPDX-License-Identifier: MIT */
/* kli's end on SIGINT, SIGTERM or SIGHUP: every process it started (tool
 * commands, background jobs, their orphans) is killed first. */
#ifndef KLI_SHUTDOWN_H
#define KLI_SHUTDOWN_H

/* Install the handlers (before the first tool runs). */
void shutdown_install(void);

/* SIGKILL every descendant, reaping as they go (kli must be their
 * subreaper). Async-signal-safe. */
void shutdown_kill_descendants(void);

#endif
