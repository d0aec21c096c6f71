/* SPDX-License-Identifier: MIT */
/* cfgfilter-run FORMAT
 * cfgfilter-run --patterns FORMAT
 * The config filter (src/kjail/cfgfilter/cfgfilter.h) of FORMAT (npmrc,
 * ini, yaml, json, gitconfig), with the built-in table's patterns, over
 * stdin: the filtered copy on stdout, or exit 1 with the reason on
 * stderr (kjail masks such a file whole). --patterns: the table's secret
 * patterns for FORMAT, one a line (for tests/helpers/oracle/differential.py). */
#include "config.h"
#include "cfgfilter/cfgfilter.h"
#include "policy/defaults.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	bool patterns = argc == 3 && strcmp(argv[1], "--patterns") == 0;
	if (argc != 2 && !patterns) {
		fprintf(stderr, "usage: cfgfilter-run [--patterns] FORMAT\n");
		return 2;
	}
	const char *name = argv[argc - 1];
	const struct cred_store *row = NULL;
	for (const struct cred_store *c = cred_stores; c->tool && !row; c++)
		if (c->format != CF_NONE && strcmp(cf_format_name(c->format), name) == 0)
			row = c;
	if (!row) {
		fprintf(stderr, "cfgfilter-run: %s: no such format\n", name);
		return 2;
	}
	if (patterns) {
		for (const char *const *p = row->secret; *p; p++)
			printf("%s\n", *p);
		return 0;
	}
	static char buf[CF_MAX_SIZE + 2];
	size_t n = fread(buf, 1, sizeof buf, stdin);
	struct cf_result r;
	if (!cf_filter(row->format, row->secret, buf, n, &r)) {
		fprintf(stderr, "cfgfilter-run: %s\n", r.err);
		return 1;
	}
	fwrite(r.data, 1, r.len, stdout);
	free(r.data);
	return 0;
}
