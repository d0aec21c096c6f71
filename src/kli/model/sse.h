/* SPDX-License-Identifier: MIT */
/* Server-sent events (the text/event-stream format a streamed chat
 * completion comes in), parsed incrementally: bytes go in in pieces of any
 * size, split anywhere, and each complete event comes out once. Pure: no
 * I/O, so every split and every malformed stream is a unit or fuzz test.
 *
 * Lines end in LF, CR LF or CR. "data:" lines are joined with LF; "event:"
 * names the event; "id:", "retry:", comments (":") and unknown fields are
 * ignored; a blank line ends an event. A BOM at the very start is skipped.
 * A line or an event larger than SSE_MAX is refused (a server gone wrong
 * must not exhaust memory). */
#ifndef KLI_MODEL_SSE_H
#define KLI_MODEL_SSE_H

#include <stdbool.h>
#include <stddef.h>

#include "strbuf.h"

#define SSE_MAX (16u * 1024 * 1024)

/* One event: its name ("message" when none was given) and its data (LEN
 * bytes, NUL-terminated). Return false to stop the stream; ERR then holds
 * why. */
typedef bool (*sse_event_fn)(void *ud, const char *event, const char *data, size_t len,
			     char *err, size_t errlen);

struct sse {
	struct strbuf line; /* the line so far */
	struct strbuf data; /* the event's data lines, joined */
	bool has_data;
	char event[64];
	bool after_cr;   /* the last byte was CR: an LF right after it is the same end */
	size_t offset;   /* bytes seen, for the BOM */
	size_t line_at;  /* the stream offset of the current line */
	size_t event_at; /* the offset of the first line of the event being
			  * built or dispatched, for messages */
	bool failed;
};

/* Either buffer holds at most SSE_MAX - 1 bytes, as a C string in SSE_MAX. */
#define SSE_INIT { .line = STRBUF_INIT_MAX(SSE_MAX - 1), .data = STRBUF_INIT_MAX(SSE_MAX - 1) }

/* Feed N bytes. False (and every later call false) when FN stopped the
 * stream or a limit was hit; ERR says which. */
bool sse_feed(struct sse *p, const char *buf, size_t n, sse_event_fn fn, void *ud, char *err,
	      size_t errlen);

/* The stream ended: a last line without its end, and a last event without
 * its blank line, still count (servers that close right after the data). */
bool sse_finish(struct sse *p, sse_event_fn fn, void *ud, char *err, size_t errlen);

void sse_clear(struct sse *p);

#endif
