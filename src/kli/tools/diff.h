/* SPDX-License-Identifier: MIT */
/* A unified diff of two texts, for the person watching an edit or a write
 * (agent/show.h): lines compared exactly, three lines of context, hunks
 * joined when their context touches. Pure: no I/O. The texts are the
 * files' bytes, shown later through the terminal neutraliser; nothing here
 * decides anything. When the changed middle is too large to compare line
 * by line (more than DIFF_MAX_CELLS pairs), all of it is shown as removed
 * and added: still a correct diff, only not the smallest. */
#ifndef KLI_TOOLS_DIFF_H
#define KLI_TOOLS_DIFF_H

#include <stddef.h>

#define DIFF_MAX_CELLS (4u * 1024 * 1024)
/* How many diff lines an edit or a write shows. */
#define SHOW_DIFF_LINES 200

struct diff_count {
	size_t added, removed;
};

/* The diff of OLD (OLDLEN bytes) to NEW under the names a/NAME and b/NAME;
 * at most MAX_LINES lines of hunks, then one "... N more diff lines" line.
 * *COUNT gets the lines added and removed (all of them, shown or not).
 * "" when the texts are equal. A new string. */
char *diff_unified(const char *name, const char *old, size_t oldlen, const char *new_text,
		   size_t newlen, size_t max_lines, struct diff_count *count);

#endif
