/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "locate.h"
#include "util.h"

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

char *entry_helper_find(const char *self, char *err, size_t errlen)
{
	const char *slash = strrchr(self, '/');
	_cleanup_free_ char *beside = slash ? xasprintf("%.*s/kjail-entry", (int)(slash - self), self)
					    : NULL;
	if (beside && executable_file(beside))
		return steal_pointer(&beside);
	char *p = xconcat(KJ_PKGLIBEXECDIR, "/kjail-entry", (char *)NULL);
	if (executable_file(p))
		return p;
	fmt_into(err, errlen,
		 "kjail's entry program is missing: neither %s nor %s is an executable file; "
		 "reinstall kjail ('make install' puts it in %s)",
		 beside ? beside : "kjail-entry beside kjail", p, KJ_PKGLIBEXECDIR);
	free(p);
	return NULL;
}
