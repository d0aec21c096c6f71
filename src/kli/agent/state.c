/* SPDX-License-Identifier: MIT */
/* An agent's state (agent.h): one run's shared state (the model, the
 * authority context, the fault log, the stored results, the job table) and
 * an agent's conversation, set up, re-granted and cleared. Below the loop
 * (agent.c), the model turn (agent/turn.c) and the tool calls
 * (agent/tool-call.c), which all use it. */
#include "config.h"
#include "agent/state.h"
#include "agent/events.h"
#include "agent/turn.h"
#include "agent/tool-call.h"
#include "agent/trim.h"
#include "agent/barrier.h"
#include "hint/hint.h"
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
		"call.\n\nYour %s%s%s",
		a->sh->auth->workspace, authority, a->sh->instructions ? "\n\n" : "",
		a->sh->instructions ? a->sh->instructions : "");
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
						    agent_jstr(sys)));
}

void agent_set_grant(struct agent *a, const struct grant *g)
{
	a->grant = g;
	a->owner = ++a->sh->owners; /* what it stored before is not its to read now */
	_cleanup_free_ char *sys = system_prompt(a);
	json_object_set_new(json_array_get(a->history, 0), "content", agent_jstr(sys));
}

void agent_clear(struct agent *a)
{
	json_decref(a->history);
	free(a->label);
	*a = (struct agent){ 0 };
}
