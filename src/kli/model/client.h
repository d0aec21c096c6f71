/* SPDX-License-Identifier: MIT */
/* The model client: one chat-completions exchange over libcurl, with
 * retries on 429 and 5xx. Runs inside a fault barrier child (see agent.c),
 * so whatever libcurl or a hostile server does to it, the agent survives. */
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
	long timeout;     /* seconds, for one HTTP exchange */
	long retries;     /* further tries after a 429 or 5xx */
};

#define MODEL_DEFAULT_TIMEOUT 300L
#define MODEL_DEFAULT_RETRIES 2L

/* An upper bound on how long model_exchange can take: the fault barrier
 * stops the child after this. */
long model_deadline(const struct model_conf *c);

/* POST BODY and parse the reply. On false, err holds one line. */
bool model_exchange(const struct model_conf *c, const char *body, struct chat_reply *out,
		    char *err, size_t errlen);

/* Once, before any fork: libcurl's global state is not fork-safe to set up. */
void model_global_init(void);

#endif
