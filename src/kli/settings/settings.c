/* SPDX-License-Identifier: MIT */
/* The fold: the layers read (settings/read.c) into the run grant, narrowed
 * by the project, the profiles and the flags, each step kept as a source.
 * See settings.h and settings/internal.h. */
#include "config.h"
#include "settings/internal.h"
#include "settings/profiles.h"
#include "settings/read.h"
#include "settings/values.h"

#include <stdlib.h>
#include <string.h>

static void add_source(struct kli_settings *s, const char *origin, const char *what,
		       bool narrows)
{
	s->sources = xreallocarray(s->sources, s->nsources + 1, sizeof *s->sources);
	s->sources[s->nsources++] = (struct kli_source){
		.origin = xstrdup(origin), .what = xstrdup(what), .narrows = narrows,
	};
}

/* Meet NAME's capabilities, and its ancestors', into *g: every definition
 * of each, from every layer, since a profile only ever narrows. */
static void apply_profile(const struct loader *L, const char *name, struct grant **g,
			  struct kli_settings *s)
{
	bool *on = xcalloc(L->ndefs + 1, sizeof *on);
	profile_mark_reachable(L, name, on);
	for (size_t i = 0; i < L->ndefs; i++) {
		const struct profile_def *d = &L->defs[i];
		long first = profile_first_def(L, d->name);
		if (!on[first] || !d->caps)
			continue;
		struct grant *m = grant_meet(*g, d->caps);
		grant_free(*g);
		*g = m;
		_cleanup_free_ char *origin = xasprintf("%s:%u", d->file, d->caps_line);
		_cleanup_free_ char *what = xasprintf("[profile %s] capabilities", d->name);
		add_source(s, origin, what, true);
	}
	free(on);
}

static void narrow(struct grant **g, const struct grant *by)
{
	struct grant *m = grant_meet(*g, by);
	grant_free(*g);
	*g = m;
}

static void apply_flags(const struct kli_options *opts, struct kli_settings *s)
{
	static const char *const ro[] = { "file/write", "file/edit", "process/exec" };
	static const char *const nb[] = { "process/exec" };
	if (opts->read_only) {
		struct grant *w = grant_without(s->grant, ro, ARRAY_SIZE(ro));
		grant_free(s->grant);
		s->grant = w;
		add_source(s, "--read-only", "--read-only", true);
	}
	if (opts->no_bash) {
		struct grant *w = grant_without(s->grant, nb, ARRAY_SIZE(nb));
		grant_free(s->grant);
		s->grant = w;
		add_source(s, "--no-bash", "--no-bash", true);
	}
}

static void fold(struct loader *L, const struct kli_options *opts, const char *profile,
		 struct kli_settings *s)
{
	s->grant = L->root ? grant_copy(L->root) : grant_universal();
	if (L->root)
		add_source(s, L->root_origin, "[kli] capabilities", false);
	if (L->project) {
		narrow(&s->grant, L->project);
		add_source(s, L->project_origin, "[kli] capabilities", true);
	}
	apply_profile(L, profile, &s->grant, s);
	/* The project's choice is applied on top of the user's, never instead:
	 * otherwise a repository could swap a narrow profile for a wide one. */
	if (L->project_choice.name && strcmp(L->project_choice.name, profile) != 0) {
		_cleanup_free_ char *what = xasprintf("[kli] profile = %s", L->project_choice.name);
		add_source(s, L->project_choice.origin, what, true);
		apply_profile(L, L->project_choice.name, &s->grant, s);
	}
	apply_flags(opts, s);
	s->profile = xstrdup(profile);
	s->model = L->model;
	L->model = (struct kli_model){ .retries = -1, .stream = -1 };
	s->bash_env = L->bash_env;
	L->bash_env = (struct strv)STRV_INIT;
	s->bash_timeout = L->bash_timeout;
}

bool settings_load(const struct kli_files *files, const struct kli_options *opts,
		   const struct auth_ctx *ctx, struct kli_settings *out, char *err, size_t errlen)
{
	*out = (struct kli_settings){ .model = { .retries = -1, .stream = -1 } };
	struct loader L = { .ctx = ctx, .model = { .retries = -1, .stream = -1 } };
	const char *profile = NULL;
	bool ok = settings_read_layer(&L, files->system, LAYER_SYSTEM, err, errlen) &&
		  settings_read_layer(&L, files->user, LAYER_USER, err, errlen) &&
		  settings_read_text(&L, KLI_COMMAND_LINE, files->command_line, LAYER_USER, err,
				     errlen) &&
		  settings_read_layer(&L, files->project, LAYER_PROJECT, err, errlen) &&
		  profile_check_extends(&L, err, errlen) &&
		  profile_select(&L, opts, &profile, err, errlen);
	if (ok)
		fold(&L, opts, profile, out);
	settings_loader_clear(&L);
	return ok;
}

void settings_clear(struct kli_settings *s)
{
	grant_free(s->grant);
	free(s->profile);
	for (size_t i = 0; i < s->nsources; i++) {
		free(s->sources[i].origin);
		free(s->sources[i].what);
	}
	free(s->sources);
	settings_model_clear(&s->model);
	strv_free(&s->bash_env);
	*s = (struct kli_settings){ .model = { .retries = -1, .stream = -1 } };
}
