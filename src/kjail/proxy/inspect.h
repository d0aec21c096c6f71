/* SPDX-License-Identifier: MIT */
/* Names, not addresses: what a tunnel carries, read before it is relayed.
 * The rules allowed a destination (the name in CONNECT or SOCKS5); behind
 * a CDN's front one address serves many sites and the TLS SNI or the HTTP
 * Host picks one, so the client's bytes are read as the server will read
 * them, and what they name must be allowed by a rule that allowed the
 * destination (on the tunnel's port; an IP-literal rule covers only its
 * own address).
 *
 * Pure: a state machine fed the client's bytes (inspect_client) and the
 * server's first ones (inspect_server), no I/O, no copy of what it lets
 * through. What the client's first bytes are decides what follows:
 *   TLS (22, 3): a ClientHello (proxy/tls.h) whose server_name the rules
 *       allow. Without one, or with an encrypted ClientHello (ECH: the
 *       name seen is only the outer one) it is refused unless the rule
 *       "says otherwise": a rule that names its port (HOST:PORT or
 *       HOST:*) lets what the proxy cannot read through, and a rule for
 *       an IP literal takes a hello without a name (or naming that very
 *       address). If the server answers with a HelloRetryRequest the
 *       second ClientHello is read the same way (the client's bytes wait
 *       for the server's first answer); then the rest passes unseen.
 *   HTTP/1 (a request line: a token, white space, a line naming HTTP/):
 *       every request head in turn (pp_http_request): its Host and an
 *       absolute-form URL's host must be allowed; bodies are skipped by
 *       Content-Length or chunked framing; a websocket Upgrade, on the
 *       tunnel's first request only, passes the rest unseen once the
 *       server answers 101. Anything the strict parser refuses is refused.
 *   anything else (ssh, a database, server-speaks-first protocols whose
 *       client answers the greeting): passes unseen if a rule that
 *       allowed the destination names its port; a rule without a port
 *       (80 and 443) carries only TLS and HTTP. The server's bytes are
 *       never held: a server that speaks first is relayed at once.
 * There is no timer: a prefix that may still become a request line (say
 * "GET") waits for the byte that decides; a timer would let a client
 * dribble "GET", wait it out, then send a request nobody reads. */
#ifndef KJ_PROXY_INSPECT_H
#define KJ_PROXY_INSPECT_H

#include <stdbool.h>
#include <stddef.h>

#include "proxy/parse.h"
#include "proxy/rules.h"
#include "proxy/tls.h"

/* The most client bytes held undecided: a ClientHello in small records,
 * a request head (PROXY_HEADER_MAX). Below the relay's buffer. */
#define INSPECT_HOLD_MAX 32768

#define INSPECT_REFUSE (-1)

enum inspect_answer {
	INSPECT_CLOSE,      /* not TLS or HTTP: just close */
	INSPECT_TLS_ALERT,  /* a fatal access_denied alert, then close */
	INSPECT_HTTP_403,   /* an HTTP 403 naming why, then close */
};

struct inspect {
	const struct allow_rule *rules;
	size_t nrules;
	const char *host;       /* the destination as the client named it */
	unsigned port;
	bool web_only;          /* no rule that allowed it names the port */
	int state;
	bool retried;           /* the server asked for a second ClientHello */
	bool upgrade;           /* a websocket Upgrade waits for the server */
	bool proxy_request;     /* an absolute-form request: nothing after it */
	bool sink;              /* what inspect_client decides is dropped */
	unsigned requests;
	unsigned long long left; /* body or chunk bytes still to pass */
	unsigned trailers;
	unsigned char srv[48];  /* the server's first bytes */
	size_t nsrv;
	bool srv_eof;
	/* the outcome */
	char sni[TLS_NAME_MAX];      /* the (last) ClientHello's name, or "" */
	char http_host[PP_HOST_MAX]; /* the first request's host, or the refused one */
	const char *why;             /* a refusal's reason, a static phrase */
	enum inspect_answer answer;
};

/* A tunnel to host:port (CONNECT or SOCKS5) that rules allowed, watched
 * from its first byte. rules and host must outlive in. */
void inspect_tunnel(struct inspect *in, const struct allow_rule *rules, size_t nrules,
		    const char *host, unsigned port);

/* An absolute-form proxy request whose head (q) has been sent on with
 * "Connection: close": its body passes, anything after it is dropped. */
void inspect_proxy_request(struct inspect *in, const struct pp_request *q);

/* buf: the client's bytes not yet let through, oldest first; eof: the
 * client has ended its side. Returns how many of them are decided (the
 * rest wait for more, or for the server), or INSPECT_REFUSE (in->why,
 * in->answer). Decided bytes go to the server, or, once in->sink is set,
 * nowhere. Bytes decided are not shown again: the next call starts after
 * them. */
long inspect_client(struct inspect *in, const char *buf, size_t n, bool eof);

/* The server's bytes as they arrive (eof: it ended its side). */
void inspect_server(struct inspect *in, const char *buf, size_t n, bool eof);

/* Whether the server's bytes still matter. */
bool inspect_wants_server(const struct inspect *in);

/* Nothing more to read: the rest passes unseen. */
bool inspect_done(const struct inspect *in);

#endif
