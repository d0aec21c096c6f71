/* The only code that starts processes. */
#ifndef KJ_RUN_H
#define KJ_RUN_H

#include <stdbool.h>
#include "host.h"
#include "util.h"

#include "entry.h"

/* bwrap by absolute path: the configure-time one, then fixed system
 * directories. NULL when none is an executable regular file. */
const char *bwrap_find(void);
/* "installed ... looked in ..." for the missing-bwrap message. */
const char *bwrap_search_list(void);

enum run_mode { RUN_EXEC, RUN_PRINT, RUN_PRINT_JSON };

/* Runs cmd in the jail of pl and returns kjail's exit status: the command's
 * own, 128+N for a signal, or 125 (after one line on stderr) when the jail
 * could not be set up. The command never runs outside the jail. In a print
 * mode, shows the exact bwrap invocation instead and returns 0.
 * policy_json is what the jail finds at KJ_POLICY_FILE; run_bwrap frees it. */
int run_bwrap(struct plan *pl, const char *bwrap, const char *self, char *const *cmd,
	      char *policy_json, enum run_mode mode);

/* --backend container: the environment scrub only; never returns. */
KJ_NORETURN void run_container(const struct plan *pl, char *const *cmd);

/* Marks every descriptor above 2 close-on-exec: what the caller leaked
 * never reaches the jail. Dies when it cannot. */
void seal_inherited_fds(void);
/* Dies when standard input, output or error is a directory. */
void refuse_directory_stdio(void);
/* Dies when one of them is a file (or block device) given read-only that
 * the jail could reopen for writing through /proc/self/fd: one the caller
 * may write, outside every writable path of the plan. For kernels without
 * Landlock's write rules, which otherwise hold such a file to reading. */
void refuse_reopenable_stdio(const struct plan *pl);

/* The jail's first program: kjail-entry next to kjail (the build tree) or
 * in kjail's libexec directory, else kjail itself (with --jail-entry). */
char *entry_helper(const char *self); /* allocated */

#endif
