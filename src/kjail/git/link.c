/* SPDX-License-Identifier: MIT */
/* A work tree's .git file and the git directory it names (git/link.h). */
#include "config.h"
#include "git/link.h"
#include "git/reader.h"
#include "path.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The first line of a small file, or NULL. */
static char *first_line(const char *path)
{
	size_t len = 0;
	char *text = read_file_capped(path, 4096, &len);
	if (!text)
		return NULL;
	text[strcspn(text, "\r\n")] = '\0';
	return text;
}

static bool is_dir(const char *p)
{
	struct stat st;
	return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *dir, const char *name)
{
	_cleanup_free_ char *p = path_join(dir, name);
	struct stat st;
	return lstat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* A linked worktree's directory names its work tree back in gitdir
 * (TREE/.git) and lies in its common directory's worktrees/. */
static bool worktree_names_back(const char *tree, struct gitlink *l)
{
	_cleanup_free_ char *back = path_join(l->gitdir, "gitdir");
	_cleanup_free_ char *line = first_line(back);
	_cleanup_free_ char *named = line ? path_resolve(line, l->gitdir) : NULL;
	_cleanup_free_ char *dotgit = path_join(tree, ".git");
	_cleanup_free_ char *parent = path_dirname(l->gitdir);
	_cleanup_free_ char *wts = path_join(l->common, "worktrees");
	return named && strcmp(named, dotgit) == 0 && strcmp(parent, wts) == 0;
}

/* A submodule's repository names its checkout in core.worktree, relative
 * to the repository. */
static bool submodule_names_back(const char *tree, const struct gitlink *l)
{
	_cleanup_free_ char *cfg = path_join(l->gitdir, "config");
	size_t len = 0;
	_cleanup_free_ char *text = read_file_capped(cfg, 1024 * 1024, &len);
	if (!text)
		return false;
	struct gitconfig g = GITCONFIG_INIT;
	bool ok = gitconfig_parse(text, len, &g) && g.worktree && g.worktree[0];
	_cleanup_free_ char *named = ok ? path_resolve(g.worktree, l->gitdir) : NULL;
	gitconfig_free(&g);
	return named && strcmp(named, tree) == 0;
}

bool gitlink_read(const char *tree, struct gitlink *out, const char **why)
{
	memset(out, 0, sizeof *out);
	*why = NULL;
	if (!is_file(tree, ".git"))
		return false;
	_cleanup_free_ char *dotgit = path_join(tree, ".git");
	_cleanup_free_ char *line = first_line(dotgit);
	if (!line || !str_has_prefix(line, "gitdir: ")) {
		*why = "its .git file names no git directory";
		return false;
	}
	out->gitdir = path_resolve(line + strlen("gitdir: "), tree);
	if (!is_dir(out->gitdir) || !is_file(out->gitdir, "HEAD")) {
		*why = "its .git file names no git directory";
		gitlink_free(out);
		return false;
	}
	_cleanup_free_ char *cd_file = path_join(out->gitdir, "commondir");
	_cleanup_free_ char *cd = first_line(cd_file);
	out->worktree = cd != NULL;
	out->common = cd ? path_resolve(cd, out->gitdir) : xstrdup(out->gitdir);
	bool back = is_dir(out->common) &&
		    (out->worktree ? worktree_names_back(tree, out) : submodule_names_back(tree, out));
	if (!back) {
		*why = out->worktree ? "the worktree's git directory does not name this work tree "
				       "back (its gitdir file)"
				     : "the git directory does not name this work tree back "
				       "(core.worktree)";
		gitlink_free(out);
		return false;
	}
	return true;
}

void gitlink_free(struct gitlink *l)
{
	free(l->gitdir);
	free(l->common);
	l->gitdir = l->common = NULL;
}
