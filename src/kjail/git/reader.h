/* SPDX-License-Identifier: MIT */
/* What kjail reads in a git config file: the settings that make git run or
 * read files from elsewhere, which the jail must not be able to plant.
 *   core.hooksPath: the directory git runs hooks from instead of .git/hooks;
 *   include.path, includeIf.COND.path: more config files, read as if they
 *   were this one (whatever the condition: kjail does not judge it);
 *   the programs git runs on its own: core.fsmonitor, filter.*.clean,
 *   .smudge and .process, diff.*.textconv and .command, diff.external,
 *   merge.*.driver, core.sshCommand, core.askPass, credential.helper,
 *   gpg.program and gpg.*.program, gpg.ssh.defaultKeyCommand, core.editor,
 *   sequence.editor, core.pager and pager.*, core.gitProxy,
 *   remote.*.uploadpack and .receivepack, interactive.diffFilter,
 *   submodule.*.update (a "!command"), git-lfs's lfs.customtransfer.*.path
 *   and lfs.extension.*.clean and .smudge (not alias.*, mergetool.* or
 *   difftool.*: they run when the user asks for them, like the work tree's
 *   own scripts);
 *   init.templateDir: the directory git init and git clone copy hooks from;
 *   extensions.worktreeConfig: git then reads config.worktree as well.
 *
 * The reader reads a file as git does (config.c's parser; checked against
 * `git config --list` on tests/data/gitconfig-corpus): a UTF-8 BOM at the
 * start is skipped, CRLF is a newline, section and key names in any case,
 * subsections ([s "sub"]) as written, the old [s.sub] in lower case, a key
 * on the header's line, a bare key (no '='), comments after a value, the
 * quotes and the four escapes git knows, continued lines, a NUL ending a
 * value. Where git refuses the whole file (a bad line, an unknown escape,
 * an open quote, a partial BOM, a bare include.path), it fails closed: the
 * parse returns false and err says which line; kjail then refuses to start
 * rather than guess what the user's git reads. So it does where git
 * versions read a value differently: a tab or a carriage return inside an
 * unquoted value of a key above (older gits read it as a space, newer
 * ones keep it as it is). */
#ifndef KJ_GITCONFIG_H
#define KJ_GITCONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include "strv.h"

struct gitconfig {
	char *hooks_path;      /* the last core.hooksPath set; NULL when none */
	char *worktree;        /* the last core.worktree set (a submodule's
				* repository names its work tree so); NULL when none */
	char *template_dir;    /* the last init.templateDir set: git init and
				* clone copy its hooks into the new repository */
	struct strv includes;  /* every include path, in order, as written */
	struct strv programs;  /* every program value, in order, as written */
	struct strv program_keys; /* the key of each ("filter.*.clean") */
	int worktree_config;   /* extensions.worktreeConfig, the last set: git then
				* reads the repository's config.worktree too;
				* -1 when not set, else 0 or 1 */
	struct strv entries;   /* every key above as read, in order, as git config
				* --list -z prints it: "name\nvalue", or "name"
				* for a bare key (tests/helpers/gitconfig-read) */
	char *err;             /* why the parse failed ("line N: ..."), or NULL */
};

#define GITCONFIG_INIT { NULL, NULL, NULL, STRV_INIT, STRV_INIT, STRV_INIT, -1, STRV_INIT, NULL }

/* Adds what text (a config file's bytes) sets to out, values unquoted and
 * unescaped as git reads them; a later hooksPath replaces an earlier one.
 * False, with out->err set, where git refuses the file (see above); what
 * came before the bad line is in out all the same. */
bool gitconfig_parse(const char *text, size_t len, struct gitconfig *out);

/* Adds one setting given outside a file (git -c, GIT_CONFIG_KEY_n): key as
 * written (section and key in any case), value NULL for a bare one. False,
 * with out->err set, where git refuses it. */
bool gitconfig_add(struct gitconfig *out, const char *key, const char *value);
/* Adds what GIT_CONFIG_PARAMETERS (git -c's settings, for the commands git
 * runs) holds: 'key'='value' words, or the older 'key=value'. False, with
 * out->err set, where git refuses it. */
bool gitconfig_parse_parameters(const char *text, struct gitconfig *out);
/* The same words, each setting to fn in order (key as written, value NULL
 * for a bare one) until fn returns false. False when fn did, or where
 * git refuses the text (*bogus set then). */
bool gitconfig_each_parameter(const char *text,
			      bool (*fn)(void *ctx, const char *key, const char *value),
			      void *ctx, bool *bogus);

/* True when kjail acts on the key NAME (as git config --list prints it:
 * section and key in lower case, a subsection as written). */
bool gitconfig_key_acted(const char *name);

/* What git makes of an include path written in the file whose directory is
 * dir: ~/ is home, ~USER/ that account's home, a relative path dir's. NULL
 * when git cannot expand it (no home, no such user). */
char *gitconfig_include_path(const char *inc, const char *dir, const char *home);
void gitconfig_free(struct gitconfig *g);

/* The words of a program value (a shell command line; a leading '!' as
 * credential.helper allows) that name a file: unquoted, holding a '/', and
 * not an option, a redirection, an assignment or a word with a git
 * placeholder (%f) or a shell expansion ($x) in it. Added to out. */
void gitconfig_command_paths(const char *cmd, struct strv *out);

#endif
