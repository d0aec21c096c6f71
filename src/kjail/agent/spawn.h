/* SPDX-License-Identifier: MIT */
/* The ssh-agent relay's process, seen from kjail: started before the
 * jail with the listener the jail's socket is, ended after it. */
#ifndef KJ_AGENT_SPAWN_H
#define KJ_AGENT_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define AGENT_RELAY_PROGRAM "kjail-agent-relay"
#define AGENT_RELAY_ARG "--relay"
/* The relay's descriptors: the listener, the stop pipe (readable or hung
 * up: it stops), the ready pipe (one 'k' once it is confined and has
 * reached the agent; closed unwritten on failure). */
enum { AGENT_FD_LISTEN = 3, AGENT_FD_STOP = 4, AGENT_FD_READY = 5 };

#define AGENT_RELAY_SOCKET "ssh-agent"
/* The relay's listener: a 0700 directory made under the host's /tmp
 * (the jail has its own), a socket "ssh-agent" in it. *dir and *path
 * fresh strings; the listener, or -1 with one line in err. The caller's
 * directories that a killed kjail left there (their socket refuses every
 * connection) are removed first. */
int agent_listen(char **dir, char **path, char *err, size_t errlen);

/* Executes prog (kjail-agent-relay) with an empty environment, the
 * descriptors above and agent_path as its argument, and waits for it to
 * say it is ready. Its pid with *stop_wfd, or -1 with one line in err
 * (its own line, if it said one, went to standard error). */
pid_t agent_relay_spawn(const char *prog, int listener, const char *agent_path, int *stop_wfd,
			char *err, size_t errlen);

/* Stops it (closes stop_wfd) and reaps it. */
void agent_relay_stop(pid_t pid, int stop_wfd);

#endif
