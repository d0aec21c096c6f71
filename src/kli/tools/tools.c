/* SPDX-License-Identifier: MIT */
/* The tool table, argument parsing, and the dispatch a barrier child runs. */
#include "config.h"
#include "tools/tools.h"
#include "tools/bash.h"
#include "tools/edit.h"
#include "tools/files.h"
#include "tools/result.h"
#include "path.h"
#include "util.h"

#include <stdarg.h>
#include <string.h>

static const struct tool_spec specs[TOOL_COUNT] = {
	{ TOOL_READ, "read",
	  "Read a text file, with line numbers. Optional offset (first line, from 1) "
	  "and limit (number of lines) read a range.",
	  "{\"type\":\"object\",\"properties\":{"
	  "\"path\":{\"type\":\"string\"},"
	  "\"offset\":{\"type\":\"integer\",\"minimum\":1},"
	  "\"limit\":{\"type\":\"integer\",\"minimum\":1}},"
	  "\"required\":[\"path\"]}" },
	{ TOOL_FIND, "find",
	  "List files whose path matches a glob pattern, under a directory (default: the "
	  "workspace). A pattern without '/' matches file names at any depth.",
	  "{\"type\":\"object\",\"properties\":{"
	  "\"pattern\":{\"type\":\"string\"},"
	  "\"path\":{\"type\":\"string\"}},"
	  "\"required\":[\"pattern\"]}" },
	{ TOOL_SEARCH, "search",
	  "Search files for lines matching a POSIX extended regular expression, under a file "
	  "or directory (default: the workspace). Prints path:line:text.",
	  "{\"type\":\"object\",\"properties\":{"
	  "\"pattern\":{\"type\":\"string\"},"
	  "\"path\":{\"type\":\"string\"},"
	  "\"glob\":{\"type\":\"string\",\"description\":\"only files whose name matches\"},"
	  "\"ignore_case\":{\"type\":\"boolean\"}},"
	  "\"required\":[\"pattern\"]}" },
	{ TOOL_WRITE, "write",
	  "Create or replace a file with the given content (missing directories are made).",
	  "{\"type\":\"object\",\"properties\":{"
	  "\"path\":{\"type\":\"string\"},"
	  "\"content\":{\"type\":\"string\"}},"
	  "\"required\":[\"path\",\"content\"]}" },
	{ TOOL_EDIT, "edit",
	  "Replace exact text in files. old_text must occur exactly once unless replace_all "
	  "is true. Several files at once go in edits; either every edit applies or none does.",
	  "{\"type\":\"object\",\"properties\":{"
	  "\"path\":{\"type\":\"string\"},"
	  "\"old_text\":{\"type\":\"string\"},"
	  "\"new_text\":{\"type\":\"string\"},"
	  "\"replace_all\":{\"type\":\"boolean\"},"
	  "\"edits\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{"
	  "\"path\":{\"type\":\"string\"},\"old_text\":{\"type\":\"string\"},"
	  "\"new_text\":{\"type\":\"string\"},\"replace_all\":{\"type\":\"boolean\"}},"
	  "\"required\":[\"path\",\"old_text\",\"new_text\"]}}}}" },
	{ TOOL_BASH, "bash",
	  "Run a shell command in the workspace. Foreground commands are stopped after a "
	  "timeout (seconds); background ones run as jobs read with bash-output.",
	  "{\"type\":\"object\",\"properties\":{"
	  "\"command\":{\"type\":\"string\"},"
	  "\"timeout\":{\"type\":\"integer\",\"minimum\":1},"
	  "\"background\":{\"type\":\"boolean\"}},"
	  "\"required\":[\"command\"]}" },
	{ TOOL_BASH_OUTPUT, "bash-output",
	  "Show a background job's output since the last look, and whether it is running.",
	  "{\"type\":\"object\",\"properties\":{\"job\":{\"type\":\"integer\",\"minimum\":1}},"
	  "\"required\":[\"job\"]}" },
	{ TOOL_BASH_KILL, "bash-kill", "Stop a background job.",
	  "{\"type\":\"object\",\"properties\":{\"job\":{\"type\":\"integer\",\"minimum\":1}},"
	  "\"required\":[\"job\"]}" },
	{ TOOL_BASH_JOBS, "bash-jobs", "List the background jobs.",
	  "{\"type\":\"object\",\"properties\":{}}" },
	{ TOOL_RESULT_READ, "result-read",
	  "Read more of a long tool result that was cut short, by its id, from a byte offset.",
	  "{\"type\":\"object\",\"properties\":{"
	  "\"id\":{\"type\":\"string\"},"
	  "\"offset\":{\"type\":\"integer\",\"minimum\":0},"
	  "\"limit\":{\"type\":\"integer\",\"minimum\":1}},"
	  "\"required\":[\"id\"]}" },
	{ TOOL_TASK, "task",
	  "Hand a self-contained task to a sub-agent and get its final answer. capabilities "
	  "(entries like \"file/read\" or \"file/write under src/\") limit the sub-agent; "
	  "it can never hold more than you.",
	  "{\"type\":\"object\",\"properties\":{"
	  "\"prompt\":{\"type\":\"string\"},"
	  "\"capabilities\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
	  "\"max_turns\":{\"type\":\"integer\",\"minimum\":1}},"
	  "\"required\":[\"prompt\"]}" },
};

