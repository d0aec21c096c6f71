/* SPDX-License-Identifier: MIT */
/* The protected-path planner: every row of protected.h for every
 * writable root, its repository, the repository's submodules and
 * worktrees, and kjail's and kli's config directories; the home
 * directory's rows and what git config names by the files below. */
#include "config.h"
#include "git/command.h"
#include "planner/internal.h"
#include "planner/protect-git.h"
#include "planner/protect-home.h"
#include "planner/protect-path.h"
#include "planner/protect.h"
#include "planner/tools.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* The entries of ROOT/REL but "." and "..", in a list the caller frees
 * (empty when it cannot be read). */
static void entries_of(const char *root, const char *rel, struct strv *out)
{
	_cleanup_free_ char *dir = path_join(root, rel);
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e = readdir(d); e; e = readdir(d))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			strv_push(out, e->d_name);
	closedir(d);
}

/* The rows for where, at root/base/PATTERN (base NULL: root/PATTERN). */
static void protect_rows(struct builder *b, unsigned where, const char *root, const char *base,
			 bool may_make, bool wtc)
{
	for (const struct protected_rule *r = protected_rules; r->pattern; r++) {
		if (!(r->where & where))
			continue;
		_cleanup_free_ char *rel = base ? path_join(base, r->pattern) : xstrdup(r->pattern);
		protect(b, root, rel, r->why, protect_act_of(r->kind, may_make, wtc));
	}
}

/* What a directory under .git/modules is for, in --explain and the
 * warning when the jail adds to it. */
#define WHY_MODULES "where git keeps submodules' repositories: git submodule update " \
	"uses one it finds there, hooks and all"

/* Each submodule's repository under rel (.git/modules; a name with
 * slashes nests), found as a directory holding HEAD: its WHERE_SUBMODULE
 * rows, after its config was read for what it names (its includes, its
 * core.hooksPath and programs, against the work tree its core.worktree
 * names). rel itself, and each directory on the way to a repository and
 * each repository's modules/, is watched: a repository the jail makes
 * there (one .gitmodules declares and git submodule update --init would
 * take as it finds it, hooks and all) is renamed aside after the run. */
static void protect_submodules(struct builder *b, const char *root, const char *rel, int depth)
{
	_cleanup_free_ char *dir = path_join(root, rel);
	watch_dir(b, root, dir, WHY_MODULES);
	struct strv names = STRV_INIT;
	entries_of(root, rel, &names);
	for (size_t i = 0; i < names.n; i++) {
		_cleanup_free_ char *sub = xconcat(rel, "/", names.v[i], (char *)NULL);
		_cleanup_free_ char *abs = path_join(root, sub);
		if (kind_in(b, abs, false) != K_DIR)
			continue;
		_cleanup_free_ char *head = path_join(abs, "HEAD");
		if (kind_of(head, false) == K_FILE) {
			_cleanup_free_ char *config = path_join(abs, "config");
			bool wtc = protect_git_config(b, root, config, 0, NULL);
			protect_rows(b, WHERE_SUBMODULE, root, sub, true, wtc);
			_cleanup_free_ char *nested = xconcat(sub, "/modules", (char *)NULL);
			if (depth < 8)
				protect_submodules(b, root, nested, depth + 1);
		} else if (depth < 8) {
			protect_submodules(b, root, sub, depth + 1);
		}
	}
	strv_free(&names);
}

/* Each linked worktree's WHERE_WORKTREE rows, under .git/worktrees/NAME
 * (wtc: the repository sets extensions.worktreeConfig), and what its
 * config.worktree names. */
static void protect_worktrees(struct builder *b, const char *root, bool wtc)
{
	struct strv names = STRV_INIT;
	entries_of(root, ".git/worktrees", &names);
	for (size_t i = 0; i < names.n; i++) {
		_cleanup_free_ char *base = xconcat(".git/worktrees/", names.v[i], (char *)NULL);
		protect_rows(b, WHERE_WORKTREE, root, base, true, wtc);
		_cleanup_free_ char *abs = xconcat(root, "/", base, "/config.worktree", (char *)NULL);
		protect_git_config(b, root, abs, 0, NULL);
	}
	strv_free(&names);
}

/* The WHERE_EVERY_ROOT rows: one read of the root tells which names are
 * there at all; most are not, and a lookup each would cost a system call.
 * git_dir: the root's .git is a directory (a repository). */
static void protect_root_names(struct builder *b, const char *root, bool git_dir)
{
	const char *first[SCAN_MAX];
	size_t len[SCAN_MAX], n = 0, all = 0;
	bool present[SCAN_MAX];
	for (const struct protected_rule *r = protected_rules; r->pattern; r++) {
		if (!(r->where & WHERE_EVERY_ROOT))
			continue;
		if (n < SCAN_MAX) {
			first[n] = r->pattern;
			len[n++] = strcspn(r->pattern, "/");
		}
		all++;
	}
	bool scanned = all == n && scan_dir(b, root, first, len, n, present, NULL);
	size_t i = 0;
	for (const struct protected_rule *r = protected_rules; r->pattern; r++) {
		if (!(r->where & WHERE_EVERY_ROOT))
			continue;
		enum protect_act act = protect_act_of(r->kind, git_dir, false);
		if (scanned && !present[i++] && act != ACT_MAKE_DIR) {
			_cleanup_free_ char *p = path_join(root, r->pattern);
			protect_kind(b, root, r->pattern, r->why, act, p, K_MISSING);
		} else {
			protect(b, root, r->pattern, r->why, act);
		}
	}
}

