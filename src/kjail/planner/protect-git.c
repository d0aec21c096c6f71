/* SPDX-License-Identifier: MIT */
/* What git config names (the WHERE_GIT_SETTING and WHERE_GIT_CONFIG_FILE
 * rows of protected.h): the files and directories that make git run or
 * read something after the jail, protected where a writable root holds
 * them. */
#include "config.h"
#include "git/reader.h"
#include "planner/internal.h"
#include "planner/protect-git.h"
#include "planner/protect-path.h"
#include "planner/tools.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The home directory git expands ~ against: $HOME, else the account's. */
static const char *git_home(const struct host *h)
{
	return h->home_env && h->home_env[0] == '/' ? h->home_env : h->home;
}

/* The files the programs git runs on its own name (core.fsmonitor, a
 * filter's clean command, ...; see git/reader.h): one in a writable root is
 * protected like a hook, since git outside runs it at its next status,
 * add or diff there. A relative path is the work tree's (git runs these
 * from its top; with no work tree, root NULL, only absolute and ~ paths
 * are known). Directories are left alone (an argument, not a program);
 * an absent file the jail makes is renamed aside after the run. */
static void protect_git_programs(struct builder *b, const char *root, const struct gitconfig *g)
{
	const struct protected_rule *row = protected_git_rule(GIT_PROGRAM);
	const char *home = git_home(b->h);
	for (size_t i = 0; i < g->programs.n; i++) {
		struct strv words = STRV_INIT;
		gitconfig_command_paths(g->programs.v[i], &words);
		for (size_t w = 0; w < words.n; w++) {
			const char *word = words.v[w];
			if (!root && word[0] != '/' && word[0] != '~')
				continue; /* relative to a work tree, and there is none */
			_cleanup_free_ char *abs = word[0] == '~' ? path_expand_home(word, home)
								  : path_normalize(word, root);
			_cleanup_free_ char *real = abs ? path_resolve_memo(abs, root, &b->memo) : NULL;
			if (!real || kind_in(b, real, true) == K_DIR)
				continue;
			_cleanup_free_ char *why = xconcat(row->why, " (", g->program_keys.v[i], ")",
							   (char *)NULL);
			protect_at(b, real, why, protect_act_of(row->kind, false, false));
		}
		strv_free(&words);
	}
}

/* The directories core.hooksPath and init.templateDir name, relative to
 * the work tree tree (NULL: unknown), whichever file sets them. */
static void protect_git_dirs(struct builder *b, const char *tree, const struct gitconfig *g)
{
	const char *home = git_home(b->h);
	const struct {
		const char *dir;
		enum protect_git setting;
	} dirs[] = { { g->hooks_path, GIT_HOOKS_PATH }, { g->template_dir, GIT_TEMPLATE_DIR } };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		const char *d = dirs[i].dir;
		if (!d || !d[0] || (!tree && d[0] != '/' && d[0] != '~'))
			continue;
		_cleanup_free_ char *abs = d[0] == '~' ? path_expand_home(d, home)
						       : path_normalize(d, tree);
		_cleanup_free_ char *real = abs ? path_resolve_memo(abs, tree ? tree : "/", &b->memo)
						: NULL;
		const struct protected_rule *row = protected_git_rule(dirs[i].setting);
		protect_at(b, real, row->why, protect_act_of(row->kind, false, false));
	}
}

/* Git config can make git run or read files from elsewhere: hooks from the
 * directory core.hooksPath names (often in the work tree: .githooks), and
 * more config from each file include.path and includeIf.*.path name (a
 * repository's shared config kept in its work tree), whose core.fsmonitor
 * or aliases git then runs. Such a directory or file in a writable root is
 * protected like .git/hooks and .git/config; one that is absent at the
 * start and that the jail makes is renamed aside after the run, like every
 * absent protected name. Every file included is read in turn, 10 deep as
 * in git.
 * True when the file or one it includes sets extensions.worktreeConfig. */
static bool protect_git_settings(struct builder *b, const char *root, struct gitconfig *g,
				 const char *file, int depth, const char *tree);

