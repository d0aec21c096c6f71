/* SPDX-License-Identifier: MIT */
/* errname.h: the symbolic name of an errno value, for probe output that a
 * test can match ("EROFS", "ECONNREFUSED") without depending on locale. */
#ifndef KJ_TEST_ERRNAME_H
#define KJ_TEST_ERRNAME_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* glibc 2.32+; declared here so the helpers need not define _GNU_SOURCE */
extern const char *strerrorname_np(int errnum);

static inline const char *
errname(int e)
{
	/* glibc 2.32+: the symbolic name, locale-independent */
	static char buf[32];
	const char *name = strerrorname_np(e);
	if (name)
		return name;
	snprintf(buf, sizeof buf, "E%d", e);
	return buf;
}

#endif
