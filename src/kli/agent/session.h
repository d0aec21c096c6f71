/* SPDX-License-Identifier: MIT */
/* The interactive session: a line-oriented loop over an input stream. A
 * line is a prompt for the agent, or a command: /authority, /profile
 * [NAME], /reset, /help, /quit. Errors are reported and the session goes
 * on; end of input ends it. Ctrl-C stops the turn under way (cancel.h). */
#ifndef KLI_SESSION_H
#define KLI_SESSION_H

#include <stdbool.h>
#include <stdio.h>

#include "agent/agent.h"
#include "agent/store.h"

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
	struct store *store;      /* saved after each prompt; may be NULL */
};

/* Continue session ID (NULL: the newest for the workspace) in A, whose
 * history holds only its system message: the saved messages follow it,
 * and the store saves to that session from now on. Said on stderr. */
bool session_resume(struct store *st, struct agent *a, const char *id, char *err,
		  size_t errlen);

/* Run until /quit or end of input (exit status 0), or a second Ctrl-C
 * in a row at the prompt (130; cancel.h: the first, or one that
 * cancelled a turn, only says so). */
int session_run(struct session *s, FILE *in, FILE *out);

#endif
