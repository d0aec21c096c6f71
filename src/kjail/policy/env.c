/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "policy/env.h"
#include "policy/defaults.h"
#include "policy/secret.h"
#include "policy/secretval.h"
#include "cfgfilter/cfgfilter.h"
#include "git/env.h"
#include "util.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Literal bytes and '*' only: '?', '[' and '\\' go to fnmatch. */
static bool star_only(const char *pat)
{
	for (; *pat; pat++)
		if (*pat == '?' || *pat == '[' || *pat == '\\')
			return false;
	return true;
}

/* A pattern's first or last byte that must equal the name's: not one of
 * fnmatch's special bytes (a ']' may close a bracket, a '\\' escapes). */
static bool plain_first(char c) { return c && c != '*' && c != '?' && c != '[' && c != '\\'; }
static bool plain_last(char c) { return c && c != '*' && c != '?' && c != ']' && c != '\\'; }

bool env_glob_match(const char *pat, const char *name)
{
	/* Most patterns fail on the first or last byte: say so before any
	 * scanning (a '\\' before the last byte still leaves it literal). */
	if (plain_first(pat[0]) && pat[0] != name[0])
		return false;
	size_t patlen = strlen(pat);
	if (patlen && plain_last(pat[patlen - 1])) {
		size_t namelen = strlen(name);
		if (!namelen || name[namelen - 1] != pat[patlen - 1])
			return false;
	}
	if (!star_only(pat))
		return fnmatch(pat, name, 0) == 0;
	const char *first = strchr(pat, '*');
	if (!first)
		return strcmp(pat, name) == 0;
	/* The text before the first star is a prefix, the text after the last
	 * one a suffix, and each piece between stars is found leftmost in what
	 * lies between: leftmost is never worse for the pieces after it. */
	size_t plen = (size_t)(first - pat);
	if (strncmp(pat, name, plen) != 0)
		return false;
	name += plen;
	const char *last = strrchr(first, '*');
	size_t slen = strlen(last + 1), nlen = strlen(name);
	if (slen > nlen || memcmp(last + 1, name + nlen - slen, slen) != 0)
		return false;
	const char *end = name + nlen - slen;
	for (const char *p = first + 1; p < last;) {
		const char *star = strchr(p, '*');
		size_t len = (size_t)(star - p);
		if (len) {
			const char *at = memmem(name, (size_t)(end - name), p, len);
			if (!at)
				return false;
			name = at + len;
		}
		p = star + 1;
	}
	return true;
}

static const struct entry *match_list(const struct entry_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (env_glob_match(l->v[i].value, name))
			return &l->v[i];
	return NULL;
}

/* The built-in patterns are matched against every variable of every run:
 * their lengths once, and a name ruled out on its first or last byte
 * without a call (env_glob_match makes the same two checks first). */
static const char *match_builtin(const char *name, size_t namelen)
{
	static size_t patlen[64];
	static size_t npat;
	if (!npat)
		for (; default_env_scrub[npat] && npat < ARRAY_SIZE(patlen); npat++)
			patlen[npat] = strlen(default_env_scrub[npat]);
	for (size_t i = 0; default_env_scrub[i]; i++) {
		const char *pat = default_env_scrub[i];
		if (plain_first(pat[0]) && pat[0] != name[0])
			continue;
		if (i < npat && patlen[i] && plain_last(pat[patlen[i] - 1]) &&
		    (!namelen || name[namelen - 1] != pat[patlen[i] - 1]))
			continue;
		if (env_glob_match(pat, name))
			return pat;
	}
	return NULL;
}

/* Why name must go, as a fresh string, or NULL to keep it. */
static char *removal_reason(const struct policy *p, const char *name, size_t namelen)
{
	const struct entry *e = match_list(&p->deny_env, name);
	if (e)
		return xasprintf("%s, pattern %s", e->origin, e->value);
	if (!p->defaults.value)
		return NULL;
	/* the built-in patterns in any case: github_token is GITHUB_TOKEN's
	 * secret all the same */
	char stack[128];
	_cleanup_free_ char *heap = namelen < sizeof stack ? NULL : xmalloc(namelen + 1);
	char *upper = heap ? heap : stack;
	for (size_t i = 0; i <= namelen; i++)
		upper[i] = name[i] >= 'a' && name[i] <= 'z' ? (char)(name[i] - 'a' + 'A') : name[i];
	const char *pat = match_builtin(upper, namelen);
	if (!pat || match_list(&p->keep_env, name))
		return NULL;
	return xasprintf("built-in secret scrub, pattern %s", pat);
}

/* The git secrets' patterns of the built-in table (~/.gitconfig's row). */
static const char *const *gitconfig_secret(void)
{
	for (const struct cred_store *c = cred_stores; c->tool; c++)
		if (c->format == CF_GITCONFIG)
			return c->secret;
	return NULL;
}

/* NAME_API_KEY, in any case: what coding agents read their model key
 * from (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, ...). */
static bool agent_key(const char *name, size_t len)
{
	return len > 8 && strncasecmp(name + len - 8, "_API_KEY", 8) == 0;
}

void env_filter(char *const *envp, const struct policy *p, struct strv *kept,
		struct entry_list *removed)
{
	/* git settings in the environment holding a credential (git/env.h) */
	bool git_params = false, git_pairs = false;
	const char *const *secret = gitconfig_secret();
	if (p->defaults.value && secret)
		gitenv_judge(envp, secret, &git_params, &git_pairs);
	for (; envp && *envp; envp++) {
		const char *eq = strchr(*envp, '=');
		if (!eq || eq == *envp)
			continue;
		/* the name, NUL-terminated: on the stack unless it is long */
		size_t len = (size_t)(eq - *envp);
		char buf[128];
		_cleanup_free_ char *heap = len < sizeof buf ? NULL : xstrndup(*envp, len);
		char *name = heap;
		if (!name) {
			memcpy(buf, *envp, len);
			buf[len] = '\0';
			name = buf;
		}
		/* a secret goes by descriptor alone (secret.h), whatever
		 * --keep-env says; and only kjail names a secret's descriptor */
		const struct entry *sec = secret_of_env(&p->secrets, name);
		_cleanup_free_ char *why =
			sec ? xasprintf("%s, secret %.*s (on its descriptor instead)", sec->origin,
					(int)strcspn(sec->value, "="), sec->value)
			: str_has_prefix(name, SECRET_VAR_PREFIX)
				? xstrdup("kjail's own: only --secret names a secret's descriptor")
				: removal_reason(p, name, len);
		if (!why && ((git_params && strcmp(name, GITENV_PARAMS) == 0) ||
			     (git_pairs && gitenv_is_pair_name(name))) &&
		    !match_list(&p->keep_env, name))
			why = xstrdup("built-in: git settings in the environment holding a credential "
				      "(or that kjail cannot read)");
		/* DATABASE_URL=postgres://u:pw@db, a CI's repository URL with
		 * its job token in it, WEBHOOK=https://hooks.slack.com/...,
		 * NOTES=ghp_...: no name says so, the value does (secretval.h).
		 * The agents' own keys (*_API_KEY) are what an agent in the
		 * jail needs: their names pass, as --keep-env's do. */
		const char *val = why || !p->defaults.value || agent_key(name, len)
					  ? NULL
					  : secretval_judge(eq + 1, strlen(eq + 1), SV_PLAIN);
		if (val && !match_list(&p->keep_env, name))
			why = xconcat("built-in: ", val, (char *)NULL);
		if (why)
			entry_add(removed, name, why);
		else
			strv_push(kept, *envp);
	}
}
