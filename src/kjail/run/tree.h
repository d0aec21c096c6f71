/* SPDX-License-Identifier: MIT */
/* A directory tree kjail does not trust (a jail wrote into it: a
 * workspace's toolchain cache), measured or removed through descriptors
 * only: each directory opened from its parent's descriptor with
 * O_NOFOLLOW, each entry looked at and removed with fstatat and unlinkat
 * (AT_SYMLINK_NOFOLLOW), never by path. A symbolic link is an entry like
 * any other (counted, removed), never followed; ".." is never taken; a
 * directory on another file system (a mount in it) is not entered; at most
 * TREE_DEPTH_MAX directories deep (each level holds a descriptor). A
 * directory kjail may not write (go's module cache is read-only) is made
 * writable by its owner before its entries go. */
#ifndef KJ_TREE_H
#define KJ_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TREE_DEPTH_MAX 256

/* The disk space (st_blocks) of the directory name under dirfd and all it
 * holds, as du counts it (a hard link counted at each name). False, with
 * what was counted in *bytes, when part of it could not be read (too deep,
 * another file system, a directory that cannot be opened). */
bool tree_size_at(int dirfd, const char *name, uint64_t *bytes);

/* Removes the directory name under dirfd and all it holds. False with one
 * line in err ("SHOWN: why (at PATH inside)") when something is left. */
bool tree_remove_at(int dirfd, const char *name, const char *shown, char *err, size_t errlen);

#endif
