/* SPDX-License-Identifier: MIT */
/* agent/state.c: one run's shared state and an agent's (agent.h says what
 * they are); agent_ask() is agent.c's (agent.h). */
#ifndef KLI_AGENT_STATE_H
#define KLI_AGENT_STATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "agent/environ.h"
#include "authority/authority.h"
#include "model/client.h"
#include "tools/tools.h"

/* A tool result longer than this reaches the model cut, the rest pageable
 * with result-read. */
#define AGENT_RESULT_SHOW 16384
/* How deep sub-agents may nest (the main agent is depth 0). */
#define AGENT_MAX_DEPTH 2
#define AGENT_TOOL_TIMEOUT_MS 120000L

struct agent_shared {
	const struct model_conf *model;
	const struct auth_ctx *auth;
	struct tool_env env;          /* env.jobs and env.results point below */
	struct job_table jobs;
	struct result_store results;
	char *fault_log;              /* NULL: faults are not logged */
	bool fault_log_failed;        /* said so once already */
	bool json;                    /* events on OUT, one JSON object a line */
	FILE *out;
	long tool_timeout_ms;
	unsigned ntasks;              /* sub-agents started, for their labels */
	unsigned owners;              /* owner numbers handed out (struct agent) */
	struct jail_policy *policy;   /* kjail's ($KJAIL_POLICY), for hints only */
	int live_fd;                  /* the main agent's streamed text goes here; -1: none */
	bool live_tty;                /* live_fd is a terminal: neutralise (term.h) */
	bool quiet;                   /* --quiet: no line per tool call (show.h) */
	bool show_tty;                /* stderr is a terminal: colour the diffs */
	const char *instructions;     /* AGENTS.md text (instructions.h), or NULL */
	/* for the --json result record: every agent's, sub-agents' too */
	long turns, tool_calls;
	bool usage;                   /* a server reply carried token counts */
	long long prompt_tokens, completion_tokens;
};

struct agent {
	struct agent_shared *sh;
	const struct grant *grant;
	json_t *history;              /* the messages so far */
	unsigned depth;
	char *label;                  /* "main", "task-1", ... */
	unsigned owner;               /* of the results it stores: new with each grant */
	bool answer_shown;            /* agent_ask's answer was already printed as it streamed */
};

/* WORKSPACE's job directory is made under TMPDIR (or /tmp) on first use.
 * Inside a kjail jail, its policy ($KJAIL_POLICY) is read here, for hints. */
void agent_shared_init(struct agent_shared *sh, const struct model_conf *model,
		       const struct auth_ctx *auth);
/* Stops every job still running and removes their output. */
void agent_shared_clear(struct agent_shared *sh);

void agent_init(struct agent *a, struct agent_shared *sh, const struct grant *g,
		unsigned depth, const char *label);
void agent_clear(struct agent *a);

/* Forget the conversation (the grant stays). */
void agent_reset(struct agent *a);
/* Take a new grant for the turns to come (interactive /profile). */
void agent_set_grant(struct agent *a, const struct grant *g);

/* Log one fault line (and say once on stderr when the log cannot be written). */
void agent_fault(struct agent_shared *sh, const char *what);

#endif
