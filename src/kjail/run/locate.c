/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "run/locate.h"
#include "util.h"

#include "agent/spawn.h"
#include "proxy/spawn.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef KJ_OS_DARWIN
#include <mach-o/dyld.h>
#endif

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
#elif defined(KJ_OS_DARWIN)
	char path[PATH_MAX], buf[PATH_MAX];
	uint32_t size = sizeof path;
	/* not found: "", and only the libexec directory is looked in */
	if (_NSGetExecutablePath(path, &size) != 0 || !realpath(path, buf))
		buf[0] = '\0';
	return xstrdup(buf);
#else
	return xstrdup("");
#endif
}

/* Where a program of kjail's may be, in order: beside kjail (the build
 * tree, a copy made with install(1)), in ../libexec/kjail from kjail's
 * directory (an installed tree moved elsewhere, or staged with DESTDIR),
 * in the libexec directory kjail was built for. All from kjail's own real
 * path or the build, never from the environment. */
static char *helper_find(const char *self, const char *name, const char *what, char *err,
			 size_t errlen)
{
	const char *slash = strrchr(self, '/');
	int dir = slash ? (int)(slash - self) : 0;
	char *cand[] = { slash ? xasprintf("%.*s/%s", dir, self, name) : NULL,
			 slash ? xasprintf("%.*s/../libexec/kjail/%s", dir, self, name) : NULL,
			 xconcat(KJ_PKGLIBEXECDIR, "/", name, (char *)NULL) };
	char *found = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(cand); i++)
		if (!found && cand[i] && executable_file(cand[i]))
			found = steal_pointer(&cand[i]);
	if (!found)
		fmt_into(err, errlen,
			 "kjail's %s is missing: none of %s, %s, %s is an executable "
			 "file; reinstall kjail ('make install' puts it in %s)",
			 what, cand[0] ? cand[0] : "(beside kjail)",
			 cand[1] ? cand[1] : "(../libexec/kjail)", cand[2], KJ_PKGLIBEXECDIR);
	for (size_t i = 0; i < ARRAY_SIZE(cand); i++)
		free(cand[i]);
	return found;
}

char *entry_helper_find(const char *self, char *err, size_t errlen)
{
#ifndef KJ_OS_LINUX
	/* built for the bwrap backend only (kjail-entry is a Linux program) */
	(void)self;
	if (errlen)
		err[0] = '\0';
	return NULL;
#else
	return helper_find(self, "kjail-entry", "entry program", err, errlen);
#endif
}

char *proxy_helper_find(char *err, size_t errlen)
{
	_cleanup_free_ char *self = kjail_self();
	return helper_find(self, PROXY_PROGRAM, "proxy program", err, errlen);
}

char *agent_relay_find(char *err, size_t errlen)
{
	_cleanup_free_ char *self = kjail_self();
	return helper_find(self, AGENT_RELAY_PROGRAM, "ssh-agent relay", err, errlen);
}
