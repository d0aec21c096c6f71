/* SPDX-License-Identifier: MIT */
/* The agent loop: see agent.h. One run's shared state, an agent's
 * conversation, and agent_ask(): model turns (agent/turn.c) and their
 * tool calls (agent/tool-call.c) until a final answer, the context limit
 * (agent/trim.c) and the events (agent/events.c) along the way. */
#include "config.h"
#include "agent/agent.h"
#include "agent/events.h"
#include "agent/turn.h"
#include "agent/show.h"
#include "agent/tool-call.h"
#include "agent/trim.h"
#include "agent/truncated.h"
#include "agent/barrier.h"
#include "agent/cancel.h"
#include "hint/hint.h"
#include "authority/mediate.h"
#include "authority/report.h"
#include "path.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The "error" event: MESSAGE, the one line agent_ask() fails with. */
static void emit_error(struct agent *a, const char *message)
{
	agent_emit(a, json_pack("{s:s, s:o}", "type", "error", "message", agent_jstr(message)));
}

static void tool_turn(struct agent *a, const struct chat_call *cc);

/* Ctrl-C ended the turn: what the model had said stays, marked; a call it
 * made that did not run still gets a result (a server rejects a history
 * with a call and no result). */
static bool cancelled(struct agent *a, char *partial, char **error)
{
	if (partial) {
		_cleanup_free_ char *t = xasprintf("%s\n\n[%s]", partial, CANCEL_TEXT);
		json_array_append_new(a->history, json_pack("{s:s, s:o}", "role", "assistant",
							    "content", agent_jstr(t)));
		free(partial);
	}
	free(*error);
	*error = xstrdup(CANCEL_TEXT);
	agent_emit(a, json_pack("{s:s}", "type", "cancelled"));
	return false;
}

/* The result of a call the turn's cancel kept from running. */
static void tool_not_run(struct agent *a, const struct chat_call *cc)
{
	agent_emit(a, json_pack("{s:s, s:s, s:s, s:b, s:s}", "type", "tool_result", "id", cc->id,
			  "name", cc->name, "ok", false, "content", CANCEL_TEXT));
	json_array_append_new(a->history, json_pack("{s:s, s:s, s:s, s:s}", "role", "tool",
						    "tool_call_id", cc->id, "name", cc->name,
						    "content", CANCEL_TEXT));
}

bool agent_ask(struct agent *a, const char *prompt, long max_turns, char **answer,
	       char **error)
{
	*answer = *error = NULL;
	a->answer_shown = false;
	json_array_append_new(a->history, json_pack("{s:s, s:o}", "role", "user", "content",
						    agent_jstr(prompt)));
	bool trimmed = false;
	int truncated = 0; /* replies in a row whose calls were cut off */
	for (long turn = 1; turn <= max_turns; turn++) {
		struct chat_reply r;
		bool too_long, shown;
		char *partial = NULL;
		if (cancel_requested())
			return cancelled(a, NULL, error);
		if (!agent_model_turn(a, &r, error, &too_long, &shown, &partial)) {
			if (cancel_requested())
				return cancelled(a, partial, error);
			if (too_long && agent_retry_trimmed(a, &trimmed, error)) {
				turn--;
				continue;
			}
			emit_error(a, *error);
			return false;
		}
		trimmed = false; /* each rejection gets its one trimmed retry */
		a->sh->turns++;
		if (r.usage) {
			a->sh->usage = true;
			a->sh->prompt_tokens += r.prompt_tokens;
			a->sh->completion_tokens += r.completion_tokens;
		}
		agent_emit_turn(a, turn, &r);
		/* A call cut off at the output limit is never run. */
		if (agent_calls_truncated(&r)) {
			agent_refuse_truncated(a, &r);
			chat_reply_clear(&r);
			if (++truncated < AGENT_MAX_TRUNCATED)
				continue;
			*error = agent_truncated_error();
			emit_error(a, *error);
			return false;
		}
		truncated = 0;
		json_array_append_new(a->history, chat_reply_message(&r));
		/* Tool calls of a filtered answer may be cut anywhere: none is run. */
		if (r.finish_reason && strcmp(r.finish_reason, "content_filter") == 0) {
			*answer = r.content ? xstrdup(r.content) : NULL;
			a->answer_shown = shown;
			chat_reply_clear(&r);
			*error = xstrdup("the server's content filter stopped the answer "
					 "(finish_reason \"content_filter\")");
			emit_error(a, *error);
			return false;
		}
		for (size_t i = 0; i < r.ncalls; i++) {
			if (cancel_requested())
				tool_not_run(a, &r.calls[i]);
			else
				tool_turn(a, &r.calls[i]);
		}
		if (r.ncalls && cancel_requested()) {
			chat_reply_clear(&r);
			return cancelled(a, NULL, error);
		}
		if (r.ncalls == 0) {
			*answer = xstrdup(r.content ? r.content : "");
			a->answer_shown = shown;
			/* the model ran out of room: what it said is not its answer */
			bool cut = r.finish_reason && strcmp(r.finish_reason, "length") == 0;
			chat_reply_clear(&r);
			if (cut) {
				*error = xstrdup("the model stopped at its output limit (finish_reason "
						 "\"length\"): the answer is cut short");
				emit_error(a, *error);
				return false;
			}
			agent_emit(a, json_pack("{s:s, s:s}", "type", "final", "content", *answer));
			return true;
		}
		chat_reply_clear(&r);
	}
	*error = xasprintf("no final answer within %ld turn%s (see --max-turns)", max_turns,
			   max_turns == 1 ? "" : "s");
	emit_error(a, *error);
	return false;
}

