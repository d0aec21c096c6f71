/* SPDX-License-Identifier: MIT */
/* The home directory's protected names (the WHERE_HOME rows of
 * protected.h), wherever a writable root holds the home directory, a part
 * of it, or what one of its names leads to; and the ~/.config ones under
 * $XDG_CONFIG_HOME (WHERE_XDG_CONFIG), the ~/.local/share ones under
 * $XDG_DATA_HOME (WHERE_XDG_DATA). */
#include "config.h"
#include "planner/internal.h"
#include "planner/protect-home.h"
#include "planner/protect-path.h"
#include "planner/tools.h"

#include <stdlib.h>
#include <string.h>

/* The names of the rows for where (WHERE_HOME; WHERE_XDG_CONFIG: less
 * their ".config/"; WHERE_XDG_DATA: less their ".local/share/") for a home
 * directory (or config or data directory) at base,
 * that lie inside the writable root: base inside root (a workspace that
 * holds the home directory), or root inside base (--writable ~/.config,
 * ~/.local: their systemd, autostart and bin are still protected). A root
 * that is itself one of the names, or lies inside one, is what the user
 * asked to make writable, and stays so. */
/* What an XDG base directory stands for under the home directory, with
 * its slash; NULL for WHERE_HOME. */
static const char *xdg_under(unsigned where)
{
	return where == WHERE_XDG_CONFIG ? ".config/" : where == WHERE_XDG_DATA ? ".local/share/" : NULL;
}

static void protect_home_names(struct builder *b, const char *root, const char *base,
			       unsigned where)
{
	const char *rel = path_relative_to(base, root);
	const char *sub = rel ? NULL : path_relative_to(root, base);
	if (!rel && !(sub && sub[0]))
		return;
	size_t sl = sub ? strlen(sub) : 0;
	const char *under = xdg_under(where);
	for (const struct protected_rule *r = protected_rules; r->pattern; r++) {
		const char *name = r->pattern;
		if (!(r->where & where))
			continue;
		if (under) {
			if (!str_has_prefix(name, under))
				continue;
			name += strlen(under);
		}
		_cleanup_free_ char *relp = NULL;
		if (rel)
			relp = rel[0] ? path_join(rel, name) : xstrdup(name);
		else if (strncmp(name, sub, sl) == 0 && name[sl] == '/')
			relp = xstrdup(name + sl + 1);
		else
			continue;
		protect(b, root, relp, r->why, protect_act_of(r->kind, false, false));
	}
}

/* A name of a WHERE_HOME row whose path goes through a symlink: where it
 * leads, if a writable root holds it (a dotfiles repository as the
 * workspace: ~/.bashrc -> ~/dotfiles/bashrc, as stow makes them), is
 * protected there. */
static void protect_if_linked(struct builder *b, const char *home, const struct protected_rule *r)
{
	_cleanup_free_ char *p = path_join(home, r->pattern);
	_cleanup_free_ char *real = path_resolve_memo(p, "/", &b->memo);
	if (real && strcmp(real, p) != 0)
		protect_at(b, real, r->why, protect_act_of(r->kind, false, false));
}

/* protect_if_linked for the names of the WHERE_HOME rows under dir (home, or
 * home/F for the names F/NAME: prefix "F/"): one read of dir tells which
 * of them are there and which are symlinks; a real directory holding many
 * names (~/.config) is read once in turn, a name under one holding a few
 * (~/.cargo, ~/.local) is looked up. */
