/* SPDX-License-Identifier: MIT */
/* A streamed chat completion put back together: each SSE event's data
 * (one chunk, {"choices":[{"delta":{...},"finish_reason":..}]}) goes in,
 * the text it adds comes out for printing, and at the end the reply is the
 * one chat_reply_parse would give for the same answer sent whole: it is
 * checked by chat_reply_parse itself. Pure.
 *
 * Tool calls are assembled from their deltas by "index" (a delta without
 * one continues the last call, or starts a new one when its id differs);
 * the id and name come once (a repeated name is not doubled), arguments
 * are joined. The legacy "function_call" delta is one call. "[DONE]" ends
 * the stream; an {"error":..} chunk is the server's error, in one line. */
#ifndef KLI_MODEL_STREAM_H
#define KLI_MODEL_STREAM_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/chat.h"
#include "strbuf.h"

/* More tool calls than this in one answer is a server gone wrong. */
#define CHAT_STREAM_MAX_CALLS 128

struct chat_stream {
	struct strbuf content; /* empty until a chunk carries text */
	json_t *calls;         /* [{"id":..,"name":..,"arguments":..}], by index */
	long last;             /* the index of the last call a delta touched */
	char *finish_reason;
	json_t *usage;         /* the last "usage" object a chunk carried */
	size_t size;           /* text and arguments so far, against CHAT_MAX_REPLY */
	bool done;             /* "[DONE]" */
	bool legacy;           /* calls came as function_call */
	size_t at;             /* where the event being read starts in the stream
				* (the caller's to set), for messages */
};

void chat_stream_init(struct chat_stream *s);
void chat_stream_clear(struct chat_stream *s);

/* One event's data. *added (NULL when none) is the text this chunk adds,
 * for the caller to free. False with ERR one line. */
bool chat_stream_event(struct chat_stream *s, const char *data, size_t len, char **added,
		       char *err, size_t errlen);

/* The whole reply, as chat_reply_parse checks it. */
bool chat_stream_finish(struct chat_stream *s, struct chat_reply *out, char *err,
			size_t errlen);

#endif
