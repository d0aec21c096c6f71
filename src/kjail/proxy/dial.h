/* SPDX-License-Identifier: MIT */
/* proxy/dial.c: reaching a destination address the proxy has checked,
 * directly or through the caller's upstream proxy (proxy/upstream.h). */
#ifndef KJ_PROXY_DIAL_H
#define KJ_PROXY_DIAL_H

#include <stddef.h>
#include <sys/socket.h>

#include "proxy/upstream.h"

/* A non-blocking connect to sa before deadline (proxy_now_ms()'s clock);
 * gives up when stop_fd becomes readable. The socket (non-blocking,
 * close-on-exec), or -errno: -ETIMEDOUT, -ECANCELED (stopped), ... */
int dial_addr(const struct sockaddr *sa, socklen_t sl, long long deadline, int stop_fd);

/* A tunnel to sa (AF_INET or AF_INET6, its port set) through u: u's host
 * resolved (any address: the caller named it), connected, asked with
 * HTTP CONNECT or SOCKS5 for the address (never a name, upstream.h
 * says why), its answer read up to the tunnel's first byte and no
 * further. The socket, or -1 with one phrase in why naming u as
 * upstream_shown() writes it (never its credentials), and *stopped when
 * stop_fd ended it. */
int dial_upstream(const struct upstream *u, const struct sockaddr *sa, long long deadline,
		  int stop_fd, char *why, size_t len, bool *stopped);

#endif
