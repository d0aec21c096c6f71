/* SPDX-License-Identifier: MIT */
/* The mediation seam: the one place where a tool call meets the grant.
 *
 * From a call's live arguments it builds the request: one (atom, object)
 * item for every path the call touches (each file of an edit, the target
 * of a write and the topmost directory it would create, the tree a search
 * walks), the command of a bash call, the job a bash-output names. Paths
 * are resolved exactly as the lattice resolves them (constraint_path_
 * resolve, the workspace as base, symlinks followed), written back into
 * the call so the tool acts on what was checked, and every item must be
 * covered before anything runs.
 *
 * Nothing else in kli checks file/write, file/edit or process/exec; the
 * test tests/integration/kli-agent-seam.test keeps it so. */
#ifndef KLI_MEDIATE_H
#define KLI_MEDIATE_H

#include <stdbool.h>
#include <stddef.h>

#include "authority/authority.h"
#include "tools/tools.h"

struct stat;

struct mediate_item {
	const char *atom;       /* normalised, static */
	char *object;           /* as a denial shows it: the resolved path, the command */
	struct constraint c;    /* the request's constraint on ATOM */
	bool held_only;         /* only "is ATOM held at all" (bash-jobs with no job) */
};

struct mediate_request {
	struct mediate_item *v;
	size_t n;
};

/* The request of CALL (not for task, see mediate()). Resolves every path
 * through CTX and replaces CALL's paths by the resolved ones. False and a
 * message when a path cannot be resolved. */
bool mediate_request_build(struct tool_call *call, const struct auth_ctx *ctx,
			   struct mediate_request *out, char *err, size_t errlen);
void mediate_request_clear(struct mediate_request *r);

/* The refusal of ATOM (normalised) on OBJECT (may be NULL) under G, the
 * one line both the tools and kli --check give: "denied: lacks ATOM for
 * OBJECT (the grant allows ATOM under /a /b)" or "(no ATOM is granted)";
 * the grant's part bounded (long grants end in "... and N more") and
 * without control characters; OBJECT as it is (its shown lines neutralise
 * it). COMMAND (may be NULL): the command of a process/exec refusal as
 * the model sent it; when a prefix grant refuses it for not being a
 * simple command, the refusal says so. Caller frees. */
char *mediate_refusal(const struct grant *g, const char *atom, const char *object,
		      const char *command);

/* Does G cover every item? On false, *denial is mediate_refusal() of the
 * first item it does not. */
bool mediate_covers(const struct grant *g, const struct mediate_request *r, char **denial);

enum mediate_verdict { MEDIATE_ALLOWED, MEDIATE_DENIED, MEDIATE_INVALID };

/* The seam. ALLOWED: CALL may run (paths now resolved); for task,
 * *conferred is the sub-agent's grant. DENIED: *message is the denial or
 * the escalation error, for the model. INVALID: *message says which
 * argument cannot be checked (a path that does not resolve). */
enum mediate_verdict mediate(const struct grant *g, struct tool_call *call,
			     const struct auth_ctx *ctx, struct grant **conferred, char **message);

/* Is tool ID worth offering to the model under G (its atom is held in
 * some form)? A tool not offered is still mediated if called. */
/* May kli itself read PATH on the run's behalf (project instructions,
 * agent/instructions.h)? Only when G holds file/read for it (PATH
 * resolved, links followed) and it is none of kli's own files (ST: the
 * object opened, or NULL). */
bool mediate_may_read(const struct grant *g, const char *path, const struct stat *st,
		      const struct auth_ctx *ctx);

bool mediate_offers(const struct grant *g, enum tool_id id);

/* Is ATOM (any spelling) one a file tool is checked for (file/read,
 * file/write, file/edit), whose objects never include kli's own files? */
bool mediate_on_files(const char *atom);

/* kli --check: the same question asked from the command line. */
enum check_result mediate_check(const struct grant *g, const char *atom, const char *object,
				const struct auth_ctx *ctx, char **reason);

#endif
