/* SPDX-License-Identifier: MIT */
/* The sockets allowed by name: the table, the policy's values, where a
 * name's socket is (sockets.h). */
#include "config.h"
#include "policy/sockets.h"
#include "path.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What each one gives away is said once, here; kjail.1 and
 * doc/security-model.md say the same in their words. */
const struct socket_kind socket_kinds[] = {
	{ "ssh-agent", "SSH_AUTH_SOCK", { "$SSH_AUTH_SOCK" },
	  "through kjail's relay, the jail can list the agent's keys and sign with each (log "
	  "in and push as you) while it runs; it cannot read, add, remove or lock them",
	  false, NULL, true,
	  "adding keys (ADD_IDENTITY, ADD_ID_CONSTRAINED, smartcard keys), removing them "
	  "(REMOVE_IDENTITY, REMOVE_ALL_IDENTITIES), LOCK, UNLOCK, and every extension but "
	  "session-bind@openssh.com and query: answered SSH_AGENT_FAILURE",
	  "the jail can also add, remove and lock the agent's keys (ssh-add -D, -x); "
	  "--allow-socket ssh-agent relays only listing and signing" },
	{ "gpg-agent", NULL,
	  { "$GNUPGHOME/S.gpg-agent", "/run/user/%u/gnupg/S.gpg-agent", "~/.gnupg/S.gpg-agent" },
	  "through GnuPG's restricted socket (S.gpg-agent.extra), the jail can sign and decrypt "
	  "with your GnuPG keys while it runs (a passphrase the agent caches is not asked "
	  "again); the public keyring is read-only, the private keys stay masked",
	  false, ".extra", false,
	  "exporting secret keys (EXPORT_KEY), importing, generating or deleting keys, "
	  "changing passphrases (gpg-agent's own rules for its extra socket)",
	  "the jail can also export your secret keys (EXPORT_KEY, gpg --export-secret-keys); "
	  "--allow-socket gpg-agent gives the restricted S.gpg-agent.extra" },
	{ "docker", "DOCKER_HOST",
	  { "unix://$DOCKER_HOST", "/run/docker.sock", "/var/run/docker.sock" },
	  "the jail can start a privileged container, i.e. run anything as root on this host",
	  true, NULL, false, NULL, NULL },
	{ "podman", NULL, { "/run/user/%u/podman/podman.sock", "/run/podman/podman.sock" },
	  "the jail can start containers with the host's files mounted, i.e. run anything as "
	  "podman's user (root for /run/podman) on this host",
	  true, NULL, false, NULL, NULL },
	{ "system-bus", NULL, { "/run/dbus/system_bus_socket" },
	  "the jail can call every system service on the bus (systemd, polkit-allowed actions "
	  "such as mounting disks or rebooting) as you",
	  true, NULL, false, NULL, NULL },
	{ NULL, NULL, { NULL }, NULL, false, NULL, false, NULL, NULL },
};

