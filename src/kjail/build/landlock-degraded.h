/* SPDX-License-Identifier: MIT */
/* What --backend landlock loses against bwrap: one table, the source of
 * the line every run prints, the policy JSON's "degraded" list (kli's
 * containment check reports each as drift) and the table in
 * doc/security-model.md (a unit test compares them). */
#ifndef KJ_LANDLOCK_DEGRADED_H
#define KJ_LANDLOCK_DEGRADED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct ll_degraded {
	const char *id;     /* stable key: "masked-refuse", ... */
	const char *line;   /* the runtime line's phrase */
	const char *why;    /* the doc table's reason */
	int below_abi;      /* listed only when the kernel's ABI is below this
			     * (0: always) */
};

/* The rows, NULL-id terminated. */
extern const struct ll_degraded ll_degraded_table[];

/* Whether row r applies on a kernel with Landlock ABI abi. */
bool ll_degraded_applies(const struct ll_degraded *r, int abi);

/* The one line of a run: "landlock backend: PHRASE; PHRASE; ..." (no
 * program prefix), in a fresh string. */
char *ll_degraded_line(int abi);

/* The rows of doc/security-model.md's table, between its
 * "<!-- BEGIN landlock-degraded -->" and "<!-- END landlock-degraded -->"
 * lines: the header, then "| `ID` | LINE | WHY |" each, in a fresh
 * string (tests/unit/kjail/build/test_landlock_degraded holds the
 * document to it). */
char *ll_degraded_markdown(void);

#endif
