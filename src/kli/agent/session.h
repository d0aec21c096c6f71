/* SPDX-License-Identifier: MIT */
/* The interactive session: a line-oriented loop over an input stream. A
 * line is a prompt for the agent, or a command: /authority, /profile
 * [NAME], /reset, /help, /quit. Errors are reported and the session goes
 * on; end of input ends it. */
#ifndef KLI_SESSION_H
#define KLI_SESSION_H

#include <stdbool.h>
#include <stdio.h>

#include "agent/agent.h"

/* Switch to profile NAME: the new run grant (with the same flags), or NULL
 * and a message. main.c provides it; the session owns what it returns. */
typedef struct grant *(*session_load_fn)(void *ctx, const char *name, char *err,
					 size_t errlen);

struct session {
	struct agent *agent;
	struct grant *grant;      /* owned: the current run grant */
	char *profile;            /* owned */
	long max_turns;
	bool prompt;              /* print "kli> " on stderr (a terminal) */
	session_load_fn load;
	void *load_ctx;
};

/* Run until /quit or end of input. Returns the exit status: 0. */
int session_run(struct session *s, FILE *in, FILE *out);

#endif
