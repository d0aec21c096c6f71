/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "authority/exclude.h"
#include "agent/barrier.h"
#include "agent/store.h"
#include "path.h"
#include "settings/settings.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void exclusions_add(struct kli_exclusions *x, const char *path, const char *why, bool tree,
		    const struct auth_ctx *ctx)
{
	if (!path || !*path)
		return;
	struct constraint c;
	char err[300];
	if (!constraint_path_resolve(&c, path, ctx, err, sizeof err))
		return;
	for (size_t i = 0; i < x->n; i++) {
		if (x->v[i].tree == tree && strcmp(x->v[i].path, c.paths[0]) == 0) {
			constraint_clear(&c);
			return;
		}
	}
	x->v = xreallocarray(x->v, x->n + 1, sizeof *x->v);
	struct kli_exclusion *e = &x->v[x->n++];
	*e = (struct kli_exclusion){ .path = xstrdup(c.paths[0]), .why = why, .tree = tree };
	constraint_clear(&c);
	struct stat st;
	if (stat(e->path, &st) == 0) {
		e->exists = true;
		e->dev = st.st_dev;
		e->ino = st.st_ino;
		x->ids = xreallocarray(x->ids, x->nids + 1, sizeof *x->ids);
		x->ids[x->nids++] = st;
	}
}

const struct kli_exclusion *exclusions_match(const struct kli_exclusions *x, const char *path,
					     const struct stat *st)
{
	if (!x)
		return NULL;
	for (size_t i = 0; i < x->n; i++) {
		const struct kli_exclusion *e = &x->v[i];
		if (path && (e->tree ? path_is_under(path, e->path) : strcmp(path, e->path) == 0))
			return e;
		if (st && e->exists && st->st_dev == e->dev && st->st_ino == e->ino)
			return e;
	}
	return NULL;
}

void exclusions_clear(struct kli_exclusions *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->v[i].path);
	free(x->v);
	free(x->ids);
	*x = (struct kli_exclusions){ 0 };
}

void exclusions_build(struct kli_exclusions *x, const struct kli_files *files,
		      const char *api_key_file, const char *git_root, const struct auth_ctx *ctx)
{
	exclusions_add(x, api_key_file, "the API key file", false, ctx);
	exclusions_add(x, files->system, "kli's system config", false, ctx);
	exclusions_add(x, files->user, "kli's user config", false, ctx);
	exclusions_add(x, files->project, "kli's project config", false, ctx);
	_cleanup_free_ char *own = path_join(git_root ? git_root : ctx->workspace,
					     ".kli/config.ini");
	exclusions_add(x, own, "kli's project config", false, ctx);
	if (!git_root || strcmp(git_root, ctx->workspace) != 0) {
		_cleanup_free_ char *here = path_join(ctx->workspace, ".kli/config.ini");
		exclusions_add(x, here, "kli's project config", false, ctx);
	}
	_cleanup_free_ char *log = faultlog_path(getenv("XDG_CACHE_HOME"), ctx->home);
	_cleanup_free_ char *cache = log ? path_dirname(log) : NULL;
	exclusions_add(x, log, "kli's fault log", false, ctx);
	exclusions_add(x, cache, "kli's cache (fault log, job output)", true, ctx);
	/* a tool must not read earlier conversations, nor plant one */
	_cleanup_free_ char *sessions = store_state_dir(getenv("XDG_STATE_HOME"), ctx->home);
	exclusions_add(x, sessions, "kli's saved sessions", true, ctx);
}
