/* SPDX-License-Identifier: MIT */
/* What a tool call is and what every tool run sees: the types the tools
 * share (tools.h says what the tools are). */
#ifndef KLI_TOOLS_CALL_H
#define KLI_TOOLS_CALL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "agent/barrier.h"
#include "authority/fsat.h"
#include "util.h"

struct jail_policy;

enum tool_id {
	TOOL_READ,
	TOOL_FIND,
	TOOL_SEARCH,
	TOOL_WRITE,
	TOOL_EDIT,
	TOOL_BASH,
	TOOL_BASH_OUTPUT,
	TOOL_BASH_KILL,
	TOOL_BASH_JOBS,
	TOOL_RESULT_READ,
	TOOL_TASK,
	TOOL_COUNT
};

struct tool_spec {
	enum tool_id id;
	const char *name;
	const char *description;
	const char *parameters;  /* JSON Schema, as text */
};

/* One replacement of an edit. */
struct edit_op {
	size_t file;       /* index into tool_call.paths */
	char *old_text;
	char *new_text;
	bool all;          /* every occurrence; else exactly one must exist */
};

/* A parsed call. Fields a tool does not use stay zero. */
struct tool_call {
	enum tool_id id;
	char **paths;      /* as given; mediate() replaces them by resolved ones */
	size_t npaths;
	/* one per path, opened by mediate() on exactly what it checked: the
	 * file tools act through these descriptors only */
	struct fs_target *targets;
	/* kli's own files (key, configs, fault log, cache) as (dev, inode):
	 * a walk skips them; owned by the caller of mediate() */
	const struct stat *excluded;
	size_t nexcluded;
	char *command;     /* bash; for bash-output and bash-kill, the job's */
	char **commands;   /* bash-jobs: every job's command (filled by the agent) */
	size_t ncommands;
	char *text;        /* write: content; search: regex; find: glob; task: prompt */
	char *glob;        /* search: only files whose name matches */
	char *result;      /* result-read: the id */
	long first, count; /* read: lines; result-read: bytes */
	long timeout;      /* bash: seconds, 0 for the default */
	long job;          /* bash-output, bash-kill */
	long max_turns;    /* task */
	bool background, ignore_case;
	/* bash: the command was allowed by a command constraint ("one of"):
	 * run it with git's program-running settings fixed (set by mediate()) */
	bool lockdown;
	/* bash: the command was allowed by a command prefix ("prefix"): run
	 * its words (authority/argv.h) with execve, not through the shell
	 * (set by mediate()) */
	bool argv_exec;
	struct edit_op *edits;
	size_t nedits;
	char **caps;       /* task: capability entries; NULL: the caller's grant */
	size_t ncaps;
	bool caps_given;
};

/* ------------------------------------------------------------- running */

struct job {
	long id;
	pid_t pid;          /* also its process group */
	char *command;
	char *out_path;
	off_t read_off;     /* what bash-output has shown */
	bool done;
	int status;         /* wait status, when done */
};

struct job_table {
	struct job *v;
	size_t n;
	long next_id;
	char *dir;          /* where output files go; made on first use */
};

struct result_store {
	char **v;           /* full texts, by id "rN" (N = index + 1) */
	unsigned *owner;    /* who stored each: only they read it back */
	size_t n;
};

/* What every tool run sees. */
struct tool_env {
	const char *workspace;
	char *const *bash_env;   /* the environment of every command */
	const char *shell;       /* absolute path of bash, else sh */
	long bash_timeout;       /* seconds: default and bound of a command */
	const struct job_table *jobs;
	const struct result_store *results;
	/* the agent, under its current grant, a tool runs for: result-read
	 * pages only through what the same owner stored (a sub-agent's grant
	 * does not cover what its parent read, nor a narrower /profile what
	 * was read before it) */
	unsigned owner;
	/* kjail's policy when kli runs in a jail ($KJAIL_POLICY), else NULL:
	 * only ever used for hint text (hint.h), never for what may run. */
	const struct jail_policy *policy;
};

struct tool_run {
	const struct tool_call *call;
	const struct tool_env *env;
};

#endif
