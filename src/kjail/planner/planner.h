/* SPDX-License-Identifier: MIT */
/* From policy to plan: the one place that looks at the host (stat,
 * realpath) and decides what the jail mounts where (planner/planner.c, with the
 * planner's parts that planner/internal.h lists). The builders (bwrap.c,
 * explain.c) are pure functions of the plan (plan.h). */
#ifndef KJ_HOST_H
#define KJ_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include "planner/plan.h"
#include "policy/policy.h"

/* Builds the plan; false with one line in err on a policy that cannot be
 * honoured (missing workspace, a mask that would hide a writable root...).
 * The environment is envp scrubbed (env_filter); with envp NULL, env and
 * env_removed are left empty for the caller, who scrubbed it before. */
bool plan_build(const struct policy *p, const struct host *h, char *const *envp,
		struct plan *out, char *err, size_t errlen);

#endif
