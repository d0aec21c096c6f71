/* SPDX-License-Identifier: MIT */
/* The jail's first program, kjail-entry (entry.c). bwrap has already set up the jail and installed the seccomp
 * filter; what is left is Landlock, telling kjail the jail is up, and giving
 * the command the user's stderr and signal dispositions. */
#include "config.h"
#include "entry.h"
#include "bwrap.h"
#include "landlock.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void exec_command(char *const *cmd, char *const *envp)
{
#ifdef KJ_OS_LINUX
	if (envp)
		execvpe(cmd[0], cmd, envp);
	else
		execvp(cmd[0], cmd);
#else
	extern char **environ; /* no execvpe: the PATH search uses environ */
	if (envp)
		environ = (char **)envp;
	execvp(cmd[0], cmd);
#endif
	int e = errno;
	warn_msg("%s: %s", cmd[0], strerror(e));
	_exit(e == ENOENT || e == ENOTDIR ? KJ_EXIT_NOTFOUND : KJ_EXIT_NOEXEC);
}

static int parse_fd(const char *s, const char **end)
{
	char *e;
	errno = 0;
	long v = strtol(s, &e, 10);
	if (errno || e == s || v < 0 || v > INT_MAX)
		die("--jail-entry: bad descriptor list");
	*end = e;
	return (int)v;
}

void jail_entry_if_asked(int argc, char **argv)
{
	if (argc < 3 || !str_has_prefix(argv[1], "--jail-entry="))
		return;
	int i = 2;
	while (i < argc && str_has_prefix(argv[i], JAIL_RW_PREFIX "/"))
		i++;
	if (i >= argc || strcmp(argv[i], "--") != 0)
		die("--jail-entry: expected --rw=/PATH words, then --, then the command");
	/* the writable paths, their prefix dropped in place */
	const char **rw = (const char **)argv + 2;
	for (int k = 2; k < i; k++)
		rw[k - 2] = argv[k] + strlen(JAIL_RW_PREFIX);
	jail_entry(argv[1] + strlen("--jail-entry="), rw, (size_t)(i - 2), argv + i + 1);
}

void jail_entry(const char *spec, const char *const *rw, size_t nrw, char *const *cmd)
{
	const char *p;
	int status = parse_fd(spec, &p);
	if (*p != ',')
		die("--jail-entry: bad descriptor list");
	int user_err = parse_fd(p + 1, &p);
	if (*p != ',')
		die("--jail-entry: bad descriptor list");
	int sig = parse_fd(p + 1, &p);
	if (*p)
		die("--jail-entry: bad descriptor list");
	if (!cmd || !cmd[0])
		die("--jail-entry: no command");
	if (sig & JAIL_SIGINT_DEFAULT)
		signal(SIGINT, SIG_DFL);
	if (sig & JAIL_SIGQUIT_DEFAULT)
		signal(SIGQUIT, SIG_DFL);
	char err[PATH_MAX + 64];
	/* the command's stderr is the user's, still on its own descriptor */
	const int std[3] = { STDIN_FILENO, STDOUT_FILENO, user_err };
	if (landlock_apply(rw, nrw, std, err, sizeof err) == LL_FAILED)
		die("cannot apply the jail's Landlock rules: %s", err);
	if (write(status, "R", 1) != 1)
		die_errno("--jail-entry: cannot report readiness");
	close(status);
	if (dup2(user_err, STDERR_FILENO) < 0)
		die_errno("--jail-entry: cannot restore stderr");
	close(user_err);
	/* nothing but stdin, stdout and stderr passes to the command: whatever
	 * bwrap or the caller left open above 2 goes at the exec */
	if (!cloexec_above_2())
		die_errno("--jail-entry: cannot close the inherited descriptors");
	exec_command(cmd, NULL);
}
