/* What kjail and its entry helper agree on, in one place: the helper
 * without a C library (entry-nolibc.c) includes this and nothing else of
 * kjail's, so it holds macros only and includes nothing. */
#ifndef KJ_ENTRY_ABI_H
#define KJ_ENTRY_ABI_H

/* Exit statuses: the jail did not start; the command could not be run;
 * the command was not found (126 and 127 as a shell gives them). */
#define KJ_EXIT_FAIL 125
#define KJ_EXIT_NOEXEC 126
#define KJ_EXIT_NOTFOUND 127

/* --jail-entry=S,E,M: bits of M. kjail and bwrap ignore Ctrl-C and Ctrl-\
 * so the jail outlives them while the command decides; the command gets
 * back the dispositions kjail started with. */
#define JAIL_SIGINT_DEFAULT 1
#define JAIL_SIGQUIT_DEFAULT 2

/* The first Landlock ABI with LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET and _SIGNAL. */
#define LANDLOCK_SCOPES_ABI 6

#endif
