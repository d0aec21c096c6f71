/* SPDX-License-Identifier: MIT */
/* kli's own files, outside every grant whatever it says: the API key file,
 * the system, user and project configs, and the cache directory (fault log,
 * job output). An agent with a broad write grant must not rewrite the
 * config its next run reads, nor read the key.
 *
 * Each is kept by its resolved name (a file that does not exist yet is
 * excluded too: creating the user config would widen the next run) and,
 * when it exists, by (device, inode), so a hard link or a symlink to it
 * is refused as well.
 *
 * The same list is what `kli --print-authority` shows (report.h), each
 * with its path and what it is, and what a refusal names. */
#ifndef KLI_EXCLUDE_H
#define KLI_EXCLUDE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "authority/authority.h"

/* Why every one of them is out of reach: shown with each. */
#define EXCLUSION_REASON "kli's own file: no grant reaches it"

struct kli_exclusion {
	char *path;        /* resolved, absolute */
	const char *why;   /* "the API key file", ... */
	bool tree;         /* everything under PATH too */
	bool exists;
	dev_t dev;
	ino_t ino;
};

struct kli_exclusions {
	struct kli_exclusion *v;
	size_t n;
	struct stat *ids;  /* (st_dev, st_ino) of those that exist, for walks */
	size_t nids;
};

/* Add PATH ("~/" expanded, relative to the workspace) unless it is NULL,
 * cannot be resolved, or is already there by the same resolved name. */
void exclusions_add(struct kli_exclusions *x, const char *path, const char *why, bool tree,
		    const struct auth_ctx *ctx);
/* The exclusion the resolved name PATH, or the object ST (may be NULL),
 * falls under; NULL when none. */
const struct kli_exclusion *exclusions_match(const struct kli_exclusions *x, const char *path,
					     const struct stat *st);
void exclusions_clear(struct kli_exclusions *x);

struct kli_files;
/* Every one of kli's own files: the API key file, the configs of FILES,
 * the project config kli would read at GIT_ROOT (or the workspace) even
 * when absent, the fault log and the cache directory ($XDG_CACHE_HOME/kli)
 * that holds it, in that order. */
void exclusions_build(struct kli_exclusions *x, const struct kli_files *files,
		      const char *api_key_file, const char *git_root, const struct auth_ctx *ctx);

#endif
