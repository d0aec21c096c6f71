/* SPDX-License-Identifier: MIT */
/* git's command line, as far as kjail refuses one (command.h). */
#include "config.h"
#include "git/command.h"
#include "util.h"

#include <string.h>

/* git's global options that take no value and change no repository */
static const char *const plain_options[] = {
	"--no-pager", "-P", "--paginate", "-p", "--no-replace-objects", "--literal-pathspecs",
	"--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks",
	"--no-lazy-fetch", "--no-advice", NULL,
};

static bool is_plain_option(const char *a)
{
	for (const char *const *o = plain_options; *o; o++)
		if (strcmp(a, *o) == 0)
			return true;
	return false;
}

bool git_command_is_worktree_add(char *const *argv)
{
	if (!argv || !argv[0])
		return false;
	const char *slash = strrchr(argv[0], '/');
	if (strcmp(slash ? slash + 1 : argv[0], "git") != 0)
		return false;
	size_t i = 1;
	while (argv[i] && argv[i][0] == '-') {
		if (strcmp(argv[i], "-c") == 0 || strcmp(argv[i], "--config-env") == 0) {
			if (!argv[i + 1])
				return false;
			i += 2;
		} else if (str_has_prefix(argv[i], "--config-env=") || is_plain_option(argv[i])) {
			i++;
		} else {
			return false;
		}
	}
	return argv[i] && strcmp(argv[i], "worktree") == 0 && argv[i + 1] &&
	       strcmp(argv[i + 1], "add") == 0;
}
