/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "run/notice.h"

#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

void notice_warn(struct notice *n, const char *fmt, ...)
{
	if (!n->reset) {
		n->reset = true;
		if (isatty(STDERR_FILENO))
			(void)!write(STDERR_FILENO, NOTICE_TTY_RESET, sizeof NOTICE_TTY_RESET - 1);
	}
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *line = xvasprintf(fmt, ap);
	va_end(ap);
	warn_msg("%s", line);
}
