/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "model/stream.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void chat_stream_init(struct chat_stream *s)
{
	*s = (struct chat_stream){ .content = STRBUF_INIT, .calls = json_array(), .last = -1 };
}

void chat_stream_clear(struct chat_stream *s)
{
	sb_release(&s->content);
	free(s->finish_reason);
	json_decref(s->usage);
	json_decref(s->calls);
	*s = (struct chat_stream){ .content = STRBUF_INIT };
}

static bool fail(char *err, size_t errlen, const char *what)
{
	fmt_into(err, errlen, "the model's stream %s", what);
	return false;
}

static bool grow(struct chat_stream *s, size_t n, char *err, size_t errlen)
{
	if (s->size + n > CHAT_MAX_REPLY)
		return fail(err, errlen, "is larger than 16 MiB");
	s->size += n;
	return true;
}

static bool add_text(struct chat_stream *s, const char *t, char **added, char *err,
		     size_t errlen)
{
	if (!grow(s, strlen(t), err, errlen))
		return false;
	sb_adds(&s->content, t);
	*added = xstrdup(t);
	return true;
}

/* Append PIECE to the string member KEY of O. */
static void join(json_t *o, const char *key, const char *piece)
{
	const char *old = json_string_value(json_object_get(o, key));
	_cleanup_free_ char *v = xasprintf("%s%s", old ? old : "", piece);
	json_object_set_new(o, key, json_string(v));
}

static json_t *call_at(struct chat_stream *s, json_t *tc, json_t *id, char *err, size_t errlen)
{
	json_t *ix = json_object_get(tc, "index");
	long i;
	if (json_is_integer(ix)) {
		if (json_integer_value(ix) < 0 || json_integer_value(ix) >= CHAT_STREAM_MAX_CALLS) {
			fail(err, errlen, "has a tool call index out of range (0 to 127)");
			return NULL;
		}
		i = (long)json_integer_value(ix);
	} else if (ix && !json_is_null(ix)) {
		fail(err, errlen, "has a tool call index that is not a number");
		return NULL;
	} else {
		json_t *cur = s->last >= 0 ? json_array_get(s->calls, (size_t)s->last) : NULL;
		json_t *cid = cur ? json_object_get(cur, "id") : NULL;
		bool other = id && cid && !json_equal(id, cid);
		i = s->last < 0 || other ? (long)json_array_size(s->calls) : s->last;
		if (i >= CHAT_STREAM_MAX_CALLS) {
			fail(err, errlen, "has more than 128 tool calls");
			return NULL;
		}
	}
	while ((long)json_array_size(s->calls) <= i)
		json_array_append_new(s->calls, json_object());
	s->last = i;
	return json_array_get(s->calls, (size_t)i);
}

static bool piece(json_t *v, char **out)
{
	if (json_is_string(v)) {
		*out = chat_text(v);
		return true;
	}
	if (json_is_object(v)) { /* arguments as an object (some local servers) */
		char *d = json_dumps(v, JSON_COMPACT);
		*out = xstrdup(d ? d : "{}");
		free(d);
		return true;
	}
	*out = NULL;
	return !v || json_is_null(v);
}

static bool call_delta(struct chat_stream *s, json_t *tc, char *err, size_t errlen)
{
	if (!json_is_object(tc))
		return fail(err, errlen, "has a tool call delta that is not an object");
	json_t *id = json_object_get(tc, "id");
	if (id && !json_is_null(id) && !json_is_string(id) && !json_is_integer(id))
		return fail(err, errlen, "has a tool call whose id is neither text nor a number");
	if (json_is_string(id) && json_string_length(id) == 0)
		id = NULL;
	json_t *call = call_at(s, tc, json_is_null(id) ? NULL : id, err, errlen);
	if (!call)
		return false;
	if (id && !json_is_null(id) && !json_object_get(call, "id"))
		json_object_set(call, "id", id);
	json_t *fn = json_object_get(tc, "function");
	if (fn && !json_is_object(fn))
		return fail(err, errlen, "has a tool call without a \"function\" object");
	if (!fn)
		return true;
	_cleanup_free_ char *name = NULL, *args = NULL;
	if (!piece(json_object_get(fn, "name"), &name) ||
	    !piece(json_object_get(fn, "arguments"), &args))
		return fail(err, errlen, "has a tool call delta that is neither text nor an object");
	size_t n = (name ? strlen(name) : 0) + (args ? strlen(args) : 0);
	if (!grow(s, n, err, errlen))
		return false;
	const char *old = json_string_value(json_object_get(call, "name"));
	if (name && *name && !(old && strcmp(old, name) == 0))
		join(call, "name", name);
	if (args)
		join(call, "arguments", args);
	return true;
}

