/* SPDX-License-Identifier: MIT */
/* The one-screen --explain: which lines of the full text (--explain
 * --verbose) it folds into counts, and the last line that names them, so
 * nothing is left out without a number. Pure. */
#ifndef KJ_BRIEF_H
#define KJ_BRIEF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The kinds of line there can be too many of, in the order they come. */
enum brief_kind {
	BRIEF_SCANNED,     /* sockets the start-up scan masked, one each */
	BRIEF_SECCOMP,     /* the filter's rules */
	BRIEF_PINNED,      /* directories bound onto themselves */
	BRIEF_PROTECTED,   /* protected names that exist in the workspace */
	BRIEF_PROTECTED_ELSEWHERE, /* and in the other writable directories */
	BRIEF_MASKED,
	BRIEF_SCAN_MASK,   /* the masks the socket scan planned */
	BRIEF_FILTERED,
	BRIEF_UNPROTECTED, /* protected names absent here */
	BRIEF_SKIPPED,     /* masks with nothing to mask */
	BRIEF_ENV_UNSET,
	BRIEF_CACHE_ENV,
	BRIEF_CACHE_NOTE,
	BRIEF_KINDS
};

struct brief {
	bool verbose;               /* every line, nothing folded */
	size_t shown[BRIEF_KINDS];  /* lines of each kind printed */
	size_t left[BRIEF_KINDS];   /* lines of each kind folded */
};

/* Whether to print one line of kind k. A line that is not foldable (the
 * user's own entry, a warning) always is; a foldable one while fewer than
 * the kind's share of lines have been printed; else it is counted. */
bool brief_keep(struct brief *b, enum brief_kind k, bool foldable);

/* An origin from kjail's own tables ("built-in ..."), which a summary may
 * fold; a flag's, a config file's or any other is the user's to see. */
bool brief_built_in(const char *origin);

/* "... and 183 skipped masks, 66 seccomp rules: --explain --verbose": the
 * last line, naming what was folded; nothing when nothing was. */
void brief_tally(FILE *out, const struct brief *b);

#endif
