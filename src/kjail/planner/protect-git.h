/* SPDX-License-Identifier: MIT */
/* planner/protect-git.c: what git config names. */
#ifndef KJ_PLANNER_PROTECT_GIT_H
#define KJ_PLANNER_PROTECT_GIT_H

#include "planner/internal.h"

/* protect-git.c */
/* Protects what the git config file names; true when it or a file it
 * includes sets extensions.worktreeConfig. tree: the work tree relative
 * paths are taken against, NULL when unknown. */
bool protect_git_config(struct builder *b, const char *root, const char *file, int depth,
			const char *tree);
/* The repository's config (gitdir/config), then the user's and the
 * system's, relative paths against the work tree tree; true when the
 * repository's sets extensions.worktreeConfig. */
bool protect_git_configs(struct builder *b, const char *root, const char *gitdir,
			 const char *tree);
void protect_global_git_configs(struct builder *b);

#endif
