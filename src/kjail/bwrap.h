/* Plan in, bubblewrap argv out. Pure: no I/O. */
#ifndef KJ_BWRAP_H
#define KJ_BWRAP_H

#include "entry-abi.h" /* JAIL_SIGINT_DEFAULT, JAIL_SIGQUIT_DEFAULT */
#include "host.h"
#include "strv.h"

/* Descriptors the jail is handed, opened by run.c. */
struct jail_fds {
	int status;   /* the entry helper writes 'R' here just before exec */
	int user_err; /* the user's stderr; bwrap's own goes to kjail for diagnosis */
	int seccomp;  /* exported BPF program, or -1 */
	int info;     /* bwrap's --info-fd (its child's pid), or -1 */
	int sig_default; /* JAIL_SIGINT_DEFAULT | JAIL_SIGQUIT_DEFAULT: what the
			  * entry helper gives back to the command */
};


/* The first minimum bwrap release with everything used here
 * (--disable-userns, --args, --ro-bind-data, --perms). */
#define BWRAP_MIN_VERSION "0.8.0"

/* argv = bwrap, its options, "--", self --jail-entry=S,E,M "--" cmd... */
void bwrap_build(const struct plan *pl, const char *bwrap, const char *self,
		 const struct jail_fds *fds, char *const *cmd, struct strv *argv);

#endif
