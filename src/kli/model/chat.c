/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "model/chat.h"
#include "strbuf.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

json_t *chat_request(const char *model, json_t *messages, json_t *tools, bool stream)
{
	json_t *req = json_object();
	json_object_set_new(req, "model", json_string(model));
	json_object_set(req, "messages", messages);
	if (tools && json_array_size(tools) > 0) {
		json_object_set(req, "tools", tools);
		json_object_set_new(req, "tool_choice", json_string("auto"));
	}
	json_object_set_new(req, "stream", json_boolean(stream));
	return req;
}

/* ------------------------------------------------------------ replies */

void chat_reply_clear(struct chat_reply *r)
{
	free(r->content);
	for (size_t i = 0; i < r->ncalls; i++) {
		free(r->calls[i].id);
		free(r->calls[i].name);
		free(r->calls[i].arguments);
	}
	free(r->calls);
	free(r->finish_reason);
	*r = (struct chat_reply){ 0 };
}

static char *one_line(const char *s, size_t max);

char *chat_text(json_t *str)
{
	const char *v = json_string_value(str);
	size_t n = json_string_length(str);
	size_t nul = 0;
	for (size_t i = 0; i < n; i++)
		nul += v[i] == '\0';
	char *o = xmalloc(n + nul + 1);
	size_t j = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i] == '\0') {
			o[j++] = '\\';
			o[j++] = '0';
		} else {
			o[j++] = v[i];
		}
	}
	o[j] = '\0';
	return o;
}

/* A part's type, for the line naming what is not shown. */
static const char *part_type(json_t *part)
{
	json_t *t = json_object_get(part, "type");
	return json_is_string(t) && json_string_length(t) > 0 ? json_string_value(t) : "untyped";
}

char *chat_content(json_t *content)
{
	if (json_is_string(content))
		return chat_text(content);
	if (!json_is_array(content))
		return NULL;
	/* no text part at all is NULL; an empty one is "" */
	struct strbuf text = STRBUF_INIT, others = STRBUF_INIT;
	size_t ntext = 0, nothers = 0;
	size_t i;
	json_t *part;
	json_array_foreach(content, i, part) {
		json_t *t = json_is_object(part) ? json_object_get(part, "text") : NULL;
		if (json_is_string(part) || json_is_string(t)) {
			_cleanup_free_ char *p = chat_text(json_is_string(part) ? part : t);
			sb_adds(&text, p);
			ntext++;
		} else {
			_cleanup_free_ char *ty = one_line(json_is_object(part) ? part_type(part)
									  : "not an object", 40);
			sb_addf(&others, "%s%s", nothers++ ? ", " : "", ty);
		}
	}
	if (nothers)
		sb_addf(&text, "%s[kli: the reply also held parts kli does not show: %s]",
			ntext++ ? "\n" : "", others.s);
	sb_release(&others);
	if (!ntext) {
		sb_release(&text);
		return NULL;
	}
	return sb_detach(&text);
}

enum chat_body chat_body_kind(const char *body, size_t len)
{
	if (len >= 2 && (unsigned char)body[0] == 0x1f && (unsigned char)body[1] == 0x8b)
		return CHAT_BODY_GZIP;
	size_t i = 0;
	while (i < len && (body[i] == ' ' || body[i] == '\t' || body[i] == '\r' || body[i] == '\n'))
		i++;
	static const char *const sse[] = { "data:", "event:", "id:", "retry:", ":" };
	for (size_t k = 0; k < sizeof sse / sizeof *sse; k++) {
		size_t n = strlen(sse[k]);
		if (len - i >= n && memcmp(body + i, sse[k], n) == 0)
			return CHAT_BODY_SSE;
	}
	return CHAT_BODY_JSON;
}

static bool fail(char *err, size_t errlen, const char *what)
{
	fmt_into(err, errlen, "the model's reply %s", what);
	return false;
}

