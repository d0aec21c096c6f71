/* SPDX-License-Identifier: MIT */
/* Ctrl-C in an interactive session stops the turn, not kli: SIGINT only
 * notes the request (a flag, and a byte on a self-pipe that the fault
 * barrier polls beside its child's pipe, see barrier.h), and the loop
 * winds the turn down: the running child's process groups are stopped
 * (SIGTERM, then SIGKILL after a short grace), every tool call of the turn
 * gets its result, and the session goes back to its prompt.
 *
 * Without cancel_install() (headless -p) nothing here is active: SIGINT
 * keeps ending kli (shutdown.h). */
#ifndef KLI_CANCEL_H
#define KLI_CANCEL_H

#include <stdbool.h>

/* What a cancelled tool call's result says, and the mark on a cancelled
 * reply. */
#define CANCEL_TEXT "cancelled by the user"

/* Take SIGINT (after shutdown_install()): without SA_RESTART, so a read
 * at the prompt returns EINTR. False when the self-pipe cannot be made. */
bool cancel_install(void);

/* The self-pipe's read end (readable once Ctrl-C was pressed), or -1. */
int cancel_fd(void);

/* Was Ctrl-C pressed since the last cancel_clear()? */
bool cancel_requested(void);

/* Forget the requests so far (and drain the self-pipe). */
void cancel_clear(void);

#endif
