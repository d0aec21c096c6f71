/* SPDX-License-Identifier: MIT */
/* planner/credscan.c: credential files found by content (issue 39 item
 * 7). The table (defaults.h) names the stores of the tools it knows; this
 * scan reads the small files of the home's config directories and masks
 * each that holds a credential by policy/credfile.h's rule, whatever tool
 * wrote it: ~/.NAME files, ~/.NAME/ two levels down, ~/.config/ (and
 * $XDG_CONFIG_HOME) three, the other coding agents' own files among them
 * (~/.claude.json, ~/.claude/, ~/.codex/, ~/.gemini/).
 *
 * Bounds: files of at most CREDSCAN_FILE_MAX bytes, CREDSCAN_FILES files
 * read and CREDSCAN_ENTRIES directory entries looked at a start;
 * symbolic links are not followed, FUSE mounts are not entered, caches
 * and toolchains (~/.cache, ~/.npm, ~/.rustup, node_modules, .git, ...)
 * are skipped, and so is what is masked already. A path under a writable
 * root the user named inside the home (`-w ~/.claude`) is the user's
 * choice and stays as it is; `-w ~` names none. What was read is
 * remembered by (dev, inode, ctime, size) in the runtime directory
 * (policy/credcache.h), which every jail has masked. */
#ifndef KJ_PLANNER_CREDSCAN_H
#define KJ_PLANNER_CREDSCAN_H

#include "planner/internal.h"

#define CREDSCAN_FILE_MAX (64 * 1024)
#define CREDSCAN_FILES 10000
#define CREDSCAN_ENTRIES 100000
#define CREDSCAN_CACHE "kjail/credscan"

/* After add_policy_masks, with defaults on. */
void add_content_masks(struct builder *b);

#endif
