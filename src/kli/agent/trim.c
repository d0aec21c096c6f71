/* SPDX-License-Identifier: MIT */
/* The context limit: see agent/trim.h. */
#include "config.h"
#include "agent/events.h"
#include "agent/trim.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* The arguments of the call ID, from the assistant messages of HISTORY. */
static const char *call_arguments_of(json_t *history, const char *id)
{
	size_t i, k;
	json_t *m, *c;
	json_array_foreach(history, i, m) {
		json_array_foreach(json_object_get(m, "tool_calls"), k, c) {
			const char *cid = json_string_value(json_object_get(c, "id"));
			if (cid && strcmp(cid, id) == 0)
				return json_string_value(
					json_object_get(json_object_get(c, "function"), "arguments"));
		}
	}
	return NULL;
}

/* Replace one tool result's body by a line saying what it was. */
static size_t drop_body(json_t *history, json_t *m)
{
	const char *body = json_string_value(json_object_get(m, "content"));
	const char *name = json_string_value(json_object_get(m, "name"));
	const char *id = json_string_value(json_object_get(m, "tool_call_id"));
	const char *args = id ? call_arguments_of(history, id) : NULL;
	size_t n = body ? strlen(body) : 0;
	_cleanup_free_ char *line = xasprintf(
		"[kli: this result of %s (%zu bytes) was dropped to fit the model's context; "
		"to read it again, call %s again with the arguments %.300s]",
		name ? name : "a tool", n, name ? name : "the tool", args ? args : "{}");
	if (strlen(line) >= n)
		return 0;
	json_object_set_new(m, "content", agent_jstr(line));
	return n;
}

/* Drop the bodies of the tool results before the last model turn's (the
 * oldest first, all of them: one retry must fit); when there are none,
 * those of the last turn. The number dropped, *bytes their size. */
static size_t trim_history(struct agent *a, size_t *bytes)
{
	size_t last_assistant = 0, i, n = 0;
	json_t *m;
	*bytes = 0;
	json_array_foreach(a->history, i, m)
		if (strcmp(json_string_value(json_object_get(m, "role")) ?: "", "assistant") == 0)
			last_assistant = i;
	for (int pass = 0; pass < 2 && n == 0; pass++)
		json_array_foreach(a->history, i, m) {
			if ((pass == 0 && i > last_assistant) ||
			    strcmp(json_string_value(json_object_get(m, "role")) ?: "", "tool") != 0)
				continue;
			size_t b = drop_body(a->history, m);
			if (b) {
				n++;
				*bytes += b;
			}
		}
	return n;
}

/* The server said the conversation is too long: trim once and say so.
 * False (with *error one line) when there is nothing to trim or the turn
 * was already tried trimmed. */
bool agent_retry_trimmed(struct agent *a, bool *trimmed, char **error)
{
	size_t bytes = 0, n = *trimmed ? 0 : trim_history(a, &bytes);
	if (n == 0) {
		char *e = xasprintf("the conversation is too long for the model%s: %s",
				    *trimmed ? ", even with the oldest tool results dropped"
					     : ", and holds no tool result to drop",
				    *error);
		free(*error);
		*error = e;
		return false;
	}
	*trimmed = true;
	_cleanup_free_ char *line = xasprintf(
		"the model server says the conversation is too long: dropped the bodies of %zu "
		"old tool result%s (%zu bytes) and tried again", n, n == 1 ? "" : "s", bytes);
	warn_msg("%s", line);
	agent_emit(a, json_pack("{s:s, s:I, s:I, s:s}", "type", "trimmed", "dropped", (json_int_t)n,
			  "bytes", (json_int_t)bytes, "message", line));
	free(*error);
	*error = NULL;
	return true;
}
