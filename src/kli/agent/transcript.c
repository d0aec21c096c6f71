/* SPDX-License-Identifier: MIT */
/* A saved session's text: see agent/transcript.h. */
#include "config.h"
#include "agent/transcript.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define FORMAT "kli-session"
#define SESSION_VERSION 1

bool transcript_id_valid(const char *id)
{
	size_t n = 0;
	for (; id[n]; n++)
		if (!((id[n] >= 'a' && id[n] <= 'z') || (id[n] >= 'A' && id[n] <= 'Z') ||
		      (id[n] >= '0' && id[n] <= '9') || id[n] == '-' || id[n] == '_'))
			return false;
	return n >= 1 && n <= TRANSCRIPT_MAX_ID;
}

char *transcript_first_line(const char *prompt)
{
	size_t n = strcspn(prompt, "\n");
	if (n > TRANSCRIPT_MAX_FIRST) {
		n = TRANSCRIPT_MAX_FIRST;
		while (n > 0 && ((unsigned char)prompt[n] & 0xc0) == 0x80)
			n--; /* not inside a character */
	}
	char *s = xstrndup(prompt, n);
	ctrl_scrub(s);
	return s;
}

json_t *transcript_messages(json_t *history)
{
	json_t *out = json_array();
	size_t i;
	json_t *m;
	json_array_foreach(history, i, m) {
		const char *role = json_string_value(json_object_get(m, "role"));
		if (!role || strcmp(role, "system") != 0)
			json_array_append(out, m);
	}
	return out;
}

char *transcript_dump(const struct transcript *t)
{
	json_t *root = json_pack("{s:s, s:i, s:s, s:I, s:I, s:s, s:s, s:O}", "format", FORMAT,
				 "version", SESSION_VERSION, "id", t->id, "created",
				 (json_int_t)t->created, "updated", (json_int_t)t->updated,
				 "workspace", t->workspace, "first_prompt", t->first_prompt,
				 "messages", t->messages);
	char *s = root ? json_dumps(root, JSON_COMPACT) : NULL;
	json_decref(root);
	char *out = xasprintf("%s\n", s ? s : "");
	free(s);
	return out;
}

KJ_PRINTF(3, 4) static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return false;
}

/* OBJ has only the keys in ALLOWED (NULL-terminated); else the first
 * other one in *BAD. */
static bool only_keys(json_t *obj, const char *const *allowed, const char **bad)
{
	const char *k;
	json_t *v;
	json_object_foreach(obj, k, v) {
		bool ok = false;
		for (const char *const *a = allowed; *a && !ok; a++)
			ok = strcmp(k, *a) == 0;
		if (!ok) {
			*bad = k;
			return false;
		}
	}
	return true;
}

