/* SPDX-License-Identifier: MIT */
/* Drift: what widened since a baseline, a saved `kli --print-authority
 * --json` with its "containment" member (containment.h). Widening in either
 * layer is drift: a capability added or a constraint widened in the grant;
 * a mask or a protected path gone, a writable path added, the network
 * widened (none < allowlist < shared, or a host added), seccomp or Landlock
 * lost in the jail, Landlock's ABI lowered or its write rules gone (its
 * scopes only, under --allow-userns), or no jail at all. Narrowing is not
 * drift.
 *
 * Pure: the baseline is text, the grant and the policy are parsed already. */
#ifndef KLI_DRIFT_H
#define KLI_DRIFT_H

#include <stddef.h>

#include "authority/authority.h"
#include "containment/containment.h"
#include "containment/jailpolicy.h"
#include "strv.h"

/* Append one line per drift to OUT, each starting "drift: ". BASELINE (LEN
 * bytes) is the saved report; G, C and P are now (P NULL: not jailed).
 * False, with a message in ERR, when BASELINE is not such a report. */
bool drift_lines(const char *baseline, size_t len, const struct grant *g,
		 const struct containment *c, const struct jail_policy *p, struct strv *out,
		 char *err, size_t errlen);

/* A constraint as constraint_render() writes it, read back: "any",
 * "path under /abs", "in [LO..HI]", "one of \"a\", \"b\"". False when TEXT
 * is none of those. */
bool drift_constraint_parse(const char *text, struct constraint *out);

#endif
