/* SPDX-License-Identifier: MIT */
/* The proxy's request parsers: an HTTP request head (CONNECT or an
 * absolute-form http:// request), a request head inside a tunnel (as the
 * origin server reads it) and SOCKS5's greeting and request. Pure
 * and incremental: each takes the bytes received so far (buf, len) and
 * answers PP_NEED_MORE (call again with more), PP_OK (*used bytes make the
 * message; what follows is the client's payload) or PP_ERROR (*why: a
 * static phrase). Input is hostile: anything outside the grammar below is
 * an error, never a guess.
 *
 * HTTP: "METHOD SP TARGET SP HTTP/1.0|1.1" then header lines, each ending
 * in CRLF or LF, then an empty line; at most PROXY_HEADER_MAX bytes in all.
 * No NUL, no bare CR, no control character but HT in a value, no obs-fold
 * (a line starting with a space or tab), header names are tokens. CONNECT
 * takes an authority (host:port, [v6]:port, the port required); other
 * methods an absolute http:// URL (no user part; port 80 by default; the
 * path from the first '/' or '?', else "/"). More than one Host header is
 * an error; the Host a client sends is replaced by the URL's when the
 * request is sent on (pp_http_rewrite).
 *
 * SOCKS5: greeting "05 N METHODS[N]" (N >= 1; the proxy offers only 0x00,
 * no authentication); request "05 CMD 00 ATYP ADDR PORT" with ATYP 1
 * (4 bytes), 3 (length 1..255, then the name: printable ASCII, no space)
 * or 4 (16 bytes).
 * A request the proxy cannot serve is PP_ERROR with *reply set to the
 * SOCKS5 reply code to send (0x07 command not supported, 0x08 address type
 * not supported, 0x01 otherwise). */
#ifndef KJ_PROXY_PARSE_H
#define KJ_PROXY_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#define PP_HOST_MAX 256 /* a SOCKS5 name (255) and the NUL */

enum pp_status { PP_NEED_MORE, PP_OK, PP_ERROR };

struct pp_http {
	bool connect;            /* CONNECT; else an absolute-form request */
	char host[PP_HOST_MAX];  /* as sent; an IPv6 literal without brackets */
	bool host_v6;            /* the host was a bracketed literal */
	unsigned port;           /* 1..65535 */
	size_t method_len;       /* the method: buf[0 .. method_len) */
	size_t path_off, path_len; /* absolute-form: the path in buf ("" -> "/") */
	size_t version_off;      /* "HTTP/1.x" in buf, 8 bytes */
	size_t headers_off;      /* the first header line in buf */
	size_t head_len;         /* the whole head, its empty line included */
};

enum pp_status pp_http_head(const char *buf, size_t len, size_t max, struct pp_http *out,
			    const char **why);

/* The head to send to the origin server for an absolute-form request:
 * "METHOD PATH HTTP/1.x", the client's headers without Host,
 * Proxy-Connection, Proxy-Authorization, Connection and Keep-Alive, then
 * "Host: HOST[:PORT]" and "Connection: close". Returns its length, or 0
 * if it does not fit in cap. */
size_t pp_http_rewrite(const char *buf, const struct pp_http *h, char *out, size_t cap);

/* A request inside a tunnel (CONNECT or SOCKS5), as an origin server
 * reads it: the same lines as pp_http_head, a target that is a /PATH, "*"
 * (OPTIONS only) or an absolute http:// or https:// URL (its host into
 * url_host; a server routes by it and ignores Host, RFC 9112 3.2.2);
 * CONNECT is an error. What frames it, strictly, so that the proxy and
 * the server find the same next request: at most one Content-Length (1 to
 * 18 digits), at most one Transfer-Encoding and only "chunked", not both,
 * not chunked in HTTP/1.0; at most one Upgrade. */
struct pp_request {
	bool has_host;               /* a Host header, maybe empty */
	char host[PP_HOST_MAX];      /* its host ("" when none or empty) */
	unsigned host_port;          /* its port; 0 when it names none */
	char url_host[PP_HOST_MAX];  /* an absolute-form target's host, else "" */
	unsigned url_port;           /* its port (80, 443 by the scheme) */
	bool http10;
	bool has_length;
	unsigned long long length;   /* Content-Length */
	bool chunked;                /* Transfer-Encoding: chunked */
	bool upgrade;                /* an Upgrade header */
	bool websocket;              /* and it asks for websocket, no more */
	size_t head_len;             /* the whole head, its empty line included */
};

enum pp_status pp_http_request(const char *buf, size_t len, size_t max, struct pp_request *out,
			       const char **why);

enum pp_status pp_socks_greeting(const unsigned char *buf, size_t len, size_t *used,
				 bool *noauth, const char **why);

struct pp_socks {
	char host[PP_HOST_MAX];  /* a name, or an address's text */
	bool is_addr;            /* ATYP 1 or 4 */
	unsigned port;
};

enum pp_status pp_socks_request(const unsigned char *buf, size_t len, size_t *used,
				struct pp_socks *out, unsigned char *reply, const char **why);

#endif
