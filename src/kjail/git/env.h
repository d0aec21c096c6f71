/* SPDX-License-Identifier: MIT */
/* git settings carried in the environment: GIT_CONFIG_PARAMETERS (what
 * `git -c KEY=VALUE` passes to the git processes it runs, in git's quoting)
 * and GIT_CONFIG_COUNT with GIT_CONFIG_KEY_<n> and GIT_CONFIG_VALUE_<n>.
 * A CI job may put a token there (`git -c http.extraheader=...`), and no
 * name pattern of the scrub sees it: the settings are judged by the git
 * config filter's own rules (cfgfilter.h), as ~/.gitconfig's are. Pure. */
#ifndef KJ_GITENV_H
#define KJ_GITENV_H

#include <stdbool.h>
#include <stddef.h>

#define GITENV_PARAMS "GIT_CONFIG_PARAMETERS"
#define GITENV_COUNT "GIT_CONFIG_COUNT"
#define GITENV_KEY "GIT_CONFIG_KEY_"
#define GITENV_VALUE "GIT_CONFIG_VALUE_"

/* One setting: value NULL for a key given alone (true). */
struct gitenv_setting {
	char *key;
	char *value;
};

/* GIT_CONFIG_PARAMETERS' value into its settings, as git reads it:
 * whitespace-separated words each quoted as git's sq_quote does ('...',
 * with '\'' and '\!' inside), either 'KEY'='VALUE', 'KEY' alone ('KEY'=
 * too), or the older 'KEY=VALUE' (git/reader.h's reader). False (out
 * empty) when git would refuse it. */
bool gitenv_parse_params(const char *text, struct gitenv_setting **out, size_t *n);
void gitenv_settings_free(struct gitenv_setting *s, size_t n);

/* Whether these settings hold a credential by the git filter's patterns
 * (secret: the built-in table's CF_GITCONFIG row): true also when they
 * cannot be written as a git config file (a key without a section, a
 * newline in a subsection), so that a setting kjail cannot judge goes. */
bool gitenv_has_secret(const struct gitenv_setting *s, size_t n, const char *const *secret);

/* Which of the two groups in envp must go: *params for
 * GIT_CONFIG_PARAMETERS (unparsable counts), *pairs for GIT_CONFIG_COUNT
 * and every GIT_CONFIG_KEY_<n> and GIT_CONFIG_VALUE_<n> (all of them: the
 * numbering is one). */
void gitenv_judge(char *const *envp, const char *const *secret, bool *params, bool *pairs);

/* name is GIT_CONFIG_COUNT, GIT_CONFIG_KEY_* or GIT_CONFIG_VALUE_*. */
bool gitenv_is_pair_name(const char *name);

#endif
