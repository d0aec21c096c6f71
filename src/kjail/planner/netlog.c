/* SPDX-License-Identifier: MIT */
/* --net-log (netlog.h): a record the user keeps must be one the jail
 * cannot have shaped, so it goes only where the jail cannot write. */
#include "config.h"
#include "planner/netlog.h"
#include "path.h"
#include "util.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static bool refuse(char *err, size_t errlen, const struct policy *p, const char *why)
{
	if (str_has_prefix(p->net_log_origin, "--"))
		fmt_into(err, errlen, "--net-log %s: %s", p->net_log, why);
	else
		fmt_into(err, errlen, "%s: net-log %s: %s", p->net_log_origin, p->net_log, why);
	return false;
}

bool plan_net_log(struct plan *pl, const struct policy *p, const struct host *h, char *err,
		  size_t errlen)
{
	if (!pl->proxied)
		return refuse(err, errlen, p, pl->net == NET_SHARED
			? "the jail has the host's network and kjail's proxy does not run, so "
			  "there is no log to keep (use --allow-host or -n)"
			: "kjail's proxy does not run for this jail (the workspace lies in /tmp, "
			  "where its log would be writable), so there is no log to keep");
	_cleanup_free_ char *full = path_normalize(p->net_log, h->cwd);
	const char *slash = full ? strrchr(full, '/') : NULL;
	if (!slash || !slash[1] || strcmp(slash, "/.") == 0 || strcmp(slash, "/..") == 0)
		return refuse(err, errlen, p, "not a file name");
	_cleanup_free_ char *dir = path_dirname(full);
	_cleanup_free_ char *real = path_resolve(dir, "/");
	struct stat st;
	if (!real || stat(real, &st) < 0) {
		char why[256];
		fmt_into(why, sizeof why, "its directory %s: %s", dir, strerror(errno));
		return refuse(err, errlen, p, why);
	}
	if (!S_ISDIR(st.st_mode))
		return refuse(err, errlen, p, "its directory is not a directory");
	const struct op *o = plan_verdict(pl, real);
	if (o && (o->kind == OP_BIND || o->kind == OP_PIN || o->kind == OP_SEAL)) {
		char why[3 * 4096];
		fmt_into(why, sizeof why,
			 "%s is writable in the jail (%s %s), which could plant the name or a "
			 "link there; keep the log outside the jail's writable paths",
			 real, o->rule, o->path);
		return refuse(err, errlen, p, why);
	}
	char *path = path_join(real, slash + 1);
	if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		free(path);
		return refuse(err, errlen, p, "is a directory");
	}
	pl->net_log = path;
	pl->net_log_origin = strpool_intern(&pl->strings, p->net_log_origin);
	return true;
}
