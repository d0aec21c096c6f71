/* SPDX-License-Identifier: MIT */
/* plan-fixture.h: the plans the planner's and the builders' unit tests
 * start from, made one way.
 *
 * By hand (pure, no host): plan_empty, then the mounts plan_build starts
 * every plan with (plan_jail_mounts: the read-only root, the jail's own
 * /dev, /proc and /tmp) and the workspace bound writable
 * (plan_add_workspace), with plan_build's rules and origins, so a builder
 * sees what it sees in a run; plan_defaults is the three.
 *
 * By plan_build over a tree of tree-fixture.h: struct fixture, a policy of
 * defaults and the host of user 4242, its home at root/home and the
 * workspace (and current directory) at root/ws. fx_build builds the plan
 * into it. */
#ifndef KJAIL_PLAN_FIXTURE_H
#define KJAIL_PLAN_FIXTURE_H

#include <stdbool.h>
#include <string.h>

#include "planner/planner.h"
#include "tree-fixture.h"

/* No mount yet, the workspace ws (NULL: none), no network, the caller's
 * uid and gid inside. */
static inline void plan_empty(struct plan *pl, enum backend b, const char *ws)
{
	memset(pl, 0, sizeof *pl);
	pl->backend = b;
	pl->workspace = ws ? xstrdup(ws) : NULL;
	pl->inside_id = -1;
}

static inline void plan_jail_mounts(struct plan *pl)
{
	plan_add(pl, OP_RO_ROOT, "/", "read-only", "host root");
	plan_add(pl, OP_DEV, "/dev", "private", "minimal /dev");
	plan_add(pl, OP_PROC, "/proc", "private", "the jail's own processes");
	plan_add(pl, OP_TMP, "/tmp", "private", "empty tmpfs");
}

/* The workspace as the current directory makes it. */
static inline void plan_add_workspace(struct plan *pl)
{
	plan_add(pl, OP_BIND, pl->workspace, "workspace", "current directory");
}

static inline void plan_defaults(struct plan *pl, enum backend b, const char *ws, bool network)
{
	plan_empty(pl, b, ws);
	pl->network = network;
	plan_jail_mounts(pl);
	plan_add_workspace(pl);
}

struct fixture {
	struct policy p;
	struct host h;
	struct plan pl;
	char err[1024];
	char *home, *ws; /* what h points at */
};

/* A policy of defaults and a host that says no more than a host must: user
 * 4242 in root (the current directory), no home, a dry run (nothing made
 * on disk). */
static inline void fx_init_bare(struct fixture *f)
{
	memset(f, 0, sizeof *f);
	policy_init(&f->p);
	f->h.cwd = root;
	f->h.uid = 4242;
	f->h.dry_run = true;
}

/* The usual host: home root/home, workspace and current directory root/rel,
 * kjail at /usr/bin/kjail. dry: --explain's dry run, else a run (what the
 * jail needs is made on disk). */
static inline void fx_init_in(struct fixture *f, bool dry, const char *rel)
{
	fx_init_bare(f);
	f->home = at("home");
	f->ws = at(rel);
	f->h.cwd = f->ws;
	f->h.home = f->home;
	f->h.self = "/usr/bin/kjail";
	f->h.dry_run = dry;
	f->h.explain = dry;
}

static inline void fx_init(struct fixture *f, bool dry)
{
	fx_init_in(f, dry, "ws");
}

/* plan_build of f's policy and host into f->pl; false with f->err. */
static inline bool fx_build(struct fixture *f, char *const *envp)
{
	return plan_build(&f->p, &f->h, envp, &f->pl, f->err, sizeof f->err);
}

static inline void fx_free(struct fixture *f)
{
	plan_free(&f->pl);
	policy_free(&f->p);
	free(f->home);
	free(f->ws);
}

#endif
