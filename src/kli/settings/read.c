/* SPDX-License-Identifier: MIT */
/* Reading kli's layered config files into the loader: the schema, each
 * item to its section, capability lists gathered per file and built into
 * grants at its end. See settings/internal.h. */
#include "config.h"
#include "settings/read.h"
#include "settings/profiles.h"
#include "settings/values.h"
#include "ini_reader.h"
#include "path.h" /* OWNED_UNMAPPED_OK */

#include <string.h>
#include <unistd.h>

/* `capabilities` is a list key: a long list may continue on further lines
 * of the same section (inih caps a line at about 200 bytes). */
static const struct ini_key_spec kli_keys[] = {
	{ "profile", false }, { "capabilities", true }, { NULL, false },
};
static const struct ini_key_spec profile_keys[] = {
	{ "extends", false }, { "capabilities", true }, { NULL, false },
};
static const struct ini_key_spec model_keys[] = {
	{ "base-url", false }, { "model", false }, { "api-key-file", false },
	{ "api-key-env", false }, { "api-key-secret", false }, { "timeout", false }, { "idle-timeout", false },
	{ "connect-timeout", false }, { "retries", false }, { "stream", false }, { NULL, false },
};
static const struct ini_key_spec bash_keys[] = {
	{ "env-allowlist", true }, { "timeout", false }, { NULL, false },
};
static const struct ini_section_spec schema[] = {
	{ "kli", false, kli_keys },
	{ "profile ", true, profile_keys },
	{ "model", false, model_keys },
	{ "bash", false, bash_keys },
	{ NULL, false, NULL },
};

static void acc_clear(struct caps_acc *a)
{
	cap_list_clear(&a->caps);
	free(a->lines);
	*a = (struct caps_acc){ 0 };
}

static bool acc_add(struct caps_acc *a, const struct ini_item *it, const struct auth_ctx *ctx,
		    char *err, size_t errlen)
{
	size_t before = a->caps.n;
	if (!a->seen) {
		a->seen = true;
		a->first_line = it->line;
	}
	if (!cap_parse_list(it->value, ctx, &a->caps, err, errlen))
		return false;
	a->lines = xreallocarray(a->lines, a->caps.n ? a->caps.n : 1, sizeof *a->lines);
	for (size_t i = before; i < a->caps.n; i++)
		a->lines[i] = it->line;
	return true;
}

/* The grant of a gathered list, or NULL and "FILE:LINE: ..." */
static struct grant *acc_build(const struct caps_acc *a, const char *file, char *err,
			       size_t errlen)
{
	size_t bad = 0;
	char msg[400];
	struct grant *g = grant_from_caps(a->caps.v, a->caps.n, &bad, msg, sizeof msg);
	if (!g)
		fmt_into(err, errlen, "%s:%u: %s", file, a->caps.n ? a->lines[bad] : a->first_line,
			 msg);
	return g;
}

/* ------------------------------------------------------ [kli], [profile] */

/* Profiles are few; the cap keeps the extends walk's recursion shallow. */
#define MAX_PROFILES 256

static struct profile_def *def_for(struct loader *L, const char *name)
{
	for (size_t i = 0; i < L->ndefs; i++)
		if (strcmp(L->defs[i].name, name) == 0 && strcmp(L->defs[i].file, L->file) == 0)
			return &L->defs[i];
	if (L->ndefs >= MAX_PROFILES)
		return NULL;
	L->defs = xreallocarray(L->defs, L->ndefs + 1, sizeof *L->defs);
	L->defs[L->ndefs] = (struct profile_def){
		.name = xstrdup(name), .file = xstrdup(L->file),
	};
	return &L->defs[L->ndefs++];
}

static bool profile_item(struct loader *L, const struct ini_item *it, char *err, size_t errlen)
{
	const char *name = it->section + strlen("profile ");
	if (!profile_name_valid(name)) {
		fmt_into(err, errlen, "profile name '%s' must be letters, digits, '-', '_' or '.'",
			 name);
		return false;
	}
	struct profile_def *d = def_for(L, name);
	if (!d) {
		fmt_into(err, errlen, "more than %d profile sections", MAX_PROFILES);
		return false;
	}
	if (strcmp(it->key, "capabilities") == 0)
		return acc_add(&d->acc, it, L->ctx, err, errlen);
	if (!profile_name_valid(it->value)) {
		fmt_into(err, errlen, "extends needs a profile name");
		return false;
	}
	settings_replace_str(&d->extends, it->value);
	d->extends_line = it->line;
	return true;
}

