/* SPDX-License-Identifier: MIT */
/* Landlock, applied by the jail's entry helper right before exec. */
#ifndef KJ_LANDLOCK_H
#define KJ_LANDLOCK_H

#include <stdbool.h>
#include <stddef.h>

#include "entry/abi.h" /* LANDLOCK_SCOPES_ABI */

/* The kernel's Landlock ABI version, or -1 (with errno) without Landlock. */
int landlock_abi(void);


enum { LL_APPLIED = 0, LL_UNSUPPORTED = 1, LL_FAILED = -1 };

/* Restrict this process and what it execs, as far as the kernel's ABI
 * allows: writes only under the nrw writable paths rw (and to the files
 * the command's standard input, output and error, descriptors std, are
 * open on, as far as they were opened for writing), so
 * that no descriptor reopened through /proc/self/fd writes elsewhere; no
 * connecting to abstract Unix sockets made outside, no signals to
 * processes outside. With mounts (--allow-userns), no write rules: a
 * Landlock domain that handles any file-system right may never mount,
 * unmount or pivot_root, not even in a mount namespace of its own, and a
 * nested jail needs to; the scopes stay. */
int landlock_apply(const char *const *rw, size_t nrw, const int std[3], bool mounts,
		   char *err, size_t errlen);

/* For a process outside the jail that reads a few directories and writes
 * no file (kjail's proxy): every file-system right the kernel's ABI
 * knows is handled and only reading files and listing directories under
 * the directories ro is granted (a directory that does not exist is
 * skipped); with ABI 4, binding a TCP port is refused; with ABI 6, the
 * scopes of landlock_apply(). Sets no_new_privs. LL_UNSUPPORTED without
 * Landlock. */
int landlock_restrict_reads(const char *const *ro, size_t nro, char *err, size_t errlen);

/* One line on what Landlock gives on this kernel, for --explain and
 * --doctor; mounts: the jail runs with its write rules off
 * (JAIL_USERNS_MOUNTS, --allow-userns), so only the scopes apply. */
const char *landlock_status(bool mounts);

#endif
