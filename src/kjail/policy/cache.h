/* SPDX-License-Identifier: MIT */
/* Toolchain caches: one directory per workspace that kjail owns, outside
 * the workspace, under the account's home (getpwuid, never $HOME or
 * $XDG_CACHE_HOME: no variable moves where kjail makes a writable
 * directory), e.g. ~/.cache/kjail/ws/KEY. Only that directory is bound
 * writable; each tool is pointed at a subdirectory of it by its own
 * variable, which resolves inside the jail's view only (a bind made at
 * the next start would follow a symlink the jail planted there). Tools
 * with no such variable get nothing per workspace (cache_tools' notes).
 * --cache=shared binds the user's own cache directories instead.
 *
 * Threat model: a jail may poison its own workspace's cache, which the
 * next jail in that workspace reads; it reaches no other workspace's
 * cache (their parent is never bound) and nothing executable outside. */
#ifndef KJ_CACHE_H
#define KJ_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include "policy/policy.h"
#include "strv.h"

/* One variable a tool reads its cache directory from: NAME is set to
 * DIR/SUBDIR; with prefix, to PREFIX DIR/SUBDIR appended to the caller's
 * value (a word in MAVEN_OPTS). */
struct cache_var {
	const char *name;
	const char *subdir;
	const char *prefix;     /* NULL: the whole value */
};

#define CACHE_VARS_MAX 3
#define CACHE_SHARED_MAX 3

/* One row a tool. */
struct cache_tool {
	const char *tool;
	struct cache_var vars[CACHE_VARS_MAX];       /* per workspace */
	const char *shared[CACHE_SHARED_MAX];        /* --cache=shared: HOME/PATH */
	const char *note;                            /* what is left out, and why */
};

extern const struct cache_tool cache_tools[];   /* ends with tool NULL */

/* Where the per-workspace directories live, under the account's home. */
#define CACHE_WS_ROOT ".cache/kjail/ws"
/* The interactive shell's history, in the per-workspace directory. */
#define CACHE_HISTORY "history"
/* Beside the workspaces' directories, under the one mask on them, so out
 * of every jail's reach: CACHE_USED/KEY, one line, the workspace's real
 * path, written anew at every start that binds KEY (its time is the
 * cache's last use). A name no key has: keys never start with '.'. */
#define CACHE_USED ".used"

/* The directory name for a workspace's real path: the path made readable
 * ('/' to '-', bytes other than [A-Za-z0-9._-] to '_', at most 48 bytes of
 * its end), '-', and 16 hex digits of its 64-bit FNV-1a hash. Fresh. */
char *cache_key(const char *workspace);

/* What a mode does, built from the table (pure): env gets NAME=VALUE with
 * the tool as origin (env_in: the caller's environment, for appended
 * values and for noting what is overridden in overridden, NAME with the
 * caller's value as origin); binds gets HOME/PATH of each shared row with
 * the tool as origin. dir: the per-workspace directory (per workspace);
 * home: the account's (shared). */
struct cache_plan {
	struct entry_list env;
	struct entry_list overridden;
	struct entry_list binds;
};
void cache_plan_build(const struct cache_tool *table, enum cache_mode mode, const char *dir,
		      const char *home, char *const *env_in, struct cache_plan *out);
void cache_plan_free(struct cache_plan *cp);

/* HOME/REL (REL relative, '/'-separated), each component made (mode
 * 0700) if missing when create, else only looked at; every component
 * below home opened with O_NOFOLLOW and owned by uid. CACHE_DIR_REFUSED
 * with one line in err when one is a symlink, not a directory or someone
 * else's; CACHE_DIR_UNAVAILABLE (err says why) when home is missing or
 * cannot be written (a system account's /nonexistent, a read-only home).
 * out: the path (home as given), set on CACHE_DIR_OK; with !create also
 * when a component is missing (*exists false). */
enum cache_dir_status { CACHE_DIR_OK, CACHE_DIR_REFUSED, CACHE_DIR_UNAVAILABLE };
enum cache_dir_status cache_dir_open(const char *home, const char *rel, unsigned uid,
				     bool create, char **out, bool *exists, char *err,
				     size_t errlen);
/* The same walk, nothing made: *fd the directory's (O_RDONLY|O_DIRECTORY),
 * or -1 on CACHE_DIR_OK when a component is missing. */
enum cache_dir_status cache_dir_fd(const char *home, const char *rel, unsigned uid, int *fd,
				   char *err, size_t errlen);

/* Records a start in workspace (its real path, whose key is key): writes
 * HOME/CACHE_WS_ROOT/CACHE_USED/KEY anew (made 0700 and checked as
 * cache_dir_open does; the file by O_EXCL, O_NOFOLLOW and a rename). false
 * with one line in err when something there is not what kjail made (a
 * symlink, someone else's, a directory at KEY); a home or disk that takes
 * no write is no error: the cache works without its record. */
bool cache_record_use(const char *home, const char *key, const char *workspace, unsigned uid,
		      char *err, size_t errlen);

#endif
