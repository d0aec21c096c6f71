/* SPDX-License-Identifier: MIT */
/* containment/report.c: the containment sections of kli --print-authority, as text or JSON. */
#ifndef KLI_CONTAINMENT_REPORT_H
#define KLI_CONTAINMENT_REPORT_H

#include "containment/containment.h"

/* The text report's sections (after the grant's): "containment:",
 * "effective:", "gaps:", lines ending in '\n'. G: the grant C was
 * computed for (its atoms the jail has no say on are listed as granted). */
char *containment_text(const struct containment *c, const struct grant *g);

/* The authority report AUTHORITY_JSON (report_json's one line) with a
 * "containment" member added: one line, ending in '\n'. */
char *containment_json(const char *authority_json, const struct containment *c);

/* The one line outside any jail. */
#define CONTAINMENT_NONE \
	"none: kli is not running under kjail; process/exec runs with all of this user's rights"

#endif
