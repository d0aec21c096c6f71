/* SPDX-License-Identifier: MIT */
/* Ctrl-C as a request to stop the turn: see agent/cancel.h. The handler
 * only sets a flag and writes a byte (async-signal-safe); the state is the
 * process's, as a signal's must be. */
#include "config.h"
#include "agent/cancel.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t requested;
static int pipe_fds[2] = { -1, -1 };

static void on_sigint(int sig)
{
	(void)sig;
	int saved = errno;
	requested = 1;
	if (pipe_fds[1] >= 0) {
		ssize_t w = write(pipe_fds[1], "c", 1); /* full: one is there already */
		(void)w;
	}
	errno = saved;
}

bool cancel_install(void)
{
	if (pipe_fds[0] < 0 && pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) < 0)
		return false;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: the prompt's read returns */
	return sigaction(SIGINT, &sa, NULL) == 0;
}

int cancel_fd(void)
{
	return pipe_fds[0];
}

bool cancel_requested(void)
{
	return requested != 0;
}

void cancel_clear(void)
{
	char buf[64];
	if (pipe_fds[0] >= 0)
		while (read(pipe_fds[0], buf, sizeof buf) > 0)
			;
	requested = 0;
}
