/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "settings.h"
#include "ini_reader.h"
#include "path.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum layer { LAYER_SYSTEM, LAYER_USER, LAYER_PROJECT };

static const char *const builtin_profiles[] = {
	KLI_PROFILE_PRINT, KLI_PROFILE_HEADLESS, KLI_PROFILE_INTERACTIVE,
};

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
	{ "api-key-env", false }, { "timeout", false }, { "retries", false }, { "stream", false },
	{ NULL, false },
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

/* A capability list being gathered from one section of one file. */
struct caps_acc {
	bool seen;
	unsigned first_line;
	struct cap_list caps;
	unsigned *lines;     /* the line of each entry, for messages */
};

/* One [profile NAME] section (all of its occurrences) in one file. */
struct profile_def {
	char *name;
	char *file;
	char *extends;
	unsigned extends_line;
	struct caps_acc acc;
	struct grant *caps;  /* built at the end of the file; NULL: no key */
	unsigned caps_line;
};

/* A `[kli] profile` choice and where it was written. */
struct choice {
	char *name;
	char *origin;   /* FILE:LINE */
};

struct loader {
	const struct auth_ctx *ctx;
	/* per file */
	const char *file;
	enum layer layer;
	struct caps_acc kli_acc;
	/* across files */
	struct grant *root;
	char *root_origin;
	struct grant *project;
	char *project_origin;
	struct choice chosen;          /* system/user [kli] profile */
	struct choice project_choice;  /* project [kli] profile */
	struct profile_def *defs;
	size_t ndefs;
	struct kli_model model;
	struct strv bash_env;
	long bash_timeout;
};

/* ------------------------------------------------------------- helpers */

static bool valid_profile_name(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.", *s))
			return false;
	return true;
}

static bool known_profile(const struct loader *L, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(builtin_profiles); i++)
		if (strcmp(builtin_profiles[i], name) == 0)
			return true;
	for (size_t i = 0; i < L->ndefs; i++)
		if (strcmp(L->defs[i].name, name) == 0)
			return true;
	return false;
}

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

static void replace_str(char **slot, const char *v)
{
	free(*slot);
	*slot = xstrdup(v);
}

static void add_source(struct kli_settings *s, const char *origin, const char *what,
		       bool narrows)
{
	s->sources = xreallocarray(s->sources, s->nsources + 1, sizeof *s->sources);
	s->sources[s->nsources++] = (struct kli_source){
		.origin = xstrdup(origin), .what = xstrdup(what), .narrows = narrows,
	};
}

/* ------------------------------------------------------ [model], [bash] */

static bool parse_long(const char *v, long lo, long hi, long *out)
{
	if (!*v || !isdigit((unsigned char)*v))
		return false;
	errno = 0;
	char *end;
	long n = strtol(v, &end, 10);
	if (errno || *end || n < lo || n > hi)
		return false;
	*out = n;
	return true;
}

static bool valid_env_name(const char *s, bool allow_star)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (s++; *s; s++) {
		if (allow_star && s[0] == '*' && s[1] == '\0')
			return true;
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	}
	return true;
}

static bool model_item(struct kli_model *m, const struct ini_item *it, char *err, size_t errlen)
{
	const char *k = it->key, *v = it->value;
	if (!*v) {
		fmt_into(err, errlen, "%s needs a value", k);
		return false;
	}
	if (strcmp(k, "base-url") == 0) {
		if (!str_has_prefix(v, "http://") && !str_has_prefix(v, "https://") &&
		    !str_has_prefix(v, "unix:/")) {
			fmt_into(err, errlen, "base-url must start with http://, https:// or unix:/");
			return false;
		}
		replace_str(&m->base_url, v);
	} else if (strcmp(k, "model") == 0) {
		replace_str(&m->model, v);
	} else if (strcmp(k, "api-key-file") == 0) {
		if (v[0] != '/' && !str_has_prefix(v, "~/")) {
			fmt_into(err, errlen, "api-key-file must be absolute or start with ~/");
			return false;
		}
		replace_str(&m->api_key_file, v);
	} else if (strcmp(k, "api-key-env") == 0) {
		if (!valid_env_name(v, false)) {
			fmt_into(err, errlen, "api-key-env must be a variable name");
			return false;
		}
		replace_str(&m->api_key_env, v);
	} else if (strcmp(k, "timeout") == 0) {
		if (!parse_long(v, 1, 86400, &m->timeout)) {
			fmt_into(err, errlen, "timeout must be whole seconds from 1 to 86400");
			return false;
		}
	} else if (strcmp(k, "stream") == 0) {
		bool b;
		if (!ini_parse_bool(v, &b)) {
			fmt_into(err, errlen, "stream must be true or false");
			return false;
		}
		m->stream = b;
	} else if (!parse_long(v, 0, 100, &m->retries)) { /* retries */
		fmt_into(err, errlen, "retries must be a whole number from 0 to 100");
		return false;
	}
	return true;
}

