/* SPDX-License-Identifier: MIT */
/* Whether the command kjail runs is an interactive shell that keeps its
 * history in $HISTFILE, so that `kjail -- bash` keeps it where plain
 * `kjail` does (plan.h: host.interactive; the file lies in the workspace's
 * cache directory, planner/planner.c). Judged by the name of the program
 * the command runs, after PATH and every symbolic link (so /bin/sh counts
 * where it is bash, not where it is dash), and by its arguments: no -c,
 * and no script named (unless -s reads the commands from standard input).
 *
 * The shells are those that read and write the file $HISTFILE names:
 * bash, zsh, the Korn shells (ksh, ksh93, mksh, lksh, oksh, pdksh) and
 * yash. Not dash (no history file), nor fish (its history has a place of
 * its own, under $XDG_DATA_HOME, which no variable moves alone). A wrong
 * answer costs only the history: the file is the same writable one either
 * way, and no argument can point it anywhere else. */
#ifndef KJ_SHELL_H
#define KJ_SHELL_H

#include <stdbool.h>

/* Whether name (a program's file name, without directory) is a shell of
 * the list above; a version after it ("zsh5", "ksh93", "bash-5.2")
 * counts as the shell. Pure. */
bool shell_keeps_history(const char *name);

/* Whether a shell started with argv (argv[0] its name; NULL-terminated)
 * runs interactively as far as its arguments tell: options only (-i, -l,
 * --login, -o NAME, --rcfile FILE, ...), none of them -c, and no script
 * after them unless -s is among them. Pure. */
bool shell_args_interactive(char *const *argv);

/* The real path of the program cmd[0] names, found as execvp(3) finds it
 * (a name with a '/' from cwd, else in each entry of path, a relative
 * entry or an empty one from cwd): the first executable regular file,
 * every symbolic link resolved; NULL when there is none. */
char *shell_resolve(const char *cmd, const char *path, const char *cwd);

/* shell_resolve, then the two tests above on its file name and cmd's
 * arguments. */
bool shell_interactive_command(char *const *cmd, const char *path, const char *cwd);

#endif
