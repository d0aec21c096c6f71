/* SPDX-License-Identifier: MIT */
/* The pure parts of the tools: text in, text out. Unit-tested on their own. */
#ifndef KLI_TOOLS_TEXT_H
#define KLI_TOOLS_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* The largest file edit reads, and the largest it makes. */
#define EDIT_MAX (8u * 1024 * 1024)

/* TEXT with OLD replaced by NEW: OLD must occur exactly once, or (ALL) at
 * least once, and the result may not outgrow EDIT_MAX. NULL and a message
 * saying which when it does not. */
char *edit_apply(const char *text, const char *old, const char *new_text, bool all,
		 size_t *replaced, char *err, size_t errlen);

/* Lines FIRST.. (from 1; 0 means 1) of TEXT, at most COUNT of them (0: to
 * the end), each "%6ld\t" numbered. NULL and a message when FIRST is past
 * the end. */
char *text_lines(const char *text, size_t len, long first, long count, char *err,
		 size_t errlen);

/* Does a file at REL (relative to the searched directory) match PATTERN?
 * Without '/', the pattern is matched against the file name at any depth;
 * with one, against the whole relative path ("**" + "/" also matches no
 * directory at all). */
bool glob_match(const char *pattern, const char *rel);

/* Does TEXT look binary (a NUL in the first 8 KiB)? */
bool text_is_binary(const char *text, size_t len);

/* A tool result longer than LIMIT bytes, cut for the model: the first part
 * (on a UTF-8 boundary) and a note naming ID, the full length and how to
 * read on. */
char *result_preview(const char *text, size_t limit, const char *id);

/* Bytes [OFFSET, OFFSET+LIMIT) of TEXT with a note when more follows. NULL
 * and a message when OFFSET is past the end. */
char *result_page(const char *text, const char *id, size_t offset, size_t limit, char *err,
		  size_t errlen);

/* Longest prefix of S (at most N bytes) that does not end inside a UTF-8
 * sequence. */
size_t utf8_cut(const char *s, size_t n);

#endif
