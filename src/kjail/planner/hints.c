/* SPDX-License-Identifier: MIT */
/* What the start-up hints need of the host (planner/internal.h; plan.h's
 * agent_socket and repo_above; build/hints.h words them): where the
 * caller's ssh-agent listens, and the git work tree the workspace lies in
 * below its top. Facts only: whether the jail reaches them is the plan's
 * to say, and the hint's to tell. */
#include "config.h"
#include "planner/hints.h"
#include "planner/tools.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void note_agent_socket(struct builder *b)
{
	const char *v = b->h->ssh_auth_sock;
	if (!v || !v[0])
		return;
	/* a stale variable names no agent: --allow-socket would fail on it */
	_cleanup_free_ char *real = path_resolve(v, b->h->cwd);
	struct stat st;
	if (real && stat(real, &st) == 0 && S_ISSOCK(st.st_mode))
		b->pl->agent_socket = strpool_intern(&b->pl->strings, real);
}

/* Whether dir is one of $GIT_CEILING_DIRECTORIES (colon-separated), where
 * git's search stops without looking. */
static bool is_ceiling(const char *ceilings, const char *dir)
{
	if (!ceilings)
		return false;
	_cleanup_free_ char *copy = xstrdup(ceilings);
	char *save = NULL;
	for (char *c = strtok_r(copy, ":", &save); c; c = strtok_r(NULL, ":", &save)) {
		_cleanup_free_ char *clean = c[0] == '/' ? path_normalize(c, "/") : NULL;
		if (clean && strcmp(clean, dir) == 0)
			return true;
	}
	return false;
}

/* Whether home (may be NULL) lies in dir or is dir. */
static bool holds_home(const char *dir, const char *home)
{
	if (!home || home[0] != '/')
		return false;
	_cleanup_free_ char *clean = path_normalize(home, "/");
	return clean && path_is_under(clean, dir);
}

void note_repo_above(struct builder *b)
{
	const struct host *h = b->h;
	const char *ws = b->pl->workspace;
	/* with $GIT_DIR set git searches nothing: it takes that one */
	if (!ws || host_getenv(h, "GIT_DIR"))
		return;
	const char *ceilings = host_getenv(h, "GIT_CEILING_DIRECTORIES");
	/* git's own search, from the workspace up: the first directory with
	 * a .git (a repository, or a file naming one: a linked worktree, a
	 * submodule's checkout) */
	_cleanup_free_ char *dir = xstrdup(ws);
	for (;;) {
		_cleanup_free_ char *git = path_join(dir, ".git");
		if (kind_in(b, git, false) != K_MISSING)
			break;
		if (strcmp(dir, "/") == 0)
			return;
		char *up = path_dirname(dir);
		free(dir);
		dir = up;
		if (is_ceiling(ceilings, dir))
			return;
	}
	/* at the top already; or a repository holding the home (dotfiles):
	 * -C there would make the whole home writable, no advice to give */
	if (strcmp(dir, ws) == 0 || strcmp(dir, "/") == 0 || holds_home(dir, h->home) ||
	    holds_home(dir, h->home_env))
		return;
	b->pl->repo_above = strpool_intern(&b->pl->strings, dir);
}
