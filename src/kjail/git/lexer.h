/* SPDX-License-Identifier: MIT */
/* git's config syntax, lexed as git's own parser (config.c) reads it: the
 * one reading of a config file's bytes that kjail's git reader
 * (git/reader.h), the config filter (cfgfilter/git.c) and the check of
 * git settings in the environment (git/env.h) all share, so that none of
 * them judges a value git reads differently.
 *
 * What git does, and so this: a UTF-8 BOM at the very start is skipped
 * (part of one is refused); CR LF is a newline, a CR alone is an ordinary
 * byte (a blank between words); section and key names are ASCII letters,
 * digits and '-', in any case (lower-cased here), a quoted subsection is
 * taken as written but for a backslash, which keeps the next byte, the
 * old [section.sub] is lower-cased; a key may follow its header on the
 * header's line; a key without '=' is a bare one; a value loses its
 * quotes ("" joins nothing, so "pa""ss" is pass), the escapes \" \\ \n \t
 * \b are replaced, any other escape is refused, a backslash at the end of
 * a line continues the value on the next one, ; and # outside quotes
 * start a comment, blanks at either end go and each one inside (outside
 * quotes) is read as a space (newer gits keep a tab or a CR as it is:
 * GITLEX_MIXED_* says so). An open quote at the end of a line, a line
 * that is none of these: git refuses the file, and so does the lexer. */
#ifndef KJ_GIT_LEXER_H
#define KJ_GIT_LEXER_H

#include <stdbool.h>
#include <stddef.h>

enum gitlex_kind {
	GITLEX_SECTION, /* a [section] header */
	GITLEX_KEY,     /* a key, with its value or bare */
};

/* a blank inside an unquoted value that git versions read differently */
enum { GITLEX_MIXED_TAB = 1, GITLEX_MIXED_CR = 2 };

struct gitlex_item {
	enum gitlex_kind kind;
	/* SECTION: "section" or "section.sub"; KEY: "section[.sub].key" */
	const char *name;
	size_t name_len;
	const char *value;  /* KEY: decoded (NUL-terminated; a NUL byte inside
			     * ends it for a C caller); NULL for a bare key */
	size_t value_len;
	unsigned mixed;     /* GITLEX_MIXED_* */
	unsigned line;      /* where it starts, from 1 */
	/* the bytes of its lines: from the start of its first line to past the
	 * newline that ends it (SECTION: to past its ']') */
	size_t start, end;
	bool after_header;  /* KEY: on its section header's line */
};

enum gitlex_result {
	GITLEX_OK,      /* the whole text was read */
	GITLEX_REFUSED, /* git refuses the text at *line */
	GITLEX_STOPPED, /* fn returned false */
};

/* Calls fn for each header and key of text (len bytes), in order. */
enum gitlex_result gitlex_scan(const char *text, size_t len,
			       bool (*fn)(void *ctx, const struct gitlex_item *it), void *ctx,
			       unsigned *line);

#endif
