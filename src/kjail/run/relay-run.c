/* SPDX-License-Identifier: MIT */
/* The ssh-agent relay's run (run/relay-run.h). */
#include "config.h"
#ifdef KJ_OS_LINUX
#include "run/relay-run.h"
#include "agent/spawn.h"
#include "run/locate.h"
#include "util.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

void relay_listen(struct relay_run *r, const struct plan *pl, const char *agent)
{
	if (r->listener >= 0)
		return;
	char err[PATH_MAX + 256];
	r->listener = agent_listen(&r->dir, &r->path, err, sizeof err);
	if (r->listener < 0)
		die("--allow-socket ssh-agent: %s", err);
	r->agent = agent;
	const struct op *o = plan_verdict(pl, r->dir);
	if (o && (o->kind == OP_BIND || o->kind == OP_PIN)) {
		relay_cleanup(r);
		die("--allow-socket ssh-agent: the relay's socket would lie inside the writable "
		    "%s %s, where the jail could replace it; run with a workspace outside /tmp",
		    o->rule, o->path);
	}
}

void relay_start(struct relay_run *r)
{
	if (r->listener < 0)
		return;
	char err[PATH_MAX * 3 + 256];
	_cleanup_free_ char *prog = agent_relay_find(err, sizeof err);
	if (prog)
		r->pid = agent_relay_spawn(prog, r->listener, r->agent, &r->stop, err, sizeof err);
	if (!prog || r->pid < 0) {
		relay_cleanup(r);
		die("cannot start kjail's ssh-agent relay (--allow-socket ssh-agent): %s; nothing "
		    "was run", err);
	}
	/* the relay holds its own copy */
	close(r->listener);
	r->listener = -2; /* started: no second listener */
}

void relay_stop(struct relay_run *r)
{
	if (r->pid > 0)
		agent_relay_stop(r->pid, r->stop);
	r->pid = -1;
	r->stop = -1;
}

void relay_cleanup(struct relay_run *r)
{
	relay_stop(r);
	if (r->listener >= 0)
		close(r->listener);
	r->listener = -1;
	if (r->path)
		unlink(r->path);
	if (r->dir)
		rmdir(r->dir);
	free(r->path);
	free(r->dir);
	r->path = r->dir = NULL;
}
#endif
