/* SPDX-License-Identifier: MIT */
/* A growable argv: always NULL-terminated, owns its strings. */
#ifndef KJ_STRV_H
#define KJ_STRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "util.h"

struct strv {
	char **v;   /* v[n] == NULL whenever v != NULL */
	size_t n;
	size_t cap;
};

#define STRV_INIT { NULL, 0, 0 }

void strv_push(struct strv *s, const char *str);       /* copies str */
void strv_take(struct strv *s, char *str);             /* takes ownership */
KJ_PRINTF(2, 3) void strv_pushf(struct strv *s, const char *fmt, ...);
void strv_pushv(struct strv *s, const char *const *v); /* NULL-terminated */
void strv_pushn(struct strv *s, const char *a, const char *b); /* two at once */
/* Never NULL: an empty strv yields a one-element array { NULL }. */
char *const *strv_argv(struct strv *s);
void strv_free(struct strv *s);
/* What a POSIX shell reads back as the same words (a newline in a word
 * stays one, inside quotes). */
char *shell_quote(const char *word);
char *strv_shell_join(const struct strv *s);
/* The same on one line whatever the words hold: a word with a control byte
 * is written $'...' with escapes (bash, ksh and zsh read it). */
char *strv_shell_line(const struct strv *s);
/* ARGV (NULL-terminated) as one strv_shell_line() and a newline on OUT. */
void strv_print_argv(FILE *out, char *const *argv);
/* Index of the first element equal to str, or -1. */
long strv_find(const struct strv *s, const char *str);

#endif
