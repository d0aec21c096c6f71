/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "run/devlock.h"

#include <errno.h>
#include <stddef.h>
#ifdef KJ_OS_LINUX
#include <sched.h>
#include <sys/mount.h>
#include <sys/statvfs.h>

/* The flags a read-only remount must keep: a remount sets them all, and
 * in a namespace of a container's the locked ones cannot be cleared. */
static unsigned long kept_flags(const char *path)
{
	static const struct {
		unsigned long st, ms;
	} map[] = { { ST_NOSUID, MS_NOSUID },   { ST_NODEV, MS_NODEV },
		    { ST_NOEXEC, MS_NOEXEC },   { ST_NOATIME, MS_NOATIME },
		    { ST_NODIRATIME, MS_NODIRATIME }, { ST_RELATIME, MS_RELATIME } };
	struct statvfs v;
	unsigned long f = MS_NOSUID;
	if (statvfs(path, &v) != 0)
		return f;
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (v.f_flag & map[i].st)
			f |= map[i].ms;
	return f;
}

int devlock_read_only(char *const *paths, const char **failed)
{
	*failed = NULL;
	if (!paths || !paths[0])
		return 0;
	if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) != 0)
		return -1;
	for (; *paths; paths++) {
		*failed = *paths;
		if (mount(*paths, *paths, NULL, MS_BIND, NULL) != 0 ||
		    mount(NULL, *paths, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | kept_flags(*paths),
			  NULL) != 0)
			return -1;
	}
	*failed = NULL;
	return 0;
}
#else
int devlock_read_only(char *const *paths, const char **failed)
{
	*failed = NULL;
	if (paths && paths[0]) {
		errno = ENOSYS;
		return -1;
	}
	return 0;
}
#endif
