/* SPDX-License-Identifier: MIT */
/* Sandbox hints, the text of a hint: see hint/render.h. */
#include "config.h"
#include "hint/render.h"
#include "hint/egress.h"
#include "model/chat.h"
#include "path.h"
#include "strbuf.h"
#include "tools/text.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/* How much of the command a hint shows. */
#define SHOW_COMMAND 200

char *hint_one_line(const char *s, size_t max)
{
	size_t n = strlen(s);
	bool cut = n > max;
	if (cut)
		n = utf8_cut(s, max);
	char *o = xmalloc(n + 4);
	for (size_t i = 0; i < n; i++)
		o[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? ' ' : s[i];
	o[n] = '\0';
	utf8_scrub(o, n);
	unsigned char *u = (unsigned char *)o;
	for (size_t i = 0; i + 1 < n; i++)
		if (u[i] == 0xc2 && u[i + 1] >= 0x80 && u[i + 1] <= 0x9f)
			u[i] = u[i + 1] = '?'; /* C1 controls, U+0080..U+009F */
	while (n && o[n - 1] == ' ')
		n--;
	size_t lead = strspn(o, " ");
	memmove(o, o + lead, n - lead);
	strcpy(o + n - lead, cut ? "..." : "");
	return o;
}

static bool origin_is_file_line(const char *origin)
{
	const char *colon = strrchr(origin, ':');
	if (origin[0] != '/' || !colon || !colon[1])
		return false;
	for (const char *c = colon + 1; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	return true;
}

static char *fix_dir(const struct hint_env *env, const char *path)
{
	char *d = path_dirname(path);
	while (env->is_dir && strcmp(d, "/") != 0 && !env->is_dir(d)) {
		char *up = path_dirname(d);
		free(d);
		d = up;
	}
	return d;
}

/* Would making DIR writable (for a write to PATH) hand the agent what runs
 * later as root or as the user: system configuration (/etc, sudoers.d),
 * programs, shell startup files (every directory holding $HOME holds
 * them), ~/.ssh? Such a hint never suggests --writable. */
static bool widening_is_dangerous(const struct hint_env *env, const char *dir, const char *path)
{
	static const char *const system[] = { "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32",
					      "/lib64", "/boot", "/root", "/var/spool/cron",
					      "/var/lib/systemd" };
	static const char *const in_home[] = { ".ssh", ".config/autostart", ".config/systemd",
					       ".config/environment.d", ".local/bin", ".gnupg" };
	static const char *const startup[] = { ".bashrc", ".bash_profile", ".bash_login",
					       ".bash_logout", ".profile", ".zshrc", ".zshenv",
					       ".zprofile", ".zlogin", ".login", ".cshrc",
					       ".tcshrc", ".kshrc", ".xprofile", ".xsession",
					       ".xinitrc", ".pam_environment" };
	if (strcmp(dir, "/") == 0)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(system); i++)
		if (path_is_under(dir, system[i]))
			return true;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (size_t i = 0; i < ARRAY_SIZE(startup); i++)
		if (strcmp(base, startup[i]) == 0)
			return true;
	if (!env->home || env->home[0] != '/')
		return false;
	if (path_is_under(env->home, dir))
		return true;   /* $HOME itself or above it: its startup files */
	for (size_t i = 0; i < ARRAY_SIZE(in_home); i++) {
		_cleanup_free_ char *p = path_join(env->home, in_home[i]);
		if (path_is_under(dir, p))
			return true;
	}
	return false;
}

/* The "why" and "fix" lines for a refused path. */
static void explain_mount(const struct hint_env *env, const struct hint_finding *f, char **why,
			  char **fix)
{
	const struct jail_mount *m = f->m;
	const char *outside = "or run it outside the jail yourself";
	if (strcmp(m->verdict, "masked") == 0) {
		*why = xasprintf("%s is masked in the jail: %s%s", m->path,
				 m->exact ? "it reads as empty"
					  : "a file there reads as empty, a directory lists nothing",
				 f->write ? ", and nothing can be written" : "");
		if (strcmp(m->origin, "--deny-read") == 0 || strcmp(m->origin, "-r") == 0)
			*fix = xasprintf("kjail without --deny-read %s, %s", m->path, outside);
		else if (origin_is_file_line(m->origin))
			*fix = xasprintf("remove the deny-read for %s at %s, %s", m->path, m->origin,
					 outside);
		else if (str_has_prefix(m->origin, "built-in"))
			*fix = xasprintf("kjail --no-defaults (it drops every built-in mask and the "
					 "environment scrub, not only this one), or move what you "
					 "need out of %s, %s", m->path, outside);
		else
			*fix = xasprintf("kjail without the rule that masks %s (%s), %s", m->path,
					 m->origin, outside);
	} else if (str_has_prefix(m->rule, "protected")) {
		*why = xasprintf("%s is protected on purpose: hooks and config there run later, "
				 "outside the jail, so the jail never lets them change", m->path);
		if (strstr(m->rule, "git config"))
			*fix = xasprintf("none inside the jail: git -c NAME=VALUE (or GIT_AUTHOR_NAME "
					 "and the like) for one command, or make this change outside "
					 "the jail yourself");
		else
			*fix = xasprintf("none inside the jail: make this change outside the jail "
					 "yourself");
	} else if (strcmp(m->verdict, "read-only") == 0 && strcmp(m->rule, "read-only") == 0 &&
		   strcmp(m->origin, "host root") == 0) {
		_cleanup_free_ char *dir = fix_dir(env, f->path);
		if (widening_is_dangerous(env, dir, f->path)) {
			*why = xasprintf("%s holds what runs later as root or as you (system "
					 "configuration, programs, shell startup files, ~/.ssh): "
					 "the jail keeps it read-only on purpose", dir);
			*fix = xstrdup("none inside the jail: make this change outside the jail "
				       "yourself, if it is one you want");
		} else {
			*why = NULL;
			*fix = xasprintf("kjail --writable %s, %s", dir, outside);
		}
	} else {
		*why = xasprintf("%s is %s in the jail (%s)", m->path, m->verdict, m->origin);
		*fix = xasprintf("run it outside the jail yourself");
	}
}

/* The lines for a connection kjail's proxy refused. */
static void hint_egress_render(const struct jail_policy *p, const char *dest, char **rule,
			       char **why, char **fix)
{
	*rule = xasprintf("egress allowlist (%s)",
			  p->network_origin ? p->network_origin : "--allow-host");
	*why = xasprintf("the jail reaches the network only through kjail's proxy, which "
			 "connects only to the hosts --allow-host names%s%s%s",
			 dest ? "; " : "", dest ? dest : "", dest ? " is not one of them" : "");
	_cleanup_free_ char *v = dest ? hint_egress_flag_value(dest) : xstrdup("HOST");
	*fix = xasprintf("kjail --allow-host %s (or allow-host = %s in the config), if the task "
			 "needs it", v, v);
}

char *hint_render(const struct jail_policy *p, const struct hint_env *env,
		    const char *command, int exit_status, const struct hint_finding *f)
{
	_cleanup_free_ char *cmd = hint_one_line(command, SHOW_COMMAND);
	_cleanup_free_ char *exit_text = exit_status >= 0 ? xasprintf("%d", exit_status)
							  : xstrdup("unknown (still running)");
	_cleanup_free_ char *rule = NULL, *why = NULL, *fix = NULL;
	if (f->m) {
		rule = xasprintf("%s (%s)", f->m->rule, f->m->origin);
		explain_mount(env, f, &why, &fix);
	} else if (p->allowlist) {
		hint_egress_render(p, f->dest, &rule, &why, &fix);
	} else {
		const char *origin = p->network_origin ? p->network_origin : "origin not given";
		rule = xasprintf("no network (%s)", origin);
		why = xstrdup("the jail has its own network namespace: loopback only, no DNS, "
			      "nothing on the host's loopback");
		if (strcmp(origin, "--no-network") == 0 || strcmp(origin, "-n") == 0)
			fix = xstrdup("kjail without --no-network, or serve a local service on a "
				      "Unix socket in the workspace");
		else
			fix = xasprintf("kjail --network (over %s), or serve a local service on a "
					"Unix socket in the workspace", origin);
	}
	/* Each line printable on its own: paths and origins come from a file
	 * and the output from a command, and a newline in one must not make
	 * a line that is not the hint's. */
	_cleanup_free_ char *head = xasprintf("command='%s'", cmd);
	_cleanup_free_ char *ex = xasprintf("exit: %s", exit_text);
	_cleanup_free_ char *obs = xasprintf("observed: %s", f->observed);
	_cleanup_free_ char *lr = xasprintf("likely rule: %s", rule);
	_cleanup_free_ char *wy = why ? xasprintf("why: %s", why) : NULL;
	_cleanup_free_ char *fx = xasprintf("fix: %s", fix);
	const char *lines[] = { head, ex, obs, lr, wy, fx };
	struct strbuf out = STRBUF_INIT;
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		if (!lines[i])
			continue;
		/* made one line, not cut: what is cut was cut where it was found */
		_cleanup_free_ char *l = hint_one_line(lines[i], strlen(lines[i]));
		sb_addf(&out, "%s%s\n", i ? "  " : HINT_HEAD, l);
	}
	return sb_detach(&out);
}
