/* SPDX-License-Identifier: MIT */
/* git settings carried in the environment (git/env.h). */
#include "config.h"
#include "git/env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfgfilter/cfgfilter.h"
#include "git/reader.h"
#include "strbuf.h"
#include "util.h"

static void add(struct gitenv_setting **v, size_t *n, char *key, char *value)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = (struct gitenv_setting){ key, value };
}

struct collect {
	struct gitenv_setting *v;
	size_t n;
};

static bool collect(void *ctx, const char *key, const char *value)
{
	struct collect *c = ctx;
	add(&c->v, &c->n, xstrdup(key), value ? xstrdup(value) : NULL);
	return true;
}

bool gitenv_parse_params(const char *text, struct gitenv_setting **out, size_t *n)
{
	struct collect c = { 0 };
	bool bogus;
	if (!gitconfig_each_parameter(text, collect, &c, &bogus)) {
		gitenv_settings_free(c.v, c.n);
		*out = NULL;
		*n = 0;
		return false;
	}
	*out = c.v;
	*n = c.n;
	return true;
}

void gitenv_settings_free(struct gitenv_setting *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].key);
		free(s[i].value);
	}
	free(s);
}

/* s between double quotes, as a git config file writes it. False: a
 * byte it cannot hold (a newline in a subsection, a NUL). */
static bool quoted(struct strbuf *t, const char *s, bool newline_ok)
{
	sb_addc(t, '"');
	for (; *s; s++) {
		if (*s == '\\' || *s == '"') {
			sb_addc(t, '\\');
			sb_addc(t, *s);
		} else if (*s == '\n') {
			if (!newline_ok)
				return false;
			sb_adds(t, "\\n");
		} else {
			sb_addc(t, *s);
		}
	}
	sb_addc(t, '"');
	return true;
}

/* "section.sub.section.name = value" as a config file: [section "sub"]. */
static bool write_setting(struct strbuf *t, const struct gitenv_setting *x)
{
	static const char word[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-";
	const char *dot = strchr(x->key, '.'), *last = strrchr(x->key, '.');
	/* git's own rule for the section and the name: nothing else can end
	 * up in the file's lines but the quoted subsection and value */
	if (!dot || dot == x->key || !last[1] || strspn(x->key, word) != (size_t)(dot - x->key) ||
	    strspn(last + 1, word) != strlen(last + 1))
		return false;
	sb_addc(t, '[');
	sb_add(t, x->key, (size_t)(dot - x->key));
	if (last != dot) {
		_cleanup_free_ char *sub = xstrndup(dot + 1, (size_t)(last - dot - 1));
		sb_addc(t, ' ');
		if (!quoted(t, sub, false))
			return false;
	}
	sb_adds(t, "]\n\t");
	sb_adds(t, last + 1);
	sb_adds(t, " = ");
	if (!quoted(t, x->value ? x->value : "true", true))
		return false;
	sb_addc(t, '\n');
	return true;
}

bool gitenv_has_secret(const struct gitenv_setting *s, size_t n, const char *const *secret)
{
	if (!n)
		return false;
	struct strbuf cfg = STRBUF_INIT;
	bool ok = true;
	for (size_t i = 0; ok && i < n; i++)
		ok = write_setting(&cfg, &s[i]);
	struct cf_result res = { 0 };
	ok = ok && cf_filter(CF_GITCONFIG, secret, cfg.s, cfg.len, &res);
	bool secret_found = !ok || res.removed > 0;
	free(res.data);
	sb_release(&cfg);
	return secret_found;
}

bool gitenv_is_pair_name(const char *name)
{
	return strcmp(name, GITENV_COUNT) == 0 ||
	       strncmp(name, GITENV_KEY, strlen(GITENV_KEY)) == 0 ||
	       strncmp(name, GITENV_VALUE, strlen(GITENV_VALUE)) == 0;
}

/* NAME's value in envp, or NULL. */
static const char *value_of(char *const *envp, const char *name)
{
	size_t l = strlen(name);
	for (; envp && *envp; envp++)
		if (strncmp(*envp, name, l) == 0 && (*envp)[l] == '=')
			return *envp + l + 1;
	return NULL;
}

/* The number of a GIT_CONFIG_KEY_<n> or GIT_CONFIG_VALUE_<n> entry,
 * fresh, or NULL when e is neither. */
static char *pair_number(const char *e, const char *prefix)
{
	size_t pl = strlen(prefix);
	const char *eq = strchr(e, '=');
	if (strncmp(e, prefix, pl) != 0 || !eq)
		return NULL;
	return xstrndup(e + pl, (size_t)(eq - e) - pl);
}

void gitenv_judge(char *const *envp, const char *const *secret, bool *params, bool *pairs)
{
	*params = *pairs = false;
	const char *text = value_of(envp, GITENV_PARAMS);
	if (text) {
		struct gitenv_setting *s;
		size_t n;
		bool parsed = gitenv_parse_params(text, &s, &n);
		*params = !parsed || gitenv_has_secret(s, n, secret);
		gitenv_settings_free(s, n);
	}
	/* every KEY_<n> with its VALUE_<n>, whatever GIT_CONFIG_COUNT says (a
	 * git in the jail may be given a larger count); a value without its
	 * key cannot be judged */
	struct gitenv_setting *v = NULL;
	size_t n = 0;
	bool orphan = false;
	for (char *const *e = envp; e && *e; e++) {
		_cleanup_free_ char *k = pair_number(*e, GITENV_KEY);
		_cleanup_free_ char *vn = k ? NULL : pair_number(*e, GITENV_VALUE);
		if (k) {
			_cleanup_free_ char *name = xconcat(GITENV_VALUE, k, (char *)NULL);
			const char *val = value_of(envp, name);
			add(&v, &n, xstrdup(strchr(*e, '=') + 1), xstrdup(val ? val : ""));
		} else if (vn) {
			_cleanup_free_ char *name = xconcat(GITENV_KEY, vn, (char *)NULL);
			orphan = orphan || !value_of(envp, name);
		}
	}
	*pairs = orphan || gitenv_has_secret(v, n, secret);
	gitenv_settings_free(v, n);
}
