/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "agent/session.h"
#include "agent/cancel.h"
#include "authority/report.h"
#include "agent/term.h"
#include "util.h"

#include <errno.h>
#include <string.h>

static void help(FILE *out)
{
	fputs("Type a request for the agent, or a command:\n"
	      "  /authority      the grant this session holds\n"
	      "  /profile        the profile in use\n"
	      "  /profile NAME   switch to profile NAME (the flags still apply)\n"
	      "  /reset          forget the conversation\n"
	      "  /quit           leave (so does end of input)\n", out);
}

static void switch_profile(struct session *s, const char *name, FILE *out)
{
	char err[1024];
	struct grant *g = s->load(s->load_ctx, name, err, sizeof err);
	if (!g) {
		warn_msg("%s", err);
		return;
	}
	agent_set_grant(s->agent, g);
	grant_free(s->grant);
	s->grant = g;
	free(s->profile);
	s->profile = xstrdup(name);
	fprintf(out, "profile: %s\n", name);
}

/* A command line; false for /quit. */
static bool command(struct session *s, const char *line, FILE *out)
{
	if (strcmp(line, "/quit") == 0 || strcmp(line, "/exit") == 0)
		return false;
	if (strcmp(line, "/authority") == 0) {
		_cleanup_free_ char *r = report_text(s->grant);
		fputs(r, out);
	} else if (strcmp(line, "/profile") == 0) {
		fprintf(out, "profile: %s\n", s->profile);
	} else if (str_has_prefix(line, "/profile ")) {
		const char *name = line + strlen("/profile ");
		while (*name == ' ')
			name++;
		switch_profile(s, name, out);
	} else if (strcmp(line, "/reset") == 0) {
		agent_reset(s->agent);
		if (s->store)
			store_restart(s->store); /* the next prompt starts a new session */
		fputs("the conversation is forgotten\n", out);
	} else if (strcmp(line, "/help") == 0) {
		help(out);
	} else {
		warn_msg("unknown command '%.40s' (try /help)", line);
	}
	return true;
}

/* True when Ctrl-C cancelled the turn. */
static bool ask(struct session *s, const char *line, FILE *out)
{
	char *answer = NULL, *error = NULL;
	cancel_clear();
	bool ok = agent_ask(s->agent, line, s->max_turns, &answer, &error);
	bool cancelled = !ok && cancel_requested();
	cancel_clear(); /* this one is spent */
	store_save(s->store, s->agent->history);
	/* a cut answer too: nothing is lost (unless it was shown as it came) */
	if (answer && !s->agent->sh->json && !s->agent->answer_shown)
		term_print_answer(out, answer, s->agent->sh->live_tty);
	if (cancelled) {
		if (s->agent->sh->live_tty)
			fputc('\n', out); /* below a line the stream left open */
		fflush(out);
		warn_msg("the turn was cancelled (Ctrl-C again or Ctrl-D to leave)");
	} else if (!ok) {
		warn_msg("%s", error);
	}
	free(answer);
	free(error);
	return cancelled;
}

int session_run(struct session *s, FILE *in, FILE *out)
{
	char *line = NULL;
	size_t cap = 0;
	/* Ctrl-C with no line between it and the one before (a turn it
	 * cancelled, or the prompt) leaves */
	bool armed = false;
	int status = 0;
	for (;;) {
		if (s->prompt) {
			fputs("kli> ", stderr);
			fflush(stderr);
		}
		errno = 0;
		ssize_t n = cancel_requested() ? -1 : getline(&line, &cap, in);
		if (n < 0 && cancel_requested()) {
			clearerr(in);
			cancel_clear();
			if (s->prompt)
				fputc('\n', stderr);
			if (armed) {
				status = 130;
				break;
			}
			armed = true;
			warn_msg("Ctrl-C again or Ctrl-D to leave");
			continue;
		}
		if (n < 0 && errno == EINTR && !feof(in)) {
			clearerr(in);
			continue;
		}
		if (n < 0)
			break;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		const char *l = line;
		while (*l == ' ' || *l == '\t')
			l++;
		if (!*l)
			continue;
		armed = false;
		bool go_on = true;
		if (*l == '/')
			go_on = command(s, l, out);
		else
			armed = ask(s, l, out);
		fflush(out);
		if (!go_on)
			break;
	}
	free(line);
	return status;
}

bool session_resume(struct store *st, struct agent *a, const char *id, char *err, size_t errlen)
{
	struct transcript t;
	if (!st->dir) {
		snprintf(err, errlen, "--resume: no session directory");
		return false;
	}
	if (!store_load(st->dir, id, st->workspace, &t, err, errlen))
		return false;
	/* the conversation only: the system message (the authority) is the
	 * one agent_init made from this run's grant */
	json_array_extend(a->history, t.messages);
	free(st->id);
	st->id = steal_pointer(&t.id);
	st->created = t.created;
	free(st->first_prompt);
	st->first_prompt = steal_pointer(&t.first_prompt);
	warn_msg("resuming session %s (%zu messages)", st->id, json_array_size(t.messages));
	transcript_clear(&t);
	return true;
}
