/* SPDX-License-Identifier: MIT */
/* planner/ssh.c: what ssh in the jail needs and may have. */
#ifndef KJ_PLANNER_SSH_H
#define KJ_PLANNER_SSH_H

#include "planner/internal.h"

/* ~/.ssh/known_hosts and known_hosts2 (of the account's home and of
 * $HOME), when a directory mask hides them (~/.ssh, masked as a
 * credential store) and no mask names them, nor a --deny-read of them or
 * of a directory above them: each shown read-only, a copy
 * of the file as it is at the start (host keys are public, and ssh
 * refuses a host it cannot check). Every other file there stays masked.
 * Appended after the masks and sockets (op.inner), bwrap only. */
void plan_known_hosts(struct builder *b);

/* With kjail's proxy (pl->proxied, bwrap): KJ_SSH_CONFIG served
 * read-only as a copy of the host's with "ProxyCommand
 * KJ_SSH_PROXY_COMMAND" before it. ssh reads the user's configuration
 * first, masked, then this one, where the first value of an option wins:
 * plain ssh, git's ssh:// and git@host:path all reach out through the
 * proxy, and nothing is written in the workspace or the home. A host
 * without the file (no mount point in the read-only root) gets nothing,
 * and ssh there has no network at all: noted in pl->skipped. */
void plan_ssh_config(struct plan *pl, const char *origin);

#endif
