/* SPDX-License-Identifier: MIT */
/* kjail-agent-relay: what the jail's $SSH_AUTH_SOCK reaches with
 * --allow-socket ssh-agent (agent/relay.h, agent/msg.h). Executed by
 * agent_relay_spawn() (agent/spawn.h) with an empty environment, the
 * agent socket's path as its argument and three descriptors. In this
 * order it gives up its capabilities, keeping the caller's uid (the
 * agent's socket is the caller's, mode 0600; run as root it stays uid 0
 * without any capability), confines itself (agent/sandbox.h), reaches
 * the agent once to prove it can, says it is ready, and only then
 * reads from the jail. Any failure is one line on standard error and
 * exit 1, and kjail runs nothing. */
#include "config.h"

#include "agent/relay.h"
#include "agent/sandbox.h"
#include "agent/spawn.h"
#include "proxy/privdrop.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int fail(const char *what, const char *why)
{
	fprintf(stderr, "kjail: ssh-agent relay: %s: %s\n", what, why);
	return 1;
}

static int run(const char *agent_path)
{
	char err[512];
	if (!proxy_privdrop_keep_uid(getppid(), err, sizeof err))
		return fail("dropping privileges", err);
	if (!agent_sandbox_apply(agent_path, err, sizeof err))
		return fail("confining itself", err);
	int probe = agent_connect(agent_path);
	if (probe < 0) {
		snprintf(err, sizeof err, "%s (after giving up its capabilities)", strerror(errno));
		return fail(agent_path, err);
	}
	close(probe);
	if (write(AGENT_FD_READY, "k", 1) != 1)
		return 1;
	close(AGENT_FD_READY);
	return agent_relay_serve(AGENT_FD_LISTEN, AGENT_FD_STOP, agent_path) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc != 3 || strcmp(argv[1], AGENT_RELAY_ARG) != 0 || argv[2][0] != '/' ||
	    fcntl(AGENT_FD_READY, F_GETFD) < 0) {
		fprintf(stderr, "kjail-agent-relay: this is kjail's ssh-agent relay, started by "
				"kjail for --allow-socket ssh-agent: run kjail instead\n");
		return 2;
	}
	_exit(run(argv[2]));
}