/* Servers differ: arguments come as JSON text (the spec) or as an object
 * (some local servers). Either way the tool gets JSON text. */
static bool call_arguments(json_t *args, char **out)
{
	if (!args || json_is_null(args)) {
		*out = xstrdup("{}");
		return true;
	}
	if (json_is_string(args)) {
		*out = chat_text(args);
		return true;
	}
	if (json_is_object(args)) {
		char *s = json_dumps(args, JSON_COMPACT);
		*out = xstrdup(s ? s : "{}");
		free(s);
		return true;
	}
	return false;
}

/* A function object ({"name":..,"arguments":..}) into OUT. */
static bool parse_function(json_t *fn, struct chat_call *out, char *err, size_t errlen)
{
	json_t *name = json_object_get(fn, "name");
	if (!json_is_string(name) || json_string_length(name) == 0)
		return fail(err, errlen, "has a tool call without a function name");
	if (!call_arguments(json_object_get(fn, "arguments"), &out->arguments))
		return fail(err, errlen, "has tool call arguments that are neither text nor an object");
	out->name = chat_text(name);
	return true;
}

static bool parse_call(json_t *tc, struct chat_call *out, char *err, size_t errlen)
{
	if (!json_is_object(tc))
		return fail(err, errlen, "has a tool call that is not an object");
	json_t *fn = json_object_get(tc, "function");
	if (!json_is_object(fn))
		return fail(err, errlen, "has a tool call without a \"function\" object");
	json_t *id = json_object_get(tc, "id");
	/* Some servers number their calls: 7 is the id "7". */
	if (id && !json_is_null(id) && !json_is_string(id) && !json_is_integer(id))
		return fail(err, errlen, "has a tool call whose id is neither text nor a number");
	if (!parse_function(fn, out, err, errlen))
		return false;
	/* None: parse_calls makes one up, once it knows the ids that were sent. */
	if (json_is_string(id) && json_string_length(id) > 0)
		out->id = chat_text(id);
	else if (json_is_integer(id))
		out->id = xasprintf("%" JSON_INTEGER_FORMAT, json_integer_value(id));
	return true;
}

/* Each result goes back under its call's id: two calls with one id could
 * not be told apart, by the model or by a reader of --json. A made-up id
 * ("call_N") steps past any the server sent. */
static bool unique_ids(struct chat_reply *out, char *err, size_t errlen)
{
	json_t *seen = json_object();
	bool ok = true;
	for (size_t i = 0; ok && i < out->ncalls; i++) {
		const char *id = out->calls[i].id;
		if (!id)
			continue;
		if (json_object_get(seen, id)) {
			_cleanup_free_ char *shown = one_line(id, 64);
			char what[160];
			fmt_into(what, sizeof what, "has two tool calls with the id '%s'", shown);
			ok = fail(err, errlen, what);
		}
		json_object_set_new(seen, id, json_true());
	}
	for (size_t i = 0, n = 0; ok && i < out->ncalls; i++) {
		if (out->calls[i].id)
			continue;
		if (n < i + 1)
			n = i + 1;
		char *id = xasprintf("call_%zu", n++);
		while (json_object_get(seen, id)) {
			free(id);
			id = xasprintf("call_%zu", n++);
		}
		json_object_set_new(seen, id, json_true());
		out->calls[i].id = id;
	}
	json_decref(seen);
	return ok;
}

static bool parse_calls(json_t *calls, struct chat_reply *out, char *err, size_t errlen)
{
	if (!calls || json_is_null(calls))
		return true;
	if (!json_is_array(calls))
		return fail(err, errlen, "has \"tool_calls\" that is not a list");
	size_t n = json_array_size(calls);
	out->calls = xcalloc(n ? n : 1, sizeof *out->calls);
	for (size_t i = 0; i < n; i++) {
		if (!parse_call(json_array_get(calls, i), &out->calls[i], err, errlen))
			return false;
		out->ncalls++;
	}
	return unique_ids(out, err, errlen);
}