const struct tool_spec *tool_lookup(const char *name)
{
	for (size_t i = 0; i < TOOL_COUNT; i++)
		if (strcmp(specs[i].name, name) == 0)
			return &specs[i];
	return NULL;
}

const struct tool_spec *tool_spec(enum tool_id id)
{
	return &specs[id];
}

json_t *tools_schema(const bool offer[TOOL_COUNT])
{
	json_t *list = json_array();
	for (size_t i = 0; i < TOOL_COUNT; i++) {
		if (!offer[i])
			continue;
		json_t *params = json_loads(specs[i].parameters, 0, NULL);
		json_t *fn = json_pack("{s:s, s:s, s:o}", "name", specs[i].name, "description",
				       specs[i].description, "parameters",
				       params ? params : json_object());
		json_array_append_new(list, json_pack("{s:s, s:o}", "type", "function",
						      "function", fn));
	}
	return list;
}

/* ------------------------------------------------------------ parsing */

/* Every argument a tool accepts, so a misspelt one is an error, not a
 * silently ignored option. */
static const char *const accepted[TOOL_COUNT][6] = {
	[TOOL_READ] = { "path", "offset", "limit" },
	[TOOL_FIND] = { "pattern", "path" },
	[TOOL_SEARCH] = { "pattern", "path", "glob", "ignore_case" },
	[TOOL_WRITE] = { "path", "content" },
	[TOOL_EDIT] = { "path", "old_text", "new_text", "replace_all", "edits" },
	[TOOL_BASH] = { "command", "timeout", "background" },
	[TOOL_BASH_OUTPUT] = { "job" },
	[TOOL_BASH_KILL] = { "job" },
	[TOOL_BASH_JOBS] = { NULL },
	[TOOL_RESULT_READ] = { "id", "offset", "limit" },
	[TOOL_TASK] = { "prompt", "capabilities", "max_turns" },
};

static bool is_accepted(enum tool_id id, const char *key)
{
	for (size_t i = 0; i < 6 && accepted[id][i]; i++)
		if (strcmp(accepted[id][i], key) == 0)
			return true;
	return false;
}

static bool check_keys(enum tool_id id, json_t *obj, const char *const *extra, char *err,
		       size_t errlen)
{
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		bool ok = extra ? false : is_accepted(id, key);
		for (size_t i = 0; extra && extra[i]; i++)
			ok |= strcmp(extra[i], key) == 0;
		if (!ok) {
			fmt_into(err, errlen, "unknown argument '%.40s'", key);
			return false;
		}
	}
	return true;
}

/* A string argument: absent is fine unless REQUIRED; NUL bytes never are. */
static bool get_str(json_t *obj, const char *key, bool required, bool nonempty, char **out,
		    char *err, size_t errlen)
{
	json_t *v = json_object_get(obj, key);
	if (!v || json_is_null(v)) {
		if (required)
			fmt_into(err, errlen, "missing argument '%s'", key);
		return !required;
	}
	if (!json_is_string(v)) {
		fmt_into(err, errlen, "argument '%s' must be a string", key);
		return false;
	}
	if (strlen(json_string_value(v)) != json_string_length(v)) {
		fmt_into(err, errlen, "argument '%s' must not contain NUL characters", key);
		return false;
	}
	if (nonempty && json_string_length(v) == 0) {
		fmt_into(err, errlen, "argument '%s' must not be empty", key);
		return false;
	}
	*out = xstrdup(json_string_value(v));
	return true;
}