const struct socket_kind *socket_kind_find(const char *name)
{
	for (const struct socket_kind *k = socket_kinds; k->name; k++)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

const char *socket_kind_names(char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (const struct socket_kind *k = socket_kinds; k->name && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", k->name);
	return buf;
}

bool socket_add(struct policy *p, const char *key, const char *value, const char *origin,
		const char *home, char *err, size_t errlen)
{
	bool flag = str_has_prefix(key, "--");
	const struct socket_kind *k = socket_kind_find(value);
	if (k) {
		entry_add(&p->allow_socket, value, origin);
		if (k->var) {
			_cleanup_free_ char *o = xasprintf("%s (allow-socket %s)", origin, value);
			entry_add(&p->keep_env, k->var, o);
		}
		return true;
	}
	bool pathlike = value[0] == '/' || strcmp(value, "~") == 0 || str_has_prefix(value, "~/") ||
			(flag && strchr(value, '/'));
	if (!value[0] || !pathlike) {
		char names[256];
		fmt_into(err, errlen, "%s %s: not a socket name (%s) nor a path%s", key, value,
			 socket_kind_names(names, sizeof names),
			 flag ? "" : " (absolute or ~/...)");
		return false;
	}
	_cleanup_free_ char *expanded = path_expand_home(value, home);
	if (!expanded) {
		fmt_into(err, errlen, "%s %s: cannot expand it: no home directory", key, value);
		return false;
	}
	/* a relative path from the flag stays so: the planner resolves it
	 * against the current directory, as every other flag's path */
	_cleanup_free_ char *clean = expanded[0] == '/' ? path_normalize(expanded, "/")
							: steal_pointer(&expanded);
	entry_add(&p->allow_socket, clean, origin);
	return true;
}

/* $NAME's value on h: the few kjail holds apart, else the environment. */
static const char *var_of(const struct host *h, const char *name)
{
	if (strcmp(name, "SSH_AUTH_SOCK") == 0 && h->ssh_auth_sock)
		return h->ssh_auth_sock;
	if (strcmp(name, "HOME") == 0)
		return h->home_env ? h->home_env : h->home;
	return host_getenv(h, name);
}

/* "%u" replaced by uid (the only substitution in a template's text). */
static char *with_uid(const char *s, unsigned uid)
{
	const char *at = strstr(s, "%u");
	if (!at)
		return xstrdup(s);
	char num[16];
	snprintf(num, sizeof num, "%u", uid);
	return xasprintf("%.*s%s%s", (int)(at - s), s, num, at + 2);
}

char *socket_candidate(const struct socket_kind *k, size_t i, const struct host *h, bool *more,
		       bool *decided, char **note)
{
	*decided = false;
	*note = NULL;
	*more = i < SOCKET_PATHS_MAX && k->paths[i];
	if (!*more)
		return NULL;
	const char *t = k->paths[i];
	bool unix_url = str_has_prefix(t, "unix://$");
	if (unix_url)
		t += strlen("unix://");
	if (t[0] == '~') {
		const char *home = var_of(h, "HOME");
		if (!home || home[0] != '/')
			return NULL;
		return xconcat(home, t + 1, (char *)NULL);
	}
	if (t[0] != '$')
		return with_uid(t, h->uid);
	size_t n = strcspn(t + 1, "/");
	_cleanup_free_ char *name = xstrndup(t + 1, n);
	const char *v = var_of(h, name);
	if (!v || !v[0]) {
		*note = xasprintf("$%s (not set)", name);
		return NULL;
	}
	*decided = true;
	if (unix_url && !str_has_prefix(v, "unix://")) {
		*note = xasprintf("$%s (%s: no unix:// socket)", name, v);
		return NULL;
	}
	if (unix_url)
		v += strlen("unix://");
	if (v[0] != '/') {
		*note = xasprintf("$%s (%s: not an absolute path)", name, v);
		return NULL;
	}
	return xconcat(v, t + 1 + n, (char *)NULL);
}

char *socket_warning(const struct socket_kind *k)
{
	if (!k || !k->host)
		return NULL;
	return xasprintf("%s socket: %s", k->name, k->gives);
}

char *socket_full_warning(const struct socket_kind *k, const char *path)
{
	if (!k || !k->full)
		return NULL;
	return xasprintf("%s is %s's full socket, not the one --allow-socket %s gives: %s", path,
			 k->name, k->name, k->full);
}

char *socket_gnupg_home(const struct host *h)
{
	const char *g = var_of(h, "GNUPGHOME");
	if (g && g[0] == '/')
		return path_normalize(g, "/");
	const char *home = var_of(h, "HOME");
	if (!home || home[0] != '/')
		return NULL;
	return xconcat(home, "/.gnupg", (char *)NULL);
}

char *socket_bind_target(const struct socket_kind *k, const struct host *h)
{
	if (!k->variant)
		return NULL;
	_cleanup_free_ char *home = socket_gnupg_home(h);
	return home ? xconcat(home, "/S.gpg-agent", (char *)NULL) : NULL;
}
