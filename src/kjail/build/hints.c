/* SPDX-License-Identifier: MIT */
/* The hints, in words (build/hints.h). */
#include "config.h"
#include "build/hints.h"
#include "path.h"
#include "util.h"

#include <string.h>

static bool env_has(const struct strv *env, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < env->n; i++)
		if (strncmp(env->v[i], name, n) == 0 && env->v[i][n] == '=')
			return true;
	return false;
}

/* Whether the jail sees path as the host has it (a socket still connects
 * through a read-only mount): not masked, not under a mount of its own. */
static bool seen_in_jail(const struct plan *pl, const char *path)
{
	const struct op *o = plan_verdict(pl, path);
	if (!o)
		return true;
	switch (o->kind) {
	case OP_MASK_FILE:
	case OP_MASK_DIR:
	case OP_TMP:
	case OP_DEV:
	case OP_PROC:
	case OP_POLICY:
		return false;
	default:
		return true;
	}
}

static bool agent_hidden(const struct plan *pl)
{
	return pl->agent_socket &&
	       (!seen_in_jail(pl, pl->agent_socket) || !env_has(&pl->env, "SSH_AUTH_SOCK"));
}

static bool git_dir_writable(const struct plan *pl, const char *top)
{
	_cleanup_free_ char *git = path_join(top, ".git");
	const struct op *o = plan_verdict(pl, git);
	return o && (o->kind == OP_BIND || o->kind == OP_PIN);
}

void hints_build(const struct plan *pl, struct strv *out)
{
	if (pl->backend == BACKEND_CONTAINER)
		return;
	if (agent_hidden(pl))
		strv_push(out, "SSH_AUTH_SOCK points at an ssh-agent the jail cannot reach; "
			       "--allow-socket ssh-agent lets git and ssh use it");
	if (pl->repo_above && !git_dir_writable(pl, pl->repo_above)) {
		/* one line, whatever the path holds, to paste as it is */
		struct strv w = STRV_INIT;
		strv_push(&w, pl->repo_above);
		_cleanup_free_ char *top = strv_shell_line(&w);
		strv_free(&w);
		strv_pushf(out, "the workspace is a subdirectory of the git repository %s, whose "
				".git stays read-only (git commit fails); -C %s makes the whole "
				"repository the workspace",
			   top, top);
	}
}