static bool delta(struct chat_stream *s, json_t *d, char **added, char *err, size_t errlen)
{
	if (!d || json_is_null(d))
		return true;
	if (!json_is_object(d))
		return fail(err, errlen, "has a \"delta\" that is not an object");
	json_t *content = json_object_get(d, "content");
	if (content && !json_is_null(content) && !json_is_string(content) &&
	    !json_is_array(content))
		return fail(err, errlen, "has a \"content\" that is neither text nor a list of parts");
	_cleanup_free_ char *text = chat_content(content);
	if (text && *text && !add_text(s, text, added, err, errlen))
		return false;
	json_t *calls = json_object_get(d, "tool_calls");
	if (calls && !json_is_null(calls) && !json_is_array(calls))
		return fail(err, errlen, "has \"tool_calls\" that is not a list");
	size_t i;
	json_t *tc;
	json_array_foreach(calls, i, tc)
		if (!call_delta(s, tc, err, errlen))
			return false;
	json_t *fc = json_object_get(d, "function_call");
	if (fc && !json_is_null(fc)) {
		json_t *wrap = json_pack("{s:i, s:O}", "index", 0, "function", fc);
		bool ok = call_delta(s, wrap, err, errlen);
		json_decref(wrap);
		s->legacy = true;
		return ok;
	}
	return true;
}

static bool chunk(struct chat_stream *s, json_t *root, char **added, char *err, size_t errlen)
{
	if (!json_is_object(root))
		return fail(err, errlen, "has an event that is not a JSON object");
	if (chat_error_object(root, err, errlen))
		return false;
	json_t *choices = json_object_get(root, "choices");
	if (choices && !json_is_null(choices) && !json_is_array(choices))
		return fail(err, errlen, "has \"choices\" that is not a list");
	json_t *u = json_object_get(root, "usage");
	if (json_is_object(u)) {
		json_decref(s->usage);
		s->usage = json_incref(u);
	}
	json_t *c0 = json_array_get(choices, 0); /* none: a usage chunk */
	if (!c0)
		return true;
	if (!json_is_object(c0))
		return fail(err, errlen, "has a choice that is not an object");
	json_t *fr = json_object_get(c0, "finish_reason");
	if (json_is_string(fr)) {
		free(s->finish_reason);
		s->finish_reason = chat_text(fr);
	}
	/* A server that sends the whole message in a chunk ("message", not "delta"). */
	json_t *d = json_object_get(c0, "delta");
	return delta(s, d ? d : json_object_get(c0, "message"), added, err, errlen);
}

bool chat_stream_event(struct chat_stream *s, const char *data, size_t len, char **added,
		       char *err, size_t errlen)
{
	*added = NULL;
	if (s->done)
		return true; /* what follows [DONE] is not part of the answer */
	size_t b = 0;
	while (b < len && (data[b] == ' ' || data[b] == '\t' || data[b] == '\n' || data[b] == '\r'))
		b++;
	if (len - b >= 6 && memcmp(data + b, "[DONE]", 6) == 0) {
		s->done = true;
		return true;
	}
	if (b == len)
		return true; /* an empty keep-alive */
	json_error_t jerr;
	json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
	if (!root) {
		char what[400];
		fmt_into(what, sizeof what, "has an event that is not valid JSON at byte %zu of "
					    "the stream (%s, at byte %d of the event)",
			 s->at, jerr.text, jerr.position);
		return fail(err, errlen, what);
	}
	bool ok = chunk(s, root, added, err, errlen);
	json_decref(root);
	if (!ok) {
		free(*added);
		*added = NULL;
	}
	return ok;
}

bool chat_stream_finish(struct chat_stream *s, struct chat_reply *out, char *err,
			size_t errlen)
{
	*out = (struct chat_reply){ 0 };
	if (!s->done && !s->finish_reason)
		return fail(err, errlen, "ended before the answer did (no finish_reason, no [DONE])");
	json_t *msg = json_pack("{s:s}", "role", "assistant");
	json_object_set_new(msg, "content",
			    s->content.len ? json_string(s->content.s) : json_null());
	json_t *calls = json_array();
	size_t i;
	json_t *c;
	json_array_foreach(s->calls, i, c) {
		json_t *fn = json_object();
		json_t *name = json_object_get(c, "name");
		json_t *args = json_object_get(c, "arguments");
		json_object_set_new(fn, "name", name ? json_incref(name) : json_null());
		json_object_set_new(fn, "arguments", args ? json_incref(args) : json_string(""));
		json_t *call = json_pack("{s:s, s:o}", "type", "function", "function", fn);
		if (json_object_get(c, "id"))
			json_object_set(call, "id", json_object_get(c, "id"));
		json_array_append_new(calls, call);
	}
	if (json_array_size(calls))
		json_object_set_new(msg, "tool_calls", calls);
	else
		json_decref(calls);
	json_t *choice = json_pack("{s:o}", "message", msg);
	if (s->finish_reason)
		json_object_set_new(choice, "finish_reason", json_string(s->finish_reason));
	json_t *root = json_pack("{s:[o]}", "choices", choice);
	if (s->usage)
		json_object_set(root, "usage", s->usage);
	char *body = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	if (!body)
		return fail(err, errlen, "cannot be put back together");
	bool ok = chat_reply_parse(body, strlen(body), out, err, errlen);
	free(body);
	return ok;
}
