/* SPDX-License-Identifier: MIT */
/* What a TLS client names before the encryption starts: the server_name
 * (SNI) of its ClientHello, read as a server's TLS stack reads it, and
 * whether the server's first answer is a HelloRetryRequest (after which
 * the client sends a second ClientHello that must be read too). Pure and
 * incremental, as proxy/parse.h: each takes the bytes received so far and
 * answers NEED_MORE (call again with more) or its verdict. Input is
 * hostile: anything outside the grammar below is MALFORMED, never a guess.
 *
 * ClientHello (RFC 8446 4.1.2, RFC 5246 7.4.1.2): handshake records (type
 * 22, version 3.x, 1..16384 bytes each, no empty one) carrying one
 * handshake message of type 1 of at most TLS_HELLO_MAX bytes, which may
 * span several records and must end where a record ends; a client version
 * 3.x, the random, a session id of at most 32 bytes, an even, non-empty
 * list of cipher suites, at least one compression method, then no
 * extensions or a list that fills the rest exactly. server_name (type 0,
 * RFC 6066) holds exactly one entry, of type host_name, 1..255 bytes of
 * letters, digits, '.', '-' and '_' (as OpenSSL, which allows one host_name
 * and nothing else); encrypted_client_hello (0xfe0d) or the draft's
 * encrypted_server_name (0xffce) is noted: the name then seen is only the
 * outer one. Either of them, or server_name, twice is MALFORMED. */
#ifndef KJ_PROXY_TLS_H
#define KJ_PROXY_TLS_H

#include <stdbool.h>
#include <stddef.h>

#define TLS_HELLO_MAX 16384  /* the ClientHello message, its header excluded */
#define TLS_NAME_MAX 256     /* a host_name (255) and the NUL */

enum tls_status {
	TLS_NEED_MORE,
	TLS_FOUND,      /* a well-formed ClientHello with a host_name */
	TLS_NONE,       /* a well-formed ClientHello without one */
	TLS_MALFORMED,  /* *why: a static phrase */
};

struct tls_hello {
	char sni[TLS_NAME_MAX]; /* TLS_FOUND: the host_name as sent; else "" */
	bool ech;               /* an encrypted ClientHello (or ESNI) rides along */
	size_t used;            /* the records that carry the hello, in bytes */
};

/* buf holds the client's first bytes (a record header first). */
enum tls_status tls_client_hello(const unsigned char *buf, size_t len, struct tls_hello *out,
				 const char **why);

enum tls_server_first {
	TLS_SERVER_NEED_MORE,
	TLS_SERVER_RETRY,  /* a HelloRetryRequest (RFC 8446 4.1.3, its fixed random) */
	TLS_SERVER_OTHER,  /* a ServerHello, an alert, or not TLS at all */
};

/* What the server's first bytes (buf, its first record first) answer a
 * ClientHello with; decided within its first 43 bytes. */
enum tls_server_first tls_server_first(const unsigned char *buf, size_t len);

#endif
