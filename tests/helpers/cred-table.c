/* SPDX-License-Identifier: MIT */
/* cred-table
 * Prints kjail's table of credential stores (cred_stores in
 * src/kjail/policy/defaults.h), one row a line: TOOL, BASE (home, xdg-config,
 * xdg-data, xdg-state, xdg-cache, xdg-runtime, var, var-list), VAR (the
 * variable of an XDG or a tool's base, "-" for home), PATH (relative to
 * the base, "-" for what the variable names itself), KIND (file or
 * dir) and FORMAT (a file shown with its secrets removed: its format,
 * cfgfilter.h; else "-"), separated by tabs. kjail-cred-table.test plants a store through
 * each row and reads it through the jail. */
#include "config.h"
#include "policy/defaults.h"

#include <stdio.h>

int main(void)
{
	for (const struct cred_store *c = cred_stores; c->tool; c++) {
		const char *var = c->var ? c->var : cred_xdg_var(c->base);
		printf("%s\t%s\t%s\t%s\t%s\t%s\n", c->tool, cred_base_name(c->base),
		       var ? var : "-", c->path[0] ? c->path : "-", c->dir ? "dir" : "file",
		       c->format != CF_NONE ? cf_format_name(c->format) : "-");
	}
	return ferror(stdout) || fflush(stdout) != 0;
}
