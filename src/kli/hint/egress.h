/* SPDX-License-Identifier: MIT */
/* Sandbox hints under kjail's egress allowlist (--allow-host): telling a
 * connection kjail's proxy refused from the lines a command printed, or
 * from the proxy's log, and naming the destination. Pure. */
#ifndef KLI_HINT_EGRESS_H
#define KLI_HINT_EGRESS_H

#include <stdbool.h>
#include <stddef.h>

/* Does LINE say the proxy refused a connection? The proxy's own 403 line
 * ("kjail: HOST:PORT is not an allowed host ..."), curl's "CONNECT tunnel
 * failed, response 403" or "Received HTTP code 403 from proxy", a SOCKS5
 * "not allowed by ruleset" / "connection not allowed". *dest is set to
 * "HOST:PORT" (allocated) when the line names it, else NULL. */
bool hint_egress_refused(const char *line, char **dest);

/* The destination of the last refused connection in the proxy's log
 * (LEN bytes of LOG, one JSON object a line), "HOST:PORT" allocated, or
 * NULL. HOST is the line's http_host, else its sni, else its host: the
 * name the proxy read inside a tunnel is the one it refused. */
char *hint_egress_last_refused(const char *log, size_t len);

/* What --allow-host would allow DEST ("HOST:PORT"): HOST for ports 80 and
 * 443 (the default), else HOST:PORT; an IPv6 host keeps its brackets. */
char *hint_egress_flag_value(const char *dest);

#endif
