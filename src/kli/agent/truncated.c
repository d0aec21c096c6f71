/* SPDX-License-Identifier: MIT */
/* Tool calls cut off at the model's output limit: see agent/truncated.h. */
#include "config.h"
#include "agent/truncated.h"
#include "agent/events.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

bool agent_calls_truncated(const struct chat_reply *r)
{
	return r->ncalls > 0 && r->finish_reason && strcmp(r->finish_reason, "length") == 0;
}

/* R's message as it goes back to the server: the calls named, without
 * their arguments. */
static json_t *message_without_arguments(const struct chat_reply *r)
{
	struct chat_call *calls = xcalloc(r->ncalls, sizeof *calls);
	for (size_t i = 0; i < r->ncalls; i++)
		calls[i] = (struct chat_call){ r->calls[i].id, r->calls[i].name, (char *)"{}" };
	struct chat_reply copy = *r;
	copy.calls = calls;
	json_t *m = chat_reply_message(&copy);
	free(calls);
	return m;
}

/* The names of R's calls, for the line on stderr. */
static char *call_names(const struct chat_reply *r)
{
	char *names = xstrdup("");
	for (size_t i = 0; i < r->ncalls; i++) {
		char *n = xasprintf("%s%s%.64s", names, i ? ", " : "", r->calls[i].name);
		free(names);
		names = n;
	}
	ctrl_scrub(names);
	return names;
}

void agent_refuse_truncated(struct agent *a, const struct chat_reply *r)
{
	json_array_append_new(a->history, message_without_arguments(r));
	_cleanup_free_ char *names = call_names(r);
	warn_msg("the model's reply was cut off at its output limit (finish_reason \"length\") "
		 "in %s %s: not run; the model is asked to send %s again",
		 r->ncalls == 1 ? "a call to" : "calls to", names, r->ncalls == 1 ? "it" : "them");
	for (size_t i = 0; i < r->ncalls; i++) {
		const struct chat_call *cc = &r->calls[i];
		_cleanup_free_ char *text = xasprintf(
			"error: your reply was cut off at the output limit (finish_reason "
			"\"length\") while it held this call, so the call was not run (%zu bytes "
			"of arguments arrived, perhaps not all of them). Send it again, complete; "
			"if it is long, split the work into smaller calls.",
			strlen(cc->arguments));
		agent_emit(a, json_pack("{s:s, s:s, s:s, s:s}", "type", "truncated", "id", cc->id,
				  "name", cc->name, "message", text));
		agent_emit(a, json_pack("{s:s, s:s, s:s, s:b, s:s}", "type", "tool_result", "id",
				  cc->id, "name", cc->name, "ok", 0, "content", text));
		json_array_append_new(a->history,
				      json_pack("{s:s, s:s, s:s, s:s}", "role", "tool", "tool_call_id",
						cc->id, "name", cc->name, "content", text));
	}
}

char *agent_truncated_error(void)
{
	return xasprintf("the model's tool calls were cut off at its output limit %d times in a "
			 "row (finish_reason \"length\"): none was run",
			 AGENT_MAX_TRUNCATED);
}
