/* The only code that starts processes. */
#ifndef KJ_RUN_H
#define KJ_RUN_H

#include <stdbool.h>
#include "host.h"
#include "util.h"

#define KJ_EXIT_FAIL 125
#define KJ_EXIT_NOEXEC 126
#define KJ_EXIT_NOTFOUND 127

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
 * policy_json is what the jail finds at KJ_POLICY_FILE. */
int run_bwrap(struct plan *pl, const char *bwrap, const char *self, char *const *cmd,
	      const char *policy_json, enum run_mode mode);

/* --backend container: the environment scrub only; never returns. */
KJ_NORETURN void run_container(const struct plan *pl, char *const *cmd);

/* Inside the jail: report readiness on the status descriptor, restore the
 * user's stderr and exec the command. Never returns. */
KJ_NORETURN void jail_entry(const char *spec, char *const *cmd);

#endif
