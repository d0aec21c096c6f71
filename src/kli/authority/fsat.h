/* SPDX-License-Identifier: MIT */
/* Opening what mediate() checked, and nothing else.
 *
 * mediate() resolves a path to a clean absolute name with no symlink in it
 * and checks that name. The functions here open exactly that name, one
 * component at a time and following no symlink (openat2 with
 * RESOLVE_NO_SYMLINKS where the kernel has it, an O_NOFOLLOW walk from "/"
 * elsewhere, as under kjail's seccomp filter). A component swapped for a
 * symlink since the check makes the open fail (ELOOP) instead of leading
 * outside the grant. Tools then act only through the descriptors opened
 * here (openat, renameat, fdopendir), never through a path string.
 *
 * A grant covers names, not files: a hard link inside the grant to a file
 * outside it is that file. Writes therefore replace the name (a temporary
 * file in the same directory, then renameat) and never write through. */
#ifndef KLI_FSAT_H
#define KLI_FSAT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* One object a tool may act on. */
struct fs_target {
	int dir;          /* the deepest existing directory on the way, O_PATH; -1: none */
	char *rest;       /* what lies below DIR: "name", or "a/b/name" when a write must
			     create a and b first */
	int fd;           /* the object itself, O_PATH, -1 when it does not exist */
	struct stat st;   /* of FD, when FD >= 0 */
	int error;        /* why it could not be opened (errno), else 0 */
};

/* Open the clean absolute PATH with FLAGS (O_PATH, O_RDONLY, ...), following
 * no symlink on the way or at the end. -1 and errno on failure. */
int fsat_open(const char *path, int flags);

/* Fill *T for the clean absolute PATH. CREATE: the object and directories
 * above it may be missing (T->rest says what to create); else the object
 * must exist. False with errno on failure; T is then empty but for
 * T->error, which the tool reports when it runs. */
bool fsat_target_open(struct fs_target *t, const char *path, bool create);
void fsat_target_close(struct fs_target *t);

/* Make the directories of T->rest (all but its last component) below
 * T->dir, following no symlink; on success T->dir is the last of them and
 * T->rest its final name. False with errno. */
bool fsat_make_parents(struct fs_target *t);

/* Reopen T's object for reading, refusing (EINVAL) anything but a regular
 * file without opening it for reading first. -1 with errno. */
int fsat_reopen_read(const struct fs_target *t);

/* Replace NAME in DIR with TEXT (LEN bytes): a new file ".kli-XXXXXX" in
 * DIR (short, so any legal NAME works), then renameat. MODE: the mode to
 * give it. On false, errno says why and nothing changed. */
bool fsat_replace(int dir, const char *name, const char *text, size_t len, mode_t mode);

/* Write TEXT to a new temporary file in DIR; its name into TMP (at least
 * 16 bytes). -1 with errno, else 0. */
int fsat_write_temp(int dir, const char *text, size_t len, mode_t mode, char tmp[16]);

#endif
