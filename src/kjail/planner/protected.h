/* SPDX-License-Identifier: MIT */
/* The protected paths, as one table: what stays read-only inside a
 * writable root although the root is writable, because it changes what
 * runs later outside the jail (a git hook or config, a direnv script, an
 * editor's tasks, a shell startup file). Each row says where its pattern
 * applies, what kjail does when the name is there and when it is absent,
 * and the reason --explain shows. The planner (protect*.c) walks the rows;
 * README.md, doc/security-model.md and doc/kjail.1 list them, and a test
 * (tests/integration/kjail-protected-docs.test) holds the three lists to
 * the table.
 *
 * The one rule for an absent name (PROTECT_RESERVE, and the kinds that
 * fall back to it): it is reserved. The jail may make it (there is nothing
 * to bind read-only), and after the run kjail renames what it made aside,
 * to NAME.kjail-moved-aside.PID, with a warning naming where it went, so
 * that nothing outside the jail reads or runs it unawares. */
#ifndef KJ_PROTECTED_H
#define KJ_PROTECTED_H

#include <stddef.h>

/* Where a row's pattern applies; a row may name several (flags). */
enum protect_where {
	/* ROOT/PATTERN for every writable root */
	WHERE_EVERY_ROOT = 1 << 0,
	/* ROOT/PATTERN for a writable root whose .git is a directory */
	WHERE_GIT_REPO = 1 << 1,
	/* REPO/PATTERN for each submodule's repository (a directory holding
	 * HEAD under .git/modules, nested ones too) */
	WHERE_SUBMODULE = 1 << 2,
	/* ROOT/.git/worktrees/NAME/PATTERN for each linked worktree */
	WHERE_WORKTREE = 1 << 3,
	/* HOME/PATTERN (the account's home and $HOME) where a writable root
	 * holds it, or holds what it leads to when a symlink on its path leads
	 * there (a dotfiles repository stow links from) */
	WHERE_HOME = 1 << 4,
	/* $XDG_CONFIG_HOME/PATTERN less its ".config/", where a writable root
	 * holds it */
	WHERE_XDG_CONFIG = 1 << 5,
	/* what the git setting PATTERN names (relative to the work tree, ~ or
	 * absolute), in every git config kjail reads: the repository's, its
	 * submodules' and worktrees', the user's, the system's and what they
	 * include; protected where a writable root holds it */
	WHERE_GIT_SETTING = 1 << 6,
	/* PATTERN is a git config file git reads in every repository ("~/",
	 * "$VAR/" or "$VAR" as git finds it); protected where a writable
	 * root holds it */
	WHERE_GIT_CONFIG_FILE = 1 << 7,
	/* PATTERN is a tool's config directory: ~/.config/PATTERN (the
	 * account's home and $HOME), $XDG_CONFIG_HOME/PATTERN and the system's
	 * (the directory of the row's system_file); protected where a writable
	 * root holds it */
	WHERE_CONFIG_DIRS = 1 << 8,
	/* $XDG_DATA_HOME/PATTERN less its ".local/share/", where a writable
	 * root holds it */
	WHERE_XDG_DATA = 1 << 9,
};

/* What kjail does with the name, present and absent. Present, every kind
 * binds it read-only and pins its ancestors up to the writable root (bound
 * onto themselves: a mount point cannot be renamed away and rebuilt). */
enum protect_kind {
	/* absent: reserved (see above) */
	PROTECT_RESERVE,
	/* absent: nothing (the tool reads it only where set up, and an
	 * absent one would pin its directory on macOS) */
	PROTECT_IF_PRESENT,
	/* only a file is bound (a .git file: a worktree's or submodule's
	 * link); a directory or nothing: nothing */
	PROTECT_IF_FILE,
	/* absent in a repository: made (an empty directory, as git makes it)
	 * and bound read-only, so it cannot be made and filled in the jail;
	 * elsewhere reserved */
	PROTECT_CREATE_DIR,
	/* absent where extensions.worktreeConfig is set (git reads it while
	 * the jail runs too): made (an empty file) and bound read-only;
	 * otherwise reserved */
	PROTECT_MAKE_FILE,
};

/* For WHERE_GIT_SETTING rows: which settings the row stands for. */
enum protect_git {
	GIT_NONE,
	GIT_HOOKS_PATH,   /* core.hooksPath: a directory */
	GIT_TEMPLATE_DIR, /* init.templateDir: a directory */
	GIT_INCLUDE,      /* include.path, includeIf.*.path: config files, read in turn */
	GIT_PROGRAM,      /* the files the commands of the programs git runs name */
};

struct protected_rule {
	const char *pattern;  /* a relative path, a git setting, a path template */
	unsigned where;       /* enum protect_where flags */
	enum protect_kind kind;
	const char *why;      /* --explain: "protected: WHY" */
	enum protect_git git; /* WHERE_GIT_SETTING rows */
	const char *system_file; /* WHERE_CONFIG_DIRS: the system config file,
				  * whose directory is protected too */
};

/* The rows, ending in one whose pattern is NULL. */
extern const struct protected_rule protected_rules[];

/* How many names one directory read answers: all of a writable root's
 * rows (one read of each writable root), all of the home directory's (one
 * read of it for its symlinks; test_host holds the table to it) and each
 * directory's built-in masks; beyond it each name costs a lookup of its
 * own. */
#define KJ_SCAN_MAX 256

/* Names for the table's dump and --explain: "every-root", "reserve". */
const char *protect_where_name(enum protect_where w);
const char *protect_kind_name(enum protect_kind k);

/* The row of a git setting (WHERE_GIT_SETTING); never NULL. */
const struct protected_rule *protected_git_rule(enum protect_git g);

#endif
