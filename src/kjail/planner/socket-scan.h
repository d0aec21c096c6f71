/* SPDX-License-Identifier: MIT */
/* planner/socket-scan.c: the host's pathname sockets, found at start and
 * masked unless allowed (policy/socket-rules.h). */
#ifndef KJ_PLANNER_SOCKET_SCAN_H
#define KJ_PLANNER_SOCKET_SCAN_H

#include "planner/internal.h"

/* Limits of the walk: entries read in all, and directory levels below
 * each place scanned (the home's dot-directories count as level 1). */
#define SOCKET_SCAN_ENTRIES 60000
#define SOCKET_SCAN_HOME_DEPTH 4
#define SOCKET_SCAN_RUN_DEPTH 6

/* Reads /run, /var/run (if it is not /run), /run/user/NAME, /var/lib/NAME one
 * level, the home's dot-directories (SOCKET_SCAN_HOME_DEPTH), the engine
 * table's paths and the endpoints $DOCKER_HOST and docker's current
 * context name, by directory reads alone (no content), skipping network
 * and FUSE file systems and whatever a mask already hides; masks every
 * socket found that the allow table does not keep (a directory of
 * sockets only, whole) and notes each in b->pl->scanned. After the
 * policy's masks, before check_masks; nothing unless h->scan_sockets. */
void add_socket_scan(struct builder *b);

#endif
