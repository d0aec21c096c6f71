/* SPDX-License-Identifier: MIT */
/* --backend landlock, the child's side: what confines the command without
 * any namespace, applied to the calling process right before the exec. */
#ifndef KJ_LL_DOMAIN_H
#define KJ_LL_DOMAIN_H

#include <stdbool.h>
#include <stddef.h>
#include "planner/planner.h"

/* The Landlock ABI this backend needs at least (write rules, with
 * TRUNCATE), and for -n (network rules). */
#define LL_BACKEND_MIN_ABI 3
#define LL_BACKEND_NET_ABI 4

/* Confines this process for pl: a Landlock domain (read and execute
 * everywhere but the masks, by enumerating the siblings on the way down
 * to each; writes only under the writable roots, tmpdir and a few device
 * nodes; readable: ro too; under -n no TCP bind or connect; the scopes
 * with ABI 6), no_new_privs, every capability gone with SECBIT_NOROOT
 * and NO_SETUID_FIXUP locked, then kjail's seccomp filter and this
 * backend's socket rules (no AF_UNIX socket(2); under -n only TCP
 * streams). False with one line in err: the caller must not exec. */
/* A mask strictly below a writable root of pl (which a writable root's
 * rights would read, and a rename carry out), with that root in *root;
 * NULL when there is none. */
const char *ll_mask_in_writable(const struct plan *pl, const char **root);

bool ll_confine(const struct plan *pl, const char *tmpdir, const char *ro, char *err,
		size_t errlen);

#endif
