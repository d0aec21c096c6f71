/* SPDX-License-Identifier: MIT */
/* What kjail protects without being asked. */
#ifndef KJ_DEFAULTS_H
#define KJ_DEFAULTS_H

#include <stdbool.h>
#include <stddef.h>
#include "cfgfilter/cfgfilter.h"

/* Credential stores: one row a place a tool keeps its secrets, masked
 * (reads as empty) wherever the row's base puts it. A store the tool
 * finds through a variable is masked both there and at the variable's
 * default (a row of its own): the user's tools may run later with or
 * without the variable, and an old store may still be at the default.
 * Only what the caller's environment says at the start counts: a store
 * made while the jail runs is not masked (doc/security-model.md). */
enum cred_base {
	CRED_HOME,        /* HOME/PATH, for the account's home and $HOME */
	CRED_XDG_CONFIG,  /* $XDG_CONFIG_HOME/PATH and HOME/.config/PATH */
	CRED_XDG_DATA,    /* $XDG_DATA_HOME/PATH and HOME/.local/share/PATH */
	CRED_XDG_STATE,   /* $XDG_STATE_HOME/PATH and HOME/.local/state/PATH */
	CRED_XDG_CACHE,   /* $XDG_CACHE_HOME/PATH and HOME/.cache/PATH */
	CRED_XDG_RUNTIME, /* $XDG_RUNTIME_DIR/PATH (masked whole besides) */
	CRED_VAR,         /* $VAR/PATH, or what $VAR names when PATH is "" */
	CRED_VAR_LIST,    /* each entry of the ':'-separated list $VAR */
};
struct cred_store {
	const char *tool;     /* whose store: --explain and the docs name it */
	enum cred_base base;
	const char *var;      /* CRED_VAR, CRED_VAR_LIST: the variable */
	const char *path;     /* relative to the base; "" for $VAR itself */
	bool dir;             /* the tool keeps a directory there (else a file) */
	/* A file that holds a secret among ordinary settings: the jail sees a
	 * copy with the entries these patterns name removed (cfgfilter.h),
	 * or, when kjail cannot parse it, an empty file as for CF_NONE. */
	enum cf_format format;
	const char *const *secret;
};
/* The rows, ending in one whose tool is NULL. */
extern const struct cred_store cred_stores[];
/* "home", "xdg-config", ..., "var", "var-list" */
const char *cred_base_name(enum cred_base b);
/* The XDG base's variable and its default under the home directory
 * (".config"); NULL for the other bases. */
const char *cred_xdg_var(enum cred_base b);
const char *cred_xdg_default(enum cred_base b);

struct default_mask {
	const char *path;   /* absolute */
	const char *why;    /* the origin --explain shows */
};
/* Sockets of container engines, service managers and the system bus. */
extern const struct default_mask default_socket_masks[];
/* The machine's secrets that only root may read: masked when the caller
 * is root. */
extern const struct default_mask root_masks[];
/* Sockets of host name resolvers: masked under no network. */
extern const struct default_mask no_network_socket_masks[];
/* Environment patterns (fnmatch) removed unless --keep-env names them. */
extern const char *const default_env_scrub[];

/* The protected paths are in protected.h. */

#endif
