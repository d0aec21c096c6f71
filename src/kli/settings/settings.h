/* SPDX-License-Identifier: MIT */
/* kli's configuration: three INI layers and the profiles, folded into the
 * run grant.
 *
 *   system  (KLI_SYSTEM_CONFIG)        \  the last `[kli] capabilities`
 *   user    ($XDG_CONFIG_HOME/kli/...)  /  sets the root grant
 *   project (nearest .kli/config.ini)     may only narrow (meet)
 *   profile (--profile, [kli] profile, or the default) narrows
 *   --read-only, --no-bash                narrow
 *
 * A project file is untrusted (it arrives with a clone): it can narrow the
 * grant and pick a profile that narrows further, nothing else. */
#ifndef KLI_SETTINGS_H
#define KLI_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "authority/authority.h"
#include "strv.h"

struct kli_files {
	const char *system;   /* may be NULL or missing on disk */
	const char *user;     /* may be NULL or missing on disk */
	const char *project;  /* NULL: no project config */
	/* -m and -c as INI text, read after the user file as the user's own
	 * (it may set anything that file may), under the name "command line";
	 * NULL: none */
	const char *command_line;
};
#define KLI_COMMAND_LINE "command line"

struct kli_options {
	const char *profile;          /* --profile NAME, or NULL */
	const char *default_profile;  /* "print" or "interactive" */
	bool read_only;               /* --read-only */
	bool no_bash;                 /* --no-bash */
};

/* One step that set or narrowed the grant, for the JSON report. */
struct kli_source {
	char *origin;   /* "FILE:LINE" or the flag */
	char *what;     /* "[kli] capabilities", "[profile NAME] capabilities", "--read-only" */
	bool narrows;   /* false: it set the root grant */
};

struct kli_model {
	char *base_url;      /* http://, https:// or unix:/ */
	char *model;
	char *api_key_file;  /* as written; "~/" is expanded by the client */
	char *api_key_env;
	char *api_key_secret; /* NAME of kjail --secret NAME=...: wins over both */
	long timeout;        /* seconds for a whole exchange; 0 when not set */
	long idle_timeout;   /* seconds without a byte; 0 when not set */
	long connect_timeout; /* seconds to connect; 0 when not set */
	long retries;        /* -1 when not set */
	int stream;          /* 1/0: stream = true/false; -1 when not set */
};

struct kli_settings {
	struct grant *grant;         /* the run grant */
	char *profile;               /* the profile that was selected */
	struct kli_source *sources;
	size_t nsources;
	struct kli_model model;
	struct strv bash_env;        /* [bash] env-allowlist, in file order */
	long bash_timeout;           /* [bash] timeout in seconds; 0 when not set */
};

#define KLI_PROFILE_PRINT "print"
#define KLI_PROFILE_HEADLESS "headless"
#define KLI_PROFILE_INTERACTIVE "interactive"

/* Read the layers and fold them into *out. On false, err holds one line
 * ("FILE:LINE: what is wrong" when a file is at fault) and *out is empty:
 * a config that failed grants nothing. */
bool settings_load(const struct kli_files *files, const struct kli_options *opts,
		   const struct auth_ctx *ctx, struct kli_settings *out, char *err, size_t errlen);
void settings_clear(struct kli_settings *s);

/* $XDG_CONFIG_HOME/kli/config.ini when XDG_CONFIG_HOME is absolute, else
 * HOME/.config/kli/config.ini; NULL when neither is usable. */
char *settings_user_config(const char *xdg_config_home, const char *home);

/* The git root of WORKSPACE (absolute): the nearest directory, WORKSPACE
 * or above, holding a .git (directory, or file as in worktrees); NULL when
 * there is none. */
char *settings_git_root(const char *workspace);

/* The nearest DIR/.kli/config.ini from WORKSPACE up to GIT_ROOT; with no
 * git root (NULL), only WORKSPACE itself is looked at. Present counts, even
 * unreadable: reading it will then fail rather than skip a narrowing. NULL
 * when there is none. */
char *settings_project_config(const char *workspace, const char *git_root);

#endif
