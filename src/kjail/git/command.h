/* SPDX-License-Identifier: MIT */
/* What git command a jail's command line runs, read as git reads its own
 * (global options, then the command and its subcommand). Only what kjail
 * refuses before the jail starts is recognised, and only in the plain
 * form: a global option that could move git to another repository or
 * that this reader does not know (-C, --git-dir, an alias) makes it "not
 * recognised", and git meets the jail as it is. Pure. */
#ifndef KJ_GIT_COMMAND_H
#define KJ_GIT_COMMAND_H

#include <stdbool.h>

/* argv (NULL-terminated, may be NULL) runs git worktree add: a program
 * named git, then only -c NAME=VALUE, --config-env=NAME=ENV and options
 * that change no repository (--no-pager, --no-optional-locks, ...), then
 * "worktree" "add". */
bool git_command_is_worktree_add(char *const *argv);

#endif
