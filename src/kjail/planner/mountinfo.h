/* SPDX-License-Identifier: MIT */
/* The mount table as /proc/self/mountinfo gives it, and the other names a
 * path has through it. A masked path is hidden at one name; every other
 * mount of the same file system whose root holds it (a bind of the home at
 * /run/host, the same device mounted twice, a bind of ~/.ssh itself) shows
 * it again under another name, its alias.
 *
 * Pure: the parser and the alias finder take text and return data, without
 * looking at the host; the caller confirms each alias with stat(2) (the
 * table may have changed, and a name may be hidden by a later mount).
 * The text is the kernel's, but it is parsed as untrusted: a malformed
 * line makes the whole table unusable (false), never a partial one, so a
 * caller that cannot parse it cannot miss an alias without knowing. */
#ifndef KJ_MOUNTINFO_H
#define KJ_MOUNTINFO_H

#include <stdbool.h>
#include <stddef.h>

struct mount_entry {
	unsigned long id, parent;
	unsigned major, minor;
	char *root;   /* the mount's root within its file system, unescaped */
	char *point;  /* where it is mounted, unescaped */
	char *type;   /* the file system's type ("ext4", "proc"), unescaped */
};

struct mount_table {
	struct mount_entry *v;
	size_t n;
};

/* Parses len bytes of mountinfo text into *t (zeroed first). False, with
 * *bad_line the 1-based number of the first line that is not
 * "ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER"
 * with absolute ROOT and POINT, and *t empty. Paths have their \ooo escapes
 * undone ("\040" is a space). */
bool mountinfo_parse(const char *text, size_t len, struct mount_table *t, size_t *bad_line);
void mount_table_free(struct mount_table *t);

/* The mount that shows path (a clean absolute real path): the deepest
 * mount point above or at it, the topmost of a stack there. NULL when none
 * (no "/" in the table). */
const struct mount_entry *mount_of(const struct mount_table *t, const char *path);

/* The other names of path (clean, absolute, real), shown by m, the mount
 * that shows it: for each other mount of the same device, either
 *  - its root holds path's place in the file system: the alias is its
 *    mount point plus the rest ("whole" false), or
 *  - its root lies under path's place (path is a directory and a part of
 *    it is mounted elsewhere): the alias is its mount point, all of which
 *    shows what is under path ("whole" true).
 * Aliases under another alias of the same path are kept too (the caller's
 * ordering drops nested masks). */
struct mount_alias {
	char *path;             /* the other name */
	const char *via;        /* the mount point that gives it (the table's) */
	char *orig;             /* what it shows, at the path's own name: path, or
				 * for a whole one path plus the mount's root below */
};
struct mount_aliases {
	struct mount_alias *v;
	size_t n;
};
void mount_aliases_of(const struct mount_table *t, const struct mount_entry *m,
		      const char *path, struct mount_aliases *out);
void mount_aliases_free(struct mount_aliases *a);

/* A mountinfo path field, its \ooo escapes undone, in place. */
void mountinfo_unescape(char *s);

#endif
