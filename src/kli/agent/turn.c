/* SPDX-License-Identifier: MIT */
/* One model turn of an agent: see agent/turn.h. */
#include "config.h"
#include "agent/turn.h"
#include "agent/barrier.h"
#include "authority/mediate.h"
#include "agent/term.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct model_job {
	const struct model_conf *conf;
	const char *body;
	int live_fd;     /* -1: the text is not shown as it streams */
	bool live_tty;
};

/* What model_child hands back in barrier_out.aux. */
#define MODEL_AUX_TOO_LONG 1L  /* the server said the request is too long */
#define MODEL_AUX_SHOWN 2L     /* the text was printed as it streamed */

static void live_text(void *ud, const char *s, size_t n)
{
	term_live_add(ud, s, n);
}

/* A line on stderr; on a terminal, below the streamed text, not after it
 * on its line. Nothing is added to standard output: the answer there
 * stays as the model wrote it. */
static void live_note(void *ud, const char *line)
{
	struct term_live *l = ud;
	if (l->tty && term_live_midline(l) && isatty(STDERR_FILENO))
		fputc('\n', stderr);
	warn_msg("%s", line);
}

static void live_restart(void *ud)
{
	term_live_restart(ud);
}

static void model_child(void *arg, struct barrier_out *out)
{
	const struct model_job *job = arg;
	struct chat_reply r;
	char err[600];
	struct term_live tl;
	term_live_init(&tl, job->live_fd, job->live_tty, job->conf->key);
	bool shown = job->live_fd >= 0;
	struct model_live live = { shown ? live_text : NULL, live_note,
				   shown ? live_restart : NULL, &tl };
	enum model_failure why;
	bool ok = model_exchange(job->conf, job->body, &live, &r, &why, err, sizeof err);
	term_live_end(&tl);
	if (tl.wrote)
		out->aux |= MODEL_AUX_SHOWN;
	term_live_clear(&tl);
	if (!ok) {
		out->text = xstrdup(err);
		if (why == MODEL_FAIL_TOO_LONG)
			out->aux |= MODEL_AUX_TOO_LONG;
		return;
	}
	char *text = chat_reply_dump(&r);
	chat_reply_clear(&r);
	/* A reply the client accepts (up to 16 MiB) may not fit through the
	 * barrier: cut, it would come back as "not valid JSON". */
	size_t len = strlen(text);
	if (len > BARRIER_MAX_TEXT) {
		free(text);
		out->text = xasprintf("the model's reply from %s is larger than %u MiB once "
				      "parsed (%zu bytes)", job->conf->base_url,
				      BARRIER_MAX_TEXT / (1024 * 1024), len);
		return;
	}
	out->ok = true;
	out->text = text;
}

static json_t *offered_tools(const struct agent *a)
{
	bool offer[TOOL_COUNT];
	for (size_t i = 0; i < TOOL_COUNT; i++)
		offer[i] = mediate_offers(a->grant, (enum tool_id)i);
	offer[TOOL_TASK] = a->depth < AGENT_MAX_DEPTH;
	return tools_schema(offer);
}

/* One exchange with the model, behind the barrier: a crash or hang in
 * libcurl, jansson or our parsing ends the child, not the agent. */
bool agent_model_turn(struct agent *a, struct chat_reply *reply, char **error, bool *too_long,
		       bool *shown)
{
	*too_long = *shown = false;
	json_t *tools = offered_tools(a);
	json_t *req = chat_request(a->sh->model->model, a->history, tools, a->sh->model->stream);
	_cleanup_free_ char *body = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	json_decref(tools);
	/* Only the main agent's text is the person's to read as it comes;
	 * a sub-agent's answer is a tool result. */
	bool live = a->sh->model->stream && !a->sh->json && a->depth == 0;
	struct model_job job = { a->sh->model, body, live ? a->sh->live_fd : -1, a->sh->live_tty };
	if (live)
		fflush(NULL); /* what kli printed comes before the child's text */
	long deadline = model_deadline(a->sh->model) * 1000;
	struct barrier_result res;
	barrier_run(model_child, &job, deadline, &res);
	char err[600];
	bool ok = false;
	if (res.outcome == BARRIER_RETURNED)
		*shown = (res.out.aux & MODEL_AUX_SHOWN) != 0;
	if (res.outcome == BARRIER_RETURNED && res.out.ok) {
		ok = chat_reply_parse(res.out.text, strlen(res.out.text), reply, err, sizeof err);
		if (!ok)
			*error = xstrdup(err);
	} else if (res.outcome == BARRIER_RETURNED) {
		*error = xstrdup(res.out.text ? res.out.text : "the model exchange failed");
		*too_long = (res.out.aux & MODEL_AUX_TOO_LONG) != 0;
	} else {
		_cleanup_free_ char *d = barrier_describe(&res, deadline);
		*error = xasprintf("the model client %s", d);
	}
	barrier_result_clear(&res);
	if (!ok) {
		_cleanup_free_ char *line = xasprintf("%s: model: %s", a->label, *error);
		agent_fault(a->sh, line);
	}
	return ok;
}
