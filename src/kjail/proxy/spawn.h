/* SPDX-License-Identifier: MIT */
/* proxy/spawn.c: the proxy's process, started and stopped. */
#ifndef KJ_PROXY_SPAWN_H
#define KJ_PROXY_SPAWN_H

#include "proxy/proxy.h"

/* The proxy program's name (run/locate.h finds it, beside kjail or in
 * its libexec directory), its one argument, and the descriptors it is
 * started with (proxy/kjail-proxy.c says what each is). */
#define PROXY_PROGRAM "kjail-proxy"
#define PROXY_PROGRAM_ARG "--serve"
enum { PROXY_FD_CTL = 3, PROXY_FD_LOG = 4, PROXY_FD_STOP = 5, PROXY_FD_CONFIG = 6 };

/* Starts the proxy process: forks, and the child, which dies with kjail
 * (PR_SET_PDEATHSIG where there is one), executes prog (an absolute path)
 * with an empty environment and only ctl_fd, the log, its stop pipe and a
 * socket for its configuration open besides standard error; kjail writes
 * c's rules and limits on that socket (proxy/handoff.h). The proxy then
 * drops its privileges, confines itself, receives the listeners on ctl_fd
 * (fdpass_recv, tags "http" and "socks5"), answers one byte 'k' on
 * ctl_fd, and serves until kjail calls proxy_stop(). Returns the pid and
 * sets *stop_wfd, or -1 with one line on stderr (kjail then exits 125
 * before the command runs). A proxy that fails after this returns says
 * why on stderr and never answers 'k'. */
pid_t proxy_spawn(const char *prog, const struct proxy_config *c, int ctl_fd, int *stop_wfd);

/* How long proxy_stop() waits before it kills the proxy: the proxy's own
 * wait for its connections (proxy/serve.c) and a margin. */
#define PROXY_STOP_DEADLINE_MS 10000

/* Ends the proxy: closes stop_wfd and waits for pid, blocking (a pidfd
 * where the kernel has them) until it ends or the deadline has passed,
 * then SIGKILL. 0 if it ended well by itself. */
int proxy_stop(pid_t pid, int stop_wfd);

#endif
