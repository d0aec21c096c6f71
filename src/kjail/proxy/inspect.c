/* SPDX-License-Identifier: MIT */
/* What a tunnel carries, read before it is relayed (see proxy/inspect.h):
 * a state machine over the client's bytes, each step deciding a prefix of
 * them or waiting for more. */
#include "config.h"

#include "proxy/inspect.h"
#include "proxy/proxy.h"
#include "util.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

enum state {
	ST_FIRST,       /* nothing read yet: TLS, HTTP or something else? */
	ST_TLS_HELLO,   /* a ClientHello */
	ST_TLS_SERVER,  /* the server's answer to it: a retry? */
	ST_TLS_RETRY,   /* after a HelloRetryRequest: [ChangeCipherSpec] ClientHello */
	ST_HTTP_HEAD,   /* a request head (after empty lines) */
	ST_HTTP_BODY,   /* left bytes of a Content-Length body */
	ST_CHUNK_SIZE,  /* a chunk's size line */
	ST_CHUNK_DATA,  /* left bytes of a chunk */
	ST_CHUNK_END,   /* the CRLF after a chunk */
	ST_TRAILER,     /* trailer lines, then an empty one */
	ST_UPGRADE,     /* the server's status line: 101 or not */
	ST_SINK,        /* after an absolute-form request: dropped */
	ST_DONE,        /* unseen from here */
};

#define CHUNK_LINE_MAX 1024
#define TRAILER_LINE_MAX 8192
#define TRAILERS_MAX 64

/* One step: how many bytes it decided (*k), and whether to go on. */
enum step { STEP_ON, STEP_WAIT, STEP_REFUSE };

static enum step refuse(struct inspect *in, const char *why, enum inspect_answer a)
{
	in->why = why;
	in->answer = a;
	return STEP_REFUSE;
}

/* The rule i allowed the tunnel's destination. */
static bool allowed_dest(const struct inspect *in, size_t i)
{
	return allow_match(&in->rules[i], 1, in->host, in->port) == 0;
}

void inspect_tunnel(struct inspect *in, const struct allow_rule *rules, size_t nrules,
		    const char *host, unsigned port)
{
	memset(in, 0, sizeof *in);
	in->rules = rules;
	in->nrules = nrules;
	in->host = host;
	in->port = port;
	in->web_only = true;
	for (size_t i = 0; i < nrules; i++)
		if (allowed_dest(in, i) && rules[i].port != ALLOW_PORT_WEB)
			in->web_only = false;
	in->state = ST_FIRST;
}

static void after_body(struct inspect *in);

void inspect_proxy_request(struct inspect *in, const struct pp_request *q)
{
	memset(in, 0, sizeof *in);
	in->proxy_request = true;
	in->requests = 1;
	if (q->chunked) {
		in->state = ST_CHUNK_SIZE;
	} else if (q->length > 0) {
		in->state = ST_HTTP_BODY;
		in->left = q->length;
	} else {
		after_body(in);
	}
}

/* Whether what the client names (name, "" for nothing) on port may go
 * through this tunnel; NULL, or why not. hidden: the real name is
 * encrypted (ECH) and name is only the outer one. */
static const char *judge(const struct inspect *in, const char *name, unsigned port,
			 bool hidden, const char *not_allowed, const char *nameless)
{
	bool literal = false;
	for (size_t i = 0; i < in->nrules; i++) {
		if (!allowed_dest(in, i))
			continue;
		if (in->rules[i].kind == ALLOW_IPV4 || in->rules[i].kind == ALLOW_IPV6)
			literal = true;
		if (*name && allow_match(&in->rules[i], 1, name, port) == 0)
			return hidden && in->web_only
				       ? "an encrypted ClientHello (ECH), whose real name is hidden"
				       : NULL;
	}
	if (*name)
		return not_allowed;
	if (hidden && in->web_only)
		return "an encrypted ClientHello (ECH) without a name";
	return literal || !in->web_only ? NULL : nameless;
}

/* --- the first bytes ------------------------------------------------------ */

