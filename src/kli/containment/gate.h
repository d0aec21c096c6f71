/* SPDX-License-Identifier: MIT */
/* The containment commands of kli's command line: which policy document
 * applies (--jail-policy FILE, else $KJAIL_POLICY, else none), the
 * containment sections of --print-authority, and --check-containment
 * [--baseline FILE], the gate. main.c only calls these. */
#ifndef KLI_GATE_H
#define KLI_GATE_H

#include <stdbool.h>

#include "authority/authority.h"
#include "containment/jailpolicy.h"

/* The policy kli runs within: FILE (relative to WORKSPACE) when given, else
 * the file $KJAIL_POLICY names, else NULL (not under kjail). A document
 * named but unreadable or not a kjail policy is an error: die(). */
struct jail_policy *gate_policy(const char *file, const char *workspace);

/* REPORT (report_text or report_json of G) with the containment in P added. */
char *gate_report(const struct grant *g, const char *report, bool json,
		  const struct jail_policy *p);

/* --check-containment: one line per problem on stdout, exit status 0 (none)
 * or 1. BASELINE (may be NULL; relative to WORKSPACE) also reports drift. */
int gate_check(const struct grant *g, const struct jail_policy *p, const char *baseline,
	       const char *workspace);

#endif
