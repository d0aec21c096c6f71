/* SPDX-License-Identifier: MIT */
/* The agent's JSON events: see agent/events.h. */
#include "config.h"
#include "agent/events.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A JSON string from text that need not be UTF-8 (paths, server words). */
json_t *agent_jstr(const char *s)
{
	char *c = xstrdup(s ? s : "");
	utf8_scrub(c, strlen(c));
	json_t *j = json_string(c);
	free(c);
	return j;
}

void agent_emit(struct agent *a, json_t *ev)
{
	if (a->sh->json) {
		json_object_set_new(ev, "agent", json_string(a->label));
		char *s = json_dumps(ev, JSON_COMPACT | JSON_PRESERVE_ORDER);
		if (s) {
			fprintf(a->sh->out, "%s\n", s);
			fflush(a->sh->out);
		}
		free(s);
	}
	json_decref(ev);
}

/* Arguments as JSON when they parse, else as the text the model sent. */
json_t *agent_args_value(const char *arguments)
{
	json_t *v = json_loads(arguments, 0, NULL);
	if (v)
		return v;
	char *s = xstrdup(arguments);
	utf8_scrub(s, strlen(s));
	json_t *j = json_string(s);
	free(s);
	return j;
}

void agent_emit_result(struct agent *a, bool is_error, int exit_code)
{
	const struct agent_shared *sh = a->sh;
	json_t *usage = sh->usage
		? json_pack("{s:I, s:I, s:I}", "prompt_tokens", (json_int_t)sh->prompt_tokens,
			    "completion_tokens", (json_int_t)sh->completion_tokens, "total_tokens",
			    (json_int_t)(sh->prompt_tokens + sh->completion_tokens))
		: json_null();
	agent_emit(a, json_pack("{s:s, s:I, s:I, s:o, s:b, s:i}", "type", "result", "turns",
			  (json_int_t)sh->turns, "tool_calls", (json_int_t)sh->tool_calls, "usage",
			  usage, "is_error", is_error, "exit_code", exit_code));
}

void agent_emit_turn(struct agent *a, long turn, const struct chat_reply *r)
{
	json_t *calls = json_array();
	for (size_t i = 0; i < r->ncalls; i++)
		json_array_append_new(calls, json_pack("{s:s, s:s, s:o}", "id", r->calls[i].id,
						       "name", r->calls[i].name, "arguments",
						       agent_args_value(r->calls[i].arguments)));
	agent_emit(a, json_pack("{s:s, s:I, s:o, s:o}", "type", "turn", "turn", (json_int_t)turn,
			  "content", r->content ? json_string(r->content) : json_null(),
			  "tool_calls", calls));
}
