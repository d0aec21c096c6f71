/* SPDX-License-Identifier: MIT */
/* After the run, once no process of the jail is left. */
#ifndef KJ_AFTERCARE_H
#define KJ_AFTERCARE_H

#include <stdbool.h>
#include "planner/planner.h"
#include "run/notice.h"

#ifdef KJ_OS_LINUX
/* Every protected name that was absent when the jail started (the plan's
 * unguarded list: a .git/commondir, an .envrc, a .vscode/ or .mcp.json an
 * editor or agent would trust) and that the jail created, or a symlink the
 * jail put on the way to one, is renamed aside to
 * NAME.kjail-moved-aside.RANDOM (NAME cut short when that would be too
 * long) with one warning line naming where it went. The jail's last moves
 * cannot stop it: the walk from the writable root follows no symlink, the
 * new name is 64 random bits and taken only where nothing is
 * (RENAME_NOREPLACE), and a directory on the way whose owner's search or
 * write permission the jail took is given it for the rename, then its mode
 * put back as the jail left it. So is the caches' root in a writable
 * root (plan.h's cache_root) when it is not the directory kjail saw at
 * the start (device, inode, owner, mode), or a symlink is on the way to
 * it: kjail would bind what it holds into another workspace's jail.
 * Nothing is read from what the jail wrote. False when something could not be moved
 * (or looked at): each such name has an error line, then one line names
 * what to delete with the command's exit status, status; the caller then
 * exits KJ_EXIT_FAIL. Lines after n's reset of the terminal. */
bool aftercare_move_aside(const struct plan *pl, struct notice *n, int status);
#endif

#endif
