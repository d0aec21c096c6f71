/* SPDX-License-Identifier: MIT */
/* One tool call of an agent: see agent/tool-call.h. */
#include "config.h"
#include "agent/events.h"
#include "agent/tool-call.h"
#include "agent/barrier.h"
#include "agent/cancel.h"
#include "hint/hint.h"
#include "authority/mediate.h"
#include "tools/text.h"
#include "util.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Reap what has ended: jobs (kli is their subreaper) and any orphan a
 * command left behind. Only called between barrier runs, so no barrier
 * child is ever taken here. */
static void reap(struct job_table *jobs)
{
	int status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		for (size_t i = 0; i < jobs->n; i++)
			if (jobs->v[i].pid == pid) {
				jobs->v[i].done = true;
				jobs->v[i].status = status;
			}
}

static void ensure_job_dir(struct job_table *jobs)
{
	if (jobs->dir)
		return;
	const char *tmp = getenv("TMPDIR");
	char *t = xasprintf("%s/kli-jobs.XXXXXX", tmp && tmp[0] == '/' ? tmp : "/tmp");
	if (mkdtemp(t))
		jobs->dir = t;
	else
		free(t);
}

static struct job *job_by_id(struct job_table *jobs, long id)
{
	for (size_t i = 0; i < jobs->n; i++)
		if (jobs->v[i].id == id)
			return &jobs->v[i];
	return NULL;
}

/* The live facts mediate() checks a job tool against: the job's command. */
void agent_fill_job_commands(struct agent_shared *sh, struct tool_call *c)
{
	if (c->id == TOOL_BASH_OUTPUT || c->id == TOOL_BASH_KILL) {
		struct job *j = job_by_id(&sh->jobs, c->job);
		if (j)
			c->command = xstrdup(j->command);
	}
	if (c->id == TOOL_BASH_JOBS && sh->jobs.n) {
		c->commands = xcalloc(sh->jobs.n, sizeof *c->commands);
		for (size_t i = 0; i < sh->jobs.n; i++)
			c->commands[c->ncommands++] = xstrdup(sh->jobs.v[i].command);
	}
}

/* What the barrier child handed back that the parent must keep. */
static void after_run(struct agent_shared *sh, const struct tool_call *c,
		      const struct barrier_out *out)
{
	if (!out->ok)
		return;
	if (c->id == TOOL_BASH && c->background && out->aux > 0) {
		sh->jobs.v = xreallocarray(sh->jobs.v, sh->jobs.n + 1, sizeof *sh->jobs.v);
		sh->jobs.v[sh->jobs.n++] = (struct job){
			.id = sh->jobs.next_id,
			.pid = (pid_t)out->aux,
			.command = xstrdup(c->command),
			.out_path = xasprintf("%s/job-%ld.out", sh->jobs.dir, sh->jobs.next_id),
		};
		sh->jobs.next_id++;
	}
	if (c->id == TOOL_BASH_OUTPUT) {
		struct job *j = job_by_id(&sh->jobs, c->job);
		if (j)
			j->read_off = out->aux;
	}
}

static long tool_deadline_ms(const struct agent_shared *sh, const struct tool_call *c)
{
	if (c->id == TOOL_BASH && !c->background)
		return (c->timeout && c->timeout < sh->env.bash_timeout ? c->timeout
								       : sh->env.bash_timeout) *
			       1000 + 5000;
	return sh->tool_timeout_ms;
}

/* Run an allowed call behind the barrier; the result text for the model. */
char *agent_run_allowed(struct agent *a, const struct tool_call *c, bool *ok, char **show)
{
	*show = NULL;
	struct agent_shared *sh = a->sh;
	if (c->id == TOOL_BASH && c->background)
		ensure_job_dir(&sh->jobs);
	struct tool_env env = sh->env;
	env.owner = a->owner;
	struct tool_run run = { c, &env };
	long deadline = tool_deadline_ms(sh, c);
	struct barrier_result res;
	barrier_run(tool_execute, &run, deadline, &res);
	reap(&sh->jobs);
	char *text;
	if (res.outcome == BARRIER_RETURNED) {
		after_run(sh, c, &res.out);
		*show = steal_pointer(&res.out.show);
		*ok = res.out.ok;
		text = res.out.ok ? xstrdup(res.out.text ? res.out.text : "")
				  : xasprintf("error: %s", res.out.text ? res.out.text : "failed");
		if (res.out.fault) {
			_cleanup_free_ char *line = xasprintf("%s: tool %s: %.300s", a->label,
							      tool_spec(c->id)->name, res.out.text);
			agent_fault(sh, line);
		}
	} else if (res.outcome == BARRIER_CANCELLED) {
		*ok = false;
		text = xstrdup(CANCEL_TEXT);
	} else {
		_cleanup_free_ char *d = barrier_describe(&res, deadline);
		*ok = false;
		text = xasprintf("error: the tool %s %s; nothing else was affected",
				 tool_spec(c->id)->name, d);
		_cleanup_free_ char *line = xasprintf("%s: tool %s: %s", a->label,
						      tool_spec(c->id)->name, d);
		agent_fault(sh, line);
		warn_msg("tool %s %s", tool_spec(c->id)->name, d);
	}
	barrier_result_clear(&res);
	return text;
}

/* Keep a long result whole and give the model its head. */
static char *bounded(struct agent *a, const struct tool_call *c, char *text)
{
	if (strlen(text) <= AGENT_RESULT_SHOW || (c && c->id == TOOL_RESULT_READ))
		return text;
	struct result_store *rs = &a->sh->results;
	rs->v = xreallocarray(rs->v, rs->n + 1, sizeof *rs->v);
	rs->owner = xreallocarray(rs->owner, rs->n + 1, sizeof *rs->owner);
	rs->owner[rs->n] = a->owner;
	rs->v[rs->n++] = text;
	_cleanup_free_ char *id = xasprintf("r%zu", rs->n);
	return result_preview(text, AGENT_RESULT_SHOW, id);
}

/* A command's result with a sandbox hint at its end (hint.h): the hint
 * goes to the person watching too, and stays in sight of the model however
 * long the output before it is. */
char *agent_bounded_hinted(struct agent *a, const struct tool_call *c, char *text)
{
	size_t at = c->id == TOOL_BASH || c->id == TOOL_BASH_OUTPUT ? hint_split(text)
								     : (size_t)-1;
	if (at == (size_t)-1)
		return bounded(a, c, text);
	_cleanup_free_ char *hint = xstrdup(text + at + 2);
	text[at] = '\0';
	for (char *l = hint, *nl; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		if (!nl) {
			warn_msg("%s", l);
			break;
		}
		warn_msg("%.*s", (int)(nl - l), l);
	}
	_cleanup_free_ char *head = bounded(a, c, text);
	return xasprintf("%s\n\n%s", head, hint);
}

char *agent_refused(struct agent *a, const struct chat_call *cc, const char *message)
{
	/* One line for the person watching; the model gets the same words. A
	 * path the model names, or a link resolves to, may hold a newline: it
	 * must not print a line of its own. */
	_cleanup_free_ char *line = xstrdup(message);
	ctrl_scrub(line);
	warn_msg("%s", line);
	agent_emit(a, json_pack("{s:s, s:s, s:s, s:o}", "type", "denied", "id", cc->id, "name",
			  cc->name, "message", agent_jstr(message)));
	return xstrdup(message);
}