/* A member that is a string (without NUL: jansson refuses those). */
static const char *str(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* The calls of an assistant message; their ids join PENDING. */
static bool check_calls(json_t *calls, size_t at, json_t *pending, char *err, size_t errlen)
{
	if (!json_is_array(calls) || json_array_size(calls) == 0 ||
	    json_array_size(calls) > TRANSCRIPT_MAX_CALLS)
		return fail(err, errlen, "message %zu: \"tool_calls\" is not a list of 1 to %d calls",
			    at, TRANSCRIPT_MAX_CALLS);
	static const char *const call_keys[] = { "id", "type", "function", NULL };
	static const char *const fn_keys[] = { "name", "arguments", NULL };
	size_t i;
	json_t *c;
	json_array_foreach(calls, i, c) {
		const char *bad = NULL;
		json_t *fn = json_object_get(c, "function");
		if (!json_is_object(c) || !only_keys(c, call_keys, &bad) || !str(c, "id") ||
		    !str(c, "id")[0] || !str(c, "type") || strcmp(str(c, "type"), "function") != 0 ||
		    !json_is_object(fn) || !only_keys(fn, fn_keys, &bad) || !str(fn, "name") ||
		    !str(fn, "arguments"))
			return fail(err, errlen, "message %zu: tool call %zu is not {id, type "
				    "\"function\", function {name, arguments}}%s%.40s%s",
				    at, i + 1, bad ? " (field '" : "", bad ? bad : "", bad ? "')" : "");
		json_object_set_new(pending, str(c, "id"), json_true());
	}
	return true;
}

static bool check_message(json_t *m, size_t at, json_t *pending, char *err, size_t errlen)
{
	static const char *const user_keys[] = { "role", "content", NULL };
	static const char *const assistant_keys[] = { "role", "content", "tool_calls", NULL };
	static const char *const tool_keys[] = { "role", "tool_call_id", "name", "content", NULL };
	if (!json_is_object(m))
		return fail(err, errlen, "message %zu is not an object", at);
	const char *role = str(m, "role");
	const char *bad = NULL;
	if (!role)
		return fail(err, errlen, "message %zu has no \"role\"", at);
	if (strcmp(role, "user") == 0) {
		if (!only_keys(m, user_keys, &bad) || !str(m, "content"))
			goto shape;
	} else if (strcmp(role, "assistant") == 0) {
		json_t *content = json_object_get(m, "content");
		json_t *calls = json_object_get(m, "tool_calls");
		if (!only_keys(m, assistant_keys, &bad) || !(json_is_string(content) ||
							       json_is_null(content)))
			goto shape;
		if (calls && !check_calls(calls, at, pending, err, errlen))
			return false;
	} else if (strcmp(role, "tool") == 0) {
		if (!only_keys(m, tool_keys, &bad) || !str(m, "tool_call_id") || !str(m, "name") ||
		    !str(m, "content"))
			goto shape;
		if (!json_object_get(pending, str(m, "tool_call_id")))
			return fail(err, errlen, "message %zu answers a tool call no earlier "
				    "message made", at);
		json_object_del(pending, str(m, "tool_call_id"));
	} else {
		/* "system" among them: the system message (the authority text)
		 * is kli's to write, from the grant, never a file's */
		return fail(err, errlen, "message %zu has role '%.20s' (a session holds user, "
			    "assistant and tool messages only)", at, role);
	}
	return true;
shape:
	if (bad)
		return fail(err, errlen, "message %zu (%s) has a field '%.40s' kli never writes",
			    at, role, bad);
	return fail(err, errlen, "message %zu (%s) lacks a field or has one of the wrong type",
		    at, role);
}

static bool check_root(json_t *root, char *err, size_t errlen)
{
	static const char *const keys[] = { "format", "version", "id", "created", "updated",
					    "workspace", "first_prompt", "messages", NULL };
	const char *bad = NULL;
	if (!json_is_object(root))
		return fail(err, errlen, "not a JSON object");
	if (!only_keys(root, keys, &bad))
		return fail(err, errlen, "unknown field '%.40s' (a session holds a conversation, "
			    "never authority)", bad);
	if (!str(root, "format") || strcmp(str(root, "format"), FORMAT) != 0)
		return fail(err, errlen, "\"format\" is not \"%s\"", FORMAT);
	json_t *v = json_object_get(root, "version");
	if (!json_is_integer(v) || json_integer_value(v) != SESSION_VERSION)
		return fail(err, errlen, "\"version\" is not %d", SESSION_VERSION);
	if (!str(root, "id") || !transcript_id_valid(str(root, "id")))
		return fail(err, errlen, "\"id\" is not a session id");
	const char *ws = str(root, "workspace");
	if (!ws || ws[0] != '/' || !utf8_printable(ws) || strlen(ws) > 4096)
		return fail(err, errlen, "\"workspace\" is not an absolute path");
	const char *first = str(root, "first_prompt");
	if (!first || strlen(first) > TRANSCRIPT_MAX_FIRST || !utf8_printable(first))
		return fail(err, errlen, "\"first_prompt\" is not one printable line");
	for (const char *k = "created"; k; k = strcmp(k, "created") == 0 ? "updated" : NULL) {
		json_t *t = json_object_get(root, k);
		if (!json_is_integer(t) || json_integer_value(t) < 0)
			return fail(err, errlen, "\"%s\" is not a time", k);
	}
	json_t *msgs = json_object_get(root, "messages");
	if (!json_is_array(msgs) || json_array_size(msgs) > TRANSCRIPT_MAX_MESSAGES)
		return fail(err, errlen, "\"messages\" is not a list of at most %d messages",
			    TRANSCRIPT_MAX_MESSAGES);
	json_t *pending = json_object();
	size_t i;
	json_t *m;
	bool ok = true;
	json_array_foreach(msgs, i, m) {
		if (!(ok = check_message(m, i + 1, pending, err, errlen)))
			break;
	}
	json_decref(pending);
	return ok;
}

bool transcript_parse(const char *text, size_t len, struct transcript *out, char *err,
		      size_t errlen)
{
	*out = (struct transcript){ 0 };
	if (len > TRANSCRIPT_MAX_BYTES)
		return fail(err, errlen, "larger than %u MiB", TRANSCRIPT_MAX_BYTES >> 20);
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		fail(err, errlen, "not valid JSON (line %d: %.80s)", je.line, je.text);
		ctrl_scrub(err);
		return false;
	}
	if (!check_root(root, err, errlen)) {
		ctrl_scrub(err);
		json_decref(root);
		return false;
	}
	out->id = xstrdup(str(root, "id"));
	out->workspace = xstrdup(str(root, "workspace"));
	out->first_prompt = xstrdup(str(root, "first_prompt"));
	out->created = json_integer_value(json_object_get(root, "created"));
	out->updated = json_integer_value(json_object_get(root, "updated"));
	out->messages = json_incref(json_object_get(root, "messages"));
	json_decref(root);
	return true;
}

void transcript_clear(struct transcript *t)
{
	free(t->id);
	free(t->workspace);
	free(t->first_prompt);
	json_decref(t->messages);
	*t = (struct transcript){ 0 };
}
