/* SPDX-License-Identifier: MIT */
/* The chat-completions protocol (OpenAI-compatible), as data: the request
 * body kli sends, the reply it accepts, and the retry policy. Pure: no I/O,
 * so every malformed reply a server can produce is a unit test.
 *
 * A reply is accepted only in the shape kli can act on; anything else is
 * one line saying what is wrong, never a crash. */
#ifndef KLI_MODEL_CHAT_H
#define KLI_MODEL_CHAT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Replies larger than this are refused: a local server gone wrong must not
 * exhaust memory. */
#define CHAT_MAX_REPLY (16u * 1024 * 1024)

struct chat_call {
	char *id;         /* the server's id, or "call_N" when it sent none */
	char *name;
	char *arguments;  /* JSON text, as the tool will parse it */
};

struct chat_reply {
	char *content;    /* NULL when the message carries none */
	struct chat_call *calls;
	size_t ncalls;
	char *finish_reason;  /* may be NULL */
	/* the server's "usage", when it sent one */
	bool usage;
	long long prompt_tokens, completion_tokens;
};

/* {"model":MODEL,"messages":MESSAGES,"tools":TOOLS,"stream":STREAM} (tools
 * left out when NULL or empty). Borrows the arguments; the caller decrefs
 * the result. */
json_t *chat_request(const char *model, json_t *messages, json_t *tools, bool stream);

/* Parse a 2xx body. On false, *out is empty and err holds "the model's
 * reply ...: what is wrong".
 *
 * The shapes real servers send are accepted: a UTF-8 BOM before the JSON;
 * "content" as a list of parts (text parts joined, the others named in a
 * last line "[kli: the reply also held parts kli does not show: TYPES]");
 * a tool call id that is a number; the legacy "function_call" message; an
 * escaped NUL in text (shown as the two characters \0: chat_text). A reply
 * with finish_reason "content_filter" may carry no message at all. A
 * stream (SSE) or a gzip body, which kli did not ask for, is refused with
 * a line saying so. */
bool chat_reply_parse(const char *body, size_t len, struct chat_reply *out, char *err,
		      size_t errlen);
void chat_reply_clear(struct chat_reply *r);

/* A JSON string as C text: every NUL written as the two characters \0,
 * so nothing after it is silently lost. */
char *chat_text(json_t *str);

/* "content" as text: a string, or a list of parts as chat_reply_parse
 * says; NULL for anything else (null, absent). */
char *chat_content(json_t *content);

/* What a 2xx body is, from its first bytes (after a BOM). */
enum chat_body { CHAT_BODY_JSON, CHAT_BODY_SSE, CHAT_BODY_GZIP };
enum chat_body chat_body_kind(const char *body, size_t len);

/* The assistant message to append to the conversation. New reference. */
json_t *chat_reply_message(const struct chat_reply *r);

/* A body chat_reply_parse reads back as R: how a reply crosses the fault
 * barrier's pipe. */
char *chat_reply_dump(const struct chat_reply *r);

/* The server's own explanation in an error body ({"error":{"message":..}},
 * {"error":"..."}, {"message":".."}, {"detail":".."}, or any of them as
 * the first of a list), printable and at most about 200 bytes; NULL when
 * there is none. */
char *chat_error_detail(const char *body, size_t len);

/* A reply or stream event (a JSON object) that carries a non-null
 * "error": true, with "the model server reported an error: DETAIL" in err. */
bool chat_error_object(json_t *root, char *err, size_t errlen);

/* base-url to what curl needs: "http(s)://host/v1" gives URL
 * ".../v1/chat/completions" and no socket; "unix:/path" gives URL
 * "http://localhost/v1/chat/completions" and *unix_path "/path". */
bool chat_endpoint(const char *base_url, char **url, char **unix_path, char *err,
		   size_t errlen);

/* Whether an error answer says the request is longer than the model's
 * context: HTTP 413, or 400 with "context_length_exceeded" in the body or
 * an error message saying so ("maximum context length", "too many
 * tokens", ...). */
bool chat_too_long(long status, const char *body, size_t len);

/* 429 and 5xx are worth another try; nothing else is. */
bool chat_retryable(long status);

/* Retry-After as delta-seconds; -1 when absent or not a small integer
 * (an HTTP date is not honoured: -1). */
long chat_retry_after(const char *value);

/* How long to wait before retry ATTEMPT (1, 2, ...): Retry-After when the
 * server gave one, else 500 ms doubling, at most CHAT_BACKOFF_MAX_MS. -1
 * when the server asks for longer than CHAT_RETRY_AFTER_MAX_S: give up
 * rather than stall a run for minutes. */
#define CHAT_BACKOFF_MAX_MS 8000L
#define CHAT_RETRY_AFTER_MAX_S 30L
long chat_backoff_ms(unsigned attempt, long retry_after_s);

/* Replace bytes that are not valid UTF-8 with '?', in place: JSON strings
 * must be UTF-8 and tool output is whatever a command printed. */
void utf8_scrub(char *s, size_t len);

#endif
