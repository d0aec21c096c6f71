/* SPDX-License-Identifier: MIT */
/* kjail-entry --connect HOST PORT: ssh's ProxyCommand inside a jail that
 * reaches out through kjail's proxy (--allow-host, -n). */
#ifndef KJ_ENTRY_CONNECT_H
#define KJ_ENTRY_CONNECT_H

#include "util.h"

/* Opens a CONNECT to HOST:PORT at the jail's 127.0.0.1:PROXY_HTTP_PORT
 * and relays standard input to it and what it sends to standard output,
 * until the far end closes (exit 0). A refusal: the proxy's own line
 * ("kjail: HOST:PORT is not an allowed host (add --allow-host ...)") and
 * exit 1; any other failure, one line and exit 1. */
KJ_NORETURN void entry_connect(const char *host, const char *port);

#endif
