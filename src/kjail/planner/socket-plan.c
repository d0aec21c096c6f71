/* SPDX-License-Identifier: MIT */
/* The sockets --allow-socket names, found on the host and planned after
 * the masks (planner/internal.h). Each one is bound alone at its real path, so
 * what else its directory holds stays masked; spawn.c opens that path
 * again without following links and hands bwrap the descriptor, so what
 * is bound is the socket checked here, not what a link swapped in since. */
#include "config.h"
#include "planner/internal.h"
#include "planner/socket-plan.h"
#include "planner/tools.h"
#include "policy/socket-rules.h"
#include "policy/sockets.h"
#include "strbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* fail() with the flag or FILE:LINE and the value first:
 * "--allow-socket VALUE: ..." or "FILE:LINE: allow-socket VALUE: ..." */
KJ_PRINTF(3, 4) static bool sock_fail(struct builder *b, const struct entry *e, const char *fmt,
				      ...)
{
	char why[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	if (str_has_prefix(e->origin, "--"))
		return fail(b, "%s %s: %s", e->origin, e->value, why);
	return fail(b, "%s: allow-socket %s: %s", e->origin, e->value, why);
}

static bool is_socket(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISSOCK(st.st_mode);
}

/* The first of k's candidates that is a socket (a fresh string), or NULL
 * with the error set, naming each place looked at. */
static char *find_named(struct builder *b, const struct entry *e, const struct socket_kind *k)
{
	struct strbuf tried = STRBUF_INIT;
	size_t ntried = 0;
	for (size_t i = 0;; i++) {
		bool more, decided;
		_cleanup_free_ char *note = NULL;
		char *c = socket_candidate(k, i, b->h, &more, &decided, &note);
		if (!more)
			break;
		if (c && is_socket(c)) {
			sb_release(&tried);
			return c;
		}
		sb_addf(&tried, "%s%s", ntried++ ? ", " : "", c ? c : note);
		free(c);
		if (decided)
			break;
	}
	sock_fail(b, e, "no socket at %s", ntried ? tried.s : "any place");
	sb_release(&tried);
	return NULL;
}

/* The name of the table whose socket is real (after every link), for a
 * socket named by its path: its warning holds all the same. */
static const struct socket_kind *kind_at(struct builder *b, const char *real)
{
	for (const struct socket_kind *k = socket_kinds; k->name; k++)
		for (size_t i = 0;; i++) {
			bool more, decided;
			_cleanup_free_ char *note = NULL;
			_cleanup_free_ char *c = socket_candidate(k, i, b->h, &more, &decided, &note);
			if (!more)
				break;
			_cleanup_free_ char *r = c ? path_resolve(c, b->h->cwd) : NULL;
			if (r && strcmp(r, real) == 0)
				return k;
		}
	return NULL;
}

static const char *kind_of_mode(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISREG(m) ? "a regular file"
		: S_ISLNK(m) ? "a symbolic link" : S_ISFIFO(m) ? "a FIFO"
		: S_ISCHR(m) || S_ISBLK(m) ? "a device" : "not a socket";
}

/* The mask of exactly path, if any, goes: the socket is bound there
 * (and is no longer one the scan masked). */
static void unmask(struct builder *b, const char *path)
{
	struct plan *pl = b->pl;
	size_t kept = 0;
	for (size_t i = 0; i < pl->nscanned; i++)
		if (strcmp(pl->scanned[i].path, path) != 0)
			pl->scanned[kept++] = pl->scanned[i];
	pl->nscanned = kept;
	size_t out = 0;
	for (size_t i = 0; i < b->masks.n; i++) {
		if (strcmp(b->masks.v[i].path, path) == 0) {
			free(b->masks.v[i].path);
			continue;
		}
		b->masks.v[out++] = b->masks.v[i];
	}
	b->masks.n = out;
}

/* path inside the jail is bound from something else (a restricted
 * socket, the relay's): its own mask goes, and a socket there already
 * (the full one) is hidden under the bind. */
static bool add_plan_socket(struct builder *b, const struct plan_socket *ps, const char *rule)
{
	struct plan *pl = b->pl;
	for (size_t i = 0; i < pl->nsockets; i++)
		if (strcmp(pl->sockets[i].path, ps->path) == 0)
			return true; /* named twice: the first says where from */
	unmask(b, ps->path);
	pl->sockets = xreallocarray(pl->sockets, pl->nsockets + 1, sizeof *pl->sockets);
	pl->sockets[pl->nsockets++] = *ps;
	cand_take(pl, &b->sockets, OP_SOCKET, xstrdup(ps->path), rule, ps->origin);
	return true;
}

/* GnuPG's public keyring and trust database, those that are regular
 * files, shown read-only in its masked home so gpg can sign; the rest
 * of the home (private-keys-v1.d, the full socket, ...) stays masked. */
static void show_keyring(struct builder *b, const char *home, const char *origin)
{
	static const char *const files[] = { "pubring.kbx", "pubring.gpg", "trustdb.gpg", NULL };
	for (size_t i = 0; files[i]; i++) {
		_cleanup_free_ char *p = xconcat(home, "/", files[i], (char *)NULL);
		struct stat st;
		if (lstat(p, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		unmask(b, p);
		cand_take(b->pl, &b->sockets, OP_SHOW, steal_pointer(&p),
			  "allowed socket: gpg-agent (public keyring, read-only)", origin);
	}
}

/* A name whose socket is not the one found (sockets.h: variant, relay). */
static bool add_restricted(struct builder *b, const struct entry *e, const struct socket_kind *k,
			   const char *given, const char *real)
{
	struct plan *pl = b->pl;
	if (pl->backend != BACKEND_BWRAP)
		return sock_fail(b, e, "the %s backend cannot put %s in place of the agent's full "
				       "socket; name the full socket's path (%s) to allow all it "
				       "grants",
				 backend_name(pl->backend), k->relay ? "kjail's relay"
				 : "the restricted socket", real);
	struct plan_socket ps = {
		.name = k->name,
		.origin = strpool_intern(&pl->strings, e->origin),
		.gives = k->gives,
		.refuses = k->refuses,
	};
	if (k->relay) {
		ps.path = strpool_intern(&pl->strings, real);
		ps.given = strcmp(given, real) ? strpool_intern(&pl->strings, given) : NULL;
		ps.relay = true;
		ps.agent = ps.path;
		return add_plan_socket(b, &ps, "allowed socket: ssh-agent (kjail's relay)");
	}
	_cleanup_free_ char *extra = xconcat(real, k->variant, (char *)NULL);
	_cleanup_free_ char *source = path_resolve(extra, b->h->cwd);
	struct stat st;
	if (!source || lstat(source, &st) < 0 || !S_ISSOCK(st.st_mode))
		return sock_fail(b, e, "no restricted socket %s beside %s (gpg-agent makes it "
				       "unless its extra-socket is none)", extra, real);
	_cleanup_free_ char *target = socket_bind_target(k, b->h);
	_cleanup_free_ char *home = socket_gnupg_home(b->h);
	if (!target || !home)
		return sock_fail(b, e, "no GnuPG home to bind it in ($GNUPGHOME and $HOME unset)");
	_cleanup_free_ char *rtarget = path_resolve(target, b->h->cwd);
	_cleanup_free_ char *rhome = path_resolve(home, b->h->cwd);
	if (!rtarget || !rhome)
		return sock_fail(b, e, "GnuPG's home %s: %s", home, strerror(errno));
	ps.path = strpool_intern(&pl->strings, rtarget);
	ps.given = strcmp(real, rtarget) ? strpool_intern(&pl->strings, real) : NULL;
	ps.source = strpool_intern(&pl->strings, source);
	show_keyring(b, rhome, e->origin);
	return add_plan_socket(b, &ps, "allowed socket: gpg-agent (restricted S.gpg-agent.extra)");
}

/* A socket allowed by its path under the home directory: a desktop
 * container engine's, a VM's, whatever a daemon the user runs keeps
 * there. The one warning line its run prints, or NULL. */
static char *home_warning(const struct builder *b, const char *real)
{
	const char *homes[] = { b->h->home_env, b->h->home };
	for (size_t i = 0; i < ARRAY_SIZE(homes); i++) {
		if (!homes[i] || homes[i][0] != '/')
			continue;
		_cleanup_free_ char *home = path_resolve(homes[i], "/");
		if (!home || strcmp(home, "/") == 0 || !path_is_under(real, home))
			continue;
		const struct known_socket *k = socket_rule_match(engine_sockets, real, home);
		return xasprintf("socket %s under your home directory (%s): whatever serves it acts "
				 "for the jail outside it; a container engine's runs anything with "
				 "your files", real, k ? k->what : "not one kjail knows");
	}
	return NULL;
}

static bool add_socket(struct builder *b, const struct entry *e)
{
	struct plan *pl = b->pl;
	const struct socket_kind *k = socket_kind_find(e->value);
	_cleanup_free_ char *given = k ? find_named(b, e, k) : xstrdup(e->value);
	if (!given)
		return false;
	_cleanup_free_ char *real = path_resolve(given, b->h->cwd);
	if (!real)
		return sock_fail(b, e, "%s%s%s", k ? given : "", k ? ": " : "", strerror(errno));
	struct stat st;
	if (lstat(real, &st) < 0)
		return sock_fail(b, e, "%s%s%s", k ? real : "", k ? ": " : "", strerror(errno));
	if (!S_ISSOCK(st.st_mode))
		return sock_fail(b, e, "not a socket (%s%s%s)", kind_of_mode(st.st_mode),
				 strcmp(real, given) ? " at " : "", strcmp(real, given) ? real : "");
	if (k && (k->variant || k->relay))
		return add_restricted(b, e, k, given, real);
	bool by_path = !k;
	if (!k)
		k = kind_at(b, real);
	_cleanup_free_ char *warning = by_path && k && k->full ? socket_full_warning(k, real)
				       : socket_warning(k);
	if (!warning && !socket_kind_find(e->value))
		warning = home_warning(b, real);
	_cleanup_free_ char *rule = k ? xasprintf("allowed socket: %s%s", k->name,
						  by_path && k->full ? " (full socket)" : "")
				      : xstrdup("allowed socket");
	struct plan_socket ps = {
		.path = strpool_intern(&pl->strings, real),
		.name = k ? k->name : NULL,
		.given = strcmp(given, real) ? strpool_intern(&pl->strings, given) : NULL,
		.origin = strpool_intern(&pl->strings, e->origin),
		.gives = k ? (by_path && k->full ? k->full : k->gives) : NULL,
		.warning = warning ? strpool_intern(&pl->strings, warning) : NULL,
	};
	return add_plan_socket(b, &ps, strpool_intern(&pl->strings, rule));
}

bool add_sockets(struct builder *b)
{
	const struct entry_list *l = &b->p->allow_socket;
	for (size_t i = 0; i < l->n; i++)
		if (!add_socket(b, &l->v[i]))
			return false;
	return true;
}
