/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "run/locate.h"
#include "util.h"

#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool executable_file(const char *path)
{
	struct stat st;
	return path[0] == '/' && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, X_OK) == 0;
}

const char *bwrap_find(void)
{
	static const char *const list[] = { KJ_BWRAP_PATH, "/usr/bin/bwrap", "/usr/local/bin/bwrap",
					    "/bin/bwrap" };
	for (size_t i = 0; i < ARRAY_SIZE(list); i++)
		if (executable_file(list[i]))
			return list[i];
	return NULL;
}

const char *bwrap_search_list(void)
{
	return KJ_BWRAP_PATH ", /usr/bin/bwrap, /usr/local/bin/bwrap, /bin/bwrap";
}

char *kjail_self(void)
{
#ifdef KJ_OS_LINUX
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0)
		die_errno("cannot find kjail's own binary (/proc/self/exe)");
	return xstrndup(buf, (size_t)n);
#else
	return xstrdup("");
#endif
}

/* Where the entry program may be, in order: beside kjail (the build tree,
 * a copy made with install(1)), in ../libexec/kjail from kjail's directory
 * (an installed tree moved elsewhere, or staged with DESTDIR), in the
 * libexec directory kjail was built for. All from kjail's own real path
 * or the build, never from the environment. */
char *entry_helper_find(const char *self, char *err, size_t errlen)
{
#ifndef KJ_OS_LINUX
	/* built for the bwrap backend only (kjail-entry is a Linux program) */
	if (errlen)
		err[0] = '\0';
	return NULL;
#else
	const char *slash = strrchr(self, '/');
	int dir = slash ? (int)(slash - self) : 0;
	char *cand[] = { slash ? xasprintf("%.*s/kjail-entry", dir, self) : NULL,
			 slash ? xasprintf("%.*s/../libexec/kjail/kjail-entry", dir, self) : NULL,
			 xconcat(KJ_PKGLIBEXECDIR, "/kjail-entry", (char *)NULL) };
	char *found = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(cand); i++)
		if (!found && cand[i] && executable_file(cand[i]))
			found = steal_pointer(&cand[i]);
	if (!found)
		fmt_into(err, errlen,
			 "kjail's entry program is missing: none of %s, %s, %s is an executable "
			 "file; reinstall kjail ('make install' puts it in %s)",
			 cand[0] ? cand[0] : "(beside kjail)", cand[1] ? cand[1] : "(../libexec/kjail)",
			 cand[2], KJ_PKGLIBEXECDIR);
	for (size_t i = 0; i < ARRAY_SIZE(cand); i++)
		free(cand[i]);
	return found;
#endif
}
