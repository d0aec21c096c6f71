/* SPDX-License-Identifier: MIT */
/* kjail's own lines after the run, on a terminal the jail wrote to last. */
#ifndef KJ_NOTICE_H
#define KJ_NOTICE_H

#include <stdbool.h>
#include "util.h"

/* What goes to a terminal before kjail's first line after the run, to undo
 * what the jail's last output can leave set to hide that line, without
 * moving or clearing what is on the screen: save the cursor (DECSC); leave
 * the alternate screen (1047, which does not move the cursor of its own,
 * where 1049 in xterm and tmux brings back a position saved long before);
 * no scroll region (a one-line region scrolls each line away under the
 * next; DECSTBM homes the cursor); the cursor back (DECRC, which brings
 * back the attributes and character set saved with it, so those are reset
 * after it); attributes off (SGR 0: concealed, colours, reverse); G0 the
 * ASCII set, shifted in (in the line-drawing set letters are lines); wrap
 * on (without it a line overwrites itself in the last column); then CR LF,
 * so the line starts a line of its own: where the cursor is, only a query
 * the terminal answers on its input would tell, racing what the user typed
 * ahead, and an empty line costs less than a warning read as the end of
 * the jail's own text. The terminal's colours themselves (OSC 4, 10, 11)
 * are left as they are: resetting them would undo a theme the user set
 * that way. */
#define NOTICE_TTY_RESET "\0337\033[?1047l\033[r\0338\033[0m\033(B\017\033[?7h\r\n"

/* Whether the reset was written (or found unneeded) already. */
struct notice {
	bool reset;
};

/* warn_msg(), after NOTICE_TTY_RESET on the first call when standard error
 * is a terminal; a pipe or a file gets the line as it is. */
KJ_PRINTF(2, 3) void notice_warn(struct notice *n, const char *fmt, ...);

#endif
