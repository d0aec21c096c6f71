/* SPDX-License-Identifier: MIT */
/* The loader behind settings_load() (settings.h), shared by the files that
 * do its jobs; nothing outside them includes this.
 *
 *   settings/read.c      reads the layered INI files into a struct loader
 *   settings/values.c    checks [model] and [bash] values
 *   settings/profiles.c  profile names, the extends graph, the choice
 *   settings.c           folds the loader into the run grant
 *   settings/where.c     finds the files (user, git root, project)
 *
 * This header holds the loader's types; each file's functions are declared
 * in its own header (read.h, values.h, profiles.h), so a file includes the
 * declarations of exactly the files it calls. Calls go one way, never
 * back: settings.c into read, profiles and values; read into profiles and
 * values. */
#ifndef KLI_SETTINGS_INTERNAL_H
#define KLI_SETTINGS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "authority/authority.h"
#include "settings/settings.h"
#include "strv.h"
#include "util.h"

struct ini_item;

enum layer { LAYER_SYSTEM, LAYER_USER, LAYER_PROJECT };

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

static inline void settings_replace_str(char **slot, const char *v)
{
	free(*slot);
	*slot = xstrdup(v);
}

#endif