/* The legacy {"function_call":{"name":..,"arguments":..}}: one call,
 * whose id unique_ids makes up. */
static bool parse_function_call(json_t *fc, struct chat_reply *out, char *err, size_t errlen)
{
	if (!json_is_object(fc))
		return fail(err, errlen, "has a \"function_call\" that is not an object");
	out->calls = xcalloc(1, sizeof *out->calls);
	if (!parse_function(fc, &out->calls[0], err, errlen))
		return false;
	out->ncalls = 1;
	return unique_ids(out, err, errlen);
}

static bool parse_message(json_t *msg, struct chat_reply *out, char *err, size_t errlen)
{
	bool filtered = out->finish_reason && strcmp(out->finish_reason, "content_filter") == 0;
	if (!json_is_object(msg) && filtered)
		return true;
	if (!json_is_object(msg))
		return fail(err, errlen, "has no \"message\" object in choices[0]");
	json_t *content = json_object_get(msg, "content");
	if (content && !json_is_null(content) && !json_is_string(content) &&
	    !json_is_array(content))
		return fail(err, errlen, "has a \"content\" that is neither text nor a list of parts");
	out->content = chat_content(content);
	json_t *calls = json_object_get(msg, "tool_calls");
	json_t *fc = json_object_get(msg, "function_call");
	if ((!calls || json_is_null(calls) || json_array_size(calls) == 0) && fc &&
	    !json_is_null(fc)) {
		if (!parse_function_call(fc, out, err, errlen))
			return false;
	} else if (!parse_calls(calls, out, err, errlen)) {
		return false;
	}
	/* A filtered answer may carry nothing: agent.c says what happened. */
	if (!out->content && out->ncalls == 0 && !filtered)
		return fail(err, errlen, "has neither content nor tool calls");
	return true;
}

static bool parse_root(json_t *root, struct chat_reply *out, char *err, size_t errlen)
{
	if (!json_is_object(root))
		return fail(err, errlen, "is not a JSON object");
	if (chat_error_object(root, err, errlen))
		return false;
	json_t *choices = json_object_get(root, "choices");
	if (!json_is_array(choices))
		return fail(err, errlen, "has no \"choices\" list");
	if (json_array_size(choices) == 0)
		return fail(err, errlen, "has an empty \"choices\" list");
	json_t *c0 = json_array_get(choices, 0);
	if (!json_is_object(c0))
		return fail(err, errlen, "has a choice that is not an object");
	json_t *fr = json_object_get(c0, "finish_reason");
	if (json_is_string(fr))
		out->finish_reason = xstrdup(json_string_value(fr));
	/* token counts, for the --json result record only: ignored unless
	 * both are non-negative integers */
	json_t *u = json_object_get(root, "usage");
	json_t *pt = json_object_get(u, "prompt_tokens"), *ct = json_object_get(u, "completion_tokens");
	if (json_is_integer(pt) && json_is_integer(ct) && json_integer_value(pt) >= 0 &&
	    json_integer_value(ct) >= 0) {
		out->usage = true;
		out->prompt_tokens = json_integer_value(pt);
		out->completion_tokens = json_integer_value(ct);
	}
	return parse_message(json_object_get(c0, "message"), out, err, errlen);
}

