/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "run/backend.h"
#include "util.h"

#include <limits.h>

const struct backend_ops *const backends[] = {
	&backend_bwrap,
	&backend_seatbelt,
	&backend_container,
	&backend_landlock,
	NULL,
};

const struct backend_ops *backend_lookup(enum backend b)
{
	enum backend want = backend_effective(b);
	for (const struct backend_ops *const *r = backends; *r; r++)
		if ((*r)->id == want)
			return *r;
	die("no backend numbered %d; this is a bug in kjail", (int)b);
}

static void list(FILE *out, bool runs_here, const char **sep)
{
	char buf[PATH_MAX + 64];
	for (const struct backend_ops *const *r = backends; *r; r++) {
		if ((*r)->runs_here != runs_here)
			continue;
		buf[0] = '\0';
		(*r)->describe(buf, sizeof buf);
		if (!buf[0])
			continue;
		fprintf(out, "%s%s", *sep, buf);
		*sep = ", ";
	}
}

void backends_version(FILE *out)
{
	const char *sep = "backends: ";
	list(out, true, &sep);
	sep = "; ";
	list(out, false, &sep);
	fputc('\n', out);
	for (const struct backend_ops *const *r = backends; *r; r++)
		if ((*r)->version)
			(*r)->version(out);
}
