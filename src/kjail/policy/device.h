/* SPDX-License-Identifier: MIT */
/* --device=CLASS (device = CLASS in [sandbox]): which of the host's device
 * nodes a class names, as data, and the pure builder from the host's
 * entries under /dev to what the jail's private /dev gets. Only nodes:
 * the rest of /dev stays bwrap's minimal one. devscan.c reads the host
 * (readdir, lstat, readlink) into the entries; nothing here does I/O.
 *
 * Contract: device_binds() returns, in the order the entries came, a bind
 * (bwrap --dev-bind PATH PATH) for each character device whose path
 * matches a pattern of the class, then a symbolic link (bwrap --symlink
 * TARGET PATH) for each link in a class's link directory whose target,
 * taken against its directory, is one of those nodes; anything else
 * (block devices, files, directories, links to other nodes, links that
 * leave /dev) is left out. What the driver needs besides the nodes is
 * already there: the jail's own procfs has /proc/driver/nvidia (kernel
 * entries are not per namespace) and / is bound read-only, so /sys
 * (/sys/class/drm, /sys/dev/char, /sys/devices/pci...) reads as on the
 * host (doc/security-model.md). */
#ifndef KJ_DEVICE_H
#define KJ_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

enum dev_kind { DEV_CHAR, DEV_LINK, DEV_OTHER };

/* One entry of the host's /dev, as devscan.c found it. */
struct dev_entry {
	const char *path;   /* absolute: /dev/dri/card0 */
	enum dev_kind kind;
	const char *target; /* DEV_LINK: what readlink gives, else NULL */
};

/* What the jail gets: a node bound at its own path, or (target set) a
 * symbolic link made there. origin: "--device=gpu" or "FILE:LINE". */
struct dev_bind {
	char *path;
	char *target;
	const char *cls;
	const char *origin;
};

/* The classes --device= takes, NULL-terminated ("gpu"). */
extern const char *const device_classes[];
bool device_class_known(const char *name);
/* What to say when a host has none of a class's nodes ("no GPU device
 * nodes (/dev/nvidia*, /dev/dri, /dev/kfd) on this host"). */
const char *device_class_none(const char *cls);
/* The directories whose entries device_binds() looks at, for devscan.c,
 * NULL-terminated. */
extern const char *const device_dirs[];

/* Appends to *v (n entries, growing) the binds class cls makes of the
 * host's entries e[0..ne); returns how many nodes it bound (the links
 * are not counted). cls and origin are kept as pointers. */
size_t device_binds(const char *cls, const struct dev_entry *e, size_t ne, const char *origin,
		    struct dev_bind **v, size_t *n);
void dev_binds_free(struct dev_bind *v, size_t n);

#endif
