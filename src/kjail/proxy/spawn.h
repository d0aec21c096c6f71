/* SPDX-License-Identifier: MIT */
/* proxy/spawn.c: the proxy's process, started and stopped. */
#ifndef KJ_PROXY_SPAWN_H
#define KJ_PROXY_SPAWN_H

#include "proxy/proxy.h"

/* Starts the proxy process. The child dies with kjail (PR_SET_PDEATHSIG
 * where there is one), keeps only ctl_fd, the log and its stop pipe,
 * takes no write access to any file (Landlock where the kernel has it),
 * receives the listeners on ctl_fd (fdpass_recv, tags "http" and
 * "socks5"), answers one byte 'k' on ctl_fd, and serves until kjail
 * calls proxy_stop(). Returns the pid and sets *stop_wfd, or -1 with one
 * line on stderr (kjail then exits 125 before the command runs). */
pid_t proxy_spawn(const struct proxy_config *c, int ctl_fd, int *stop_wfd);

/* Ends the proxy: closes stop_wfd and waits for pid. 0 if it ended well. */
int proxy_stop(pid_t pid, int stop_wfd);

#endif