static bool get_int(json_t *obj, const char *key, bool required, long lo, long hi, long *out,
		    char *err, size_t errlen)
{
	json_t *v = json_object_get(obj, key);
	if (!v || json_is_null(v)) {
		if (required)
			fmt_into(err, errlen, "missing argument '%s'", key);
		return !required;
	}
	/* Models write 5.0 for 5 now and then; a whole real is taken. */
	double d = json_is_integer(v) ? (double)json_integer_value(v)
		 : json_is_real(v) ? json_real_value(v) : -1e300;
	if (d == -1e300 || d != (double)(long long)d) {
		fmt_into(err, errlen, "argument '%s' must be a whole number", key);
		return false;
	}
	if (d < (double)lo || d > (double)hi) {
		fmt_into(err, errlen, "argument '%s' must be from %ld to %ld", key, lo, hi);
		return false;
	}
	*out = (long)d;
	return true;
}

static bool get_bool(json_t *obj, const char *key, bool *out, char *err, size_t errlen)
{
	json_t *v = json_object_get(obj, key);
	if (!v || json_is_null(v))
		return true;
	if (!json_is_boolean(v)) {
		fmt_into(err, errlen, "argument '%s' must be true or false", key);
		return false;
	}
	*out = json_is_true(v);
	return true;
}

static size_t add_path(struct tool_call *c, char *p)
{
	for (size_t i = 0; i < c->npaths; i++)
		if (strcmp(c->paths[i], p) == 0) {
			free(p);
			return i;
		}
	c->paths = xreallocarray(c->paths, c->npaths + 1, sizeof *c->paths);
	c->paths[c->npaths] = p;
	return c->npaths++;
}

static bool take_path(json_t *a, const char *dflt, struct tool_call *c, char *err,
		      size_t errlen)
{
	char *p = NULL;
	if (!get_str(a, "path", !dflt, true, &p, err, errlen))
		return false;
	add_path(c, p ? p : xstrdup(dflt));
	return true;
}

static bool parse_edit_op(json_t *e, bool nested, struct tool_call *c, char *err, size_t errlen)
{
	static const char *const keys[] = { "path", "old_text", "new_text", "replace_all", NULL };
	if (nested && !json_is_object(e)) {
		fmt_into(err, errlen, "each entry of 'edits' must be an object");
		return false;
	}
	if (nested && !check_keys(TOOL_EDIT, e, keys, err, errlen))
		return false;
	struct edit_op op = { 0 };
	char *path = NULL;
	if (!get_str(e, "path", true, true, &path, err, errlen) ||
	    !get_str(e, "old_text", true, true, &op.old_text, err, errlen) ||
	    !get_str(e, "new_text", true, false, &op.new_text, err, errlen) ||
	    !get_bool(e, "replace_all", &op.all, err, errlen)) {
		free(path);
		free(op.old_text);
		free(op.new_text);
		return false;
	}
	op.file = add_path(c, path);
	c->edits = xreallocarray(c->edits, c->nedits + 1, sizeof *c->edits);
	c->edits[c->nedits++] = op;
	return true;
}

static bool parse_edit(json_t *a, struct tool_call *c, char *err, size_t errlen)
{
	json_t *edits = json_object_get(a, "edits");
	if (!edits)
		return parse_edit_op(a, false, c, err, errlen);
	if (json_object_size(a) != 1) {
		fmt_into(err, errlen, "give either 'edits' or path, old_text and new_text, "
				      "not both");
		return false;
	}
	if (!json_is_array(edits) || json_array_size(edits) == 0 ||
	    json_array_size(edits) > 100) {
		fmt_into(err, errlen, "'edits' must be a list of 1 to 100 edits");
		return false;
	}
	for (size_t i = 0; i < json_array_size(edits); i++)
		if (!parse_edit_op(json_array_get(edits, i), true, c, err, errlen))
			return false;
	return true;
}

static bool parse_caps(json_t *a, struct tool_call *c, char *err, size_t errlen)
{
	json_t *caps = json_object_get(a, "capabilities");
	if (!caps || json_is_null(caps))
		return true;
	if (!json_is_array(caps) || json_array_size(caps) > 64) {
		fmt_into(err, errlen, "'capabilities' must be a list of at most 64 entries");
		return false;
	}
	c->caps_given = true;
	c->caps = xcalloc(json_array_size(caps) + 1, sizeof *c->caps);
	for (size_t i = 0; i < json_array_size(caps); i++) {
		json_t *v = json_array_get(caps, i);
		const char *s = json_string_value(v);
		if (!s || strlen(s) != json_string_length(v) || strchr(s, ',')) {
			fmt_into(err, errlen, "each capability must be one entry, as text");
			return false;
		}
		c->caps[c->ncaps++] = xstrdup(s);
	}
	return true;
}

