/* SPDX-License-Identifier: MIT */
/* kli's containment commands: see gate.h. */
#include "config.h"
#include "containment/gate.h"
#include "containment/containment.h"
#include "containment/report.h"
#include "containment/drift.h"
#include "path.h"
#include "strv.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct jail_policy *gate_policy(const char *file, const char *workspace)
{
	const char *what = file ? "--jail-policy" : "$" JAIL_POLICY_ENV;
	const char *name = file ? file : getenv(JAIL_POLICY_ENV);
	if (!name || !*name)
		return NULL;
	_cleanup_free_ char *abs = path_normalize(name, workspace);
	struct jail_policy *p = abs ? jail_policy_load(abs) : NULL;
	if (!p) {
		_cleanup_free_ char *shown = xstrdup(name);
		ctrl_scrub(shown);
		die("%s %s: not a readable kjail policy document (kjail --explain --json "
		    "writes one)", what, shown);
	}
	return p;
}

char *gate_report(const struct grant *g, const char *report, bool json,
		  const struct jail_policy *p)
{
	struct containment *c = containment_compute(g, p);
	char *out;
	if (json) {
		out = containment_json(report, c);
	} else {
		_cleanup_free_ char *more = containment_text(c, g);
		out = xasprintf("%s%s", report, more);
	}
	containment_free(c);
	return out;
}

int gate_check(const struct grant *g, const struct jail_policy *p, const char *baseline,
	       const char *workspace)
{
	struct containment *c = containment_compute(g, p);
	struct strv lines = STRV_INIT;
	if (!c->jailed)
		strv_push(&lines, CONTAINMENT_NONE);
	for (size_t i = 0; i < c->ngaps; i++)
		if (c->gaps[i].dir == GAP_IMPOSSIBLE)
			strv_push(&lines, c->gaps[i].text);
	if (baseline) {
		_cleanup_free_ char *abs = path_normalize(baseline, workspace);
		size_t len;
		_cleanup_free_ char *text = abs ? read_file_capped(abs, 16u << 20, &len) : NULL;
		char err[400];
		_cleanup_free_ char *shown = xstrdup(baseline);
		ctrl_scrub(shown);
		if (!text)
			die_errno("--baseline %s: cannot read it", shown);
		if (!drift_lines(text, len, g, c, p, &lines, err, sizeof err))
			die("--baseline %s: %s", shown, err);
	}
	for (size_t i = 0; i < lines.n; i++) {
		ctrl_scrub(lines.v[i]);
		printf("%s\n", lines.v[i]);
	}
	if (!lines.n)
		printf("ok: the grant is within the jail%s\n",
		       baseline ? ", and nothing widened since the baseline" : "");
	int status = lines.n ? 1 : 0;
	strv_free(&lines);
	containment_free(c);
	return status;
}
