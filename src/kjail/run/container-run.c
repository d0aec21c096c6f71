/* SPDX-License-Identifier: MIT */
/* The container backend: the container kjail runs in is the boundary.
 * kjail sets up no jail of its own, only the environment scrub, and runs
 * the command in the workspace; it runs on every OS. */
#include "config.h"
#include "run/backend.h"
#include "entry/entry.h"
#include "strv.h"
#include "util.h"

#include <stdio.h>
#include <unistd.h>

/* An allowlist is enforced by a jail's own network (or Seatbelt's rules);
 * this backend sets up neither. */
static void refuse_allowlist(const struct plan *pl)
{
	if (pl->net == NET_ALLOWLIST)
		die("--allow-host needs a jail (--backend bwrap or seatbelt): --backend container "
		    "sets up none, so nothing would hold the network to the hosts allowed");
}

static void describe(char *buf, size_t len)
{
	fmt_into(buf, len, "container");
}

static bool available(char *why, size_t len)
{
	(void)why, (void)len;
	return true;
}

/* The command as it would run: one shell-quoted line (--json too). */
static int print(const struct launch *l)
{
	refuse_allowlist(l->plan);
	strv_print_argv(stdout, l->cmd);
	finish_stdout();
	return 0;
}

static int run(const struct launch *l)
{
	refuse_allowlist(l->plan);
	warn_msg("--backend container: no jail is set up; the container is the boundary "
		 "(environment scrubbed only)");
	if (chdir(l->plan->workspace) < 0)
		die_errno("cannot enter the workspace %s", l->plan->workspace);
	exec_command(l->cmd, strv_argv((struct strv *)&l->plan->env));
}

const struct backend_ops backend_container = {
	.id = BACKEND_CONTAINER,
	.name = "container",
	.runs_here = true,
	.describe = describe,
	.available = available,
	.print = print,
	.run = run,
};
