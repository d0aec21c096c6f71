/* SPDX-License-Identifier: MIT */
/* One model turn of an agent: see agent/turn.h. */
#include "config.h"
#include "agent/turn.h"
#include "agent/barrier.h"
#include "agent/cancel.h"
#include "authority/mediate.h"
#include "agent/term.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <unistd.h>

struct model_job {
	const struct model_conf *conf;
	const char *body;
	int live_fd;     /* -1: the text is not shown as it streams */
	bool live_tty;
	int partial_fd;  /* the streamed text is also kept here (a memfd), so a
			  * cancelled turn keeps what was said; -1: not */
};

/* What the child streamed, with the terminal's view of it. */
struct live_ud {
	struct term_live tl;
	int partial_fd;
	size_t kept;
};

/* How much of a cancelled reply is kept. */
#define PARTIAL_MAX (256u * 1024)

/* What model_child hands back in barrier_out.aux. */
#define MODEL_AUX_TOO_LONG 1L  /* the server said the request is too long */
#define MODEL_AUX_SHOWN 2L     /* the text was printed as it streamed */

static void live_text(void *ud, const char *s, size_t n)
{
	struct live_ud *l = ud;
	term_live_add(&l->tl, s, n);
	if (l->partial_fd >= 0 && l->kept + n <= PARTIAL_MAX &&
	    write(l->partial_fd, s, n) == (ssize_t)n)
		l->kept += n;
}

/* A line on stderr; on a terminal, below the streamed text, not after it
 * on its line. Nothing is added to standard output: the answer there
 * stays as the model wrote it. */
static void live_note(void *ud, const char *line)
{
	struct term_live *l = &((struct live_ud *)ud)->tl;
	if (l->tty && term_live_midline(l) && isatty(STDERR_FILENO))
		fputc('\n', stderr);
	warn_msg("%s", line);
}

static void live_restart(void *ud)
{
	struct live_ud *l = ud;
	term_live_restart(&l->tl);
	/* a retry's text starts over: so does what a cancel keeps */
	if (l->partial_fd >= 0 && ftruncate(l->partial_fd, 0) == 0 &&
	    lseek(l->partial_fd, 0, SEEK_SET) == 0)
		l->kept = 0;
}

static void model_child(void *arg, struct barrier_out *out)
{
	const struct model_job *job = arg;
	struct chat_reply r;
	char err[600];
	struct live_ud lu = { .partial_fd = job->partial_fd };
	struct term_live *tl = &lu.tl;
	term_live_init(tl, job->live_fd, job->live_tty, job->conf->key);
	bool shown = job->live_fd >= 0;
	struct model_live live = { shown ? live_text : NULL, live_note,
				   shown ? live_restart : NULL, &lu };
	enum model_failure why;
	bool ok = model_exchange(job->conf, job->body, &live, &r, &why, err, sizeof err);
	term_live_end(tl);
	if (tl->wrote)
		out->aux |= MODEL_AUX_SHOWN;
	term_live_clear(tl);
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

/* The text a cancelled turn had streamed, or NULL. */
static char *partial_text(int fd)
{
	if (fd < 0)
		return NULL;
	off_t len = lseek(fd, 0, SEEK_END);
	if (len <= 0 || len > (off_t)PARTIAL_MAX)
		return NULL;
	char *t = xmalloc((size_t)len + 1);
	ssize_t n = pread(fd, t, (size_t)len, 0);
	if (n <= 0) {
		free(t);
		return NULL;
	}
	t[n] = '\0';
	utf8_scrub(t, (size_t)n);
	return t;
}

/* One exchange with the model, behind the barrier: a crash or hang in
 * libcurl, jansson or our parsing ends the child, not the agent. */
bool agent_model_turn(struct agent *a, struct chat_reply *reply, char **error, bool *too_long,
		       bool *shown, char **partial)
{
	*too_long = *shown = false;
	*partial = NULL;
	json_t *tools = offered_tools(a);
	json_t *req = chat_request(a->sh->model->model, a->history, tools, a->sh->model->stream);
	_cleanup_free_ char *body = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	json_decref(tools);
	/* Only the main agent's text is the person's to read as it comes;
	 * a sub-agent's answer is a tool result. */
	bool live = a->sh->model->stream && !a->sh->json && a->depth == 0;
	/* a cancelled turn keeps what was said: only with Ctrl-C taken */
	int partial_fd = live && cancel_fd() >= 0 ? memfd_create("kli-partial", MFD_CLOEXEC) : -1;
	struct model_job job = { a->sh->model, body, live ? a->sh->live_fd : -1, a->sh->live_tty,
				 partial_fd };
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
	} else if (res.outcome == BARRIER_CANCELLED) {
		*error = xstrdup(CANCEL_TEXT);
		*partial = partial_text(partial_fd);
	} else {
		_cleanup_free_ char *d = barrier_describe(&res, deadline);
		*error = xasprintf("the model client %s", d);
	}
	bool cancelled = res.outcome == BARRIER_CANCELLED;
	if (partial_fd >= 0)
		close(partial_fd);
	barrier_result_clear(&res);
	if (!ok && !cancelled) {
		_cleanup_free_ char *line = xasprintf("%s: model: %s", a->label, *error);
		agent_fault(a->sh, line);
	}
	return ok;
}
