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
	int go;       /* what bwrap_go_data() gives, once kjail is done */
};

/* The first minimum bwrap release with everything used here
 * (--disable-userns, --args, --ro-bind-data, --perms). */
#define BWRAP_MIN_VERSION "0.8.0"
/* The most option words bwrap reads (its MAX_ARGS, less some room). */
#define BWRAP_MAX_WORDS 8990

/* argv = bwrap, its options, "--", self --jail-entry=S,E,M,G "--" cmd...
 * (the options go to bwrap on --args: see run.c) */
void bwrap_build(const struct plan *pl, const char *bwrap, const char *self,
		 const struct jail_fds *fds, char *const *cmd, struct strv *argv);

/* Only the tail of that: "--", self --jail-entry=S,E,M,G "--" cmd... (what
 * bwrap is started with, before the rest is known) */
void bwrap_tail(const char *self, const struct jail_fds *fds, char *const *cmd, struct strv *a);

/* What descriptor G holds (entry-go.h): "--rw=PATH" for each writable
 * path of the jail, then "--go", each NUL-terminated; allocated, its
 * length in *len. */
char *bwrap_go_data(const struct plan *pl, size_t *len);

#endif
