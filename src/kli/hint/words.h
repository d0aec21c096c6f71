/* SPDX-License-Identifier: MIT */
/* Sandbox hints, taking text apart (hint.h): the words of a shell command
 * roughly as the shell sees them, and the words of an error line that may
 * name a path (quoted strings, the field before ": ERROR", path-like
 * tokens). Pure: no file system, no policy. Each list holds at most
 * HINT_MAX_WORDS words of fewer than HINT_MAX_WORD bytes; longer ones are
 * dropped, never cut. */
#ifndef KLI_HINT_WORDS_H
#define KLI_HINT_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#define HINT_MAX_WORDS 512
#define HINT_MAX_WORD 4096

struct hint_words {
	char **v;
	size_t n;
};

void hint_words_free(struct hint_words *w);
/* Add the N bytes at S (not NUL-terminated) as a word. */
void hint_words_push(struct hint_words *w, const char *s, size_t n);
/* The words of CMD: quotes removed, backslashes applied, operators and
 * substitutions as separators. Good enough to find the paths it names. */
void hint_shell_words(const char *cmd, struct hint_words *out);
/* The quoted strings of LINE: 'x', "x", `x', and the typographic forms. */
void hint_quoted(const char *line, struct hint_words *out);
/* The last word of the field just before ": ERROR", AT being where ERROR
 * starts in LINE. */
void hint_field_before(const char *line, const char *at, struct hint_words *out);
/* Unquoted tokens of LINE that look like paths (absolute, "~/...", or,
 * unless ABSOLUTE_ONLY, with a '/'), without the punctuation around them;
 * no URLs. */
void hint_path_tokens(const char *line, struct hint_words *out, bool absolute_only);

#endif
