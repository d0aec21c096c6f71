/* SPDX-License-Identifier: MIT */
/* git's small files (HEAD, refs, packed-refs, the operation states, the
 * reflogs, a config's bytes) read the way kjail reads what a jail wrote,
 * outside any jail: from a directory descriptor opened before the run,
 * with *at calls and O_NOFOLLOW at every component (a symlink the jail
 * made leads nowhere), a regular file only, a bounded read; object names
 * checked to be hex; never through git, never a path taken from what is
 * read. Anything that needs git's own reading of the jail's data runs in
 * a jail of its own (git/report.h). */
#ifndef KJ_GIT_SMALL_FILES_H
#define KJ_GIT_SMALL_FILES_H

#include <stdbool.h>
#include <stddef.h>

#ifdef KJ_OS_LINUX
/* A component of a name kjail walks: 1 to 255 bytes, not . or .. */
bool plain_component(const char *c, size_t n);

/* rel ("a/b/c") under the directory open on dir (any descriptor, O_PATH
 * too): the bytes of a regular file of at most max bytes, NUL-terminated,
 * their number in *len; NULL when it is not one, is larger, or a
 * component is a symlink, "." or "..". Fresh. */
char *read_small_at(int dir, const char *rel, size_t max, size_t *len);

/* rel's first line (4 KiB at most), without its end of line. Fresh. */
char *first_line_at(int dir, const char *rel);

/* name in dir exists (a symlink too, not followed). */
bool exists_at(int dir, const char *name);

/* s is an object name as git writes one: 40 or 64 lowercase hex digits. */
bool is_oid(const char *s);

/* The object name ref ("refs/...") names: its loose file in gitdir, then
 * in common, then its line of common's packed-refs; NULL when none
 * names a well-formed one. Fresh. */
char *ref_oid(int gitdir, int common, const char *ref);

/* The commit HEAD names (one symbolic level, as git keeps it), or NULL. */
char *head_oid(int gitdir, int common);
#endif

#endif
