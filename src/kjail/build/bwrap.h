/* SPDX-License-Identifier: MIT */
/* Plan in, bubblewrap argv out. Pure: no I/O. */
#ifndef KJ_BWRAP_H
#define KJ_BWRAP_H

#include "entry/abi.h" /* JAIL_SIGINT_DEFAULT, JAIL_SIGQUIT_DEFAULT */
#include "planner/planner.h"
#include "strv.h"

/* Descriptors the jail is handed, opened by spawn.c. */
struct jail_fds {
	int status;   /* the entry program writes 'R' here just before exec */
	int user_err; /* the user's stderr; bwrap's own goes to kjail for diagnosis */
	int seccomp;  /* exported BPF program, or -1 */
	int policy;   /* the policy file's data (OP_POLICY) */
	const int *masks; /* the empty data of each OP_MASK_FILE, in plan order */
	size_t nmasks;
	const int *sockets; /* each OP_SOCKET's socket (O_PATH), in plan order */
	size_t nsockets;
	const int *secrets; /* each of pl->secrets' sealed memfd, in plan order:
			     * the command inherits it, named by
			     * KJAIL_SECRET_<NAME>_FD (JAIL_KEEP_FD_PREFIX) */
	size_t nsecrets;
	int sig_default; /* JAIL_SIGINT_DEFAULT | JAIL_SIGQUIT_DEFAULT: what the
			  * entry program gives back to the command */
	/* with kjail's proxy only (pl->proxied): */
	int net_log;  /* the proxy's log, read-only, bound at KJ_NET_LOG */
	int proxy;    /* the proxy's control socket: the entry program hands
		       * the proxy its listeners here (JAIL_PROXY_PREFIX) */
};

/* The first minimum bwrap release with everything used here
 * (--disable-userns, --args, --ro-bind-data, --perms). */
#define BWRAP_MIN_VERSION "0.8.0"
/* The most option words bwrap reads (its MAX_ARGS, less some room). */
#define BWRAP_MAX_WORDS 8990

/* What bwrap's --dev binds from the host's /dev (SETUP_MOUNT_DEV: null,
 * zero, full, random, urandom, tty), NULL-terminated; with the terminal on
 * its standard output at /dev/console too. */
extern const char *const bwrap_dev_nodes[];

/* argv = bwrap, its options, "--", entry --jail-entry=S,E,M [--proxy-fd=N] [--keep-fd=N]...
 * [--rw=PATH]...
 * "--" cmd...: --rw= names each writable path, for Landlock. (spawn.c
 * hands bwrap the options on --args.) fds->nmasks must cover the plan's
 * masked files. */
void bwrap_build(const struct plan *pl, const char *bwrap, const char *entry,
		 const struct jail_fds *fds, char *const *cmd, struct strv *argv);

#endif
