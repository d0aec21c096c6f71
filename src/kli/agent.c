/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "agent.h"
#include "barrier.h"
#include "hint.h"
#include "mediate.h"
#include "model/key.h"
#include "report.h"
#include "term.h"
#include "tools/text.h"
#include "path.h"
#include "strv.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------ shared */

void agent_shared_init(struct agent_shared *sh, const struct model_conf *model,
		       const struct auth_ctx *auth)
{
	*sh = (struct agent_shared){ .model = model, .auth = auth, .out = stdout,
				     .tool_timeout_ms = AGENT_TOOL_TIMEOUT_MS, .live_fd = -1 };
	sh->jobs.next_id = 1;
	sh->env.workspace = auth->workspace;
	sh->env.jobs = &sh->jobs;
	sh->env.results = &sh->results;
	/* kjail's policy, when kli runs in a jail: read once, as the run
	 * starts, before any tool has run. It only ever feeds hints (hint.h);
	 * a missing or unusable one just means none. */
	const char *policy = getenv(HINT_POLICY_ENV);
	if (policy && policy[0] == '/')
		sh->policy = jail_policy_load(policy);
	sh->env.policy = sh->policy;
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e = readdir(d); e; e = readdir(d)) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		_cleanup_free_ char *p = path_join(dir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

void agent_shared_clear(struct agent_shared *sh)
{
	for (size_t i = 0; i < sh->jobs.n; i++) {
		struct job *j = &sh->jobs.v[i];
		if (!j->done) {
			kill(-j->pid, SIGKILL);
			waitpid(j->pid, NULL, 0);
		}
		free(j->command);
		free(j->out_path);
	}
	free(sh->jobs.v);
	if (sh->jobs.dir)
		remove_dir(sh->jobs.dir);
	free(sh->jobs.dir);
	for (size_t i = 0; i < sh->results.n; i++)
		free(sh->results.v[i]);
	free(sh->results.v);
	free(sh->results.owner);
	free(sh->fault_log);
	jail_policy_free(sh->policy);
	*sh = (struct agent_shared){ 0 };
}

void agent_fault(struct agent_shared *sh, const char *what)
{
	if (!sh->fault_log)
		return;
	if (faultlog_append(sh->fault_log, what, FAULTLOG_CAP) || sh->fault_log_failed)
		return;
	sh->fault_log_failed = true;
	warn_msg("cannot write the fault log %s: %s", sh->fault_log, strerror(errno));
}

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

/* ------------------------------------------------------------ events */

/* A JSON string from text that need not be UTF-8 (paths, server words). */
static json_t *jstr(const char *s)
{
	char *c = xstrdup(s ? s : "");
	utf8_scrub(c, strlen(c));
	json_t *j = json_string(c);
	free(c);
	return j;
}

static void emit(struct agent *a, json_t *ev)
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
static json_t *args_value(const char *arguments)
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

static void emit_turn(struct agent *a, long turn, const struct chat_reply *r)
{
	json_t *calls = json_array();
	for (size_t i = 0; i < r->ncalls; i++)
		json_array_append_new(calls, json_pack("{s:s, s:s, s:o}", "id", r->calls[i].id,
						       "name", r->calls[i].name, "arguments",
						       args_value(r->calls[i].arguments)));
	emit(a, json_pack("{s:s, s:I, s:o, s:o}", "type", "turn", "turn", (json_int_t)turn,
			  "content", r->content ? json_string(r->content) : json_null(),
			  "tool_calls", calls));
}

/* ------------------------------------------------------------- agent */

static char *system_prompt(const struct agent *a)
{
	_cleanup_free_ char *authority = report_text(a->grant);
	return xasprintf(
		"You are kli, a coding agent. The workspace is %s; relative paths are taken "
		"from it. Use the tools to read, search and change files and to run commands. "
		"Every tool call is checked against your authority: a call beyond it comes back "
		"as \"denied: ...\"; do not repeat it, work within your authority or say what "
		"you would need. When the task is done, answer with a short summary and no tool "
		"call.\n\nYour %s",
		a->sh->auth->workspace, authority);
}

void agent_init(struct agent *a, struct agent_shared *sh, const struct grant *g,
		unsigned depth, const char *label)
{
	*a = (struct agent){ .sh = sh, .grant = g, .depth = depth, .label = xstrdup(label),
			     .owner = ++sh->owners };
	agent_reset(a);
}

void agent_reset(struct agent *a)
{
	json_decref(a->history);
	a->history = json_array();
	_cleanup_free_ char *sys = system_prompt(a);
	json_array_append_new(a->history, json_pack("{s:s, s:o}", "role", "system", "content",
						    jstr(sys)));
}

void agent_set_grant(struct agent *a, const struct grant *g)
{
	a->grant = g;
	a->owner = ++a->sh->owners; /* what it stored before is not its to read now */
	_cleanup_free_ char *sys = system_prompt(a);
	json_object_set_new(json_array_get(a->history, 0), "content", jstr(sys));
}

void agent_clear(struct agent *a)
{
	json_decref(a->history);
	free(a->label);
	*a = (struct agent){ 0 };
}

/* ------------------------------------------------------- model turn */

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

static void model_child(void *arg, struct barrier_out *out)
{
	const struct model_job *job = arg;
	struct chat_reply r;
	char err[600];
	struct term_live tl;
	term_live_init(&tl, job->live_fd, job->live_tty, job->conf->key);
	struct model_live live = { live_text, &tl };
	enum model_failure why;
	bool ok = model_exchange(job->conf, job->body, job->live_fd >= 0 ? &live : NULL, &r, &why,
				 err, sizeof err);
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
static bool model_turn(struct agent *a, struct chat_reply *reply, char **error, bool *too_long,
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

/* ------------------------------------------------------- tool calls */

static struct job *job_by_id(struct job_table *jobs, long id)
{
	for (size_t i = 0; i < jobs->n; i++)
		if (jobs->v[i].id == id)
			return &jobs->v[i];
	return NULL;
}

/* The live facts mediate() checks a job tool against: the job's command. */
static void fill_job_commands(struct agent_shared *sh, struct tool_call *c)
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
static char *run_allowed(struct agent *a, const struct tool_call *c, bool *ok)
{
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
		*ok = res.out.ok;
		text = res.out.ok ? xstrdup(res.out.text ? res.out.text : "")
				  : xasprintf("error: %s", res.out.text ? res.out.text : "failed");
		if (res.out.fault) {
			_cleanup_free_ char *line = xasprintf("%s: tool %s: %.300s", a->label,
							      tool_spec(c->id)->name, res.out.text);
			agent_fault(sh, line);
		}
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
static char *bounded_hinted(struct agent *a, const struct tool_call *c, char *text)
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

static char *refused(struct agent *a, const struct chat_call *cc, const char *message)
{
	/* One line for the person watching; the model gets the same words. A
	 * path the model names, or a link resolves to, may hold a newline: it
	 * must not print a line of its own. */
	_cleanup_free_ char *line = xstrdup(message);
	ctrl_scrub(line);
	warn_msg("%s", line);
	emit(a, json_pack("{s:s, s:s, s:s, s:o}", "type", "denied", "id", cc->id, "name",
			  cc->name, "message", jstr(message)));
	return xstrdup(message);
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
	fill_job_commands(a->sh, &c);
	struct grant *conferred = NULL;
	_cleanup_free_ char *message = NULL;
	enum mediate_verdict v = mediate(a->grant, &c, a->sh->auth,
					 a->depth < AGENT_MAX_DEPTH ? &conferred : NULL, &message);
	char *text;
	if (v == MEDIATE_DENIED)
		text = refused(a, cc, message);
	else if (v == MEDIATE_INVALID)
		text = xasprintf("error: %s: %s", t->name, message);
	else if (c.id == TOOL_TASK)
		text = run_task(a, &c, conferred, ok);
	else
		text = run_allowed(a, &c, ok);
	grant_free(conferred);
	text = bounded_hinted(a, &c, text);
	tool_call_clear(&c);
	return text;
}

static void tool_turn(struct agent *a, const struct chat_call *cc)
{
	emit(a, json_pack("{s:s, s:s, s:s, s:o}", "type", "tool_call", "id", cc->id, "name",
			  cc->name, "arguments", args_value(cc->arguments)));
	bool ok;
	char *text = dispatch(a, cc, &ok);
	utf8_scrub(text, strlen(text));
	emit(a, json_pack("{s:s, s:s, s:s, s:b, s:s}", "type", "tool_result", "id", cc->id,
			  "name", cc->name, "ok", ok, "content", text));
	json_array_append_new(a->history, json_pack("{s:s, s:s, s:s, s:s}", "role", "tool",
						    "tool_call_id", cc->id, "name", cc->name,
						    "content", text));
	free(text);
}

/* ------------------------------------------------------ context limit */

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
	json_object_set_new(m, "content", jstr(line));
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
static bool retry_trimmed(struct agent *a, bool *trimmed, char **error)
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
	emit(a, json_pack("{s:s, s:I, s:I, s:s}", "type", "trimmed", "dropped", (json_int_t)n,
			  "bytes", (json_int_t)bytes, "message", line));
	free(*error);
	*error = NULL;
	return true;
}

bool agent_ask(struct agent *a, const char *prompt, long max_turns, char **answer,
	       char **error)
{
	*answer = *error = NULL;
	a->answer_shown = false;
	json_array_append_new(a->history, json_pack("{s:s, s:o}", "role", "user", "content",
						    jstr(prompt)));
	bool trimmed = false;
	for (long turn = 1; turn <= max_turns; turn++) {
		struct chat_reply r;
		bool too_long, shown;
		if (!model_turn(a, &r, error, &too_long, &shown)) {
			if (too_long && retry_trimmed(a, &trimmed, error)) {
				turn--;
				continue;
			}
			emit(a, json_pack("{s:s, s:o}", "type", "error", "message", jstr(*error)));
			return false;
		}
		trimmed = false; /* each rejection gets its one trimmed retry */
		emit_turn(a, turn, &r);
		json_array_append_new(a->history, chat_reply_message(&r));
		/* Tool calls of a filtered answer may be cut anywhere: none is run. */
		if (r.finish_reason && strcmp(r.finish_reason, "content_filter") == 0) {
			*answer = r.content ? xstrdup(r.content) : NULL;
			a->answer_shown = shown;
			chat_reply_clear(&r);
			*error = xstrdup("the server's content filter stopped the answer "
					 "(finish_reason \"content_filter\")");
			emit(a, json_pack("{s:s, s:o}", "type", "error", "message", jstr(*error)));
			return false;
		}
		for (size_t i = 0; i < r.ncalls; i++)
			tool_turn(a, &r.calls[i]);
		if (r.ncalls == 0) {
			*answer = xstrdup(r.content ? r.content : "");
			a->answer_shown = shown;
			/* the model ran out of room: what it said is not its answer */
			bool cut = r.finish_reason && strcmp(r.finish_reason, "length") == 0;
			chat_reply_clear(&r);
			if (cut) {
				*error = xstrdup("the model stopped at its output limit (finish_reason "
						 "\"length\"): the answer is cut short");
				emit(a, json_pack("{s:s, s:o}", "type", "error", "message", jstr(*error)));
				return false;
			}
			emit(a, json_pack("{s:s, s:s}", "type", "final", "content", *answer));
			return true;
		}
		chat_reply_clear(&r);
	}
	*error = xasprintf("no final answer within %ld turn%s (see --max-turns)", max_turns,
			   max_turns == 1 ? "" : "s");
	emit(a, json_pack("{s:s, s:o}", "type", "error", "message", jstr(*error)));
	return false;
}

/* ------------------------------------------------------- environment */

/* The proxy variables (kjail --allow-host sets them: the jail's only way
 * out) pass any allowlist, as PATH does, unless the value carries
 * credentials ("user:pass@"). */
static bool is_proxy_setting(const char *entry, size_t n)
{
	static const char *const names[] = { "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && strncasecmp(entry, names[i], n) == 0)
			return entry[n] == '=' && !strchr(entry + n, '@');
	return false;
}

static bool allowed_name(const char *entry, char *const *allow, size_t nallow)
{
	size_t n = strcspn(entry, "=");
	if (n == 4 && strncmp(entry, "PATH", 4) == 0)
		return true;
	if (is_proxy_setting(entry, n))
		return true;
	for (size_t i = 0; i < nallow; i++) {
		size_t k = strlen(allow[i]);
		if (k > 0 && allow[i][k - 1] == '*') {
			if (n >= k - 1 && strncmp(entry, allow[i], k - 1) == 0)
				return true;
		} else if (k == n && strncmp(entry, allow[i], n) == 0) {
			return true;
		}
	}
	return false;
}

char **agent_tool_environ(char *const *environ, char *const *allow, size_t nallow,
			  const char *key)
{
	struct strv env = STRV_INIT;
	for (size_t i = 0; environ && environ[i]; i++) {
		const char *e = environ[i];
		const char *eq = strchr(e, '=');
		if (!eq)
			continue;
		if (allow && !allowed_name(e, allow, nallow))
			continue;
		/* Whatever it is called, a variable holding the key stays out. */
		if (key_in_value(eq + 1, key))
			continue;
		strv_push(&env, e);
	}
	strv_argv(&env);
	return env.v;
}
