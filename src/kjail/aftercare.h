/* SPDX-License-Identifier: MIT */
/* After the run, once no process of the jail is left. */
#ifndef KJ_AFTERCARE_H
#define KJ_AFTERCARE_H

#include "host.h"

/* Every protected name that was absent when the jail started (the plan's
 * unguarded list: a .git/commondir, an .envrc, a .vscode/ or .mcp.json an
 * editor or agent would trust) and that the jail created, or a symlink the
 * jail put on the way to one, is renamed aside to NAME.kjail-moved-aside.PID
 * with one warning line naming where it went; one that cannot be renamed is
 * named in a warning with the reason. */
void aftercare_move_aside(const struct plan *pl);

#endif
