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

/* $XDG_STATE_HOME/kli/sessions when XDG_STATE_HOME is absolute, else
 * HOME/.local/state/kli/sessions; NULL when neither is usable. Outside
 * kjail, where sessions are saved; one of kli's own files (exclude.h). */
char *store_state_dir(const char *xdg_state_home, const char *home);

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

/* kli --sessions for WORKSPACE: the exit status. */
int store_cli_list(const char *workspace);

#endif
