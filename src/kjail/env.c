#include "config.h"
#include "env.h"
#include "defaults.h"
#include "util.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static const struct entry *match_list(const struct entry_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (fnmatch(l->v[i].value, name, 0) == 0)
			return &l->v[i];
	return NULL;
}

static const char *match_builtin(const char *name)
{
	for (const char *const *pat = default_env_scrub; *pat; pat++)
		if (fnmatch(*pat, name, 0) == 0)
			return *pat;
	return NULL;
}

/* Why name must go, as a fresh string, or NULL to keep it. */
static char *removal_reason(const struct policy *p, const char *name)
{
	const struct entry *e = match_list(&p->deny_env, name);
	if (e)
		return xasprintf("%s, pattern %s", e->origin, e->value);
	if (!p->defaults.value)
		return NULL;
	const char *pat = match_builtin(name);
	if (!pat || match_list(&p->keep_env, name))
		return NULL;
	return xasprintf("built-in secret scrub, pattern %s", pat);
}

void env_filter(char *const *envp, const struct policy *p, struct strv *kept,
		struct entry_list *removed)
{
	for (; envp && *envp; envp++) {
		const char *eq = strchr(*envp, '=');
		if (!eq || eq == *envp)
			continue;
		_cleanup_free_ char *name = xstrndup(*envp, (size_t)(eq - *envp));
		_cleanup_free_ char *why = removal_reason(p, name);
		if (why)
			entry_add(removed, name, why);
		else
			strv_push(kept, *envp);
	}
}
