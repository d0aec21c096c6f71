/* The one git setting kjail reads: core.hooksPath, the directory git runs
 * hooks from instead of .git/hooks. */
#ifndef KJ_GITCONFIG_H
#define KJ_GITCONFIG_H

#include <stddef.h>

/* core.hooksPath in the text of a git config file (the last one set wins,
 * as in git), unquoted and unescaped; NULL when it is not set. What git
 * config syntax kjail does not follow: include and includeIf (their files
 * are not read). */
char *gitconfig_hooks_path(const char *text, size_t len);

#endif
