/* SPDX-License-Identifier: MIT */
/* Path helpers. Every result is a fresh string the caller frees. */
#ifndef KJ_PATH_H
#define KJ_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/stat.h>

/* "~" and "~/x" become HOME and HOME/x; other paths are copied. "~user" is
 * not supported: NULL with errno EINVAL. A NULL or relative home: NULL, EINVAL. */
char *path_expand_home(const char *p, const char *home);

/* Absolute (relative to base, which must be absolute) and lexically clean:
 * no "//", no "." or ".." components, no trailing '/' except for "/". */
char *path_normalize(const char *p, const char *base);

/* Like realpath(3) but the path need not exist: every existing component is
 * resolved through symlinks (dangling ones too, since creating through a
 * dangling link creates its target), and the missing tail is appended
 * lexically. NULL with errno ELOOP after 40 links, or EINVAL for a relative
 * base. */
char *path_resolve(const char *p, const char *base);

/* For many paths under the same few directories (a plan's masks): the
 * directories already found real (not links), last components included,
 * are not looked up again, and
 * absent tells whether the last result did not exist (a component was not
 * there); last is the mode of the last result when its final component was
 * looked up and is no link (what stat(2) of it would say), else 0. A zeroed
 * memo is an empty one; path_memo_free releases it. */
struct path_memo {
	char *dir[16];
	size_t len[16];
	size_t next;
	bool absent;
	mode_t last;
};
char *path_resolve_memo(const char *p, const char *base, struct path_memo *memo);
/* path_resolve, calling on_link(ctx, LINK) for each symbolic link it meets
 * on the way, before it follows it: LINK is the link's own path, its
 * directory resolved. */
char *path_resolve_links(const char *p, const char *base,
			 void (*on_link)(void *ctx, const char *link), void *ctx);
/* An on_link that keeps each link met (ctx: a zeroed struct path_links). */
struct path_links {
	char **v;
	size_t n;
};
void path_links_note(void *ctx, const char *link);
void path_links_free(struct path_links *l);
void path_memo_free(struct path_memo *memo);
/* Whether dir (a clean absolute path) is known to be a real directory;
 * path_memo_add records one (the caller knows it is real). */
bool path_memo_has(const struct path_memo *memo, const char *dir);
bool path_memo_has_n(const struct path_memo *memo, const char *dir, size_t n); /* dir's first n bytes */
void path_memo_add(struct path_memo *memo, const char *dir);
/* Every directory above real, which must be a real path as getcwd(3) gives
 * one (no links, no "." or ".."), taken as known real directories. */
void path_memo_add_ancestors(struct path_memo *memo, const char *real);

/* Component-wise containment of clean absolute paths: "/srv/data" is under
 * "/srv" and under itself, never under "/srv/dat". */
bool path_is_under(const char *path, const char *dir);

/* PATH relative to DIR ("" when equal); NULL when not under it. Points into path. */
const char *path_relative_to(const char *path, const char *dir);

char *path_join(const char *a, const char *b);

/* Parent directory of a clean absolute path ("/" stays "/"). */
char *path_dirname(const char *p);
/* DIR and its missing parents made, each 0700 (a mkdir -p); true when DIR
 * is a directory at the end, else false with errno set. */
bool path_mkdirs(const char *dir);

/* Whether only uid and root could change the file at path, as ssh asks of
 * its config: the file, every directory above its real path, and every
 * symbolic link met on the way there with the directories above it, must
 * belong to uid or root and be writable by no one else (a directory
 * writable by others passes with the sticky bit, as /tmp does). In a user
 * namespace, a uid it does not map shows as the overflow uid: root's
 * directories and links inside a jail show so and count as root's; the
 * file itself only with OWNED_UNMAPPED_OK (a path fixed at build time, as
 * /etc/kli/config.ini), since another user's file shows so too.
 * True when so, with *st the file's lstat. False with errno ENOENT when it
 * is not there and no one else could make it; EPERM with why one clause
 * ("/x/y belongs to uid 1001") when someone else could change or make it;
 * another errno when it cannot be told. */
#define OWNED_UNMAPPED_OK 1
bool file_owned_safely(const char *path, uid_t uid, int flags, struct stat *st, char *why,
		       size_t whylen);

#endif
