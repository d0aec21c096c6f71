/* SPDX-License-Identifier: MIT */
/* Sandbox hints: recognise a denial in a command's output and say which
 * rule most likely refused it and how to change that. See hint.h. The
 * parts: taking text apart (words.c), recognising a line (match.c),
 * where a word leads in the jail (scan.c), the text (render.c).
 * Here: the passes over the output and the split of a tool result. Only
 * the hint_env callbacks touch the system. */
#include "config.h"
#include "hint/hint.h"
#include "hint/egress.h"
#include "hint/match.h"
#include "hint/render.h"
#include "hint/scan.h"
#include "hint/words.h"
#include "util.h"

#include <errno.h>
#include <string.h>

/* What one hint computation may look at: the output's lines and bytes. */
#define MAX_LINE 4096
#define MAX_OUTPUT (1024u * 1024)

/* Does LINE report a write the jail refused? */
static bool refused_write(struct hint_scan *s, const char *line, struct hint_finding *f)
{
	const char *at;
	enum hint_refusal r = hint_refusal_of(line, &at);
	if (r == HINT_REF_NONE)
		return false;
	bool mount_only = r == HINT_REF_EROFS || r == HINT_REF_EBUSY;
	if (!mount_only && !s->env->write_errno && !hint_says_write(line))
		return false;
	struct hint_words cand = { 0 };
	hint_quoted(line, &cand);
	hint_field_before(line, at, &cand);
	hint_path_tokens(line, &cand, false);
	bool found = false;
	for (size_t i = 0; i < cand.n && !found; i++) {
		char *real;
		bool (*want)(const struct jail_mount *) = r == HINT_REF_EROFS ? hint_is_not_writable
							  : r == HINT_REF_EBUSY ? hint_is_protected
										: hint_is_refusing;
		const struct jail_mount *m = hint_lookup(s, cand.v[i], want, &real);
		if (!m)
			continue;
		/* EACCES or EPERM on a read-only mount: the jail's only when the
		 * mount, not the file's mode, is what stops a write there. */
		if (!mount_only && s->env->write_errno && s->env->write_errno(real) != EROFS) {
			free(real);
			continue;
		}
		*f = (struct hint_finding){ m, real, hint_one_line(line, HINT_SHOW_LINE), true,
					    NULL };
		found = true;
	}
	hint_words_free(&cand);
	return found;
}

/* The first line of OUTPUT naming NEEDLE (NULL: any line with text). */
static char *line_naming(const char *output, const char *needle)
{
	for (const char *l = output; *l;) {
		size_t n = strcspn(l, "\n");
		_cleanup_free_ char *line = xstrndup(l, n < MAX_LINE ? n : MAX_LINE);
		if (needle ? strstr(line, needle) != NULL : line[strspn(line, " \t\r")] != '\0')
			return hint_one_line(line, HINT_SHOW_LINE);
		l += n + (l[n] == '\n');
	}
	return NULL;
}

/* Does the command name a masked path? */
static bool masked_word(struct hint_scan *s, const struct hint_words *w, const char *output,
			struct hint_finding *f)
{
	for (size_t i = 0; i < w->n; i++) {
		const char *word = w->v[i];
		if (word[0] == '-') {
			word = strchr(word, '=');
			if (!word)
				continue;
			word++;
		} else if (strchr(word, '=') && word[0] != '/' && word[0] != '~') {
			word = strchr(word, '=') + 1; /* VAR=PATH */
		}
		if (!*word)
			continue;
		char *real;
		const struct jail_mount *m = hint_lookup(s, word, hint_is_masked, &real);
		if (!m)
			continue;
		char *seen = line_naming(output, real);
		if (!seen)
			seen = line_naming(output, word);
		if (!seen)
			seen = output[strspn(output, " \t\r\n")] ? line_naming(output, NULL)
								  : xstrdup("(no output)");
		*f = (struct hint_finding){ m, real, seen, false, NULL };
		return true;
	}
	return false;
}

