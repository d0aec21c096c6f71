/* SPDX-License-Identifier: MIT */
/* Whether the command is an interactive shell that keeps a history file
 * (planner/shell.h). */
#include "config.h"
#include "planner/shell.h"
#include "path.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const history_shells[] = {
	"bash", "zsh", "ksh", "mksh", "lksh", "oksh", "pdksh", "yash", NULL,
};

bool shell_keeps_history(const char *name)
{
	/* "zsh5", "ksh93", "bash-5.2": the shell, in a version */
	size_t n = strlen(name);
	while (n && (strchr("0123456789.", name[n - 1]) != NULL))
		n--;
	if (n && name[n - 1] == '-')
		n--;
	for (const char *const *s = history_shells; *s; s++)
		if (strlen(*s) == n && strncmp(*s, name, n) == 0)
			return true;
	return false;
}

/* The long options of bash and zsh that take the next word as their value. */
static bool long_takes_value(const char *opt)
{
	static const char *const with_value[] = { "--rcfile", "--init-file", "--emulate", NULL };
	for (const char *const *o = with_value; *o; o++)
		if (strcmp(*o, opt) == 0)
			return true;
	return false;
}

bool shell_args_interactive(char *const *argv)
{
	bool from_stdin = false;
	size_t i = 1;
	for (; argv[0] && argv[i]; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0 || strcmp(a, "-") == 0) {
			i++;
			break;
		}
		if (a[0] == '-' && a[1] == '-') {
			if (long_takes_value(a) && argv[i + 1])
				i++;
			continue;
		}
		if ((a[0] != '-' && a[0] != '+') || !a[1])
			break; /* the script */
		/* a cluster of letters: -i, -il, +o NAME, -O NAME (bash) */
		size_t values = 0;
		for (const char *c = a + 1; *c; c++) {
			if (*c == 'c')
				return false;
			if (*c == 's' && a[0] == '-')
				from_stdin = true;
			if (*c == 'o' || *c == 'O')
				values++;
		}
		for (; values && argv[i + 1]; values--)
			i++;
	}
	/* what is left is a script, or with -s the shell's own $1... */
	return !argv[0] || !argv[i] || from_stdin;
}

static bool executable_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

char *shell_resolve(const char *cmd, const char *path, const char *cwd)
{
	if (!cmd || !cmd[0])
		return NULL;
	if (strchr(cmd, '/')) {
		_cleanup_free_ char *abs = path_normalize(cmd, cwd);
		return abs && executable_file(abs) ? realpath(abs, NULL) : NULL;
	}
	/* execvp's own default, where PATH is unset */
	_cleanup_free_ char *copy = xstrdup(path ? path : "/bin:/usr/bin");
	for (char *d = copy, *end;; d = end + 1) {
		end = strchr(d, ':');
		if (end)
			*end = '\0';
		_cleanup_free_ char *dir = path_normalize(d[0] ? d : ".", cwd);
		_cleanup_free_ char *cand = dir ? path_join(dir, cmd) : NULL;
		if (cand && executable_file(cand))
			return realpath(cand, NULL);
		if (!end)
			return NULL;
	}
}

bool shell_interactive_command(char *const *cmd, const char *path, const char *cwd)
{
	if (!cmd || !cmd[0])
		return false;
	_cleanup_free_ char *real = shell_resolve(cmd[0], path, cwd);
	if (!real)
		return false;
	const char *slash = strrchr(real, '/');
	return shell_keeps_history(slash ? slash + 1 : real) && shell_args_interactive(cmd);
}
