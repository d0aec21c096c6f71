/* SPDX-License-Identifier: MIT */
/* Sandbox hints, taking text apart: see hint/words.h. */
#include "config.h"
#include "hint/words.h"
#include "util.h"

#include <string.h>

void hint_words_free(struct hint_words *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	*w = (struct hint_words){ 0 };
}

void hint_words_push(struct hint_words *w, const char *s, size_t n)
{
	if (n == 0 || n >= HINT_MAX_WORD || w->n >= HINT_MAX_WORDS)
		return;
	w->v = xreallocarray(w->v, w->n + 1, sizeof *w->v);
	/* s is a scratch buffer, not NUL-terminated: copy exactly n bytes */
	char *word = xmalloc(n + 1);
	memcpy(word, s, n);
	word[n] = '\0';
	w->v[w->n++] = word;
}

/* The words of a shell command, roughly as the shell would see them:
 * quotes removed, backslashes applied, operators and substitutions as
 * separators. Good enough to find the paths a command names. */
void hint_shell_words(const char *cmd, struct hint_words *out)
{
	size_t cap = strlen(cmd) + 1;
	_cleanup_free_ char *buf = xmalloc(cap);
	size_t n = 0;
	bool in_word = false;
	for (const char *c = cmd; *c && out->n < HINT_MAX_WORDS; c++) {
		if (*c == '\'') {
			in_word = true;
			for (c++; *c && *c != '\''; c++)
				buf[n++] = *c;
			if (!*c)
				break;
		} else if (*c == '"') {
			in_word = true;
			for (c++; *c && *c != '"'; c++) {
				if (*c == '\\' && c[1] && strchr("\"\\$`", c[1]))
					c++;
				buf[n++] = *c;
			}
			if (!*c)
				break;
		} else if (*c == '\\' && c[1]) {
			in_word = true;
			buf[n++] = *++c;
		} else if (strchr(" \t\n\r;|&<>()`", *c)) {
			if (in_word)
				hint_words_push(out, buf, n);
			n = 0;
			in_word = false;
		} else {
			in_word = true;
			buf[n++] = *c;
		}
	}
	if (in_word)
		hint_words_push(out, buf, n);
}

static bool word_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c >= 0x80;
}

/* The quoted strings of a line, as messages quote paths: 'x', "x", `x',
 * and the typographic forms. An apostrophe inside a word ("can't") opens
 * nothing. */
void hint_quoted(const char *line, struct hint_words *out)
{
	static const struct {
		const char *open, *close;
	} q[] = {
		{ "'", "'" }, { "\"", "\"" }, { "`", "'" },
		{ "\xe2\x80\x98", "\xe2\x80\x99" }, /* ‘ ’ */
		{ "\xe2\x80\x9c", "\xe2\x80\x9d" }, /* “ ” */
	};
	for (const char *c = line; *c; c++) {
		if (c > line && word_char((unsigned char)c[-1]))
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(q); i++) {
			size_t ol = strlen(q[i].open), cl = strlen(q[i].close);
			if (strncmp(c, q[i].open, ol) != 0)
				continue;
			const char *start = c + ol, *end = start;
			while ((end = strstr(end, q[i].close)) && word_char((unsigned char)end[cl]))
				end++;
			if (!end)
				break;
			hint_words_push(out, start, (size_t)(end - start));
			c = end + cl - 1;
			break;
		}
	}
}

/* The last word of the field just before ": ERROR" ("sh: 1: cannot create
 * /etc/x: Read-only file system", "bash: line 1: /etc/x: ..."). */
void hint_field_before(const char *line, const char *at, struct hint_words *out)
{
	const char *end = at;
	while (end > line && end[-1] == ' ')
		end--;
	if (end == line || end[-1] != ':')
		return;
	end--;
	const char *start = end;
	while (start > line && start[-1] != ' ')
		start--;
	if (start < end && !strchr("'\"`", *start))
		hint_words_push(out, start, (size_t)(end - start));
}

/* Unquoted tokens that look like paths (absolute, "~/...", or with a '/'),
 * without the punctuation around them; no URLs. */
void hint_path_tokens(const char *line, struct hint_words *out, bool absolute_only)
{
	const char *c = line;
	while (*c) {
		while (*c == ' ' || *c == '\t')
			c++;
		const char *s = c;
		while (*c && *c != ' ' && *c != '\t')
			c++;
		const char *e = c;
		while (s < e && strchr("([{<'\"`=", *s))
			s++;
		while (e > s && strchr(")]}>'\"`:,;.", e[-1]))
			e--;
		if (s == e || memmem(s, (size_t)(e - s), "://", 3))
			continue;
		bool abs = *s == '/' || *s == '~' || (e - s >= 5 && strncmp(s, "$HOME", 5) == 0);
		if (abs || (!absolute_only && memchr(s, '/', (size_t)(e - s))))
			hint_words_push(out, s, (size_t)(e - s));
	}
}
