/* SPDX-License-Identifier: MIT */
/* The plan: appending ops, freeing it, and the verdict on one path. */
#include "config.h"
#include "planner/internal.h"
#include "planner/plan-take.h"

#include <stdlib.h>
#include <string.h>

/* Appends an op that takes ownership of path; rule and origin are already
 * the plan's pool's. */
struct op *plan_take(struct plan *pl, enum op_kind kind, char *path, const char *rule,
		     const char *origin)
{
	if (pl->nops == pl->ops_cap) {
		pl->ops_cap = pl->ops_cap ? 2 * pl->ops_cap : 16;
		pl->ops = xreallocarray(pl->ops, pl->ops_cap, sizeof *pl->ops);
	}
	struct op *o = &pl->ops[pl->nops++];
	o->kind = kind;
	o->path = path;
	o->rule = rule;
	o->origin = origin;
	o->data = NULL;
	o->len = 0;
	o->removed = 0;
	o->format = o->unit = NULL;
	o->inner = false;
	o->serves = NULL;
	return o;
}

struct op *plan_add(struct plan *pl, enum op_kind kind, const char *path, const char *rule,
		    const char *origin)
{
	return plan_take(pl, kind, xstrdup(path), strpool_intern(&pl->strings, rule),
			 strpool_intern(&pl->strings, origin));
}

enum backend backend_effective(enum backend b)
{
#ifdef KJ_OS_DARWIN
	return b == BACKEND_AUTO ? BACKEND_SEATBELT : b;
#else
	return b == BACKEND_AUTO ? BACKEND_BWRAP : b;
#endif
}

void plan_free(struct plan *pl)
{
	for (size_t i = 0; i < pl->nops; i++) {
		free(pl->ops[i].path);
		free(pl->ops[i].data);
	}
	free(pl->ops);
	strpool_free(&pl->strings);
	free(pl->workspace);
	free(pl->net_log);
	free(pl->allow);
	free(pl->sockets);
	free(pl->scanned);
	entry_list_free(&pl->skipped);
	entry_list_free(&pl->created);
	entry_list_free(&pl->unguarded);
	entry_list_free(&pl->watched);
	strv_free(&pl->watched_present);
	entry_list_free(&pl->env_removed);
	entry_list_free(&pl->secrets);
	free(pl->cache_dir);
	entry_list_free(&pl->cache_env);
	entry_list_free(&pl->cache_overridden);
	free(pl->history);
	free(pl->cache_root.path);
	strv_free(&pl->env);
	strv_free(&pl->host_devices);
	dev_binds_free(pl->devices, pl->ndevices);
	memset(pl, 0, sizeof *pl);
}

const struct op *plan_verdict(const struct plan *pl, const char *path)
{
	const struct op *found = NULL;
	for (size_t i = 0; i < pl->nops; i++) {
		const struct op *o = &pl->ops[i];
		bool hit = o->kind == OP_MASK_FILE || o->kind == OP_HELPER
				   ? strcmp(path, o->path) == 0
				   : path_is_under(path, o->path);
		if (hit)
			found = o;
	}
	return found;
}

const char *host_getenv(const struct host *h, const char *name)
{
	size_t n = strlen(name);
	for (char *const *e = h->env; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}
