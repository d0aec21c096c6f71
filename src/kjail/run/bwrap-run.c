/* SPDX-License-Identifier: MIT */
/* The bwrap backend (Linux): bubblewrap around kjail's entry program, with
 * seccomp and Landlock. Before a jail: bwrap installed, the entry program
 * found, and (without Landlock's write rules) no standard descriptor the
 * jail could reopen for writing; spawn.c then prints the invocation or
 * starts it. Off Linux it cannot even print (the invocation numbers the
 * descriptors kjail opens for it): one line. */
#include "config.h"
#include "run/backend.h"
#include "build/explain.h"
#include "build/seccomp.h"
#include "entry/abi.h"
#include "entry/landlock.h"
#include "run/locate.h"
#include "run/spawn.h"
#include "run/stdio_guard.h"
#include "util.h"

#ifdef KJ_OS_LINUX
#define RUNS_HERE true
#else
#define RUNS_HERE false
#endif

static void describe(char *buf, size_t len)
{
#ifdef KJ_OS_LINUX
	const char *bwrap = bwrap_find();
	fmt_into(buf, len, "bwrap (%s%s)", bwrap ? bwrap : KJ_BWRAP_PATH,
		 bwrap ? "" : ", not installed");
#else
	(void)len;
	buf[0] = '\0';
#endif
}

static bool available(char *why, size_t len)
{
#ifdef KJ_OS_LINUX
	if (bwrap_find())
		return true;
	fmt_into(why, len,
		 "bubblewrap not found (looked in %s); install it: "
		 "'apt-get install bubblewrap' (Debian, Ubuntu) or 'dnf install bubblewrap'",
		 bwrap_search_list());
#else
	fmt_into(why, len, "--backend bwrap needs Linux (bubblewrap); on macOS use --backend seatbelt");
#endif
	return false;
}

/* bwrap's path, once it and the entry program are there; else one line
 * and 125. */
static const char *ready(const struct launch *l)
{
	char why[1024];
	if (!available(why, sizeof why))
		die("%s", why);
	if (!l->entry)
		die("%s", l->entry_err);
	return bwrap_find();
}

#ifdef KJ_OS_LINUX
static int print(const struct launch *l)
{
	const char *bwrap = ready(l);
	return jail_print(l->plan, bwrap, l->entry, l->cmd, l->json);
}

static int run(const struct launch *l)
{
	const char *bwrap = ready(l);
	/* with Landlock's write rules the entry program holds such a file to
	 * what it was opened for; without them (an older kernel, or
	 * --allow-userns: JAIL_USERNS_MOUNTS), kjail refuses it */
	if (landlock_abi() < LANDLOCK_WRITES_ABI || l->plan->allow_userns)
		refuse_reopenable_stdio(l->plan);
	/* the jail finds its own policy at KJ_POLICY_FILE: what --explain
	 * --json says, less the constant seccomp list */
	char *policy_json = explain_policy_for_jail(l->policy, l->plan, bwrap);
	return jail_run(l->plan, bwrap, l->entry, l->cmd, policy_json);
}

static void version(FILE *out)
{
	if (seccomp_built_in())
		fprintf(out, "seccomp: built in (libseccomp)\n");
	else
		fprintf(out, "seccomp: NOT built in: kjail refuses to run except with --backend "
			     "container\n");
	fprintf(out, "landlock: %s\n", landlock_status(false));
}
#else
/* available() says no here: ready() dies. */
static int print(const struct launch *l)
{
	ready(l);
	return KJ_EXIT_FAIL;
}

static int run(const struct launch *l)
{
	ready(l);
	return KJ_EXIT_FAIL;
}
#endif

const struct backend_ops backend_bwrap = {
	.id = BACKEND_BWRAP,
	.name = "bwrap",
	.runs_here = RUNS_HERE,
	.describe = describe,
	.available = available,
	.print = print,
	.run = run,
#ifdef KJ_OS_LINUX
	.version = version,
#endif
};
