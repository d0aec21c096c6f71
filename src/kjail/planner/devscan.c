/* SPDX-License-Identifier: MIT */
/* The host's side of --device (device.h): the entries of the few
 * directories the classes look in, read once, so the builder stays pure. */
#include "config.h"
#include "policy/device.h"
#include "planner/devscan.h"
#include "path.h"
#include "util.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static enum dev_kind kind_of_mode(mode_t m)
{
	return S_ISCHR(m) ? DEV_CHAR : S_ISLNK(m) ? DEV_LINK : DEV_OTHER;
}

static void scan_dir(const char *dir, struct dev_entry **v, size_t *n)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		_cleanup_free_ char *p = path_join(dir, de->d_name);
		struct stat st;
		if (lstat(p, &st) != 0)
			continue;
		char buf[PATH_MAX];
		ssize_t len = S_ISLNK(st.st_mode) ? readlink(p, buf, sizeof buf - 1) : -1;
		if (S_ISLNK(st.st_mode) && len <= 0)
			continue;
		*v = xreallocarray(*v, *n + 1, sizeof **v);
		(*v)[(*n)++] = (struct dev_entry){
			.path = steal_pointer(&p),
			.kind = kind_of_mode(st.st_mode),
			.target = len > 0 ? xstrndup(buf, (size_t)len) : NULL,
		};
	}
	closedir(d);
}

struct dev_entry *device_scan(size_t *n)
{
	struct dev_entry *v = NULL;
	*n = 0;
	for (const char *const *d = device_dirs; *d; d++)
		scan_dir(*d, &v, n);
	return v;
}

void dev_entries_free(struct dev_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free((char *)e[i].path);
		free((char *)e[i].target);
	}
	free(e);
}
