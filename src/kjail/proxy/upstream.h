/* SPDX-License-Identifier: MIT */
/* The caller's upstream proxy (a company proxy kjail's own proxy must go
 * through): its URL read strictly, NO_PROXY matched as curl matches it,
 * and the bytes of the two handshakes, HTTP CONNECT and SOCKS5, with the
 * upstream's replies parsed. Pure: no I/O (proxy/dial.h does the I/O);
 * kjail (policy/egress.c) and its proxy both read a URL here, so a URL
 * means in the proxy exactly what kjail checked.
 *
 * A URL is [SCHEME://][USER[:PASS]@]HOST[:PORT][/]:
 *   SCHEME  http (HTTP CONNECT; the default, as curl takes a bare
 *           host:port), socks5 or socks5h (SOCKS5, RFC 1928). https://
 *           (TLS to the proxy), socks4 and anything else are refused.
 *   USER, PASS  percent-decoded; sent as Proxy-Authorization: Basic, or
 *           SOCKS5's user/password (RFC 1929). Never shown: upstream_shown()
 *           puts *** in their place.
 *   HOST    a DNS name, an IPv4 literal or a bracketed IPv6 literal.
 *   PORT    1..65535; absent: 1080, as curl takes it.
 * A path other than "/", a query or fragment, an empty host, a control
 * byte or a space anywhere is refused: one phrase in *why.
 *
 * What the upstream is asked for is the ADDRESS kjail's proxy resolved
 * and checked (never the name), so that the upstream's resolver cannot
 * answer with an internal address the proxy would have refused (DNS
 * rebinding through the upstream); a socks5h:// URL is taken as socks5://
 * for that reason. The name still travels inside the tunnel (TLS SNI, an
 * HTTP Host), which is where a filtering company proxy that inspects
 * sees it. */
#ifndef KJ_PROXY_UPSTREAM_H
#define KJ_PROXY_UPSTREAM_H

#include <stdbool.h>
#include <stddef.h>

#include "proxy/parse.h"

#define UPSTREAM_URL_MAX 2048
#define UPSTREAM_CRED_MAX 256
#define UPSTREAM_DEFAULT_PORT 1080

enum upstream_kind { UPSTREAM_HTTP, UPSTREAM_SOCKS5 };

struct upstream {
	enum upstream_kind kind;
	char host[PP_HOST_MAX];           /* a name (lower case) or a literal, v6
					   * without brackets */
	unsigned port;
	bool auth;                        /* a user part was given */
	char user[UPSTREAM_CRED_MAX];     /* decoded */
	char pass[UPSTREAM_CRED_MAX];
	char shown[PP_HOST_MAX + 32];     /* the URL, *** for its credentials */
};

/* Parses url into *u; false with a static phrase in *why. Never echoes
 * the URL (it may hold a password) into why. */
bool upstream_parse(const char *url, struct upstream *u, const char **why);

/* Forgets u's credentials (explicit_bzero). */
void upstream_clear(struct upstream *u);

/* Checks a NO_PROXY value: entries split by commas, blanks around them
 * ignored, empty entries skipped; each "*" (alone: everything), a name
 * (".example.com", "*.example.com" and "example.com" all match it and
 * every name under it), an IP literal ([v6] or bare), a CIDR
 * (10.0.0.0/8, fd00::/8), optionally ":PORT" after a name or a v4 or
 * bracketed v6 literal. false with a static phrase in *why. */
bool upstream_no_proxy_check(const char *no_proxy, const char **why);

/* Whether a destination (host as the jail named it: a name or a literal,
 * v6 without brackets; port) matches no_proxy (checked above) and so is
 * connected to directly, not through the upstream. */
bool upstream_no_proxy_match(const char *no_proxy, const char *host, unsigned port);

/* The HTTP CONNECT request for ADDR (a numeric address, v6 without
 * brackets) and PORT, with Proxy-Authorization when u has credentials:
 * its length, or 0 when it does not fit in len. */
size_t upstream_http_request(const struct upstream *u, const char *addr, unsigned port,
			     char *out, size_t len);

/* The upstream's answer to CONNECT in buf[0..len): PP_NEED_MORE, PP_OK
 * with *head_len (the bytes up to and with the empty line) and *status
 * (200..299 is a tunnel), or PP_ERROR with *why (a head over max, no
 * status line, a byte a head cannot hold). */
enum pp_status upstream_http_reply(const char *buf, size_t len, size_t max, size_t *head_len,
				   int *status, const char **why);

/* SOCKS5: the greeting (methods: none, and user/password when u has
 * credentials), the user/password message (RFC 1929), and the CONNECT
 * request for a 4- or 16-byte address and port; each its length, 0 when
 * it does not fit (a credential over 255 bytes cannot). */
size_t upstream_socks_greeting(const struct upstream *u, unsigned char *out, size_t len);
size_t upstream_socks_auth(const struct upstream *u, unsigned char *out, size_t len);
size_t upstream_socks_request(const unsigned char *addr, size_t alen, unsigned port,
			      unsigned char *out, size_t len);

/* The SOCKS5 server's answers, each PP_NEED_MORE, PP_OK with *used, or
 * PP_ERROR with *why. method: the method it chose (0 or 2; 0xff: none
 * acceptable, an error). auth: RFC 1929's status (0: accepted). reply:
 * *code is REP (0: succeeded; else an error) and the bound address is
 * skipped. */
enum pp_status upstream_socks_method(const unsigned char *buf, size_t len, bool offered_auth,
				     size_t *used, unsigned char *method, const char **why);
enum pp_status upstream_socks_auth_reply(const unsigned char *buf, size_t len, size_t *used,
					 const char **why);
enum pp_status upstream_socks_reply(const unsigned char *buf, size_t len, size_t *used,
				    unsigned char *code, const char **why);

#endif
