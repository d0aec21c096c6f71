/* SPDX-License-Identifier: MIT */
/* A simple command as words, for the argv-prefix command constraint
 * (`process/exec prefix "npm test"`, doc/capabilities.md). A recogniser,
 * not a shell parser: the command must be words of the allowed characters
 * (ASCII letters, digits and _ - . / = : @ % + ^) separated by spaces or
 * tabs, and anything else — a newline, $, a backtick, ( ) < > | & ;,
 * quotes, globs, ~, a byte that is not ASCII — means it is not one, so it
 * matches no prefix. A command allowed by a prefix runs as exactly these
 * words through execve (tools/bash.c), never through sh -c, so what was
 * checked is what runs. Pure. */
#ifndef KLI_AUTHORITY_ARGV_H
#define KLI_AUTHORITY_ARGV_H

#include <stdbool.h>
#include <stddef.h>

#define ARGV_MAX_WORDS 256

/* Is C a character a word may hold? */
bool argv_word_char(char c);
/* The words of CMD, NULL-terminated, in a new vector (free with
 * argv_free); NULL when CMD is not a simple command as above, or empty. */
char **argv_words(const char *cmd, size_t *n);
void argv_free(char **v);
/* CMD's words joined by single spaces (the canonical form), or NULL. */
char *argv_canonical(const char *cmd);
/* Is the canonical PREFIX a word prefix of the canonical CMD (equal, or
 * CMD continues with a space after it)? */
bool argv_is_prefix(const char *prefix, const char *cmd);

#endif
