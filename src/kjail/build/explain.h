/* SPDX-License-Identifier: MIT */
/* --explain: the jail in words (or JSON), and the verdict on a path. Pure
 * over the plan and policy, except that it writes to the stream it is given. */
#ifndef KJ_EXPLAIN_H
#define KJ_EXPLAIN_H

#include <stdbool.h>
#include <stdio.h>
#include "planner/planner.h"
#include "policy/policy.h"

struct verdict {
	char *path;      /* resolved */
	const char *what; /* "masked", "writable", "read-only", "private", ... */
	const char *rule;
	const char *origin;
};

/* Verdict for path (resolved against cwd). *v owns only v->path. */
void explain_verdict(const struct plan *pl, const char *path, const char *cwd, struct verdict *v);

/* How explain_policy describes the jail: in one screen, what matters in
 * full and the rest counted in a last line (build/brief.h); every line
 * (--verbose); or as the policy document (--json). */
enum explain_form { EXPLAIN_SHORT, EXPLAIN_VERBOSE, EXPLAIN_JSON };

void explain_policy(FILE *out, const struct policy *p, const struct plan *pl, const char *bwrap,
		    enum explain_form form);
/* The JSON of explain_policy without the seccomp rule list (constant, and
 * half the cost): what the jail finds at KJ_POLICY_FILE on every run, as
 * one allocated string the caller frees. */
char *explain_policy_for_jail(const struct policy *p, const struct plan *pl, const char *bwrap);
/* With kjail's proxy (an allowlist, or -n): one line a rule ("allow-host:
 * HOST port P (ORIGIN)") and one for the proxy, each after prefix;
 * nothing otherwise. */
void explain_allowlist(FILE *out, const struct plan *pl, const char *prefix);
void explain_paths(FILE *out, const struct plan *pl, const char *cwd, char *const *paths,
		   bool json);

#endif
