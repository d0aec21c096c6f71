/* SPDX-License-Identifier: MIT */
/* A saved session as data: the conversation (without the system message,
 * which is rebuilt from the run grant on resume) and what --sessions
 * lists. Pure: no I/O (agent/store.h reads and writes the files).
 *
 * Threat model: a session file is untrusted on resume: another program
 * of this user, or a tool's command, may have written it. The reader is
 * strict: one JSON object of at most TRANSCRIPT_MAX_BYTES, exactly the
 * fields below, each message one of the three shapes kli itself writes
 * (user, assistant with optional tool calls, tool result answering an
 * earlier call), at most TRANSCRIPT_MAX_MESSAGES of them. Anything else,
 * a "system" message or a capability-like field among them, is refused
 * with one line: a session carries no authority, grants come only from
 * the config. */
#ifndef KLI_TRANSCRIPT_H
#define KLI_TRANSCRIPT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define TRANSCRIPT_MAX_BYTES (16u * 1024 * 1024)
#define TRANSCRIPT_MAX_MESSAGES 20000
#define TRANSCRIPT_MAX_CALLS 256      /* tool calls in one message */
#define TRANSCRIPT_MAX_ID 64
#define TRANSCRIPT_MAX_FIRST 200      /* bytes of the first prompt's line */

struct transcript {
	char *id;             /* transcript_id_valid */
	long long created, updated; /* seconds since the epoch */
	char *workspace;      /* absolute */
	char *first_prompt;   /* the first line of the first prompt (cut) */
	json_t *messages;     /* owned: user, assistant and tool messages */
};

/* An id names a file: letters, digits, '-' and '_', 1 to
 * TRANSCRIPT_MAX_ID of them. */
bool transcript_id_valid(const char *id);

/* The first line of PROMPT, cut to TRANSCRIPT_MAX_FIRST bytes (at a
 * character's start), control characters made '?'. */
char *transcript_first_line(const char *prompt);

/* The messages of an agent's HISTORY without its system message (new
 * reference, the members shared). */
json_t *transcript_messages(json_t *history);

/* T as JSON text (one line and a newline). */
char *transcript_dump(const struct transcript *t);

/* Read TEXT (LEN bytes) into *OUT; false with ERR "what is wrong" and
 * *OUT empty. */
bool transcript_parse(const char *text, size_t len, struct transcript *out, char *err,
		      size_t errlen);
void transcript_clear(struct transcript *t);

#endif
