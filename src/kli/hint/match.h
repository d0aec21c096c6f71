/* SPDX-License-Identifier: MIT */
/* Sandbox hints, recognising a denial in one line of output (hint.h): the
 * error a line reports (EROFS, EACCES, EPERM, EBUSY in the words programs
 * print them), and whether it speaks of a write, of the network, or of
 * trouble with a file. Pure: each answers from the line alone. */
#ifndef KLI_HINT_MATCH_H
#define KLI_HINT_MATCH_H

#include <stdbool.h>

/* Is NEEDLE in LINE: in any case, except an errno or error code name (all
 * capitals: "EROFS", "ENOTFOUND"), which must stand as a word. */
bool hint_has(const char *line, const char *needle);

/* The error a line reports, as far as a refused write goes.
 * HINT_REF_EBUSY: git renames its lock file onto the file it writes, and
 * onto a protected one (a read-only mount) the kernel says EBUSY. */
enum hint_refusal { HINT_REF_NONE, HINT_REF_EROFS, HINT_REF_EACCES, HINT_REF_EPERM,
		    HINT_REF_EBUSY };

/* The refusal LINE reports; *AT is where its message starts in LINE (for
 * the field before it), set only when not HINT_REF_NONE. */
enum hint_refusal hint_refusal_of(const char *line, const char **at);
/* Words that say an EACCES or EPERM came from changing something, not
 * from reading it (without a way to ask the file system, the only clue). */
bool hint_says_write(const char *line);
/* A failed name lookup or connection. */
bool hint_says_network(const char *line);
/* A line that may name a path a program found empty or missing. */
bool hint_says_trouble(const char *line);

#endif
