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

/* Shows the exact bwrap invocation for cmd in the jail of pl (as one
 * shell-quoted line, or JSON), descriptors numbered as a run would have
 * them (deny_read: as for jail_start), and returns 0. Frees policy_json. */
int run_bwrap(struct plan *pl, const char *bwrap, const char *self, char *const *cmd,
	      char *policy_json, bool json, size_t deny_read);

#ifdef KJ_OS_LINUX
/* Running cmd in a jail, in two steps, so that bwrap starts up while kjail
 * looks at the host. jail_start starts bwrap (bwrap, by absolute path) for
 * cmd, run by the entry helper entry, before the jail is known, or takes
 * over the one kjail's front started (front.h); allow_userns picks the
 * seccomp program, deny_read is how many --deny-read entries the policy
 * has. The command's environment goes with the jail (bwrap_build). Until
 * jail_run, a fatal error (die) kills that bwrap, and nothing runs. */
struct jail;
struct jail *jail_start(const char *bwrap, const char *entry, char *const *cmd,
			bool allow_userns, size_t deny_read);
/* First thing in main(): a bwrap the front started is killed if kjail
 * exits before it takes it over. */
void jail_front_claim(void);
/* Kills the front's bwrap and closes its descriptors: not a run for bwrap
 * (--print, --explain, another backend). */
void jail_front_discard(void);
/* Hands bwrap the jail of pl and the policy file (policy_json, freed),
 * waits for the command and returns kjail's exit status: the command's
 * own, 128+N for a signal, or 125 (after one line on stderr) when the jail
 * could not be set up. The command never runs outside the jail. */
int jail_run(struct jail *j, struct plan *pl, char *policy_json);
#endif

/* --backend container: the environment scrub only; never returns. */
KJ_NORETURN void run_container(const struct plan *pl, char *const *cmd);

/* Marks every descriptor above 2 close-on-exec: what the caller leaked
 * never reaches the jail. Dies when it cannot. */
void seal_inherited_fds(void);
/* Dies when standard input, output or error is a directory; notes the
 * others' mode and group for restore_stdio(). */
void refuse_directory_stdio(void);
/* After the run: puts back the mode and group of a standard descriptor's
 * file (the caller's own file or terminal) that the jail changed, and says
 * so on standard error. */
void restore_stdio(void);
/* Dies when one of them is a file (or block device) given read-only that
 * the jail could reopen for writing through /proc/self/fd: one the caller
 * may write, outside every writable path of the plan. For kernels without
 * Landlock's write rules, which otherwise hold such a file to reading. */
void refuse_reopenable_stdio(const struct plan *pl);

/* The jail's first program: kjail-entry next to kjail (the build tree) or
 * in kjail's libexec directory, else kjail itself (with --jail-entry). */
char *entry_helper(const char *self); /* allocated */

#endif
