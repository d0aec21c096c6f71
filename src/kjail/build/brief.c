/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "build/brief.h"
#include "util.h"

/* What a count calls each kind, and how many of its lines a short
 * --explain prints before it counts the rest: none of what only a
 * careful reader needs (the filter's rules, absences, the caches'
 * variables), a few of what exists on this host, so the built-in policy
 * fits a screen (doc/kjail.1, --explain). */
static const struct {
	const char *one, *many;
	size_t share;
} kinds[BRIEF_KINDS] = {
	[BRIEF_SCANNED] = { "socket found by scan", "sockets found by scan", 0 },
	[BRIEF_SECCOMP] = { "seccomp rule", "seccomp rules", 0 },
	[BRIEF_PINNED] = { "pinned directory", "pinned directories", 0 },
	[BRIEF_PROTECTED] = { "protected path in the workspace",
			      "protected paths in the workspace", 10 },
	[BRIEF_PROTECTED_ELSEWHERE] = { "protected path outside the workspace",
					"protected paths outside the workspace", 5 },
	[BRIEF_MASKED] = { "mask", "masks", 10 },
	[BRIEF_SCAN_MASK] = { "socket scan mask", "socket scan masks", 0 },
	[BRIEF_FILTERED] = { "filtered file", "filtered files", 10 },
	[BRIEF_UNPROTECTED] = { "protected name not present here",
				"protected names not present here", 0 },
	[BRIEF_SKIPPED] = { "skipped mask", "skipped masks", 0 },
	[BRIEF_ENV_UNSET] = { "unset variable", "unset variables", 10 },
	[BRIEF_CACHE_ENV] = { "cache variable", "cache variables", 0 },
	[BRIEF_CACHE_NOTE] = { "cache note", "cache notes", 0 },
};

bool brief_keep(struct brief *b, enum brief_kind k, bool foldable)
{
	if (b->verbose || !foldable || b->shown[k] < kinds[k].share) {
		b->shown[k]++;
		return true;
	}
	b->left[k]++;
	return false;
}

bool brief_built_in(const char *origin)
{
	return origin && str_has_prefix(origin, "built-in");
}

void brief_tally(FILE *out, const struct brief *b)
{
	const char *sep = "... and ";
	for (size_t k = 0; k < BRIEF_KINDS; k++) {
		if (!b->left[k])
			continue;
		fprintf(out, "%s%zu %s%s", sep, b->left[k], b->shown[k] ? "more " : "",
			b->left[k] == 1 ? kinds[k].one : kinds[k].many);
		sep = ", ";
	}
	if (sep[0] == ',')
		fputs(": --explain --verbose\n", out);
}
