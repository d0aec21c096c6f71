/* SPDX-License-Identifier: MIT */
/* What --explain's text (explain.c) and its policy JSON (policy-json.c)
 * both say: an op's verdict, an errno's name, one seccomp idea, the
 * network's mode and origin, an allowlist host. Pure. */
#ifndef KJ_BUILD_EXPLAIN_WORDS_H
#define KJ_BUILD_EXPLAIN_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "build/seccomp.h"
#include "planner/plan.h"
#include "policy/policy.h"
#include "proxy/rules.h"

const char *op_verdict(enum op_kind k);
const char *errno_name(int e);
bool same_rule(const struct sc_rule *a, const struct sc_rule *b);
const char *net_origin(const struct policy *p, const struct plan *pl);
const char *net_mode_name(const struct plan *pl);
void rule_host(const struct allow_rule *r, char *buf, size_t len);

#endif