/* Does a line of the output name a masked path it found empty or missing? */
static bool masked_in_line(struct hint_scan *s, const char *line, struct hint_finding *f)
{
	if (!hint_says_trouble(line))
		return false;
	struct hint_words cand = { 0 };
	hint_quoted(line, &cand);
	hint_path_tokens(line, &cand, true);
	bool found = false;
	for (size_t i = 0; i < cand.n && !found; i++) {
		const char *c = cand.v[i];
		if (c[0] != '/' && c[0] != '~' && c[0] != '$')
			continue;
		char *real;
		const struct jail_mount *m = hint_lookup(s, c, hint_is_masked, &real);
		if (m) {
			*f = (struct hint_finding){ m, real, hint_one_line(line, HINT_SHOW_LINE),
						    false, NULL };
			found = true;
		}
	}
	hint_words_free(&cand);
	return found;
}

enum pass { PASS_WRITE, PASS_NETWORK, PASS_EGRESS, PASS_MASK, PASS_COUNT };

/* The last refusal in the proxy's log, when the output does not name it. */
static char *egress_from_log(const struct jail_policy *p, const struct hint_env *env)
{
	size_t len = 0;
	_cleanup_free_ char *log = p->net_log && env->read_log ? env->read_log(p->net_log, &len)
							       : NULL;
	return log ? hint_egress_last_refused(log, len) : NULL;
}

char *hint_for(const struct jail_policy *p, const struct hint_env *env, const char *command,
	       int exit_status, const char *output)
{
	if (!p || !env || !command)
		return NULL;
	if (!output)
		output = "";
	size_t outlen = strnlen(output, MAX_OUTPUT);
	struct hint_words w = { 0 };
	hint_shell_words(command, &w);
	struct hint_scan s;
	hint_scan_init(&s, p, env, &w);
	struct hint_finding f = { 0 };
	bool found = false;
	bool no_network = p->network_known && !p->network && !p->allowlist;
	bool blank = output[strspn(output, " \t\r\n")] == '\0';
	for (enum pass pass = PASS_WRITE; pass < PASS_COUNT && !found; pass++) {
		if ((pass == PASS_NETWORK && !no_network) || (pass == PASS_EGRESS && !p->allowlist))
			continue;
		/* a command that succeeded gets no write or network hint, whatever
		 * it printed; a masked read succeeds by design (it reads empty), so
		 * after a success only an empty output is one: what printed text
		 * read something, from that path or another */
		if (exit_status == 0 && (pass != PASS_MASK || !blank))
			continue;
		if (pass == PASS_MASK && masked_word(&s, &w, output, &f)) {
			found = true;
			break;
		}
		for (const char *l = output; l < output + outlen && !found;) {
			size_t n = strcspn(l, "\n");
			if ((size_t)(l - output) + n > outlen)
				n = outlen - (size_t)(l - output);
			_cleanup_free_ char *line = xstrndup(l, n < MAX_LINE ? n : MAX_LINE);
			l += n + (l[n] == '\n');
			if (pass == PASS_WRITE)
				found = refused_write(&s, line, &f);
			else if (pass == PASS_NETWORK && hint_says_network(line)) {
				f = (struct hint_finding){ NULL, NULL,
							   hint_one_line(line, HINT_SHOW_LINE), false,
							   NULL };
				found = true;
			} else if (pass == PASS_EGRESS && hint_egress_refused(line, &f.dest)) {
				f.observed = hint_one_line(line, HINT_SHOW_LINE);
				if (!f.dest)
					f.dest = egress_from_log(p, env);
				found = true;
			} else if (pass == PASS_MASK)
				found = masked_in_line(&s, line, &f);
		}
	}
	char *hint = found ? hint_render(p, env, command, exit_status, &f) : NULL;
	free(f.path);
	free(f.dest);
	free(f.observed);
	hint_scan_clear(&s);
	hint_words_free(&w);
	return hint;
}

/* -------------------------------------------------------------- split */

size_t hint_split(const char *text)
{
	if (!text)
		return (size_t)-1;
	static const char sep[] = "\n\n" HINT_HEAD;
	const char *last = NULL;
	for (const char *c = strstr(text, sep); c; c = strstr(c + 1, sep))
		last = c;
	if (!last)
		return (size_t)-1;
	/* The block: its head line, then lines indented by two spaces, none
	 * empty, to the end of the text. */
	const char *l = last + 2;
	l += strcspn(l, "\n");
	while (*l == '\n' && l[1]) {
		l++;
		if (strncmp(l, "  ", 2) != 0 || l[2] == ' ' || l[2] == '\n' || !l[2])
			return (size_t)-1;
		l += strcspn(l, "\n");
	}
	return (size_t)(last - text);
}
