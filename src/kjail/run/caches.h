/* SPDX-License-Identifier: MIT */
/* kjail --cache-list and kjail --cache-prune[=DAYS]: the per-workspace
 * toolchain caches (policy/cache.h) under the account's home, each with
 * its workspace, its size and its last use; pruning removes those not used
 * for DAYS days or whose workspace is gone. No command runs, no jail is
 * made, no config is read.
 *
 * Threat model: every cache directory is a jail's to write, so nothing in
 * one is trusted: it is measured and removed by run/tree.h (descriptors,
 * no link followed, never left), and what kjail decides on comes from
 * outside it: the record kjail writes at each start beside it
 * (CACHE_USED/KEY, under the mask every jail has on the caches' root: its
 * time is the last use, its line the workspace, taken only when its key is
 * that workspace's), else the directory's own time (which the jail could
 * set: it moves only the decision on its own cache). An entry of the root
 * that kjail did not make (a symlink, a file, someone else's directory) is
 * left alone, with a warning. */
#ifndef KJ_CACHES_H
#define KJ_CACHES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* Beside cache KEY, KEY.landlock: --backend landlock's state (the policy
 * file and the protected names' copies), outside every writable root;
 * listed and pruned with KEY. */
#define LL_STATE_SUFFIX ".landlock"
#define CACHE_PRUNE_DAYS 30        /* --cache-prune alone */
#define CACHE_PRUNE_DAYS_MAX 36500

/* Lists (prune false) or prunes (days: the value of --cache-prune=, NULL
 * for the default) the caches of the account whose home and uid are
 * given; the output's lines on out, warnings and errors one line each on
 * stderr. Returns the exit status: 0, or 125 when something could not be
 * read or removed (the rest is done). A bad DAYS is refused in one line
 * (exit 125) before anything is looked at. */
int caches_main(bool prune, const char *days, const char *home, unsigned uid, FILE *out);

/* The pure parts, for the unit tests. */

/* DAYS: digits only, 0 to CACHE_PRUNE_DAYS_MAX. */
bool cache_days_parse(const char *s, unsigned *days);

/* The workspace a record names, when it is one line (ending in '\n')
 * holding an absolute path without control characters, whose cache key
 * is key; else NULL. Fresh. */
char *cache_record_parse(const char *text, size_t len, const char *key);

/* Why a cache last used at last_use goes at now, into buf: "workspace
 * gone", "unused for N days"; NULL when it stays. days 0: every cache. */
const char *cache_prune_why(time_t last_use, time_t now, unsigned days, bool gone, char *buf,
			    size_t len);

/* bytes as du -h writes them (1024s: "512B", "4.0K", "12K", "3.4M"), with
 * a '>' before when only part could be counted. */
void cache_size_text(uint64_t bytes, bool partial, char *buf, size_t len);

#endif
