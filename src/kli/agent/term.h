/* SPDX-License-Identifier: MIT */
/* The model's text on a terminal: shown, never obeyed. A model (or a file
 * it quotes) can hold escape sequences that set the window title, write
 * the clipboard (OSC 52), move the cursor over earlier lines or talk to
 * the terminal (DCS); on a terminal these are made visible (ESC as "^[",
 * other control characters in caret form, C1 controls as "^[" and their
 * 7-bit letter). SGR colours (ESC [ digits ; : m) pass. --json keeps the
 * exact text: only what kli prints for a person goes through here.
 *
 * And the live printer of a streamed answer: text as it arrives, with the
 * key masked (model/redact.h: as key_mask masks the whole text) and, on a
 * terminal, neutralised, holding back only the bytes a later piece could
 * still change. */
#ifndef KLI_TERM_H
#define KLI_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "strbuf.h"

/* TEXT (N bytes) made safe for a terminal. When FINAL is false, a trailing
 * piece that more text could turn into something else (an unfinished SGR,
 * a lone CR, a split UTF-8 C1) is left out; *USED says how many bytes of
 * TEXT the result covers (N when FINAL). Pure; a new string. */
char *term_neutralise(const char *text, size_t n, bool final, size_t *used);

/* The answer on OUT, neutralised when TTY, with a final newline. */
void term_print_answer(FILE *out, const char *answer, bool tty);

struct redact;

struct term_live {
	int fd;             /* where the text goes */
	bool tty;           /* neutralise */
	struct redact *redact; /* masks the key */
	struct strbuf text; /* masked text not yet all written */
	size_t done;        /* bytes of TEXT already written (or skipped as unsafe) */
	bool wrote;         /* anything written */
	char last;          /* the last byte written */
};

void term_live_init(struct term_live *l, int fd, bool tty, const char *key);
void term_live_add(struct term_live *l, const char *text, size_t n);
/* Write what was held back, and a newline when the text did not end in one. */
void term_live_end(struct term_live *l);
/* Another answer replaces the one being shown: end it (term_live_end) and
 * start afresh on the next line. */
void term_live_restart(struct term_live *l);
/* Whether the text written so far stops in the middle of a line. */
bool term_live_midline(const struct term_live *l);
void term_live_clear(struct term_live *l);

#endif
