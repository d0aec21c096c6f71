/* SPDX-License-Identifier: MIT */
/* protected-table
 * Prints kjail's table of protected paths (src/kjail/planner/protected.h), one row
 * a line: PATTERN, WHERE (the row's places, joined by ','), KIND and WHY,
 * separated by tabs. The tests take the rows from here, never from a copy
 * of their own: kjail-protected-table.test plants through each row, and
 * kjail-protected-docs.test holds the documents' lists to them. */
#include "config.h"
#include "planner/protected.h"

#include <stdio.h>

int main(void)
{
	for (const struct protected_rule *r = protected_rules; r->pattern; r++) {
		printf("%s\t", r->pattern);
		const char *sep = "";
		for (unsigned bit = 1; bit; bit <<= 1) {
			if (!(r->where & bit))
				continue;
			printf("%s%s", sep, protect_where_name((enum protect_where)bit));
			sep = ",";
		}
		printf("\t%s\t%s\n", protect_kind_name(r->kind), r->why);
	}
	return ferror(stdout) || fflush(stdout) != 0;
}
