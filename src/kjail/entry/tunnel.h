/* SPDX-License-Identifier: MIT */
/* entry/tunnel.c: the words of kjail-entry --connect (entry/connect.h) to
 * kjail's proxy, pure: the CONNECT request it sends and its reading of the
 * proxy's answer. The answer comes from the proxy, outside the jail, but
 * is read as any bytes: bounded, and nothing of it reaches the terminal
 * but one line of printable ASCII. */
#ifndef KJ_ENTRY_TUNNEL_H
#define KJ_ENTRY_TUNNEL_H

#include <stdbool.h>
#include <stddef.h>

/* The most of the proxy's answer read before the tunnel's bytes: its
 * header, and a refusal's body. */
#define TUNNEL_REPLY_MAX 8192
/* The longest host name (or address) the request carries. */
#define TUNNEL_HOST_MAX 253
/* Room for the longest request (the host twice, in brackets) */
#define TUNNEL_REQUEST_MAX (2 * (TUNNEL_HOST_MAX + 8) + 48)

/* "CONNECT HOST:PORT HTTP/1.1\r\nHost: HOST:PORT\r\n\r\n" into buf (an
 * IPv6 address in brackets), NUL-terminated. false, with why, for a host
 * that is not a name or an address (letters, digits, '.', '-', '_', and
 * ':' for IPv6), a port that is not 1 to 65535 in decimal, or a buf too
 * small. */
bool tunnel_request(const char *host, const char *port, char *buf, size_t len, size_t *n,
		    const char **why);

enum { TUNNEL_MORE = -1, TUNNEL_BAD = 0 };

/* The proxy's answer so far (n bytes of buf): TUNNEL_MORE until its
 * header ends (a blank line), TUNNEL_BAD if it is not an HTTP/1.x status
 * line then, else its status code (100 to 599) with *head the header's
 * length: the tunnel's bytes (a server that speaks first) follow it. */
int tunnel_reply(const char *buf, size_t n, size_t *head);

/* The line a refusal's body starts with when it is the proxy's own
 * ("kjail: ..."), printable ASCII up to its end of line, into out; false
 * if the body says nothing of that shape. */
bool tunnel_refusal(const char *body, size_t n, char *out, size_t len);

#endif
