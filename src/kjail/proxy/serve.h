/* SPDX-License-Identifier: MIT */
/* proxy/serve.c: the accept loop. */
#ifndef KJ_PROXY_SERVE_H
#define KJ_PROXY_SERVE_H

#include "proxy/proxy.h"

/* Serves the listeners until stop_fd is readable or hung up, then closes
 * them and every connection and returns 0; -1 with one line on stderr
 * if it cannot serve at all. Never exits the process. */
int proxy_serve(const struct proxy_config *c, const struct proxy_listener *l, size_t n,
		int stop_fd);

#endif
