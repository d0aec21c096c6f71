/* SPDX-License-Identifier: MIT */
/* Sandbox hints: when kli runs inside a kjail jail, a command that fails
 * the way a jail makes commands fail (a write refused with EROFS, EACCES or
 * EPERM; a read of a masked path that comes back empty; a connection or
 * name lookup refused under --no-network) gets a short, structured hint:
 * only after a failure, or after a success that printed nothing (an empty
 * read of a path the policy masks); a command that succeeded and printed
 * what it read gets none.
 * the command, the observed line, the rule that most likely refused it with
 * its origin, and the fix.
 *
 * The rules come from the policy kjail writes into the jail (the file named
 * by $KJAIL_POLICY: what `kjail --explain --json` prints), as jailpolicy.h
 * reads it. That file only ever produces hint text: nothing here takes part in authority, in what a
 * tool may do, or in what runs.
 *
 * Everything here is pure: file system questions (resolve
 * a path through symlinks, does a directory exist, would a write here be
 * refused by the mount) go through callbacks the caller may leave NULL. */
#ifndef KLI_HINT_H
#define KLI_HINT_H

#include <stdbool.h>
#include <stddef.h>

#include "containment/jailpolicy.h"

/* Where and how a command ran. */
struct hint_env {
	const char *cwd;   /* its working directory: absolute */
	const char *home;  /* for "~" and "$HOME"; NULL or relative: not expanded */
	/* PATH (absolute, clean) with every existing component resolved through
	 * symlinks (path_resolve); NULL: taken as it is. Returns a fresh string
	 * or NULL. */
	char *(*resolve)(const char *path);
	/* Does DIR exist as a directory? NULL: every one does. */
	bool (*is_dir)(const char *dir);
	/* The errno a write to PATH (or, when missing, to its nearest existing
	 * parent) gets from access(2), 0 when none: tells a refusal by the
	 * jail's read-only mount (EROFS) from plain file permissions (EACCES).
	 * NULL: every EACCES/EPERM on a path the policy keeps read-only counts
	 * as the jail's. */
	int (*write_errno)(const char *path);
	/* The proxy's log (struct jail_policy's net_log) as text, to name the
	 * host of a refusal the output does not name; NULL: not read. */
	char *(*read_log)(const char *path, size_t *len);
};

/* The hint for COMMAND that ended with EXIT_STATUS (the shell's status,
 * 128+N for signal N, -1 when unknown: a job still running) after printing
 * OUTPUT, or NULL when nothing in it looks like the jail refused it. The
 * hint is one block of lines, each ending in '\n', the first starting
 * "sandbox denied (likely): ", every other one with two spaces; no line is
 * empty. */
char *hint_for(const struct jail_policy *p, const struct hint_env *env, const char *command,
	       int exit_status, const char *output);

/* Where the hint block a tool appended to TEXT (after "\n\n") starts, or
 * (size_t)-1 when TEXT does not end in one. A command's own output cannot
 * pass for a hint: a tool result ends in its status line ("[exit status
 * 1]", "[job 2 is running]"), which no hint line looks like. */
size_t hint_split(const char *text);

/* The environment variable kjail sets inside the jail. */
#define HINT_POLICY_ENV JAIL_POLICY_ENV
/* The prefix of a hint block. */
#define HINT_HEAD "sandbox denied (likely): "

#endif
