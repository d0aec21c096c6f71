/* SPDX-License-Identifier: MIT */
/* The socket scan's tables and decisions (socket-rules.h). */
#include "config.h"
#include "policy/socket-rules.h"
#include "util.h"

#include <fnmatch.h>
#include <string.h>

/* Docker Desktop, Rancher Desktop, Colima, Lima, Podman machine and
 * OrbStack: each engine runs containers that can mount the host's files,
 * so its socket gives the jail whatever the user can do outside it. */
const struct known_socket engine_sockets[] = {
	{ "~/.docker/run/docker.sock", "Docker Desktop engine socket" },
	{ "~/.docker/run/*.sock", "Docker Desktop socket" },
	{ "~/.docker/desktop/docker.sock", "Docker Desktop engine socket" },
	{ "~/.docker/desktop/*.sock", "Docker Desktop socket" },
	{ "~/.colima/*/docker.sock", "Colima Docker engine socket" },
	{ "~/.colima/*/containerd.sock", "Colima containerd socket" },
	{ "~/.colima/*/*.sock", "Colima VM socket" },
	{ "~/.config/colima/*/docker.sock", "Colima Docker engine socket" },
	{ "~/.config/colima/*/*.sock", "Colima VM socket" },
	{ "~/.lima/*/sock/docker.sock", "Lima VM Docker engine socket" },
	{ "~/.lima/*/sock/*.sock", "Lima VM forwarded socket" },
	{ "~/.lima/*/*.sock", "Lima VM host agent socket" },
	{ "~/.rd/docker.sock", "Rancher Desktop engine socket" },
	{ "~/.rd/*.sock", "Rancher Desktop socket" },
	{ "~/.local/share/containers/podman/machine/podman.sock", "Podman machine API socket" },
	{ "~/.local/share/containers/podman/machine/*/podman.sock", "Podman machine API socket" },
	{ "~/.local/share/containers/podman/machine/*/*.sock", "Podman machine socket" },
	{ "~/.local/share/containers/podman/machine/*/*/*.sock", "Podman machine socket" },
	{ "~/.orbstack/run/docker.sock", "OrbStack engine socket" },
	{ "~/.orbstack/run/*.sock", "OrbStack socket" },
	{ NULL, NULL },
};

/* What every program may need and that acts only on the jail's own
 * request: user, group and host name look-ups (glibc's NSS modules; NixOS
 * resolves through nscd alone) and writing to the journal. Under no
 * network the resolvers are masked all the same (policy/defaults.c).
 * Nothing here starts, stops or reads anything of the user's. */
const struct known_socket allowed_sockets[] = {
	{ "/run/nscd/socket", "name service cache (user, group and host look-ups)" },
	{ "/var/run/nscd/socket", "name service cache (user, group and host look-ups)" },
	{ "/run/systemd/resolve/io.systemd.Resolve", "host name resolver (nss-resolve)" },
	{ "/run/avahi-daemon/socket", "mDNS host name resolver (nss-mdns)" },
	{ "/run/systemd/userdb/io.systemd.*", "user and group look-ups (nss-systemd)" },
	{ "/run/systemd/journal/socket", "the journal (logging)" },
	{ "/run/systemd/journal/dev-log", "the journal (syslog)" },
	{ "/run/systemd/journal/stdout", "the journal (a command's output stream)" },
	{ NULL, NULL },
};

const struct known_socket *socket_rule_match(const struct known_socket *table,
					     const char *path, const char *home)
{
	size_t hl = home ? strlen(home) : 0;
	bool in_home = hl > 1 && home[0] == '/' && strncmp(path, home, hl) == 0 &&
		       path[hl] == '/';
	for (const struct known_socket *k = table; k->pattern; k++) {
		if (str_has_prefix(k->pattern, "~/")) {
			if (in_home && fnmatch(k->pattern + 1, path + hl, FNM_PATHNAME) == 0)
				return k;
		} else if (fnmatch(k->pattern, path, FNM_PATHNAME) == 0) {
			return k;
		}
	}
	return NULL;
}

const char *socket_rule_what(const char *path, const char *home)
{
	const struct known_socket *k = socket_rule_match(engine_sockets, path, home);
	return k ? k->what : "socket found by scan";
}

bool socket_dir_only_sockets(const struct socket_tally *t)
{
	return t->sockets + t->socket_dirs > 0 && t->allowed == 0 && t->others == 0;
}