static void protect_root(struct builder *b, const char *root)
{
	if (kind_in(b, root, true) != K_DIR)
		return;
	_cleanup_free_ char *git = path_join(root, ".git");
	bool git_dir = kind_in(b, git, false) == K_DIR;
	b->git_roots += git_dir;
	protect_root_names(b, root, git_dir);
	if (!git_dir)
		return;
	/* what the repository's config, the user's and the system's name;
	 * then its WHERE_GIT_REPO rows, and what its config.worktree names */
	_cleanup_free_ char *gitdir = path_join(root, ".git");
	bool wtc = protect_git_configs(b, root, gitdir, root);
	protect_rows(b, WHERE_GIT_REPO, root, NULL, true, wtc);
	_cleanup_free_ char *wt = path_join(root, ".git/config.worktree");
	protect_git_config(b, root, wt, 0, root);
	protect_submodules(b, root, ".git/modules", 0);
	protect_worktrees(b, root, wtc);
}

/* The WHERE_CONFIG_DIRS rows: each tool's directory under the account's
 * home, $HOME and $XDG_CONFIG_HOME, and the system's; rows (room for four
 * a row) gets the row of each. */
static void config_dirs(const struct host *h, struct strv *dirs, const struct protected_rule **rows)
{
	const char *home_env = h->home_env && h->home_env[0] == '/' ? h->home_env : NULL;
	const char *xdg = h->xdg_config_home && h->xdg_config_home[0] == '/' ? h->xdg_config_home
									      : NULL;
	const char *const bases[][2] = { { h->home, "/.config/" }, { home_env, "/.config/" },
					 { xdg, "/" } };
	for (const struct protected_rule *r = protected_rules; r->pattern; r++) {
		if (!(r->where & WHERE_CONFIG_DIRS))
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(bases); i++) {
			if (!bases[i][0])
				continue;
			rows[dirs->n] = r;
			strv_take(dirs, xconcat(bases[i][0], bases[i][1], r->pattern, (char *)NULL));
		}
	}
	for (const struct protected_rule *r = protected_rules; r->pattern; r++) {
		if (!(r->where & WHERE_CONFIG_DIRS) || !r->system_file)
			continue;
		rows[dirs->n] = r;
		strv_take(dirs, path_dirname(r->system_file));
	}
}

/* kjail's and kli's config directories, wherever a writable root holds
 * them (made when absent, as their rows say: a jail must not make and
 * fill one). */
static void protect_config_dirs(struct builder *b)
{
	struct strv dirs = STRV_INIT;
	size_t nrows = 0;
	for (const struct protected_rule *r = protected_rules; r->pattern; r++)
		nrows += !!(r->where & WHERE_CONFIG_DIRS);
	const struct protected_rule **rows = xcalloc(4 * nrows + 1, sizeof *rows);
	config_dirs(b->h, &dirs, rows);
	for (size_t i = 0; i < dirs.n; i++) {
		if (strv_find(&dirs, dirs.v[i]) < (long)i)
			continue; /* $HOME is often the account's home */
		_cleanup_free_ char *real = path_resolve_memo(dirs.v[i], "/", &b->memo);
		if (!real)
			continue;
		for (size_t r = 0; r < b->roots.n; r++) {
			const char *root = b->roots.v[r].path;
			const char *rel = path_relative_to(real, root);
			if (!rel || !rel[0])
				continue;
			protect(b, root, rel, rows[i]->why, protect_act_of(rows[i]->kind, true, false));
			break;
		}
	}
	free(rows);
	strv_free(&dirs);
}

/* What the jail must not change in a common directory made writable for
 * a linked worktree or a submodule's checkout (git/link.h), beyond the
 * rows a repository's .git has: the other worktrees' git directories (the
 * main worktree's HEAD and index, each of worktrees/ but the jail's own),
 * and what it adds to worktrees/ (a directory there is a worktree git
 * uses, its gitdir pointing anywhere). worktrees/ is sealed rather than
 * watched: a worktree git registered there in the jail, moved aside
 * after the run, left its checkout behind, half made (issue 37); sealed,
 * git worktree add fails at its first step, the mkdir of
 * worktrees/NAME. */
#define WHY_OTHER_WORKTREE "git directory of another worktree"
#define WHY_WORKTREES "where git keeps linked worktrees' directories, each one " \
	"trusted by git outside: no new one in the jail, so git worktree add runs " \
	"outside kjail"

/* A ".git/..." row of the table (a repository's own), less its ".git/" */
static const char *gitdir_row(const struct protected_rule *r)
{
	if (!(r->where & (WHERE_EVERY_ROOT | WHERE_GIT_REPO)) || !str_has_prefix(r->pattern, ".git/"))
		return NULL;
	return r->pattern + strlen(".git/");
}

