/* SPDX-License-Identifier: MIT */
/* A work tree whose .git is a file ("gitdir: DIR"): a linked worktree
 * (DIR is COMMON/worktrees/NAME, whose commondir names COMMON) or a
 * submodule's checkout (DIR is SUPER/.git/modules/NAME, its own common
 * directory). Threat model: the .git file is the jail's to write where it
 * was absent before, so a link is taken only when the git directory names
 * the work tree back, as git made it outside: a worktree's gitdir file
 * naming TREE/.git, a submodule's core.worktree naming TREE. A link the
 * jail made up names a repository that does not name it back. */
#ifndef KJ_GITLINK_H
#define KJ_GITLINK_H

#include <stdbool.h>

struct gitlink {
	char *gitdir; /* real path of the directory the .git file names */
	char *common; /* real path of its common directory (gitdir itself for a
		       * submodule's checkout) */
	bool worktree; /* a linked worktree (else a submodule's checkout) */
};

/* The link of tree (a real directory) when its .git is a regular file
 * naming a git directory that names tree back; false otherwise, with
 * *why (static text) saying why when there was a .git file at all. */
bool gitlink_read(const char *tree, struct gitlink *out, const char **why);
void gitlink_free(struct gitlink *l);

#endif
