/* SPDX-License-Identifier: MIT */
/* What this bwrap can do here, probed once a boot. bwrap's --disable-userns
 * writes user.max_user_namespaces inside the jail's user namespace through
 * the /proc kjail started it under, then checks that unshare(CLONE_NEWUSER)
 * fails: under a read-only /proc/sys (a container's, another jail's) or a
 * kernel that does not keep that sysctl per namespace (gVisor) it fails
 * while user namespaces themselves work. The probe is bwrap itself:
 * "bwrap --unshare-user --disable-userns --ro-bind / / -- BWRAP --version",
 * and when that fails the same without --disable-userns, to tell the one
 * from a bwrap that cannot start at all. The answer is kept in
 * $XDG_RUNTIME_DIR/kjail/bwrap-probe (without it /run/user/UID/kjail; root
 * without either: /run/kjail), keyed
 * by the boot, the bwrap binary, the mount and user namespaces and the uid
 * (probe-cache.h), written atomically, 0600; a file not the caller's, or
 * group or world writable, is no answer. A bwrap that does not run at all
 * is never kept: the next run probes again. */
#ifndef KJ_BWRAP_PROBE_H
#define KJ_BWRAP_PROBE_H

#include <stdbool.h>
#include "run/probe-cache.h"

/* The answer for bwrap: the cache's; else, with may_probe, a fresh one,
 * kept; else UNKNOWN. */
void bwrap_probe(const char *bwrap, bool may_probe, struct bwrap_probe *out);

/* After a jail that used --disable-userns on the cache's word did not
 * start: a fresh probe, kept; when it says --disable-userns fails, one
 * phrase for the error line in fix ("" otherwise). */
void bwrap_probe_stale(const char *bwrap, char *fix, size_t len);

#endif