static bool parse_args(json_t *a, struct tool_call *c, char *err, size_t errlen)
{
	switch (c->id) {
	case TOOL_READ:
		return take_path(a, NULL, c, err, errlen) &&
		       get_int(a, "offset", false, 1, 100000000, &c->first, err, errlen) &&
		       get_int(a, "limit", false, 1, 100000000, &c->count, err, errlen);
	case TOOL_FIND:
		return get_str(a, "pattern", true, true, &c->text, err, errlen) &&
		       take_path(a, ".", c, err, errlen);
	case TOOL_SEARCH:
		return get_str(a, "pattern", true, true, &c->text, err, errlen) &&
		       take_path(a, ".", c, err, errlen) &&
		       get_str(a, "glob", false, true, &c->glob, err, errlen) &&
		       get_bool(a, "ignore_case", &c->ignore_case, err, errlen);
	case TOOL_WRITE:
		return take_path(a, NULL, c, err, errlen) &&
		       get_str(a, "content", true, false, &c->text, err, errlen);
	case TOOL_EDIT:
		return parse_edit(a, c, err, errlen);
	case TOOL_BASH:
		return get_str(a, "command", true, true, &c->command, err, errlen) &&
		       get_int(a, "timeout", false, 1, 86400, &c->timeout, err, errlen) &&
		       get_bool(a, "background", &c->background, err, errlen);
	case TOOL_BASH_OUTPUT:
	case TOOL_BASH_KILL:
		return get_int(a, "job", true, 1, 1000000, &c->job, err, errlen);
	case TOOL_BASH_JOBS:
		return true;
	case TOOL_RESULT_READ:
		return get_str(a, "id", true, true, &c->result, err, errlen) &&
		       get_int(a, "offset", false, 0, 1L << 40, &c->first, err, errlen) &&
		       get_int(a, "limit", false, 1, 1L << 20, &c->count, err, errlen);
	case TOOL_TASK:
		return get_str(a, "prompt", true, true, &c->text, err, errlen) &&
		       parse_caps(a, c, err, errlen) &&
		       get_int(a, "max_turns", false, 1, 1000, &c->max_turns, err, errlen);
	default:
		fmt_into(err, errlen, "no such tool");
		return false;
	}
}

bool tool_call_parse(const struct tool_spec *t, const char *arguments, struct tool_call *out,
		     char *err, size_t errlen)
{
	*out = (struct tool_call){ .id = t->id };
	json_error_t jerr;
	json_t *a = json_loads(*arguments ? arguments : "{}", JSON_REJECT_DUPLICATES, &jerr);
	bool ok = false;
	if (!a)
		fmt_into(err, errlen, "the arguments are not valid JSON (%s)", jerr.text);
	else if (!json_is_object(a))
		fmt_into(err, errlen, "the arguments must be a JSON object");
	else
		ok = check_keys(t->id, a, NULL, err, errlen) && parse_args(a, out, err, errlen);
	json_decref(a);
	if (!ok)
		tool_call_clear(out);
	return ok;
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void tool_call_clear(struct tool_call *c)
{
	if (c->targets)
		for (size_t i = 0; i < c->npaths; i++)
			fsat_target_close(&c->targets[i]);
	free(c->targets);
	free_strs(c->paths, c->npaths);
	free_strs(c->commands, c->ncommands);
	free_strs(c->caps, c->ncaps);
	free(c->command);
	free(c->text);
	free(c->glob);
	free(c->result);
	for (size_t i = 0; i < c->nedits; i++) {
		free(c->edits[i].old_text);
		free(c->edits[i].new_text);
	}
	free(c->edits);
	*c = (struct tool_call){ 0 };
}

/* ------------------------------------------------------------ running */

void tool_execute(void *arg, struct barrier_out *out)
{
	const struct tool_run *run = arg;
	static void (*const fns[TOOL_COUNT])(const struct tool_call *, const struct tool_env *,
					     struct barrier_out *) = {
		[TOOL_READ] = tool_read,
		[TOOL_FIND] = tool_find,
		[TOOL_SEARCH] = tool_search,
		[TOOL_WRITE] = tool_write,
		[TOOL_EDIT] = tool_edit,
		[TOOL_BASH] = tool_bash,
		[TOOL_BASH_OUTPUT] = tool_bash_output,
		[TOOL_BASH_KILL] = tool_bash_kill,
		[TOOL_BASH_JOBS] = tool_bash_jobs,
		[TOOL_RESULT_READ] = tool_result_read,
	};
	enum tool_id id = run->call->id;
	if (id >= TOOL_COUNT || !fns[id]) {
		tool_fail(out, "this tool does not run in a child");
		return;
	}
	fns[id](run->call, run->env, out);
}
