/* SPDX-License-Identifier: MIT */
/* The ssh-agent relay's loop: clients from the jail, one agent
 * connection each, requests judged by agent/msg.h. */
#ifndef KJ_AGENT_RELAY_H
#define KJ_AGENT_RELAY_H

#include <stdbool.h>

/* Connects to the agent at path: a fresh socket, or -1 with errno. */
int agent_connect(const char *path);

/* Serves the jail's clients accepted on listener (non-blocking), each
 * with its own connection to the agent at agent_path, until stop_fd is
 * readable or hung up. A refused request is said once a kind on
 * standard error ("kjail: ssh-agent relay: refused LOCK"). Returns 0, or
 * -1 when the loop itself fails. */
int agent_relay_serve(int listener, int stop_fd, const char *agent_path);

#endif