static void protect_links_in(struct builder *b, const char *home, const char *prefix)
{
	const char *name[KJ_SCAN_MAX];
	const struct protected_rule *row[KJ_SCAN_MAX];
	size_t len[KJ_SCAN_MAX], n = 0;
	bool present[KJ_SCAN_MAX], link[KJ_SCAN_MAX];
	size_t pl = prefix ? strlen(prefix) : 0;
	for (const struct protected_rule *r = protected_rules; r->pattern && n < KJ_SCAN_MAX; r++) {
		if (!(r->where & WHERE_HOME) || (prefix && strncmp(r->pattern, prefix, pl) != 0))
			continue;
		name[n] = r->pattern + pl;
		len[n] = strcspn(name[n], "/");
		row[n++] = r;
	}
	_cleanup_free_ char *dir = prefix ? xconcat(home, "/", prefix, (char *)NULL) : xstrdup(home);
	if (!scan_dir(b, dir, name, len, n, present, link)) {
		/* no directory read here (macOS, or none at all): each name
		 * looked up */
		for (size_t k = 0; k < n; k++)
			protect_if_linked(b, home, row[k]);
		return;
	}
	bool done[KJ_SCAN_MAX] = { false };
	for (size_t k = 0; k < n; k++) {
		if (done[k] || !present[k] || (!link[k] && name[k][len[k]] != '/'))
			continue; /* absent, or a real file or directory */
		if (link[k]) {
			protect_if_linked(b, home, row[k]);
			continue;
		}
		/* names under a real directory F: the rest of them come later */
		size_t same = 0;
		for (size_t j = k; j < n; j++)
			same += len[j] == len[k] && memcmp(name[j], name[k], len[k]) == 0;
		if (same > 4 && !prefix) {
			_cleanup_free_ char *sub = xstrndup(name[k], len[k] + 1);
			protect_links_in(b, home, sub);
		} else {
			/* F itself is no link: no lookup of it again */
			_cleanup_free_ char *d = xstrndup(row[k]->pattern, pl + len[k]);
			_cleanup_free_ char *abs = path_join(home, d);
			path_memo_add(&b->memo, abs);
		}
		for (size_t j = k; j < n; j++)
			if (len[j] == len[k] && memcmp(name[j], name[k], len[k]) == 0) {
				done[j] = true;
				if (same <= 4 || prefix)
					protect_if_linked(b, home, row[j]);
			}
	}
}

/* XDG_CONFIG_HOME moves ~/.config: git reads its config there, systemd and
 * the session their user units, autostart entries and environment, shells
 * and editors their startup files; XDG_DATA_HOME moves ~/.local/share
 * (user services, desktop entries, editor plugins). Wherever a writable
 * root holds it, the rows for WHERE_XDG_CONFIG (~/.config names) or
 * WHERE_XDG_DATA (~/.local/share names) are protected under it. */
static void protect_xdg(struct builder *b, const char *xdg, unsigned where)
{
	if (!xdg || xdg[0] != '/')
		return;
	_cleanup_free_ char *real = path_resolve_memo(xdg, "/", &b->memo);
	if (!real)
		return;
	for (size_t r = 0, n = b->roots.n; r < n; r++)
		protect_home_names(b, b->roots.v[r].path, real, where);
}

void protect_homes(struct builder *b)
{
	/* the account's home and $HOME, each once (a name protected twice
	 * would be reported twice) */
	char *homes[2] = { NULL, NULL };
	const char *given[2] = { b->h->home, b->h->home_env };
	for (size_t i = 0; i < 2; i++)
		if (given[i] && given[i][0] == '/')
			homes[i] = path_resolve_memo(given[i], "/", &b->memo);
	if (homes[0] && homes[1] && strcmp(homes[0], homes[1]) == 0) {
		free(homes[1]);
		homes[1] = NULL;
	}
	for (size_t r = 0, n = b->roots.n; r < n; r++)
		for (size_t i = 0; i < 2; i++)
			if (homes[i])
				protect_home_names(b, b->roots.v[r].path, homes[i], WHERE_HOME);
	for (size_t i = 0; i < 2; i++)
		if (homes[i])
			protect_links_in(b, homes[i], NULL);
	free(homes[0]);
	free(homes[1]);
	protect_xdg(b, b->h->xdg_config_home, WHERE_XDG_CONFIG);
	protect_xdg(b, b->h->xdg_data_home, WHERE_XDG_DATA);
}
