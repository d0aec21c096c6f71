/* What kjail reads in a git config file: the settings that make git run or
 * read files from elsewhere, which the jail must not be able to plant.
 *   core.hooksPath: the directory git runs hooks from instead of .git/hooks;
 *   include.path, includeIf.COND.path: more config files, read as if they
 *   were this one (whatever the condition: kjail does not judge it). */
#ifndef KJ_GITCONFIG_H
#define KJ_GITCONFIG_H

#include <stddef.h>
#include "strv.h"

struct gitconfig {
	char *hooks_path;      /* the last core.hooksPath set; NULL when none */
	struct strv includes;  /* every include path, in order, as written */
};

#define GITCONFIG_INIT { NULL, STRV_INIT }

/* Adds what text (a config file's bytes) sets to out, values unquoted and
 * unescaped as git reads them; a later hooksPath replaces an earlier one. */
void gitconfig_parse(const char *text, size_t len, struct gitconfig *out);
void gitconfig_free(struct gitconfig *g);

#endif
