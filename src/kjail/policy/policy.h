/* SPDX-License-Identifier: MIT */
/* The policy: plain data, every entry with its origin. */
#ifndef KJ_POLICY_H
#define KJ_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "strpool.h"

enum backend { BACKEND_AUTO, BACKEND_BWRAP, BACKEND_SEATBELT, BACKEND_CONTAINER, BACKEND_LANDLOCK };

/* Toolchain caches (cache.h): none, kjail's own per workspace (the
 * default), or the user's own directories. */
enum cache_mode { CACHE_OFF, CACHE_WORKSPACE, CACHE_SHARED };

/* One list entry: the value as written (a path or a pattern) and where it
 * came from ("built-in credential store", "FILE:LINE", "--deny-read"). */
struct entry {
	char *value;
	size_t len;                 /* strlen(value) */
	const char *origin;         /* the list's interned copy */
};

/* A zeroed list is an empty one. */
struct entry_list {
	struct entry *v;
	size_t n;
	size_t cap;
	struct strpool origins;     /* thousands of entries share a few origins */
};

struct bool_setting {
	bool value;
	char *origin;
};

struct policy {
	char *workspace;            /* NULL: the current directory */
	char *workspace_origin;
	struct bool_setting network;
	struct bool_setting nested_userns;
	struct bool_setting defaults;
	struct bool_setting allow_userns;
	enum backend backend;
	char *backend_origin;
	/* fallback = landlock, --fallback=landlock: when bwrap cannot start
	 * (user namespaces blocked), the Landlock backend instead, always
	 * with its line; BACKEND_AUTO (the default): none, kjail fails closed */
	enum backend fallback;
	char *fallback_origin;
	enum cache_mode cache;
	char *cache_origin;
	struct entry_list writable;
	struct entry_list deny_read;
	struct entry_list deny_env;
	struct entry_list keep_env;
	/* --allow-host, allow-host = : each value checked (proxy/rules.h) and a
	 * group ("@models") already expanded to its members, whose origin
	 * says which group ("FILE:LINE (@models)"). Any entry: the jail gets
	 * its own network namespace and reaches out only through kjail's
	 * proxy (egress.h). */
	struct entry_list allow_host;
	/* --device=CLASS, device = CLASS: value the class (device.h, checked),
	 * once each */
	struct entry_list devices;
	/* --allow-socket, allow-socket = : a name of sockets.h's table or a
	 * path, as written (a path expanded and normalized); checked against
	 * the host when the plan is built. */
	struct entry_list allow_socket;
	/* --secret, secret = : "NAME=PATH" (expanded, normalized) or
	 * "NAME=env:VAR", checked (secret.h) */
	struct entry_list secrets;
	/* --net-log FILE, net-log = FILE: where the proxy's log is kept after
	 * the run (planner/netlog.h), as given (~ expanded); NULL: nowhere */
	char *net_log;
	char *net_log_origin;
	/* Config files read, in order (for --explain). */
	struct entry_list sources;
};

void policy_init(struct policy *p);
void policy_free(struct policy *p);
void entry_add(struct entry_list *l, const char *value, const char *origin);
void entry_list_free(struct entry_list *l);
/* Whether an entry's value is exactly value. */
bool entry_list_has(const struct entry_list *l, const char *value);
void bool_set(struct bool_setting *s, bool value, const char *origin);
void str_set(char **dst, const char *value);

bool backend_parse(const char *name, enum backend *out);
const char *backend_name(enum backend b);
/* "none" or "landlock" (the only fallback), into *out (BACKEND_AUTO: none). */
bool fallback_parse(const char *name, enum backend *out);
/* "true" (per workspace), "false", "shared". */
bool cache_mode_parse(const char *name, enum cache_mode *out);
const char *cache_mode_name(enum cache_mode m);

#endif