bool chat_reply_parse(const char *body, size_t len, struct chat_reply *out, char *err,
		      size_t errlen)
{
	*out = (struct chat_reply){ 0 };
	if (len >= 3 && memcmp(body, "\xef\xbb\xbf", 3) == 0) /* a UTF-8 BOM */
		body += 3, len -= 3;
	if (len == 0)
		return fail(err, errlen, "is empty");
	if (len > CHAT_MAX_REPLY)
		return fail(err, errlen, "is larger than 16 MiB");
	switch (chat_body_kind(body, len)) {
	case CHAT_BODY_SSE:
		return fail(err, errlen, "is a stream (server-sent events), though kli did not ask "
					 "for one (set stream = true in [model], or fix the server)");
	case CHAT_BODY_GZIP:
		return fail(err, errlen, "is gzip-compressed, though kli did not ask for "
					 "compression (a proxy or server adding Content-Encoding: gzip)");
	case CHAT_BODY_JSON:
		break;
	}
	json_error_t jerr;
	/* An escaped NUL (\u0000) is text too: chat_text shows it as \0. */
	json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
	if (!root) {
		char what[200];
		fmt_into(what, sizeof what, "is not valid JSON (%s at byte %d)", jerr.text,
			 jerr.position);
		return fail(err, errlen, what);
	}
	bool ok = parse_root(root, out, err, errlen);
	json_decref(root);
	if (!ok)
		chat_reply_clear(out);
	return ok;
}

json_t *chat_reply_message(const struct chat_reply *r)
{
	json_t *m = json_object();
	json_object_set_new(m, "role", json_string("assistant"));
	json_object_set_new(m, "content", r->content ? json_string(r->content) : json_null());
	if (r->ncalls == 0)
		return m;
	json_t *calls = json_array();
	for (size_t i = 0; i < r->ncalls; i++) {
		json_t *fn = json_pack("{s:s, s:s}", "name", r->calls[i].name, "arguments",
				       r->calls[i].arguments);
		json_array_append_new(calls, json_pack("{s:s, s:s, s:o}", "id", r->calls[i].id,
						       "type", "function", "function", fn));
	}
	json_object_set_new(m, "tool_calls", calls);
	return m;
}

char *chat_reply_dump(const struct chat_reply *r)
{
	json_t *choice = json_pack("{s:o}", "message", chat_reply_message(r));
	if (r->finish_reason)
		json_object_set_new(choice, "finish_reason", json_string(r->finish_reason));
	json_t *root = json_pack("{s:[o]}", "choices", choice);
	if (r->usage)
		json_object_set_new(root, "usage",
				    json_pack("{s:I, s:I}", "prompt_tokens", (json_int_t)r->prompt_tokens,
					      "completion_tokens", (json_int_t)r->completion_tokens));
	char *s = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	char *out = xstrdup(s ? s : "");
	free(s);
	return out;
}

/* Printable ASCII, bounded: server text goes into one line of stderr. */
static char *one_line(const char *s, size_t max)
{
	size_t n = strlen(s);
	char *o = xmalloc((n < max ? n : max) + 4);
	size_t j = 0;
	for (size_t i = 0; i < n && j < max; i++) {
		unsigned char c = (unsigned char)s[i];
		o[j++] = (c >= 0x20 && c < 0x7f) ? (char)c : (c == '\n' || c == '\t' ? ' ' : '?');
	}
	if (n > max)
		memcpy(o + j, "...", 3), j += 3;
	o[j] = '\0';
	return o;
}

bool chat_error_object(json_t *root, char *err, size_t errlen)
{
	json_t *error = json_object_get(root, "error");
	if (!error || json_is_null(error))
		return false;
	_cleanup_free_ char *body = json_dumps(root, JSON_COMPACT);
	_cleanup_free_ char *detail = body ? chat_error_detail(body, strlen(body)) : NULL;
	fmt_into(err, errlen, "the model server reported an error: %s",
		 detail ? detail : "(no message)");
	return true;
}

char *chat_error_detail(const char *body, size_t len)
{
	json_t *root = json_loadb(body, len, 0, NULL);
	if (!root)
		return NULL;
	/* [{"error":..}] (a list of one) is how some gateways answer. */
	json_t *o = json_is_array(root) ? json_array_get(root, 0) : root;
	json_t *e = json_object_get(o, "error");
	const char *msg = NULL;
	if (json_is_string(e))
		msg = json_string_value(e);
	else if (json_is_object(e) && json_is_string(json_object_get(e, "message")))
		msg = json_string_value(json_object_get(e, "message"));
	else if (json_is_string(json_object_get(o, "message")))
		msg = json_string_value(json_object_get(o, "message"));
	else if (json_is_string(json_object_get(o, "detail")))
		msg = json_string_value(json_object_get(o, "detail"));
	char *out = msg && *msg ? one_line(msg, 200) : NULL;
	json_decref(root);
	return out;
}

