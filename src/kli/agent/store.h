/* SPDX-License-Identifier: MIT */
/* Where sessions are saved, and the saving, listing and loading of them
 * (agent/transcript.h is their text).
 *
 * The directory: $XDG_STATE_HOME/kli/sessions (else
 * ~/.local/state/kli/sessions); inside kjail ($KJAIL_POLICY set), or when
 * that cannot be made, $XDG_CACHE_HOME/kli/sessions (else
 * ~/.cache/kli/sessions), which kjail points into its per-workspace
 * cache. Never inside the workspace: there a tool could write one. Made
 * 0700; each file ID.json is 0600, written whole to a temporary file and
 * renamed, with every echo of the API key masked. */
#ifndef KLI_STORE_H
#define KLI_STORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "agent/transcript.h"

struct store {
	char *dir;          /* NULL: sessions are not saved (said once) */
	char *id;           /* NULL until the first save */
	long long created;
	char *first_prompt;
	const char *workspace;
	const char *key;    /* masked in what is saved; may be NULL */
	bool failed;        /* a save failed: said once */
};

/* The directory for WORKSPACE (made when MAKE), or NULL and ERR. */
char *store_dir(const char *workspace, bool make, char *err, size_t errlen);

/* Save HISTORY (an agent's, system message dropped) as the store's
 * session, a new one on the first call. A failure is one warning, once. */
void store_save(struct store *st, json_t *history);

/* A new session from here on (interactive /reset). */
void store_restart(struct store *st);

/* kli --sessions: one line per session in DIR, newest first: id, time
 * (UTC), workspace, first prompt. A file that does not read is a line on
 * stderr. Returns the exit status: 0, or 1 when a file did not read. */
int store_list(const char *dir, FILE *out);

/* kli --resume [ID]: session ID, or the newest for WORKSPACE when ID is
 * NULL. False with ERR one line: none, damaged, or another workspace's. */
bool store_load(const char *dir, const char *id, const char *workspace,
		struct transcript *out, char *err, size_t errlen);

void store_clear(struct store *st);

struct agent;
/* Continue session ID (NULL: the newest for the workspace) in A, whose
 * history holds only its system message: the saved messages follow it,
 * and the store saves to that session from now on. Said on stderr. */
bool store_resume(struct store *st, struct agent *a, const char *id, char *err,
		  size_t errlen);

/* kli --sessions for WORKSPACE: the exit status. */
int store_cli_list(const char *workspace);

#endif
