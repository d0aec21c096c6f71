/* SPDX-License-Identifier: MIT */
/* planner/netlog.c: where --net-log keeps the proxy's log. */
#ifndef KJ_PLANNER_NETLOG_H
#define KJ_PLANNER_NETLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "planner/plan.h"

/* p->net_log (relative to h->cwd) as pl->net_log, its directory real.
 * Refused, with one line into err: no proxy in this jail (nothing to
 * keep: it needs --allow-host or -n); a directory that is missing or no
 * directory; a directory the jail could write (a writable root or a pin
 * in one), where the jail could plant the name, a link in its place or
 * a log of its own making; a FILE that is a directory. The file itself
 * is written after the run by run/egress.c, never followed if a link. */
bool plan_net_log(struct plan *pl, const struct policy *p, const struct host *h, char *err,
		  size_t errlen);

#endif
