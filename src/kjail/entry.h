/* SPDX-License-Identifier: MIT */
/* Shared by kjail and kjail-entry: exec the command, and the jail entry. */
#ifndef KJ_ENTRY_H
#define KJ_ENTRY_H

#include "entry-abi.h" /* KJ_EXIT_FAIL, KJ_EXIT_NOEXEC, KJ_EXIT_NOTFOUND */
#include "util.h"


/* execvp (with envp when not NULL); on failure one line and 126 or 127. */
KJ_NORETURN void exec_command(char *const *cmd, char *const *envp);

/* Inside the jail: apply Landlock (writes only under the nrw paths rw,
 * and the scopes), report readiness on the status descriptor, restore the
 * user's stderr and signal dispositions, close every descriptor above 2,
 * exec cmd. spec is "STATUS,STDERR,SIGNALS". Never returns. */
KJ_NORETURN void jail_entry(const char *spec, const char *const *rw, size_t nrw,
			    char *const *cmd);

/* For argv "PROG --jail-entry=S,E,M [--rw=PATH]... -- CMD...": jail_entry,
 * which never returns; dies on a malformed one; any other argv: returns. */
void jail_entry_if_asked(int argc, char **argv);

#endif
