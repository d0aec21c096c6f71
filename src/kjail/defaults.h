/* SPDX-License-Identifier: MIT */
/* What kjail protects without being asked. */
#ifndef KJ_DEFAULTS_H
#define KJ_DEFAULTS_H

#include <stddef.h>

/* Credential stores, relative to a home directory. */
extern const char *const default_home_masks[];
struct default_mask {
	const char *path;   /* absolute */
	const char *why;    /* the origin --explain shows */
};
/* Sockets of container engines, service managers and the system bus. */
extern const struct default_mask default_socket_masks[];
/* The machine's secrets that only root may read: masked when the caller
 * is root. */
extern const struct default_mask root_masks[];
/* Sockets of host name resolvers: masked under no network. */
extern const struct default_mask no_network_socket_masks[];
/* Environment patterns (fnmatch) removed unless --keep-env names them. */
extern const char *const default_env_scrub[];

/* The protected paths are in protected.h. */

#endif
