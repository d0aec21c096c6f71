/* SPDX-License-Identifier: MIT */
/* The policy document: the one contract between kjail and kli
 * ($KJAIL_POLICY in the jail, `kjail --explain --json` outside; described
 * in doc/policy-json.md and doc/kjail-policy.schema.json). Pure. */
#ifndef KJ_BUILD_POLICY_JSON_H
#define KJ_BUILD_POLICY_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include "jsonw.h"
#include "planner/plan.h"
#include "policy/policy.h"

/* The version of the policy document (doc/policy-json.md): raised when a
 * field changes meaning or goes away, not when one is added. */
#define KJ_POLICY_VERSION 1

/* The document into W; with_filter: the seccomp rules too (the jail's
 * own copy leaves them out). */
void policy_json_build(struct jsonw *w, const struct policy *p, const struct plan *pl,
		       const char *bwrap, bool with_filter);
/* The same on OUT, one line. */
void policy_json_write(FILE *out, const struct policy *p, const struct plan *pl,
		       const char *bwrap, bool with_filter);

#endif
