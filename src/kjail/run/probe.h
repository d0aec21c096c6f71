/* SPDX-License-Identifier: MIT */
/* What the host allows: used to explain a jail that did not start, and by
 * --doctor. Every probe is read-only (sysctls, a child that tries unshare). */
#ifndef KJ_PROBE_H
#define KJ_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include "util.h"

/* -1 when the file is missing or unreadable. */
long probe_sysctl(const char *path);

/* Whether user namespaces are blocked here; if so, one line "why; fix: ..."
 * in fix and true. */
bool probe_userns(char *fix, size_t len);

/* Whether this process is itself in a kjail jail (its policy file is
 * there), with the fix in fix: why a jail did not start there. */
bool probe_inside_kjail(char *fix, size_t len);

/* Whether this process runs inside a kjail jail, by what no one but a
 * jail's maker can fake: KJ_POLICY_DIR is a mount of its own (not a
 * directory of /tmp's), a read-only tmpfs, holding the policy file. A
 * directory of that name made in a shared /tmp is not enough. There a
 * fresh /proc is refused (the outer jail mounts over parts of its own),
 * so the jail takes --nested-userns's shape. */
bool probe_in_kjail_jail(void);

/* "bubblewrap 0.8.0", or "" when it cannot be run. */
void probe_bwrap_version(const char *bwrap, char *out, size_t len);

/* bwrap too old for kjail: the message with its fix. */
void probe_bwrap_too_old(const char *bwrap, char *fix, size_t len);

/* Whether something is mounted over parts of /proc (a container's masks),
 * which stops bwrap from mounting a fresh /proc. */
bool probe_proc_masked(char *where, size_t len);

/* Whether a masked /proc stops bwrap here: something is mounted over parts
 * of /proc and a child in namespaces of its own is refused a fresh /proc
 * (Podman's default profile allows the user namespace, its masks refuse
 * the /proc); if so, one line "why; fix: ..." in fix and true. */
bool probe_fresh_proc(char *fix, size_t len);

struct plan;
/* Why the jail of pl did not start (bwrap's message in msg, modified),
 * with the fix, as one line; exits 125. */
KJ_NORETURN void probe_diagnose(const struct plan *pl, const char *bwrap, char *msg);

#endif
