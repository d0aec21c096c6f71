/* SPDX-License-Identifier: MIT */
/* The socket scan's rules (planner/socket-scan.c walks the host): which
 * pathname sockets a jail may keep reaching by default, what the known
 * ones are, and when a whole directory is masked instead of its sockets.
 * Pure: no I/O.
 *
 * Threat model: a read-only mount does not stop connect(2), so every
 * pathname socket the jail can see is a door out of it. Deny by default:
 * every socket the scan finds is masked unless the short allow table here
 * names it (look-ups and logging every program needs) or the policy
 * allows it (--allow-socket). The engine table only names what a socket
 * is, for --explain; it decides nothing. A mask bound over one socket
 * detaches when its daemon removes and re-creates it, so a directory that
 * holds sockets only is masked whole. */
#ifndef KJ_SOCKET_RULES_H
#define KJ_SOCKET_RULES_H

#include <stdbool.h>
#include <stddef.h>

/* A known socket: pattern is a path, "~/" for the home directory, with
 * fnmatch(3) wildcards that match within one component. */
struct known_socket {
	const char *pattern;
	const char *what;
};

/* The engine sockets of desktop container runtimes and VMs under ~,
 * ending with a NULL pattern. The scan also looks each pattern up
 * (glob), whatever its depth. */
extern const struct known_socket engine_sockets[];

/* The sockets a jail keeps by default, ending with a NULL pattern. */
extern const struct known_socket allowed_sockets[];

/* The row of table that names path (home expands "~"), or NULL. */
const struct known_socket *socket_rule_match(const struct known_socket *table,
					     const char *path, const char *home);

/* What the scan calls the socket at path: the engine table's words, else
 * "socket found by scan". */
const char *socket_rule_what(const char *path, const char *home);

/* One directory as the scan read it. */
struct socket_tally {
	size_t sockets;     /* sockets to mask */
	size_t socket_dirs; /* subdirectories that hold sockets only */
	size_t allowed;     /* sockets kept (allow table) */
	size_t others;      /* anything else: files, links, other
			     * subdirectories, empty or unread ones, and
			     * entries past the scan's limits */
};

/* Whether a directory so read holds sockets only (directly or in
 * subdirectories of sockets only), none of them kept: then it is masked
 * whole, so a socket re-created in it stays hidden. */
bool socket_dir_only_sockets(const struct socket_tally *t);

#endif
