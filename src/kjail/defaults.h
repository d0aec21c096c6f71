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

struct protected_name {
	const char *rel;    /* relative to a writable root */
	const char *why;
	int kind;           /* PROTECT_ANY, PROTECT_FILE_ONLY */
};
enum {
	PROTECT_ANY = 0,       /* absent: warned about after the run */
	PROTECT_FILE_ONLY = 1, /* only a file */
	PROTECT_PRESENT = 2,   /* absent: nothing (git ignores it unless set up) */
	PROTECT_MOVE_ASIDE = 3, /* absent: one made in the jail is renamed aside after
				 * the run (git never makes it there itself) */
	PROTECT_MAKE_FILE = 4, /* absent: made empty first, so it can be pinned
				* read-only (git reads it while the jail runs) */
};

/* How many names one directory read answers: all of protected_in_root
 * (one read of each writable root), of protected_in_home (one read of the
 * home directory for its symlinks; test_host holds both lists to it) and
 * each directory's built-in masks; beyond it each name costs a lookup of
 * its own. */
#define KJ_SCAN_MAX 128

/* Inside every writable root. */
extern const struct protected_name protected_in_root[];
/* Relative to $HOME, when $HOME lies inside a writable root. */
extern const struct protected_name protected_in_home[];

#endif
