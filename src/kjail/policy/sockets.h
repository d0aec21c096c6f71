/* SPDX-License-Identifier: MIT */
/* Unix sockets the jail may reach (--allow-socket, allow-socket =): the
 * table of names (one row each), reading a value into the policy, and
 * where a name's socket is on this host. Pure: no I/O (the planner,
 * socket-plan.c, looks at the host).
 *
 * Threat model: a socket is a door out of the jail; what is behind it
 * decides what the jail gets (an agent signs with the user's keys, a
 * container engine runs anything as root). So only a socket named in the
 * policy is bound, alone, at its real path; its directory stays masked;
 * a socket that gives the host away warns on every run. */
#ifndef KJ_SOCKETS_H
#define KJ_SOCKETS_H

#include <stdbool.h>
#include <stddef.h>

#include "planner/plan.h"
#include "policy/policy.h"

#define SOCKET_PATHS_MAX 4

/* One name. Each candidate is a template, tried in order; the first
 * socket found wins:
 *   "$VAR" or "$VAR/REST"  the caller's $VAR (absolute), REST appended;
 *   "unix://$VAR"          $VAR, which must start with unix://;
 *   "~/REST"               under the caller's home ($HOME);
 *   "%u" anywhere          the caller's uid.
 * A variable that is set decides alone: the candidates after it are not
 * tried (the client would use what it names, not the default). */
struct socket_kind {
	const char *name;
	const char *var;      /* the variable the client finds it by, kept
			       * through the environment scrub; or NULL */
	const char *paths[SOCKET_PATHS_MAX + 1];
	const char *gives;    /* what the jail can do with it */
	bool host;            /* gives the host away: one warning each run */
	/* The name gives less than the socket its candidates find (which
	 * stays reachable only by its path, with the warning full):
	 *   variant  a suffix: the restricted socket beside the one found
	 *            (GnuPG's ".extra"), bound in the jail where the client
	 *            looks for the standard one (socket_bind_target());
	 *   relay    kjail's filtering relay (agent/msg.h), bound at the
	 *            path found. */
	const char *variant;
	bool relay;
	const char *refuses;  /* what the name's socket refuses, or NULL */
	const char *full;     /* what the full socket, named by its path, gives
			       * beyond the name's; NULL if nothing */
};

/* The table, ending with a NULL name. */
extern const struct socket_kind socket_kinds[];

/* The row named name, or NULL. */
const struct socket_kind *socket_kind_find(const char *name);

/* "ssh-agent, gpg-agent, ..." for messages, into buf (len bytes, cut
 * short if need be); returns buf. */
const char *socket_kind_names(char *buf, size_t len);

/* Adds value, read from origin ("--allow-socket" or "FILE:LINE"), to
 * p->allow_socket: a name of the table, or a path (absolute or "~/...";
 * a relative one only from the flag, resolved later against the current
 * directory). home expands "~". A name whose row has a variable adds it
 * to p->keep_env, origin "ORIGIN (allow-socket NAME)". On a bad value:
 * false, err holds "KEY VALUE: WHY" (key: "--allow-socket" or
 * "allow-socket"); the config reader adds FILE:LINE. */
bool socket_add(struct policy *p, const char *key, const char *value, const char *origin,
		const char *home, char *err, size_t errlen);

/* Candidate i of k on host h, expanded (a fresh string), or NULL: no such
 * candidate (*more false), or one whose variable is unset or unusable
 * (*more true; *note, a fresh string, says which and why: "$VAR (not
 * set)"). *decided: the candidate came from a variable that is set, so no
 * later one counts, whether it holds a socket or not. */
char *socket_candidate(const struct socket_kind *k, size_t i, const struct host *h, bool *more,
		       bool *decided, char **note);

/* Where the jail's client looks for k's socket, when that is not where
 * the one bound is found (a variant): GnuPG's home ($GNUPGHOME, else
 * ~/.gnupg) and "/S.gpg-agent" (gpg in the jail cannot use the masked
 * /run/user/UID/gnupg and falls back to its home). A fresh string, or
 * NULL when there is no home to name. */
char *socket_bind_target(const struct socket_kind *k, const struct host *h);

/* GnuPG's home directory on h ($GNUPGHOME, else ~/.gnupg), a fresh
 * string, or NULL. */
char *socket_gnupg_home(const struct host *h);

/* The one warning line for a socket that gives the host away:
 * "NAME socket: GIVES" (a fresh string), or NULL. */
char *socket_warning(const struct socket_kind *k);

/* The warning for k's full socket allowed by its path (k->full):
 * "PATH is NAME's full socket, not the one --allow-socket NAME gives:
 * FULL" (a fresh string), or NULL. */
char *socket_full_warning(const struct socket_kind *k, const char *path);

#endif
