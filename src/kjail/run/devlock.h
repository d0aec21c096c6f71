/* SPDX-License-Identifier: MIT */
/* Run as root, the jail's uid owns the host's device nodes that bwrap's
 * --dev binds into its /dev (null, zero, ..., tty, and the caller's
 * terminal at /dev/console), and an owner needs no capability to chmod,
 * touch or set attributes: through a read-write bind the jail would change
 * them on the host. bwrap has no read-only bind that leaves a device
 * usable (--ro-bind and --remount-ro add nodev), but a bind copies the
 * flags of the mount it is made from. So the process that execs bwrap
 * first takes a mount namespace of its own (a slave of the host's: nothing
 * propagates back) and binds each node read-only onto itself there; bwrap
 * then binds them from there: read-only, still devices. Nothing changes
 * in kjail's own namespace or the host's. */
#ifndef KJ_DEVLOCK_H
#define KJ_DEVLOCK_H

/* paths: NULL-terminated. For the vfork child before its exec: system
 * calls only. Returns 0, or -1 with errno set and *failed the path at
 * fault (NULL for the namespace itself). */
int devlock_read_only(char *const *paths, const char **failed);

#endif