/* Another worktree's git directory: what is in it read-only, but its
 * reflogs (git gc expires every worktree's) and room for the lock files
 * git makes beside a ref it locks (HEAD.lock). */
static void protect_other_worktree(struct builder *b, const char *common, const char *rel)
{
	struct strv names = STRV_INIT;
	entries_of(common, rel, &names);
	for (size_t i = 0; i < names.n; i++) {
		if (strcmp(names.v[i], "logs") == 0)
			continue;
		_cleanup_free_ char *p = xconcat(rel, "/", names.v[i], (char *)NULL);
		protect(b, common, p, WHY_OTHER_WORKTREE, ACT_IF_PRESENT);
	}
	strv_free(&names);
}

/* The other worktrees under common/worktrees read-only but their logs, the jail's
 * own (gitdir) with its WHERE_WORKTREE rows; no new entry. */
static void protect_linked_worktrees(struct builder *b, const struct linked_git *lg, bool wtc)
{
	const char *common = lg->link.common;
	_cleanup_free_ char *dir = path_join(common, "worktrees");
	seal_dir(b, common, dir, WHY_WORKTREES);
	struct strv names = STRV_INIT;
	entries_of(common, "worktrees", &names);
	for (size_t i = 0; i < names.n; i++) {
		_cleanup_free_ char *rel = xconcat("worktrees/", names.v[i], (char *)NULL);
		_cleanup_free_ char *abs = path_join(common, rel);
		protect_rows(b, WHERE_WORKTREE, common, rel, true, wtc);
		if (strcmp(abs, lg->link.gitdir) == 0) {
			_cleanup_free_ char *cw = path_join(abs, "config.worktree");
			protect_git_config(b, common, cw, 0, lg->tree);
		} else {
			protect_other_worktree(b, common, rel);
		}
	}
	strv_free(&names);
}

/* A linked worktree's or a submodule checkout's common directory, a
 * writable root of its own (planner/planner.c): protected as a repository's .git,
 * its config read against the jail's work tree. */
static void protect_linked(struct builder *b, const struct linked_git *lg)
{
	const char *common = lg->link.common;
	b->git_roots++;
	bool wtc = protect_git_configs(b, common, common, lg->tree);
	for (const struct protected_rule *r = protected_rules; r->pattern; r++) {
		const char *rel = gitdir_row(r);
		if (rel)
			protect(b, common, rel, r->why, protect_act_of(r->kind, true, wtc));
	}
	_cleanup_free_ char *cw = path_join(common, "config.worktree");
	protect_git_config(b, common, cw, 0, lg->link.worktree ? NULL : lg->tree);
	protect_submodules(b, common, "modules", 0);
	if (lg->link.worktree) {
		/* the main worktree's own state */
		protect(b, common, "HEAD", WHY_OTHER_WORKTREE, ACT_IF_PRESENT);
		protect(b, common, "index", WHY_OTHER_WORKTREE, ACT_IF_PRESENT);
	}
	protect_linked_worktrees(b, lg, wtc);
}

static bool env_set(const struct host *h, const char *name)
{
	const char *v = host_getenv(h, name);
	return v && v[0];
}

/* kjail -- git worktree add, in a linked worktree or a submodule's
 * checkout: git would make the branch, then fail at the sealed worktrees/
 * (or, where that is absent, register a worktree that aftercare moves
 * aside, its checkout left behind); refused before anything starts, in
 * one line saying what to do. git run any other way meets the seal. */
static bool refuse_worktree_add(struct builder *b)
{
	/* with GIT_DIR or GIT_COMMON_DIR, git takes another repository */
	if (!git_command_is_worktree_add(b->h->command) || env_set(b->h, "GIT_DIR") ||
	    env_set(b->h, "GIT_COMMON_DIR"))
		return true;
	for (size_t i = 0; i < b->nlinked; i++) {
		const struct linked_git *lg = &b->linked[i];
		if (strcmp(lg->tree, b->pl->workspace) != 0)
			continue;
		_cleanup_free_ char *dir = path_join(lg->link.common, "worktrees");
		return fail(b, "git worktree add: git would register the new worktree in %s, which "
			       "git outside trusts, so the jail may not add to it; run git worktree "
			       "add outside kjail, then kjail in the new worktree", dir);
	}
	return true;
}

static bool is_linked_root(const struct builder *b, const char *root)
{
	for (size_t i = 0; i < b->nlinked; i++)
		if (strcmp(b->linked[i].link.common, root) == 0)
			return true;
	return false;
}

bool protect_all(struct builder *b)
{
	for (size_t r = 0, n = b->roots.n; r < n; r++)
		if (!is_linked_root(b, b->roots.v[r].path))
			protect_root(b, b->roots.v[r].path);
	for (size_t i = 0; i < b->nlinked; i++)
		protect_linked(b, &b->linked[i]);
	protect_global_git_configs(b);
	if (b->git_err)
		return fail(b, "%s", b->git_err);
	protect_homes(b);
	protect_config_dirs(b);
	return refuse_worktree_add(b);
}
