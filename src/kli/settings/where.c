/* SPDX-License-Identifier: MIT */
/* Where kli's config files are: the user's, the git root, the project's.
 * See settings.h. */
#include "config.h"
#include "settings/settings.h"
#include "path.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *settings_user_config(const char *xdg_config_home, const char *home)
{
	/* The XDG spec says a relative XDG_CONFIG_HOME is to be ignored. */
	if (xdg_config_home && xdg_config_home[0] == '/')
		return path_join(xdg_config_home, "kli/config.ini");
	if (home && home[0] == '/')
		return path_join(home, ".config/kli/config.ini");
	return NULL;
}

static bool exists(const char *dir, const char *name)
{
	_cleanup_free_ char *p = path_join(dir, name);
	struct stat st;
	return lstat(p, &st) == 0;
}

char *settings_git_root(const char *workspace)
{
	char *d = path_normalize(workspace, NULL);
	while (d && !exists(d, ".git")) {
		if (strcmp(d, "/") == 0) {
			free(d);
			return NULL;
		}
		char *up = path_dirname(d);
		free(d);
		d = up;
	}
	return d;
}

char *settings_project_config(const char *workspace, const char *git_root)
{
	char *d = path_normalize(workspace, NULL);
	/* The limit must be the workspace or above it, or the walk would not stop. */
	const char *limit = git_root && d && path_is_under(d, git_root) ? git_root : d;
	while (d) {
		if (exists(d, ".kli/config.ini")) {
			char *found = path_join(d, ".kli/config.ini");
			free(d);
			return found;
		}
		if (strcmp(d, limit) == 0 || strcmp(d, "/") == 0)
			break;
		char *up = path_dirname(d);
		free(d);
		d = up;
	}
	free(d);
	return NULL;
}