bool protect_git_config(struct builder *b, const char *root, const char *file, int depth,
			const char *tree)
{
	/* git itself refuses more than 10 levels */
	if (depth > 10)
		return false;
	size_t len = 0;
	_cleanup_free_ char *text = read_file_capped(file, 1024 * 1024, &len);
	if (!text) {
		/* absent or unreadable, git reads nothing of it either; but a
		 * file too big to read here is one git reads all of */
		if (errno == EFBIG && !b->git_err)
			b->git_err = xasprintf("%s: git config file over 1 MiB: kjail cannot tell "
					       "what it lets git run after the jail", file);
		return false;
	}
	struct gitconfig g = GITCONFIG_INIT;
	if (!gitconfig_parse(text, len, &g) && !b->git_err)
		/* git refuses the file; so does kjail, rather than guess what a
		 * git that read it some other way would run (what came before
		 * the bad line is still protected: --explain shows it) */
		b->git_err = xasprintf("%s: %s: kjail cannot tell what this git config lets git "
				       "run after the jail; fix the file", file, g.err);
	bool wtc = protect_git_settings(b, root, &g, file, depth, tree);
	gitconfig_free(&g);
	return wtc;
}

/* What g (read from file, or from the environment: file NULL) names; true
 * when it or a file it includes sets extensions.worktreeConfig. */
static bool protect_git_settings(struct builder *b, const char *root, struct gitconfig *g,
				 const char *file, int depth, const char *tree)
{
	bool wtc = g->worktree_config > 0;
	const char *home = git_home(b->h);
	/* tree: the work tree relative paths are taken against, when known
	 * (the repository's, for its config and the user's and the system's);
	 * a submodule's repository names its own (core.worktree, relative to
	 * the repository, where its config file is) */
	_cleanup_free_ char *sub_tree = NULL;
	if (!tree && file && g->worktree && g->worktree[0]) {
		_cleanup_free_ char *gitdir = path_dirname(file);
		tree = sub_tree = path_normalize(g->worktree, gitdir);
	}
	protect_git_dirs(b, tree, g);
	protect_git_programs(b, tree, g);
	/* a relative include must come from a file (git refuses one given
	 * in the environment) */
	_cleanup_free_ char *dir = file ? path_dirname(file) : NULL;
	const struct protected_rule *inc_row = protected_git_rule(GIT_INCLUDE);
	for (size_t i = 0; i < g->includes.n; i++) {
		const char *inc = g->includes.v[i];
		if (!inc[0] || (!dir && inc[0] != '/' && inc[0] != '~'))
			continue;
		/* more than GIT_INCLUDES_MAX in all is no config a person wrote,
		 * and what the rest would let git run is unknown: the plan fails */
		if (--b->git_includes < 0) {
			if (!b->git_err)
				b->git_err = xasprintf("%s: git config includes more than %d files "
						       "in all: kjail cannot tell what they let git "
						       "run after the jail",
						       file ? file : "the environment", GIT_INCLUDES_MAX);
			break;
		}
		/* relative to the directory of the file that includes it, as
		 * named (not where a symlink to it leads: git takes the name) */
		_cleanup_free_ char *abs = gitconfig_include_path(inc, dir ? dir : "/", home);
		_cleanup_free_ char *real = abs ? path_resolve_memo(abs, "/", &b->memo) : NULL;
		if (!real)
			continue;
		protect_at(b, real, inc_row->why, protect_act_of(inc_row->kind, false, false));
		/* either way round, an include may mean the setting is on */
		wtc |= protect_git_config(b, root, abs, depth + 1, tree);
	}
	return wtc;
}

/* The settings the git run outside after the jail takes from the caller's
 * environment, as if from a config file: git -c's (GIT_CONFIG_PARAMETERS),
 * GIT_CONFIG_COUNT's GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n, and the
 * variables that name a program git runs or its template directory. False
 * with b->git_err set where git refuses them. */