static bool kli_item(struct loader *L, const struct ini_item *it, char *err, size_t errlen)
{
	if (strcmp(it->key, "capabilities") == 0)
		return acc_add(&L->kli_acc, it, L->ctx, err, errlen);
	if (!profile_name_valid(it->value)) {
		fmt_into(err, errlen, "profile needs a profile name");
		return false;
	}
	struct choice *c = L->layer == LAYER_PROJECT ? &L->project_choice : &L->chosen;
	settings_replace_str(&c->name, it->value);
	free(c->origin);
	c->origin = xasprintf("%s:%u", it->file, it->line);
	return true;
}

static bool on_item(void *vctx, const struct ini_item *it, char *err, size_t errlen)
{
	struct loader *L = vctx;
	if (strcmp(it->section, "kli") == 0)
		return kli_item(L, it, err, errlen);
	if (it->section_spec->prefix)
		return profile_item(L, it, err, errlen);
	if (L->layer == LAYER_PROJECT) {
		/* A cloned repository must not pick the model endpoint, where the
		 * API key is sent, nor what reaches the shell. */
		fmt_into(err, errlen, "[%s] is not accepted in a project config, only [kli] "
				      "and [profile NAME]", it->section);
		return false;
	}
	if (strcmp(it->section, "model") == 0)
		return settings_model_item(&L->model, it, err, errlen);
	return settings_bash_item(&L->bash_env, &L->bash_timeout, it, err, errlen);
}

/* ------------------------------------------------------------- layers */

/* After a file: turn what it gathered into grants. */
static bool finish_file(struct loader *L, char *err, size_t errlen)
{
	for (size_t i = 0; i < L->ndefs; i++) {
		struct profile_def *d = &L->defs[i];
		if (strcmp(d->file, L->file) != 0 || !d->acc.seen || d->caps)
			continue;
		d->caps = acc_build(&d->acc, d->file, err, errlen);
		d->caps_line = d->acc.first_line;
		acc_clear(&d->acc);
		if (!d->caps)
			return false;
	}
	if (!L->kli_acc.seen)
		return true;
	struct grant *g = acc_build(&L->kli_acc, L->file, err, errlen);
	char *origin = xasprintf("%s:%u", L->file, L->kli_acc.first_line);
	acc_clear(&L->kli_acc);
	if (!g) {
		free(origin);
		return false;
	}
	if (L->layer == LAYER_PROJECT) {
		L->project = g;
		L->project_origin = origin;
	} else { /* the last system/user key sets the root */
		grant_free(L->root);
		free(L->root_origin);
		L->root = g;
		L->root_origin = origin;
	}
	return true;
}

bool settings_read_layer(struct loader *L, const char *file, enum layer layer, char *err,
			 size_t errlen)
{
	if (!file)
		return true;
	L->file = file;
	L->layer = layer;
	/* The system's and the user's files set what a run may do: only their
	 * owner (or root) may write them (the system's, at a path fixed at build
	 * time, may show as the overflow uid inside a jail). A project file can
	 * only narrow it; it was found on disk, so it must be read. */
	int rc = layer == LAYER_PROJECT
			 ? ini_read_file(file, false, schema, on_item, L, err, errlen)
			 : ini_read_file_trusted(file, true, getuid(),
						 layer == LAYER_SYSTEM ? OWNED_UNMAPPED_OK : 0, schema,
						 on_item, L, err, errlen);
	if (rc == INI_ERROR) {
		acc_clear(&L->kli_acc);
		return false;
	}
	return rc == INI_MISSING || finish_file(L, err, errlen);
}

bool settings_read_text(struct loader *L, const char *name, const char *text,
			enum layer layer, char *err, size_t errlen)
{
	if (!text)
		return true;
	L->file = name;
	L->layer = layer;
	if (ini_read_text(name, text, strlen(text), schema, on_item, L, err, errlen) == INI_ERROR) {
		acc_clear(&L->kli_acc);
		return false;
	}
	return finish_file(L, err, errlen);
}

void settings_loader_clear(struct loader *L)
{
	acc_clear(&L->kli_acc);
	grant_free(L->root);
	grant_free(L->project);
	free(L->root_origin);
	free(L->project_origin);
	free(L->chosen.name);
	free(L->chosen.origin);
	free(L->project_choice.name);
	free(L->project_choice.origin);
	for (size_t i = 0; i < L->ndefs; i++) {
		free(L->defs[i].name);
		free(L->defs[i].file);
		free(L->defs[i].extends);
		acc_clear(&L->defs[i].acc);
		grant_free(L->defs[i].caps);
	}
	free(L->defs);
	settings_model_clear(&L->model);
	strv_free(&L->bash_env);
}
