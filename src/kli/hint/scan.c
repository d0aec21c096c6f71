/* SPDX-License-Identifier: MIT */
/* Sandbox hints, where a word leads in the jail: see hint/scan.h. */
#include "config.h"
#include "hint/scan.h"
#include "path.h"
#include "util.h"

#include <string.h>

/* WORD with "~" and "$HOME" expanded; NULL when it cannot be (no home). */
static char *expand_home(const char *word, const char *home)
{
	static const char *const forms[] = { "~", "$HOME", "${HOME}" };
	for (size_t i = 0; i < ARRAY_SIZE(forms); i++) {
		size_t n = strlen(forms[i]);
		if (strncmp(word, forms[i], n) == 0 && (word[n] == '\0' || word[n] == '/')) {
			if (!home || home[0] != '/')
				return NULL;
			return xasprintf("%s%s", home, word + n);
		}
	}
	if (word[0] == '~' || word[0] == '$')
		return NULL; /* ~user, other variables: not guessed at */
	return xstrdup(word);
}

/* WORD as a real absolute path, taken from BASE when relative. */
static char *real_path(struct hint_scan *s, const char *word, const char *base)
{
	if (s->lookups >= HINT_MAX_LOOKUPS || !*word || strlen(word) >= HINT_MAX_WORD)
		return NULL;
	_cleanup_free_ char *w = expand_home(word, s->env->home);
	if (!w || (w[0] != '/' && (!base || base[0] != '/')))
		return NULL;
	s->lookups++;
	char *clean = path_normalize(w, base);
	if (!clean || !s->env->resolve)
		return clean;
	char *real = s->env->resolve(clean);
	if (!real)
		return clean;
	free(clean);
	return real;
}

/* The first base under which WORD names a path whose mount passes WANT;
 * its real path in *out. */
const struct jail_mount *hint_lookup(struct hint_scan *s, const char *word,
				       bool (*want)(const struct jail_mount *), char **out)
{
	*out = NULL;
	bool relative = word[0] != '/' && word[0] != '~' && word[0] != '$';
	for (size_t i = 0; i < (relative ? s->nbases : 1); i++) {
		char *real = real_path(s, word, s->bases[i]);
		if (!real)
			continue;
		const struct jail_mount *m = jail_verdict_for(s->p, real);
		if (m && want(m)) {
			*out = real;
			return m;
		}
		free(real);
	}
	return NULL;
}

/* A mount where the jail refuses writes: read-only or masked. */
bool hint_is_refusing(const struct jail_mount *m)
{
	return strcmp(m->verdict, "read-only") == 0 || strcmp(m->verdict, "masked") == 0;
}

/* Any mount but a writable one: the jail's private /tmp, /dev and /proc
 * take writes, so a read-only file system there is the jail's too (its
 * /proc/sys), where a permission error is only the kernel's usual one. */
bool hint_is_not_writable(const struct jail_mount *m)
{
	return strcmp(m->verdict, "writable") != 0;
}

bool hint_is_protected(const struct jail_mount *m)
{
	return str_has_prefix(m->rule, "protected");
}

bool hint_is_masked(const struct jail_mount *m)
{
	return strcmp(m->verdict, "masked") == 0;
}

void hint_scan_init(struct hint_scan *s, const struct jail_policy *p, const struct hint_env *env,
		      const struct hint_words *w)
{
	*s = (struct hint_scan){ .p = p, .env = env };
	if (env->cwd && env->cwd[0] == '/')
		s->bases[s->nbases++] = env->cwd;
	/* "cd DIR && touch x" refuses DIR/x, which the message calls "x". */
	for (size_t i = 0; i + 1 < w->n && s->nowned < HINT_MAX_BASES; i++) {
		if (strcmp(w->v[i], "cd") != 0)
			continue;
		char *dir = real_path(s, w->v[i + 1], env->cwd);
		if (dir)
			s->bases[s->nbases++] = s->owned[s->nowned++] = dir;
	}
}

void hint_scan_clear(struct hint_scan *s)
{
	for (size_t i = 0; i < s->nowned; i++)
		free(s->owned[i]);
}
