/* SPDX-License-Identifier: MIT */
/* Profiles: their names, the extends graph and the choice of the run's
 * profile: see settings/internal.h. */
#include "config.h"
#include "settings/profiles.h"

#include <ctype.h>
#include <string.h>

static const char *const builtin_profiles[] = {
	KLI_PROFILE_PRINT, KLI_PROFILE_HEADLESS, KLI_PROFILE_INTERACTIVE,
};

bool profile_name_valid(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.", *s))
			return false;
	return true;
}

bool profile_known(const struct loader *L, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(builtin_profiles); i++)
		if (strcmp(builtin_profiles[i], name) == 0)
			return true;
	for (size_t i = 0; i < L->ndefs; i++)
		if (strcmp(L->defs[i].name, name) == 0)
			return true;
	return false;
}

long profile_first_def(const struct loader *L, const char *name)
{
	for (size_t i = 0; i < L->ndefs; i++)
		if (strcmp(L->defs[i].name, name) == 0)
			return (long)i;
	return -1;
}

enum visit { UNSEEN = 0, ACTIVE, DONE };

/* Depth-first over extends, one visit per name (kept on its first
 * definition): a dangling target or an edge back to an ACTIVE name fails. */
static bool visit_extends(const struct loader *L, const char *name, enum visit *state,
			  char *err, size_t errlen)
{
	long me = profile_first_def(L, name);
	if (me < 0 || state[me] == DONE)
		return true;
	state[me] = ACTIVE;
	for (size_t i = (size_t)me; i < L->ndefs; i++) {
		const struct profile_def *d = &L->defs[i];
		if (strcmp(d->name, name) != 0 || !d->extends)
			continue;
		if (!profile_known(L, d->extends)) {
			fmt_into(err, errlen, "%s:%u: profile '%s' extends unknown profile '%s'",
				 d->file, d->extends_line, d->name, d->extends);
			return false;
		}
		long next = profile_first_def(L, d->extends);
		if (next >= 0 && state[next] == ACTIVE) {
			fmt_into(err, errlen, "%s:%u: extends cycle: profile '%s' extends '%s', "
					      "which leads back to '%s'",
				 d->file, d->extends_line, d->name, d->extends, d->name);
			return false;
		}
		if (!visit_extends(L, d->extends, state, err, errlen))
			return false;
	}
	state[me] = DONE;
	return true;
}

bool profile_check_extends(const struct loader *L, char *err, size_t errlen)
{
	enum visit *state = xcalloc(L->ndefs + 1, sizeof *state);
	bool ok = true;
	for (size_t i = 0; ok && i < L->ndefs; i++)
		ok = visit_extends(L, L->defs[i].name, state, err, errlen);
	free(state);
	return ok;
}

void profile_mark_reachable(const struct loader *L, const char *name, bool *on)
{
	long me = profile_first_def(L, name);
	if (me < 0 || on[me])
		return;
	on[me] = true;
	for (size_t i = (size_t)me; i < L->ndefs; i++)
		if (strcmp(L->defs[i].name, name) == 0 && L->defs[i].extends)
			profile_mark_reachable(L, L->defs[i].extends, on);
}

bool profile_select(const struct loader *L, const struct kli_options *opts, const char **name,
		    char *err, size_t errlen)
{
	if (L->chosen.name && !profile_known(L, L->chosen.name)) {
		fmt_into(err, errlen, "%s: unknown profile '%s'", L->chosen.origin, L->chosen.name);
		return false;
	}
	if (L->project_choice.name && !profile_known(L, L->project_choice.name)) {
		fmt_into(err, errlen, "%s: unknown profile '%s'", L->project_choice.origin,
			 L->project_choice.name);
		return false;
	}
	if (opts->profile && !profile_known(L, opts->profile)) {
		fmt_into(err, errlen, "unknown profile '%s' (not built in, not in any config)",
			 opts->profile);
		return false;
	}
	*name = opts->profile ? opts->profile
	      : L->chosen.name ? L->chosen.name
	      : opts->default_profile;
	return true;
}