/* ------------------------------------------------------- tool calls */

/* A task runs as a sub-agent with the conferred grant: agent_ask() again,
 * which is why the dispatch lives here, beside the loop. */
static char *run_task(struct agent *a, const struct tool_call *c, struct grant *g, bool *ok)
{
	struct agent_shared *sh = a->sh;
	_cleanup_free_ char *label = xasprintf("task-%u", ++sh->ntasks);
	struct agent sub;
	agent_init(&sub, sh, g, a->depth + 1, label);
	char *answer = NULL, *error = NULL;
	*ok = agent_ask(&sub, c->text, c->max_turns ? c->max_turns : 20, &answer, &error);
	agent_clear(&sub);
	if (*ok)
		return answer;
	char *text = answer ? xasprintf("error: the sub-agent failed: %s; what it said:\n%s", error,
					answer)
			    : xasprintf("error: the sub-agent failed: %s", error);
	free(answer);
	free(error);
	return text;
}

static char *dispatch(struct agent *a, const struct chat_call *cc, bool *ok)
{
	*ok = false;
	const struct tool_spec *t = tool_lookup(cc->name);
	if (!t)
		return xasprintf("error: there is no tool named '%.64s'", cc->name);
	struct tool_call c;
	char err[300];
	if (!tool_call_parse(t, cc->arguments, &c, err, sizeof err))
		return xasprintf("error: %s: %s", t->name, err);
	agent_fill_job_commands(a->sh, &c);
	struct grant *conferred = NULL;
	_cleanup_free_ char *message = NULL;
	enum mediate_verdict v = mediate(a->grant, &c, a->sh->auth,
					 a->depth < AGENT_MAX_DEPTH ? &conferred : NULL, &message);
	char *text;
	_cleanup_free_ char *show = NULL;
	if (v == MEDIATE_DENIED)
		text = agent_refused(a, cc, message);
	else if (v == MEDIATE_INVALID)
		text = xasprintf("error: %s: %s", t->name, message);
	else if (c.id == TOOL_TASK)
		text = run_task(a, &c, conferred, ok);
	else
		text = agent_run_allowed(a, &c, ok, &show);
	if (v == MEDIATE_ALLOWED)
		agent_show_call(a, &c, *ok, text, show);
	grant_free(conferred);
	text = agent_bounded_hinted(a, &c, text);
	tool_call_clear(&c);
	return text;
}

/* Run the call CC and add its result to the conversation. */
static void tool_turn(struct agent *a, const struct chat_call *cc)
{
	agent_emit(a, json_pack("{s:s, s:s, s:s, s:o}", "type", "tool_call", "id", cc->id, "name",
			  cc->name, "arguments", agent_args_value(cc->arguments)));
	bool ok;
	a->sh->tool_calls++;
	char *text = dispatch(a, cc, &ok);
	utf8_scrub(text, strlen(text));
	agent_emit(a, json_pack("{s:s, s:s, s:s, s:b, s:s}", "type", "tool_result", "id", cc->id,
			  "name", cc->name, "ok", ok, "content", text));
	json_array_append_new(a->history, json_pack("{s:s, s:s, s:s, s:s}", "role", "tool",
						    "tool_call_id", cc->id, "name", cc->name,
						    "content", text));
	free(text);
}