static bool git_env_config(struct builder *b, struct gitconfig *g)
{
	const struct host *h = b->h;
	const char *params = host_getenv(h, "GIT_CONFIG_PARAMETERS");
	bool ok = !params || gitconfig_parse_parameters(params, g);
	const char *count = host_getenv(h, "GIT_CONFIG_COUNT");
	if (ok && count && count[0]) {
		char *end;
		unsigned long n = strtoul(count, &end, 10);
		ok = *end == '\0' && count[0] != '-' && n <= 1000000;
		for (unsigned long i = 0; ok && i < n; i++) {
			char kname[64], vname[64];
			snprintf(kname, sizeof kname, "GIT_CONFIG_KEY_%lu", i);
			snprintf(vname, sizeof vname, "GIT_CONFIG_VALUE_%lu", i);
			const char *k = host_getenv(h, kname), *v = host_getenv(h, vname);
			ok = k && v && gitconfig_add(g, k, v);
		}
	}
	if (!ok) {
		if (!b->git_err)
			b->git_err = xasprintf("%s in the environment: git refuses it, and kjail "
					       "cannot tell what it lets git run after the jail",
					       g->err ? g->err : "GIT_CONFIG_COUNT");
		return false;
	}
	static const char *const progs[] = {
		"GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_EDITOR",
		"GIT_SEQUENCE_EDITOR", "GIT_PAGER", "GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND",
	};
	for (size_t i = 0; i < ARRAY_SIZE(progs); i++) {
		const char *v = host_getenv(h, progs[i]);
		if (v && v[0]) {
			strv_push(&g->programs, v);
			strv_take(&g->program_keys, xconcat("$", progs[i], (char *)NULL));
		}
	}
	return true;
}

/* What the caller's environment makes git outside read or run: the
 * settings above (relative paths against the work tree tree, NULL when
 * none), and $GIT_TEMPLATE_DIR like init.templateDir. */
static void protect_git_env(struct builder *b, const char *root, const char *tree)
{
	struct gitconfig g = GITCONFIG_INIT;
	if (git_env_config(b, &g))
		protect_git_settings(b, root, &g, NULL, 0, tree);
	gitconfig_free(&g);
	struct gitconfig t = GITCONFIG_INIT;
	const char *tdir = host_getenv(b->h, "GIT_TEMPLATE_DIR");
	if (tdir && tdir[0]) {
		t.template_dir = xstrdup(tdir);
		protect_git_dirs(b, tree ? tree : b->h->cwd, &t);
	}
	gitconfig_free(&t);
}

/* $GIT_DIR and $GIT_COMMON_DIR: the repository git outside uses instead of
 * the one it finds, hooks and config and all: protected as a repository's
 * .git is (the table's ".git/..." rows), where a writable root holds it;
 * its config is read with $GIT_WORK_TREE (else the current directory) as
 * the work tree. Relative to the current directory, as git takes them. */
static void protect_git_env_dirs(struct builder *b)
{
	const char *const vars[] = { "GIT_DIR", "GIT_COMMON_DIR" };
	const char *wt = host_getenv(b->h, "GIT_WORK_TREE");
	_cleanup_free_ char *tree = path_normalize(wt && wt[0] ? wt : ".", b->h->cwd);
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
		const char *v = host_getenv(b->h, vars[i]);
		if (!v || !v[0])
			continue;
		_cleanup_free_ char *abs = path_normalize(v, b->h->cwd);
		_cleanup_free_ char *dir = path_resolve_memo(abs, "/", &b->memo);
		if (!dir)
			continue;
		_cleanup_free_ char *head = path_join(dir, "HEAD");
		bool repo = kind_of(head, false) == K_FILE;
		for (const struct protected_rule *r = protected_rules; r->pattern; r++) {
			if (!(r->where & (WHERE_EVERY_ROOT | WHERE_GIT_REPO)) ||
			    !str_has_prefix(r->pattern, ".git/"))
				continue;
			_cleanup_free_ char *p = path_join(dir, r->pattern + strlen(".git/"));
			protect_at(b, p, r->why, protect_act_of(r->kind, repo, false));
		}
		_cleanup_free_ char *config = path_join(dir, "config");
		protect_git_config(b, NULL, config, 0, tree);
	}
}

