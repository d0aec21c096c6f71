/* SPDX-License-Identifier: MIT */
/* planner/devscan.c: the host's /dev entries the device classes look at. */
#ifndef KJ_PLANNER_DEVSCAN_H
#define KJ_PLANNER_DEVSCAN_H

#include "policy/device.h"

/* devscan.c: the entries of each of device_dirs on this host (absent
 * directories give none), in directory order; *n set. */
struct dev_entry *device_scan(size_t *n);
void dev_entries_free(struct dev_entry *e, size_t n);

#endif
