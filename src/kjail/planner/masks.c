/* SPDX-License-Identifier: MIT */
/* The masks: the built-in ones (credential stores, sockets that reach
 * past the jail, the machine's secrets as root), those under no network,
 * and --deny-read's. */
#include "config.h"
#include "policy/defaults.h"
#include "planner/internal.h"
#include "planner/checks.h"
#include "planner/masks.h"
#include "planner/tools.h"
#include "policy/secret.h"
#include "git/reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

/* Whether real is already a mask: an empty file on a read-only tmpfs,
 * mounted over the path from a file since deleted (as bwrap masks one,
 * and so the jail kjail runs in when nested). Nothing can be mounted on a
 * deleted file (ENOENT), and nothing needs to be: it reads empty, it
 * cannot be written, and no name reaches the file under it. */
static bool already_masked(struct builder *b, const char *real)
{
	struct stat st;
	struct statvfs vf;
	if (stat(real, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != 0 ||
	    statvfs(real, &vf) != 0 || !(vf.f_flag & ST_RDONLY))
		return false;
	const struct mount_table *t = host_mounts(b);
	const struct mount_entry *m = t ? mount_of(t, real) : NULL;
	static const char deleted[] = "//deleted";
	size_t n = m ? strlen(m->root) : 0, d = sizeof deleted - 1;
	return m && strcmp(m->point, real) == 0 && strcmp(m->type, "tmpfs") == 0 && n > d &&
	       strcmp(m->root + n - d, deleted) == 0;
}
#include <unistd.h>

/* add_mask; for a file, returns a copy of the real path masked. */
static char *mask_at(struct builder *b, const char *path, const char *origin)
{
	_cleanup_free_ char *real = path_resolve_memo(path, b->h->cwd, &b->memo);
	if (!real) {
		skip(b, path, "unresolvable, not masked", origin);
		return NULL;
	}
	/* the resolver's own lookup of the last component, when it made one */
	enum kind k = b->memo.absent ? K_MISSING
		      : b->memo.last ? (S_ISDIR(b->memo.last) ? K_DIR : K_FILE)
				     : kind_in(b, real, true);
	switch (k) {
	case K_MISSING:
	case K_LINK:
		skip(b, real, "missing, nothing to mask", origin);
		return NULL;
	case K_DIR:
		cand_take(b->pl, &b->masks, OP_MASK_DIR, steal_pointer(&real), "masked", origin);
		return NULL;
	case K_FILE:
		if (already_masked(b, real)) {
			skip(b, real, "already masked (an empty read-only file over it)", origin);
			return NULL;
		}
		cand_add(b->pl, &b->masks, OP_MASK_FILE, real, "masked", origin);
		return steal_pointer(&real);
	}
	return NULL;
}

void add_mask(struct builder *b, const char *path, const char *origin)
{
	free(mask_at(b, path, origin));
}

static struct filtered *filtered_at(struct builder *b, const char *real)
{
	for (size_t i = 0; i < b->nfiltered; i++)
		if (strcmp(b->filtered[i].path, real) == 0)
			return &b->filtered[i];
	return NULL;
}

/* A file of a row with a format that stays masked whole: why, for
 * --explain (attach_filtered puts it on the mask's op). */
static void note_masked_whole(struct builder *b, const char *real, enum cf_format f,
			      const char *why)
{
	if (filtered_at(b, real))
		return;
	struct cf_result res = { 0 };
	snprintf(res.err, sizeof res.err, "%s", why);
	b->filtered = xreallocarray(b->filtered, b->nfiltered + 1, sizeof *b->filtered);
	b->filtered[b->nfiltered++] = (struct filtered){ .path = xstrdup(real), .res = res,
							 .format = f };
}

/* The file at real, whole, into *data: a regular file (not followed if
 * it is a link) of at most CF_MAX_SIZE bytes. NULL with why. */
static char *read_config(const char *real, size_t *len, char *why, size_t whylen)
{
	int fd = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(why, whylen, "cannot read it: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > (off_t)CF_MAX_SIZE) {
		snprintf(why, whylen, !S_ISREG(st.st_mode) ? "not a regular file"
							    : "larger than %u bytes",
			 CF_MAX_SIZE);
		close(fd);
		return NULL;
	}
	char *buf = xmalloc(CF_MAX_SIZE + 1);
	size_t n = 0;
	for (;;) {
		ssize_t r = read(fd, buf + n, CF_MAX_SIZE + 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(why, whylen, "cannot read it: %s", strerror(errno));
			free(buf);
			close(fd);
			return NULL;
		}
		if (r == 0 || (n += (size_t)r) > CF_MAX_SIZE)
			break;
	}
	close(fd);
	*len = n; /* more than CF_MAX_SIZE: cf_filter refuses it */
	return buf;
}

/* path as the user knows it: ~/REST under the home directory */
static char *shown_path(const struct builder *b, const char *path)
{
	const char *home = b->h->home_env ? b->h->home_env : b->h->home;
	size_t hl = home ? strlen(home) : 0;
	if (hl > 1 && strncmp(path, home, hl) == 0 && path[hl] == '/')
		return xconcat("~", path + hl, (char *)NULL);
	return xstrdup(path);
}

/* The masked file real (given as path) of a row with a format: its
 * filtered copy, or a note that it stays masked whole. Seatbelt cannot
 * serve a copy: there it is masked whole, silently. */
static void filter_file(struct builder *b, const char *path, const char *real,
			const struct cred_store *c)
{
	/* Landlock can only refuse: the whole file, said in one line */
	if (b->pl->backend == BACKEND_LANDLOCK && !b->h->dry_run && access(real, F_OK) == 0) {
		_cleanup_free_ char *shown = shown_path(b, path);
		warn_msg("%s: masked whole: --backend landlock cannot serve its filtered copy "
			 "(that needs a mount)", shown);
	}
	if (b->pl->backend != BACKEND_BWRAP || filtered_at(b, real))
		return;
	char why[160];
	size_t len = 0;
	struct cf_result res = { 0 };
	_cleanup_free_ char *in = read_config(real, &len, why, sizeof why);
	bool ok = in && cf_filter(c->format, c->secret, in, len, &res);
	if (in && in[0])
		explicit_bzero(in, len);
	if (!ok) {
		_cleanup_free_ char *shown = shown_path(b, path);
		warn_msg("%s: masked whole: %s", shown, in ? res.err : why);
		note_masked_whole(b, real, c->format, in ? res.err : why);
		return;
	}
	b->filtered = xreallocarray(b->filtered, b->nfiltered + 1, sizeof *b->filtered);
	b->filtered[b->nfiltered++] = (struct filtered){ .path = xstrdup(real), .res = res,
							 .format = c->format };
}

/* A mask of a file that no row filters (--deny-read) masks it whole. */
static void filtered_drop(struct builder *b, const char *real)
{
	struct filtered *f = filtered_at(b, real);
	if (!f)
		return;
	free(f->path);
	free(f->res.data);
	*f = b->filtered[--b->nfiltered];
}

static void filter_git_includes(struct builder *b, const char *path, const char *text, size_t len,
				int depth);

static void add_store_mask(struct builder *b, const char *path, const char *origin,
			   const struct cred_store *c)
{
	_cleanup_free_ char *real = mask_at(b, path, origin);
	if (real && c && c->format != CF_NONE)
		filter_file(b, path, real, c);
	if (real && c && c->format == CF_GITCONFIG && b->p->defaults.value) {
		size_t len = 0;
		char why[160];
		_cleanup_free_ char *in = read_config(real, &len, why, sizeof why);
		if (in) {
			filter_git_includes(b, path, in, len, 0);
			if (in[0])
				explicit_bzero(in, len);
		}
	}
}

void attach_filtered(struct builder *b)
{
	struct plan *pl = b->pl;
	for (size_t i = 0; i < pl->nops; i++) {
		struct op *o = &pl->ops[i];
		struct filtered *f = o->kind == OP_MASK_FILE ? filtered_at(b, o->path) : NULL;
		if (f && !f->res.data && f->res.err[0]) {
			/* --explain: what kjail could not read as the tool does */
			char rule[sizeof f->res.err + 32];
			snprintf(rule, sizeof rule, "masked whole, not filtered: %s", f->res.err);
			o->rule = strpool_intern(&pl->strings, rule);
		}
		if (!f || !f->res.data)
			continue;
		o->data = steal_pointer(&f->res.data);
		o->len = f->res.len;
		o->removed = f->res.removed;
		o->format = cf_format_name(f->format);
		o->unit = cf_unit(f->format);
		o->rule = strpool_intern(&pl->strings, "filtered");
	}
}

void filtered_free(struct builder *b)
{
	for (size_t i = 0; i < b->nfiltered; i++) {
		free(b->filtered[i].path);
		free(b->filtered[i].res.data);
	}
	free(b->filtered);
	b->filtered = NULL;
	b->nfiltered = 0;
}

/* The git secrets' patterns of the built-in table (~/.gitconfig's row). */
static const struct cred_store *gitconfig_row(void)
{
	for (const struct cred_store *c = cred_stores; c->tool; c++)
		if (c->format == CF_GITCONFIG)
			return c;
	return NULL;
}

/* git's depth limit for includes */
#define GIT_INCLUDE_DEPTH 10

static void filter_git_file(struct builder *b, const char *path, const char *origin, int depth);

/* The files a git config file (text, at path as git names it) includes:
 * include.path and includeIf.*.path, whatever the condition, relative to
 * path's directory, ~ the home's. git reads each as part of the file,
 * wherever it lies (actions/checkout writes the job token to a file under
 * $RUNNER_TEMP that .git/config includes): each is judged in turn. */
static void filter_git_includes(struct builder *b, const char *path, const char *text, size_t len,
				int depth)
{
	struct gitconfig g = GITCONFIG_INIT;
	gitconfig_parse(text, len, &g); /* what comes before a bad line counts */
	const struct host *h = b->h;
	const char *home = h->home_env && h->home_env[0] == '/' ? h->home_env : h->home;
	_cleanup_free_ char *dir = path_dirname(path);
	_cleanup_free_ char *why = xconcat("built-in: a git config file ", path,
					   " includes, holding a credential", (char *)NULL);
	for (size_t i = 0; i < g.includes.n; i++) {
		_cleanup_free_ char *abs = gitconfig_include_path(g.includes.v[i], dir, home);
		if (abs)
			filter_git_file(b, abs, why, depth + 1);
	}
	gitconfig_free(&g);
}

/* One git config file: served filtered when it holds a credential, masked
 * whole when it cannot be read as git reads it (one line says why), left
 * as it is otherwise; then the files it includes. */
static void filter_git_file(struct builder *b, const char *path, const char *origin, int depth)
{
	const struct cred_store *row = gitconfig_row();
	if (!row || depth > GIT_INCLUDE_DEPTH || kind_of(path, true) != K_FILE)
		return;
	_cleanup_free_ char *found = path_resolve_memo(path, b->h->cwd, &b->memo);
	if (!found || filtered_at(b, found))
		return;
	char why[160];
	size_t len = 0;
	struct cf_result res = { 0 };
	_cleanup_free_ char *in = read_config(found, &len, why, sizeof why);
	bool ok = in && cf_filter(row->format, row->secret, in, len, &res);
	if (in)
		filter_git_includes(b, path, in, len, depth);
	if (in && in[0])
		explicit_bzero(in, len);
	if (ok && res.removed == 0) { /* nothing secret: the file itself */
		free(res.data);
		return;
	}
	_cleanup_free_ char *real = mask_at(b, path, origin);
	if (real && ok && b->pl->backend != BACKEND_BWRAP)
		/* Seatbelt and Landlock can only deny: the credential wins
		 * over git */
		warn_msg("%s: masked whole: it holds a credential and --backend %s cannot serve "
			 "a filtered copy (that needs a mount), so git in the jail sees no "
			 "config; remove the credential (actions/checkout: "
			 "persist-credentials: false)", real, backend_name(b->pl->backend));
	if (!real || !ok || b->pl->backend != BACKEND_BWRAP) {
		if (real && !ok) {
			warn_msg("%s: masked whole: %s", real, in ? res.err : why);
			note_masked_whole(b, real, row->format, in ? res.err : why);
		}
		free(res.data);
		return;
	}
	b->filtered = xreallocarray(b->filtered, b->nfiltered + 1, sizeof *b->filtered);
	b->filtered[b->nfiltered++] = (struct filtered){ .path = xstrdup(real), .res = res,
							 .format = row->format };
}

void add_repo_config_filters(struct builder *b)
{
	for (size_t i = 0, n = b->protects.n; i < n; i++) {
		const struct cand *c = &b->protects.v[i];
		if (strncmp(c->rule, "protected: git config", 21) != 0 || kind_of(c->path, false) != K_FILE)
			continue;
		filter_git_file(b, c->path, "built-in: a repository's git config holding a credential",
				0);
	}
}

/* add_mask for each of n paths, in order; those under dir ("DIR/NAME...")
 * that one read of dir shows absent are skipped without a lookup.
 * --explain looks each one up, so it can say what it skipped. */
static void add_masks_under(struct builder *b, const char *dir, const char *const *paths,
			    const char *const *whys, const struct cred_store *const *rows, size_t n)
{
	const char *name[SCAN_MAX];
	size_t len[SCAN_MAX], at[SCAN_MAX], m = 0;
	bool present[SCAN_MAX];
	size_t dl = strlen(dir);
	bool known = !b->h->explain && n <= SCAN_MAX;
	for (size_t i = 0; known && i < n; i++) {
		at[i] = SIZE_MAX;
		if (strncmp(paths[i], dir, dl) != 0 || paths[i][dl] != '/' || !paths[i][dl + 1])
			continue;
		name[m] = paths[i] + dl + 1;
		len[m] = strcspn(name[m], "/");
		at[i] = m++;
	}
	known = known && scan_dir(b, dir, name, len, m, present, NULL);
	for (size_t i = 0; i < n; i++)
		if (!known || at[i] == SIZE_MAX || present[at[i]])
			add_store_mask(b, paths[i], whys[i], rows ? rows[i] : NULL);
}

/* The caller's value of the variable name, or NULL. */
static const char *host_var(const struct host *h, const char *name)
{
	if (strcmp(name, "XDG_CONFIG_HOME") == 0)
		return h->xdg_config_home;
	if (strcmp(name, "XDG_DATA_HOME") == 0)
		return h->xdg_data_home;
	if (strcmp(name, "XDG_RUNTIME_DIR") == 0)
		return h->xdg_runtime_dir;
	return host_getenv(h, name);
}

/* The credential stores under a home directory: the CRED_HOME rows, and
 * the XDG ones at their defaults (~/.config/gh whatever
 * $XDG_CONFIG_HOME says), from one read of the home directory. */
static void add_home_masks(struct builder *b, const char *home)
{
	if (!home || home[0] != '/')
		return;
	char *paths[SCAN_MAX] = { 0 };
	const char *whys[SCAN_MAX] = { 0 };
	const struct cred_store *rows[SCAN_MAX] = { 0 };
	size_t n = 0;
	static const char why[] = "built-in credential store";
	for (const struct cred_store *c = cred_stores; c->tool; c++) {
		const char *under = c->base == CRED_HOME ? "" : cred_xdg_default(c->base);
		if (!under)
			continue;
		_cleanup_free_ char *p = xconcat(home, "/", under, under[0] ? "/" : "", c->path,
						 (char *)NULL);
		if (n == SCAN_MAX) { /* more than one read answers: looked up one by one */
			add_store_mask(b, p, why, c);
			continue;
		}
		paths[n] = steal_pointer(&p);
		rows[n] = c;
		whys[n++] = why;
	}
	add_masks_under(b, home, (const char *const *)paths, whys, rows, n);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
}

/* The credential stores a variable moves: under $XDG_CONFIG_HOME and the
 * other base directories, and where a tool's own variable says
 * ($GH_CONFIG_DIR, $DOCKER_CONFIG/config.json, each file $KUBECONFIG
 * lists). */
static void add_var_masks(struct builder *b)
{
	for (const struct cred_store *c = cred_stores; c->tool; c++) {
		const char *name = c->base == CRED_VAR || c->base == CRED_VAR_LIST ? c->var
										   : cred_xdg_var(c->base);
		if (!name)
			continue;
		const char *v = host_var(b->h, name);
		if (!v)
			continue;
		_cleanup_free_ char *why = xconcat("built-in credential store ($", name, ")",
						   (char *)NULL);
		/* a list's entries, or the one path; only absolute ones (a
		 * relative one is the tool's current directory's) */
		size_t len = c->base == CRED_VAR_LIST ? strcspn(v, ":") : strlen(v);
		for (const char *s = v;; s += len + 1, len = strcspn(s, ":")) {
			if (s[0] == '/') {
				_cleanup_free_ char *at = xstrndup(s, len);
				_cleanup_free_ char *p = c->path[0] ? path_join(at, c->path)
								    : steal_pointer(&at);
				add_store_mask(b, p, why, c);
			}
			if (s[len] != ':')
				break;
		}
	}
}

/* A terminal multiplexer's server types whatever a client sends it into
 * the user's shells outside the jail. screen's sockets live in /run/screen
 * (a default mask) or $SCREENDIR; tmux's in /tmp (private in the jail),
 * $TMUX_TMPDIR, or where $TMUX says. The variables only add masks. */
static void add_multiplexer_masks(struct builder *b)
{
	const struct host *h = b->h;
	static const char why[] = "built-in: terminal multiplexer sockets";
	if (h->screendir && h->screendir[0] == '/')
		add_mask(b, h->screendir, why);
	if (h->tmux_tmpdir && h->tmux_tmpdir[0] == '/') {
		char uid[16];
		snprintf(uid, sizeof uid, "%u", h->uid);
		_cleanup_free_ char *dir = xconcat(h->tmux_tmpdir, "/tmux-", uid, (char *)NULL);
		add_mask(b, dir, why);
	}
	if (h->tmux && h->tmux[0] == '/') {
		/* the socket of the server this caller runs in (its directory is
		 * the default one or $TMUX_TMPDIR's, unless tmux -S chose it) */
		_cleanup_free_ char *sock = xstrndup(h->tmux, strcspn(h->tmux, ","));
		add_mask(b, sock, why);
	}
}

static void add_default_masks(struct builder *b)
{
	const struct host *h = b->h;
	add_home_masks(b, h->home);
	if (h->home_env && (!h->home || strcmp(h->home_env, h->home) != 0))
		add_home_masks(b, h->home_env);
	add_var_masks(b);
	if (h->xdg_runtime_dir && h->xdg_runtime_dir[0] == '/')
		add_mask(b, h->xdg_runtime_dir, "built-in: session bus, agent and display sockets");
	_cleanup_free_ char *run_user = xasprintf("/run/user/%u", h->uid);
	add_mask(b, run_user, "built-in: session bus, agent and display sockets");
	if (h->ssh_auth_sock && h->ssh_auth_sock[0] == '/')
		add_mask(b, h->ssh_auth_sock, "built-in: ssh agent socket");
	add_multiplexer_masks(b);
	/* most are in /run: one read of it for those */
	const char *sock[SCAN_MAX] = { 0 }, *why[SCAN_MAX] = { 0 };
	size_t nsock = 0;
	for (const struct default_mask *m = default_socket_masks; m->path; m++) {
		if (nsock == SCAN_MAX) {
			add_mask(b, m->path, m->why);
			continue;
		}
		sock[nsock] = m->path;
		why[nsock++] = m->why;
	}
	add_masks_under(b, "/run", sock, why, NULL, nsock);
	if (h->uid == 0)
		for (const struct default_mask *m = root_masks; m->path; m++)
			add_mask(b, m->path, m->why);
}

void add_policy_masks(struct builder *b)
{
	const struct policy *p = b->p;
	if (p->defaults.value)
		add_default_masks(b);
	/* an allowlist's jail has its own network namespace as -n's has */
	if (!b->pl->network) {
		/* /sys is the host's: without this it still lists the host's
		 * interfaces, though none of them is reachable. */
		_cleanup_free_ char *o = xasprintf("host interfaces under no network (%s)",
						   b->pl->net_origin);
		add_mask(b, "/sys/class/net", o);
		for (const struct default_mask *m = no_network_socket_masks; m->path; m++) {
			_cleanup_free_ char *why = xconcat(m->why, " under no network (",
							   b->pl->net_origin, ")", (char *)NULL);
			add_mask(b, m->path, why);
		}
	}
	for (size_t i = 0; i < p->deny_read.n; i++) {
		_cleanup_free_ char *real = mask_at(b, p->deny_read.v[i].value,
						    p->deny_read.v[i].origin);
		if (real)
			filtered_drop(b, real);
	}
	/* a secret's file reads as empty in the jail (and at its other names:
	 * add_mask_aliases); its bytes come on a descriptor */
	for (size_t i = 0; i < p->secrets.n; i++) {
		struct secret_ref r;
		secret_split(p->secrets.v[i].value, &r);
		if (r.kind != SECRET_FILE)
			continue;
		_cleanup_free_ char *why = xasprintf("secret %s (%s)", r.name,
						     p->secrets.v[i].origin);
		_cleanup_free_ char *real = mask_at(b, r.source, why);
		if (real)
			filtered_drop(b, real);
	}
}