/* A WHERE_GIT_CONFIG_FILE pattern as git finds the file: "~/" is the home
 * directory git expands ~ against, $XDG_CONFIG_HOME its ~/.config when
 * unset, $GIT_CONFIG_GLOBAL and $GIT_CONFIG_SYSTEM themselves (nothing when
 * unset). NULL when there is no such file. */
static char *git_config_file(const struct host *h, const char *pattern)
{
	const char *home = git_home(h);
	static const char xdg[] = "$XDG_CONFIG_HOME";
	if (pattern[0] == '/')
		return xstrdup(pattern);
	if (pattern[0] == '~')
		return home ? xconcat(home, pattern + 1, (char *)NULL) : NULL;
	if (str_has_prefix(pattern, xdg)) {
		const char *rest = pattern + strlen(xdg);
		if (h->xdg_config_home && h->xdg_config_home[0] == '/')
			return xconcat(h->xdg_config_home, rest, (char *)NULL);
		return home ? xconcat(home, "/.config", rest, (char *)NULL) : NULL;
	}
	const char *v;
	if (strcmp(pattern, "$GIT_CONFIG_GLOBAL") == 0)
		v = h->git_config_global;
	else if (strcmp(pattern, "$GIT_CONFIG_SYSTEM") == 0)
		v = h->git_config_system;
	else
		die("protected.c: %s: no such git config file pattern", pattern);
	return v && v[0] == '/' ? xstrdup(v) : NULL;
}

/* The config files git reads besides a repository's own: the user's and
 * the system's, as git finds them, in the order of their rows; rows (when
 * given, room for each) gets the row of each. */
static void global_git_configs(const struct host *h, struct strv *files,
			       const struct protected_rule **rows)
{
	for (const struct protected_rule *r = protected_rules; r->pattern; r++) {
		if (!(r->where & WHERE_GIT_CONFIG_FILE))
			continue;
		char *file = git_config_file(h, r->pattern);
		if (!file)
			continue;
		if (rows)
			rows[files->n] = r;
		strv_take(files, file);
	}
}

/* The repository's config (in its common directory gitdir), then the
 * user's and the system's: their core.hooksPath and includes can name the
 * work tree tree too. True when the repository's sets
 * extensions.worktreeConfig (git takes extensions from it alone). */
bool protect_git_configs(struct builder *b, const char *root, const char *gitdir,
			 const char *tree)
{
	struct strv files = STRV_INIT;
	strv_take(&files, path_join(gitdir, "config"));
	global_git_configs(b->h, &files, NULL);
	bool wtc = false;
	for (size_t i = 0; i < files.n; i++) {
		bool set = protect_git_config(b, root, files.v[i], 0, tree);
		wtc = wtc || (i == 0 && set);
	}
	strv_free(&files);
	protect_git_env(b, root, tree);
	return wtc;
}

/* The user's and the system's git config themselves, where a writable root
 * holds them (their rows say why), repository or not. */
void protect_global_git_configs(struct builder *b)
{
	struct strv files = STRV_INIT;
	const struct protected_rule *rows[16];
	size_t n = 0;
	for (const struct protected_rule *r = protected_rules; r->pattern; r++)
		n += !!(r->where & WHERE_GIT_CONFIG_FILE);
	if (n > ARRAY_SIZE(rows))
		die("protected.c: more than %zu git config file rows", ARRAY_SIZE(rows));
	global_git_configs(b->h, &files, rows);
	for (size_t i = 0; i < files.n; i++) {
		_cleanup_free_ char *real = path_resolve_memo(files.v[i], "/", &b->memo);
		protect_at(b, real, rows[i]->why, protect_act_of(rows[i]->kind, false, false));
		/* what they name (hooks, includes, programs) was read with each
		 * repository's work tree; with none, by absolute and ~ paths */
		if (!b->git_roots)
			protect_git_config(b, NULL, files.v[i], 0, NULL);
	}
	strv_free(&files);
	if (!b->git_roots)
		protect_git_env(b, NULL, NULL);
	protect_git_env_dirs(b);
}