static bool tchar(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
		return true;
	return c && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

/* A byte no server takes in a request line. */
static bool never_in_line(unsigned char c)
{
	return (c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f;
}

static bool has_http_slash(const char *s, size_t n)
{
	for (size_t i = 0; i + 5 <= n; i++)
		if (strncasecmp(s + i, "HTTP/", 5) == 0)
			return true;
	return false;
}

enum looks { NO, MAYBE, YES };

/* Whether the first bytes may be an HTTP/1 request, as generously as any
 * server might take one (white space before it, a long method): a token,
 * white space, a line that names "HTTP/". The strict parser judges
 * whatever this lets in; what it keeps out passes unseen only where a
 * rule names the port. */
static enum looks looks_like_http(const char *p, size_t n)
{
	size_t i = 0;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
		i++;
	size_t tok = i;
	while (i < n && tchar((unsigned char)p[i]))
		i++;
	if (i == n)
		return n >= PROXY_HEADER_MAX ? YES : MAYBE;
	if (i == tok || (p[i] != ' ' && p[i] != '\t'))
		return NO;
	const char *nl = memchr(p + i, '\n', n - i);
	size_t end = nl ? (size_t)(nl - p) : n;
	for (size_t j = i; j < end; j++)
		if (never_in_line((unsigned char)p[j]))
			return NO;
	if (nl)
		return has_http_slash(p + tok, end - tok) ? YES : NO;
	/* over the cap and still a line: let the strict parser refuse it */
	return n >= PROXY_HEADER_MAX ? YES : MAYBE;
}

static enum step other(struct inspect *in)
{
	if (in->web_only)
		return refuse(in, "neither TLS nor HTTP, and no rule names this port",
			      INSPECT_CLOSE);
	in->state = ST_DONE;
	return STEP_ON;
}

static enum step first(struct inspect *in, const char *p, size_t n, bool eof)
{
	if (n == 0) {
		if (eof)
			in->state = ST_DONE; /* nothing sent, nothing to judge */
		return eof ? STEP_ON : STEP_WAIT;
	}
	if ((unsigned char)p[0] == 22) {
		if (n < 2)
			return eof ? other(in) : STEP_WAIT;
		if (p[1] != 3)
			return other(in);
		in->state = ST_TLS_HELLO;
		return STEP_ON;
	}
	switch (looks_like_http(p, n)) {
	case YES:
		in->state = ST_HTTP_HEAD;
		return STEP_ON;
	case MAYBE:
		return eof ? other(in) : STEP_WAIT;
	default:
		return other(in);
	}
}

/* --- TLS -------------------------------------------------------------------- */

static enum step tls_hello(struct inspect *in, const char *p, size_t n, bool eof, size_t *k)
{
	struct tls_hello h;
	const char *why = NULL;
	enum tls_status st = tls_client_hello((const unsigned char *)p, n, &h, &why);
	if (st == TLS_NEED_MORE) {
		if (eof)
			return refuse(in, "an incomplete ClientHello", INSPECT_CLOSE);
		if (n >= INSPECT_HOLD_MAX)
			return refuse(in, "a ClientHello in too many records", INSPECT_CLOSE);
		return STEP_WAIT;
	}
	if (st == TLS_MALFORMED)
		return refuse(in, why, INSPECT_TLS_ALERT);
	/* the same verdict however the hello arrived */
	if (h.used >= INSPECT_HOLD_MAX)
		return refuse(in, "a ClientHello in too many records", INSPECT_CLOSE);
	snprintf(in->sni, sizeof in->sni, "%s", h.sni);
	const char *w = judge(in, h.sni, in->port, h.ech,
			      "a TLS name (SNI) that the tunnel's rule does not allow",
			      "a ClientHello without a name (SNI)");
	if (w)
		return refuse(in, w, INSPECT_TLS_ALERT);
	*k = h.used;
	in->state = in->retried ? ST_DONE : ST_TLS_SERVER;
	return STEP_ON;
}

static enum step tls_server(struct inspect *in)
{
	switch (tls_server_first(in->srv, in->nsrv)) {
	case TLS_SERVER_RETRY:
		in->retried = true;
		in->state = ST_TLS_RETRY;
		return STEP_ON;
	case TLS_SERVER_NEED_MORE:
		if (!in->srv_eof)
			return STEP_WAIT;
		break; /* the server ended: nothing more to read */
	default:
		break;
	}
	in->state = ST_DONE;
	return STEP_ON;
}

static enum step tls_retry(struct inspect *in, const char *p, size_t n, bool eof, size_t *k)
{
	/* a ChangeCipherSpec record, which TLS 1.3 clients may send first */
	static const unsigned char ccs[6] = { 20, 3, 3, 0, 1, 1 };
	if (n == 0) {
		if (eof)
			in->state = ST_DONE;
		return eof ? STEP_ON : STEP_WAIT;
	}
	if ((unsigned char)p[0] == 22) {
		in->state = ST_TLS_HELLO;
		return STEP_ON;
	}
	size_t m = n < 6 ? n : 6;
	if (memcmp(p, ccs, m) != 0)
		return refuse(in, "after a HelloRetryRequest, something other than a ClientHello",
			      INSPECT_TLS_ALERT);
	if (n < 6)
		return eof ? refuse(in, "an incomplete record after a HelloRetryRequest",
				    INSPECT_CLOSE)
			   : STEP_WAIT;
	*k = 6;
	return STEP_ON;
}

/* --- HTTP ------------------------------------------------------------------- */

static void after_body(struct inspect *in)
{
	if (in->proxy_request)
		in->state = ST_SINK;
	else if (in->upgrade)
		in->state = ST_UPGRADE;
	else
		in->state = ST_HTTP_HEAD;
}

/* An absolute-form URL's host (a server routes by it and ignores Host)
 * and the Host header must both be allowed; the log keeps the first
 * request's name, or the one refused. */
static enum step http_names(struct inspect *in, const struct pp_request *q)
{
	static const char *const not_allowed = "an HTTP Host that the tunnel's rule does not allow";
	static const char *const nameless = "an HTTP request without a Host";
	const char *name = q->url_host[0] ? q->url_host : q->host;
	const char *w = NULL;
	if (q->url_host[0])
		w = judge(in, q->url_host, q->url_port, false, not_allowed, nameless);
	if (!w && (q->host[0] || !q->url_host[0])) {
		name = q->host;
		w = judge(in, q->host, q->host_port ? q->host_port : in->port, false, not_allowed,
			  nameless);
	}
	if (w || in->requests == 0)
		snprintf(in->http_host, sizeof in->http_host, "%s", name);
	return w ? refuse(in, w, INSPECT_HTTP_403) : STEP_ON;
}

static enum step http_head(struct inspect *in, const char *p, size_t n, bool eof, size_t *k)
{
	/* empty lines before a request line, which servers skip */
	if (n >= 1 && p[0] == '\n') {
		*k = 1;
		return STEP_ON;
	}
	if (n >= 2 && p[0] == '\r' && p[1] == '\n') {
		*k = 2;
		return STEP_ON;
	}
	if (n == 1 && p[0] == '\r')
		return eof ? refuse(in, "an incomplete request head", INSPECT_HTTP_403) : STEP_WAIT;
	if (n == 0) {
		if (eof)
			in->state = ST_DONE;
		return eof ? STEP_ON : STEP_WAIT;
	}
	struct pp_request q;
	const char *why = NULL;
	enum pp_status st = pp_http_request(p, n, PROXY_HEADER_MAX, &q, &why);
	if (st == PP_NEED_MORE)
		return eof ? refuse(in, "an incomplete request head", INSPECT_HTTP_403) : STEP_WAIT;
	if (st == PP_ERROR)
		return refuse(in, why, INSPECT_HTTP_403);
	/* h2c, or any protocol but websocket, would carry requests the
	 * proxy does not read */
	if (q.upgrade && !q.websocket)
		return refuse(in, "an Upgrade to something other than websocket",
			      INSPECT_HTTP_403);
	if (q.upgrade && in->requests > 0)
		return refuse(in, "an Upgrade that is not the tunnel's first request",
			      INSPECT_HTTP_403);
	if (http_names(in, &q) == STEP_REFUSE)
		return STEP_REFUSE;
	in->requests++;
	in->upgrade = q.upgrade;
	*k = q.head_len;
	if (q.chunked) {
		in->state = ST_CHUNK_SIZE;
	} else if (q.length > 0) {
		in->state = ST_HTTP_BODY;
		in->left = q.length;
	} else {
		after_body(in);
	}
	return STEP_ON;
}

/* left bytes of a body or a chunk; then next(). */
static enum step counted(struct inspect *in, size_t n, size_t *k, int next)
{
	if (n == 0)
		return STEP_WAIT;
	*k = in->left < n ? (size_t)in->left : n;
	in->left -= *k;
	if (in->left == 0) {
		if (next < 0)
			after_body(in);
		else
			in->state = next;
	}
	return STEP_ON;
}

/* A line ending in CRLF, at most max bytes: its length with the CRLF in
 * *len; NULL, "" (wait) or why not. */
static const char *crlf_line(const char *p, size_t n, size_t max, bool eof, size_t *len,
			     const char *too_long)
{
	const char *nl = memchr(p, '\n', n < max ? n : max);
	if (!nl) {
		if (n >= max)
			return too_long;
		return eof ? "an incomplete chunked body" : "";
	}
	*len = (size_t)(nl - p) + 1;
	if (*len < 2 || nl[-1] != '\r')
		return "a line in a chunked body that does not end in CRLF";
	return NULL;
}

static enum step chunk_size(struct inspect *in, const char *p, size_t n, bool eof, size_t *k)
{
	size_t len = 0;
	const char *w =
		crlf_line(p, n, CHUNK_LINE_MAX, eof, &len, "a chunk size line over 1024 bytes");
	if (w)
		return *w ? refuse(in, w, INSPECT_HTTP_403) : STEP_WAIT;
	unsigned long long size = 0;
	size_t i = 0;
	for (; i < len - 2 && hex_value(p[i]) >= 0; i++) {
		if (i == 15)
			return refuse(in, "a chunk size over 15 hex digits", INSPECT_HTTP_403);
		size = size * 16 + (unsigned)hex_value(p[i]);
	}
	if (i == 0)
		return refuse(in, "a chunk size that is not a hex number", INSPECT_HTTP_403);
	/* an extension: ";NAME[=VALUE]...", printable */
	if (i < len - 2 && p[i] != ';')
		return refuse(in, "a chunk size followed by something other than ';'",
			      INSPECT_HTTP_403);
	for (; i < len - 2; i++)
		if ((unsigned char)p[i] < 0x20 || (unsigned char)p[i] >= 0x7f)
			return refuse(in, "a control or non-ASCII byte in a chunk extension",
				      INSPECT_HTTP_403);
	*k = len;
	if (size == 0) {
		in->trailers = 0;
		in->state = ST_TRAILER;
	} else {
		in->left = size;
		in->state = ST_CHUNK_DATA;
	}
	return STEP_ON;
}

static enum step chunk_end(struct inspect *in, const char *p, size_t n, bool eof, size_t *k)
{
	if (n >= 1 && p[0] != '\r')
		return refuse(in, "a chunk not followed by CRLF", INSPECT_HTTP_403);
	if (n < 2)
		return eof ? refuse(in, "an incomplete chunked body", INSPECT_HTTP_403) : STEP_WAIT;
	if (p[1] != '\n')
		return refuse(in, "a chunk not followed by CRLF", INSPECT_HTTP_403);
	*k = 2;
	in->state = ST_CHUNK_SIZE;
	return STEP_ON;
}

static enum step trailer(struct inspect *in, const char *p, size_t n, bool eof, size_t *k)
{
	size_t len = 0;
	const char *w =
		crlf_line(p, n, TRAILER_LINE_MAX, eof, &len, "a trailer line over 8192 bytes");
	if (w)
		return *w ? refuse(in, w, INSPECT_HTTP_403) : STEP_WAIT;
	*k = len;
	if (len == 2) {
		after_body(in);
		return STEP_ON;
	}
	if (++in->trailers > TRAILERS_MAX)
		return refuse(in, "more than 64 trailer lines", INSPECT_HTTP_403);
	size_t i = 0;
	while (i < len - 2 && tchar((unsigned char)p[i]))
		i++;
	if (i == 0 || i == len - 2 || p[i] != ':')
		return refuse(in, "a trailer line without NAME:", INSPECT_HTTP_403);
	for (; i < len - 2; i++)
		if (never_in_line((unsigned char)p[i]) || p[i] == '\r')
			return refuse(in, "a control byte in a trailer", INSPECT_HTTP_403);
	return STEP_ON;
}

static enum step upgraded(struct inspect *in)
{
	static const char status[] = "HTTP/1.x 101";
	if (in->nsrv < sizeof status - 1 && !in->srv_eof)
		return STEP_WAIT;
	in->upgrade = false;
	const unsigned char *s = in->srv;
	if (in->nsrv >= sizeof status - 1 && memcmp(s, "HTTP/1.", 7) == 0 &&
	    (s[7] == '0' || s[7] == '1') && memcmp(s + 8, " 101", 4) == 0)
		in->state = ST_DONE; /* websocket from here */
	else
		in->state = ST_HTTP_HEAD; /* not switched: requests go on */
	return STEP_ON;
}

/* --- the machine ------------------------------------------------------------ */

static enum step step(struct inspect *in, const char *p, size_t n, bool eof, size_t *k)
{
	*k = 0;
	/* what waits for the server's answer (early data, a pipelined
	 * request) is bounded like the rest */
	if ((in->state == ST_TLS_SERVER || in->state == ST_UPGRADE) && n >= INSPECT_HOLD_MAX)
		return refuse(in, "too much sent before the server's answer", INSPECT_CLOSE);
	switch (in->state) {
	case ST_FIRST:
		return first(in, p, n, eof);
	case ST_TLS_HELLO:
		return tls_hello(in, p, n, eof, k);
	case ST_TLS_SERVER:
		return tls_server(in);
	case ST_TLS_RETRY:
		return tls_retry(in, p, n, eof, k);
	case ST_HTTP_HEAD:
		return http_head(in, p, n, eof, k);
	case ST_HTTP_BODY:
		return counted(in, n, k, -1);
	case ST_CHUNK_SIZE:
		return chunk_size(in, p, n, eof, k);
	case ST_CHUNK_DATA:
		return counted(in, n, k, ST_CHUNK_END);
	case ST_CHUNK_END:
		return chunk_end(in, p, n, eof, k);
	case ST_TRAILER:
		return trailer(in, p, n, eof, k);
	case ST_UPGRADE:
		return upgraded(in);
	default:
		return STEP_WAIT; /* ST_SINK, ST_DONE: inspect_client's */
	}
}

long inspect_client(struct inspect *in, const char *buf, size_t n, bool eof)
{
	size_t used = 0;
	for (;;) {
		if (in->state == ST_DONE)
			return (long)n;
		if (in->state == ST_SINK) {
			/* what was decided before the sink still goes */
			if (used > 0)
				return (long)used;
			in->sink = true;
			return (long)n;
		}
		size_t k = 0;
		enum step s = step(in, buf + used, n - used, eof, &k);
		if (s == STEP_REFUSE)
			return INSPECT_REFUSE;
		used += k;
		if (s == STEP_WAIT)
			return (long)used;
	}
}

void inspect_server(struct inspect *in, const char *buf, size_t n, bool eof)
{
	size_t room = sizeof in->srv - in->nsrv;
	if (n > room)
		n = room;
	if (n > 0) {
		memcpy(in->srv + in->nsrv, buf, n);
		in->nsrv += n;
	}
	if (eof)
		in->srv_eof = true;
}

bool inspect_wants_server(const struct inspect *in)
{
	return in->state != ST_DONE && in->state != ST_SINK && !in->srv_eof &&
	       in->nsrv < sizeof in->srv;
}

bool inspect_done(const struct inspect *in)
{
	return in->state == ST_DONE;
}