static bool bash_item(struct loader *L, const struct ini_item *it, char *err, size_t errlen)
{
	if (strcmp(it->key, "timeout") == 0) {
		if (!parse_long(it->value, 1, 86400, &L->bash_timeout)) {
			fmt_into(err, errlen, "timeout must be whole seconds from 1 to 86400");
			return false;
		}
		return true;
	}
	struct strv *env = &L->bash_env;
	const char *v = it->value;
	_cleanup_free_ char *copy = xstrdup(v);
	char *save = NULL;
	for (char *w = strtok_r(copy, ", \t", &save); w; w = strtok_r(NULL, ", \t", &save)) {
		if (!valid_env_name(w, true)) {
			fmt_into(err, errlen, "env-allowlist: '%s' is not a variable name "
					      "(or a NAME* prefix)", w);
			return false;
		}
		if (strv_find(env, w) < 0)
			strv_push(env, w);
	}
	return true;
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
	if (!valid_profile_name(name)) {
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
	if (!valid_profile_name(it->value)) {
		fmt_into(err, errlen, "extends needs a profile name");
		return false;
	}
	replace_str(&d->extends, it->value);
	d->extends_line = it->line;
	return true;
}

static bool kli_item(struct loader *L, const struct ini_item *it, char *err, size_t errlen)
{
	if (strcmp(it->key, "capabilities") == 0)
		return acc_add(&L->kli_acc, it, L->ctx, err, errlen);
	if (!valid_profile_name(it->value)) {
		fmt_into(err, errlen, "profile needs a profile name");
		return false;
	}
	struct choice *c = L->layer == LAYER_PROJECT ? &L->project_choice : &L->chosen;
	replace_str(&c->name, it->value);
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
		return model_item(&L->model, it, err, errlen);
	return bash_item(L, it, err, errlen);
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

static bool read_layer(struct loader *L, const char *file, enum layer layer, char *err,
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

/* ----------------------------------------------------------- profiles */

/* Index of the first definition of NAME, or -1 (a built-in nobody configured). */
static long first_def(const struct loader *L, const char *name)
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
	long me = first_def(L, name);
	if (me < 0 || state[me] == DONE)
		return true;
	state[me] = ACTIVE;
	for (size_t i = (size_t)me; i < L->ndefs; i++) {
		const struct profile_def *d = &L->defs[i];
		if (strcmp(d->name, name) != 0 || !d->extends)
			continue;
		if (!known_profile(L, d->extends)) {
			fmt_into(err, errlen, "%s:%u: profile '%s' extends unknown profile '%s'",
				 d->file, d->extends_line, d->name, d->extends);
			return false;
		}
		long next = first_def(L, d->extends);
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

static bool check_profiles(const struct loader *L, char *err, size_t errlen)
{
	enum visit *state = xcalloc(L->ndefs + 1, sizeof *state);
	bool ok = true;
	for (size_t i = 0; ok && i < L->ndefs; i++)
		ok = visit_extends(L, L->defs[i].name, state, err, errlen);
	free(state);
	return ok;
}

/* Mark NAME and every profile it extends, directly or not (acyclic by now). */
static void mark_reachable(const struct loader *L, const char *name, bool *on)
{
	long me = first_def(L, name);
	if (me < 0 || on[me])
		return;
	on[me] = true;
	for (size_t i = (size_t)me; i < L->ndefs; i++)
		if (strcmp(L->defs[i].name, name) == 0 && L->defs[i].extends)
			mark_reachable(L, L->defs[i].extends, on);
}

/* Meet NAME's capabilities, and its ancestors', into *g: every definition
 * of each, from every layer, since a profile only ever narrows. */
static void apply_profile(const struct loader *L, const char *name, struct grant **g,
			  struct kli_settings *s)
{
	bool *on = xcalloc(L->ndefs + 1, sizeof *on);
	mark_reachable(L, name, on);
	for (size_t i = 0; i < L->ndefs; i++) {
		const struct profile_def *d = &L->defs[i];
		long first = first_def(L, d->name);
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

static bool select_profile(const struct loader *L, const struct kli_options *opts,
			   const char **name, char *err, size_t errlen)
{
	if (L->chosen.name && !known_profile(L, L->chosen.name)) {
		fmt_into(err, errlen, "%s: unknown profile '%s'", L->chosen.origin, L->chosen.name);
		return false;
	}
	if (L->project_choice.name && !known_profile(L, L->project_choice.name)) {
		fmt_into(err, errlen, "%s: unknown profile '%s'", L->project_choice.origin,
			 L->project_choice.name);
		return false;
	}
	if (opts->profile && !known_profile(L, opts->profile)) {
		fmt_into(err, errlen, "unknown profile '%s' (not built in, not in any config)",
			 opts->profile);
		return false;
	}
	*name = opts->profile ? opts->profile
	      : L->chosen.name ? L->chosen.name
	      : opts->default_profile;
	return true;
}

/* ----------------------------------------------------------- the fold */

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

static void model_clear(struct kli_model *m)
{
	free(m->base_url);
	free(m->model);
	free(m->api_key_file);
	free(m->api_key_env);
	*m = (struct kli_model){ .retries = -1, .stream = -1 };
}

static void loader_clear(struct loader *L)
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
	model_clear(&L->model);
	strv_free(&L->bash_env);
}

bool settings_load(const struct kli_files *files, const struct kli_options *opts,
		   const struct auth_ctx *ctx, struct kli_settings *out, char *err, size_t errlen)
{
	*out = (struct kli_settings){ .model = { .retries = -1, .stream = -1 } };
	struct loader L = { .ctx = ctx, .model = { .retries = -1, .stream = -1 } };
	const char *profile = NULL;
	bool ok = read_layer(&L, files->system, LAYER_SYSTEM, err, errlen) &&
		  read_layer(&L, files->user, LAYER_USER, err, errlen) &&
		  read_layer(&L, files->project, LAYER_PROJECT, err, errlen) &&
		  check_profiles(&L, err, errlen) &&
		  select_profile(&L, opts, &profile, err, errlen);
	if (ok)
		fold(&L, opts, profile, out);
	loader_clear(&L);
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
	model_clear(&s->model);
	strv_free(&s->bash_env);
	*s = (struct kli_settings){ .model = { .retries = -1, .stream = -1 } };
}

/* ------------------------------------------------------------- where */

char *settings_user_config(const char *xdg_config_home, const char *home)
{
	/* The XDG spec says a relative XDG_CONFIG_HOME is to be ignored. */
	if (xdg_config_home && xdg_config_home[0] == '/')
		return path_join(xdg_config_home, "kli/config.ini");
	if (home && home[0] == '/')
		return path_join(home, ".config/kli/config.ini");
	return NULL;
}

static bool exists(const char *dir, const char *name)
{
	_cleanup_free_ char *p = path_join(dir, name);
	struct stat st;
	return lstat(p, &st) == 0;
}

char *settings_git_root(const char *workspace)
{
	char *d = path_normalize(workspace, NULL);
	while (d && !exists(d, ".git")) {
		if (strcmp(d, "/") == 0) {
			free(d);
			return NULL;
		}
		char *up = path_dirname(d);
		free(d);
		d = up;
	}
	return d;
}

char *settings_project_config(const char *workspace, const char *git_root)
{
	char *d = path_normalize(workspace, NULL);
	/* The limit must be the workspace or above it, or the walk would not stop. */
	const char *limit = git_root && d && path_is_under(d, git_root) ? git_root : d;
	while (d) {
		if (exists(d, ".kli/config.ini")) {
			char *found = path_join(d, ".kli/config.ini");
			free(d);
			return found;
		}
		if (strcmp(d, limit) == 0 || strcmp(d, "/") == 0)
			break;
		char *up = path_dirname(d);
		free(d);
		d = up;
	}
	free(d);
	return NULL;
}