/* ----------------------------------------------------------- endpoint */

bool chat_endpoint(const char *base_url, char **url, char **unix_path, char *err,
		   size_t errlen)
{
	*url = *unix_path = NULL;
	if (str_has_prefix(base_url, "unix:")) {
		const char *p = base_url + strlen("unix:");
		if (p[0] != '/' || strlen(p) >= 108) {
			fmt_into(err, errlen, "base-url: a unix: socket path must be absolute and "
					      "shorter than 108 bytes");
			return false;
		}
		/* curl wants a URL even for a socket; the host name is never resolved. */
		*unix_path = xstrdup(p);
		*url = xstrdup("http://localhost/v1/chat/completions");
		return true;
	}
	if (!str_has_prefix(base_url, "http://") && !str_has_prefix(base_url, "https://")) {
		fmt_into(err, errlen, "base-url must start with http://, https:// or unix:/");
		return false;
	}
	size_t n = strlen(base_url);
	while (n > 0 && base_url[n - 1] == '/')
		n--;
	*url = xasprintf("%.*s/chat/completions", (int)n, base_url);
	return true;
}

/* ------------------------------------------------------ context limit */

bool chat_too_long(long status, const char *body, size_t len)
{
	if (status == 413)
		return true;
	if (status != 400 || !body || len == 0)
		return false;
	_cleanup_free_ char *text = xstrndup(body, len);
	if (strstr(text, "context_length_exceeded"))
		return true;
	_cleanup_free_ char *detail = chat_error_detail(body, len);
	if (!detail)
		return false;
	static const char *const says[] = {
		"context length", "context window", "maximum context", "context_length",
		"too many tokens", "prompt is too long", "input is too long",
		"request too large", "too long for the model",
	};
	for (size_t i = 0; i < sizeof says / sizeof *says; i++)
		if (strcasestr(detail, says[i]))
			return true;
	return false;
}

/* ------------------------------------------------------------ retries */

bool chat_retryable(long status)
{
	return status == 429 || (status >= 500 && status <= 599);
}

long chat_retry_after(const char *value)
{
	if (!value)
		return -1;
	while (*value == ' ' || *value == '\t')
		value++;
	if (!isdigit((unsigned char)*value))
		return -1;
	errno = 0;
	char *end;
	long v = strtol(value, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	if (errno || *end || v > 86400)
		return -1;
	return v;
}

long chat_backoff_ms(unsigned attempt, long retry_after_s)
{
	if (retry_after_s > CHAT_RETRY_AFTER_MAX_S)
		return -1;
	if (retry_after_s >= 0)
		return retry_after_s * 1000;
	long ms = 500;
	for (unsigned i = 1; i < attempt && ms < CHAT_BACKOFF_MAX_MS; i++)
		ms *= 2;
	return ms < CHAT_BACKOFF_MAX_MS ? ms : CHAT_BACKOFF_MAX_MS;
}

/* ------------------------------------------------------------- UTF-8 */

void utf8_scrub(char *s, size_t len)
{
	unsigned char *u = (unsigned char *)s;
	for (size_t i = 0; i < len;) {
		/* NUL is valid UTF-8 but ends a C string: the tool text would stop there. */
		if (u[i] == 0) {
			u[i++] = '?';
			continue;
		}
		size_t k = utf8_seq(u + i, len - i);
		if (k == 0) {
			u[i++] = '?';
			continue;
		}
		i += k;
	}
}
