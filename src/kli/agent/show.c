/* SPDX-License-Identifier: MIT */
/* A line per tool call: see agent/show.h. */
#include "config.h"
#include "agent/show.h"
#include "agent/term.h"
#include "tools/result.h"
#include "strbuf.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DESCRIBE_MAX 100

/* What the call acts on, in words. */
static void describe(struct strbuf *o, const struct tool_call *c, const char *workspace)
{
	switch (c->id) {
	case TOOL_READ:
	case TOOL_WRITE:
	case TOOL_EDIT:
	case TOOL_FIND:
	case TOOL_SEARCH:
		if (c->text && c->id != TOOL_WRITE)
			sb_addf(o, " %s", c->text);
		for (size_t i = 0; i < c->npaths; i++)
			if (i == 0 || strcmp(c->paths[i], c->paths[i - 1]) != 0)
				sb_addf(o, "%s%s", c->id == TOOL_FIND || c->id == TOOL_SEARCH
							   ? (i ? " " : " in ") : " ",
					tool_shown_path(c->paths[i], workspace));
		break;
	case TOOL_BASH:
		sb_addf(o, "%s %s", c->background ? " (background):" : ":", c->command);
		break;
	case TOOL_BASH_OUTPUT:
	case TOOL_BASH_KILL:
		sb_addf(o, " job %ld", c->job);
		break;
	case TOOL_RESULT_READ:
		sb_addf(o, " %s", c->result ? c->result : "");
		break;
	default:
		break;
	}
}

/* One line of LEN bytes at P, neutralised, into O. */
static void add_safe(struct strbuf *o, const char *p, size_t len)
{
	size_t used;
	_cleanup_free_ char *n = term_neutralise(p, len, true, &used);
	sb_adds(o, n);
}

static const char *colour_of(const char *line, size_t len)
{
	if (len >= 3 && (strncmp(line, "+++", 3) == 0 || strncmp(line, "---", 3) == 0))
		return "\033[1m";
	if (len >= 2 && strncmp(line, "@@", 2) == 0)
		return "\033[36m";
	if (len && line[0] == '+')
		return "\033[32m";
	if (len && line[0] == '-')
		return "\033[31m";
	return NULL;
}

char *show_render(const struct tool_call *c, const char *workspace, bool ok, const char *text,
		  const char *show, bool colour)
{
	struct strbuf head = STRBUF_INIT;
	describe(&head, c, workspace);
	_cleanup_free_ char *what = sb_detach(&head);
	ctrl_scrub(what);
	if (strlen(what) > DESCRIBE_MAX)
		strcpy(what + DESCRIBE_MAX - 3, "...");
	const char *nl = show ? strchr(show, '\n') : NULL;
	size_t sumlen = show ? (nl ? (size_t)(nl - show) : strlen(show)) : 0;
	const char *body = nl ? nl + 1 : "";

	struct strbuf o = STRBUF_INIT;
	sb_addf(&o, "\u25b8 %s", tool_spec(c->id)->name);
	add_safe(&o, what, strlen(what));
	if (sumlen) {
		sb_addc(&o, ' ');
		_cleanup_free_ char *sum = xstrndup(show, sumlen);
		ctrl_scrub(sum);
		add_safe(&o, sum, strlen(sum));
	} else if (!ok && text) {
		/* no summary from the tool: its first line says what failed */
		size_t n = strcspn(text, "\n");
		_cleanup_free_ char *first = xstrndup(text, n > 160 ? 160 : n);
		ctrl_scrub(first);
		sb_adds(&o, " \u2192 ");
		add_safe(&o, first, strlen(first));
	}
	sb_addc(&o, '\n');
	for (const char *l = body; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		const char *col = colour && (c->id == TOOL_EDIT || c->id == TOOL_WRITE)
					  ? colour_of(l, len) : NULL;
		sb_adds(&o, "  ");
		if (col)
			sb_adds(&o, col);
		_cleanup_free_ char *line = xstrndup(l, len);
		/* a CR or a tab stays visible and in its line */
		for (char *p = line; *p; p++)
			if (*p == '\r')
				*p = '?';
		add_safe(&o, line, len);
		if (col)
			sb_adds(&o, "\033[0m");
		sb_addc(&o, '\n');
		l += len + (e ? 1 : 0);
	}
	return sb_detach(&o);
}

void agent_show_call(struct agent *a, const struct tool_call *c, bool ok, const char *text,
		     const char *show)
{
	if (a->sh->json || a->sh->quiet)
		return;
	_cleanup_free_ char *s = show_render(c, a->sh->env.workspace, ok, text, show,
					     a->sh->show_tty);
	fflush(stdout);
	(void)!write(STDERR_FILENO, s, strlen(s));
}
