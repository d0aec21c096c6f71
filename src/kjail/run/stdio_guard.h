/* SPDX-License-Identifier: MIT */
/* What kjail does about the descriptors the caller hands it: none above 2
 * reaches the jail, none of 0-2 may be a way around it, and the mode and
 * group of the caller's own stdio file or terminal are put back after the
 * run. */
#ifndef KJ_STDIO_GUARD_H
#define KJ_STDIO_GUARD_H

#include "planner/planner.h"
#include "run/notice.h"

/* First thing: a standard descriptor the caller left closed is opened on
 * /dev/null, so that none of kjail's own (a pipe of the jail's) takes its
 * number and reaches the command as its stdin, stdout or stderr. Exits 125
 * when it cannot. */
void open_closed_stdio(void);
/* Marks every descriptor above 2 close-on-exec: what the caller leaked
 * never reaches the jail. Dies when it cannot. */
void seal_inherited_fds(void);
/* Dies when standard input, output or error is a directory; notes the
 * others' mode and group for restore_stdio(). */
void refuse_directory_stdio(void);
/* After the run: puts back the mode and group of a standard descriptor's
 * file (the caller's own file or terminal) that the jail changed, and says
 * so on standard error (after note's reset of the terminal). */
void restore_stdio(struct notice *note);
/* Dies when one of them is a file (or block device) given read-only that
 * the jail could reopen for writing through /proc/self/fd: one the caller
 * may write, outside every writable path of the plan. For kernels without
 * Landlock's write rules, which otherwise hold such a file to reading. */
void refuse_reopenable_stdio(const struct plan *pl);

#endif
