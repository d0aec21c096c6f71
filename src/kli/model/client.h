/* SPDX-License-Identifier: MIT */
/* The model client: one chat-completions exchange over libcurl, with
 * retries on 429 and 5xx. Runs inside a fault barrier child (see agent.c),
 * so whatever libcurl or a hostile server does to it, the agent survives.
 *
 * Three limits, each named in the line that reports it: connecting
 * (connect_timeout), silence once connected (idle_timeout: no byte sent
 * or received for that long, the wait for the first byte included), and
 * the whole exchange (timeout). A stream that keeps sending is never cut
 * by the idle limit, however long the answer. */
#ifndef KLI_MODEL_CLIENT_H
#define KLI_MODEL_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/chat.h"

struct model_conf {
	char *base_url;   /* as configured, for messages */
	char *url;        /* the chat/completions URL */
	char *unix_path;  /* NULL: TCP */
	char *model;
	char *key;        /* NULL: no Authorization header */
	long timeout;     /* seconds, for one whole HTTP exchange */
	long idle_timeout;    /* seconds without a byte, once connected */
	long connect_timeout; /* seconds to connect (TLS included) */
	long retries;     /* further tries after a 429 or 5xx */
	bool stream;      /* ask for SSE ([model] stream) */
};

/* Where a streamed answer's text goes as it arrives (TEXT NULL: nowhere),
 * and the lines said along the way (NOTE NULL: stderr as they are). */
struct model_live {
	void (*text)(void *ud, const char *s, size_t n);
	/* One line for the person ("retrying (2/3): ..."). */
	void (*note)(void *ud, const char *line);
	/* A retry's answer is not how the text shown so far goes: end what
	 * was shown; the new answer follows from its start. May be NULL. */
	void (*restart)(void *ud);
	void *ud;
};

/* Why an exchange failed, for the caller to act on. */
enum model_failure {
	MODEL_FAIL_OTHER,
	MODEL_FAIL_TOO_LONG,  /* the server said the request is too long (chat_too_long) */
};

#define MODEL_DEFAULT_TIMEOUT 3600L
#define MODEL_DEFAULT_IDLE_TIMEOUT 300L
#define MODEL_DEFAULT_CONNECT_TIMEOUT 30L
#define MODEL_DEFAULT_RETRIES 2L

/* An upper bound on how long model_exchange can take: the fault barrier
 * stops the child after this. */
long model_deadline(const struct model_conf *c);

/* POST BODY and parse the reply: streamed (SSE, text to LIVE as it
 * arrives) when the server streams, whole otherwise. Every body, and every
 * event of a stream, is key-masked (key_mask) before anything reads it.
 *
 * Up to c->retries further tries, each said in a note ("retrying (2/3):
 * WHY"), after 0.5 s doubling or what Retry-After asks: for HTTP 429 and
 * 5xx, and for an answer that broke off (a connection dropped or reset, a
 * body cut short, a stream that ends early, carries an error frame or a
 * malformed event, or goes silent once begun). A retry's text that
 * repeats what was shown is not shown again (model/replay.h).
 *
 * On false, err holds one line (ending "(after N tries)" when there were
 * several) and *why says what kind of failure. */
bool model_exchange(const struct model_conf *c, const char *body,
		    const struct model_live *live, struct chat_reply *out,
		    enum model_failure *why, char *err, size_t errlen);

/* Once, before any fork: libcurl's global state is not fork-safe to set up. */
void model_global_init(void);

#endif
