/* SPDX-License-Identifier: MIT */
/* The egress proxy's connections (see proxy.h): per connection one
 * detached thread that reads the request, checks it against the rules
 * before anything is resolved, resolves and checks every address,
 * connects, answers and relays (proxy/relay.c), then logs one line
 * (proxy/log.c). The accept loop is proxy/serve.c. */
#include "config.h"

#include "proxy/proxy.h"
#include "proxy/internal.h"
#include "proxy/conn.h"
#include "proxy/log.h"
#include "proxy/relay.h"
#include "proxy/parse.h"
#include "proxy/inspect.h"
#include "proxy/dial.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0
#endif

#define THREAD_STACK (256 * 1024) /* getaddrinfo and NSS modules need some */


struct conn {
	struct proxy_serving *s;
	int cfd, sfd;
	enum proxy_proto proto;
	char buf[PROXY_HEADER_MAX + 1];
	size_t len;
	long long deadline;
	struct proxy_record rec;
	struct inspect gate;
	char host[PP_HOST_MAX];
	char reason[3 * PP_HOST_MAX + 200];
	char allow[PP_HOST_MAX + 16]; /* refused: what --allow-host takes */
	char address[INET6_ADDRSTRLEN];
	const struct upstream *up; /* the upstream it goes through, or NULL */
};

/* More of the request into k->buf before the head's deadline; false on
 * end of input, error, timeout, a full buffer or stop. */
static bool read_more(struct conn *k)
{
	if (k->len >= PROXY_HEADER_MAX)
		return false;
	for (;;) {
		long long left = k->deadline - proxy_now_ms();
		struct pollfd pf[2] = { { k->cfd, POLLIN, 0 }, { k->s->stop_fd, POLLIN, 0 } };
		if (left <= 0)
			return false;
		int r = poll(pf, 2, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || pf[1].revents)
			return false;
		ssize_t n = recv(k->cfd, k->buf + k->len, PROXY_HEADER_MAX - k->len, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			return false;
		k->len += (size_t)n;
		return true;
	}
}

static void reply(struct conn *k, const void *b, size_t n)
{
	proxy_send_all(k->cfd, b, n, 2000, k->s->stop_fd);
}

static void http_error(struct conn *k, int code, const char *text)
{
	char msg[4 * PP_HOST_MAX + 512];
	int body = (int)strlen(k->reason) + 1;
	int n = snprintf(msg, sizeof msg,
			 "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n"
			 "Connection: close\r\n\r\n%s\n",
			 code, text, body, k->reason);
	if (n > 0)
		reply(k, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
}

static void socks_reply(struct conn *k, unsigned char code)
{
	unsigned char r[22] = { 5, code, 0, 1 };
	size_t n = 10;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	if (code == 0 && getsockname(k->sfd, (struct sockaddr *)&ss, &sl) == 0) {
		if (ss.ss_family == AF_INET) {
			const struct sockaddr_in *v4 = (const void *)&ss;
			memcpy(r + 4, &v4->sin_addr, 4);
			memcpy(r + 8, &v4->sin_port, 2);
		} else if (ss.ss_family == AF_INET6) {
			const struct sockaddr_in6 *v6 = (const void *)&ss;
			r[3] = 4;
			memcpy(r + 4, &v6->sin6_addr, 16);
			memcpy(r + 20, &v6->sin6_port, 2);
			n = 22;
		}
	}
	reply(k, r, n);
}

/* The outcome of deciding and connecting; each has its HTTP and SOCKS5
 * answer. */
enum outcome { OK, REFUSED, UNRESOLVED, UNREACHABLE, CONN_REFUSED, TIMED_OUT, STOPPED,
	       UPSTREAM };

static void answer(struct conn *k, enum outcome o)
{
	static const struct {
		int http;
		const char *text;
		unsigned char socks;
	} a[] = {
		[REFUSED] = { 403, "Forbidden", 0x02 },
		[UNRESOLVED] = { 502, "Bad Gateway", 0x04 },
		[UNREACHABLE] = { 502, "Bad Gateway", 0x04 },
		[CONN_REFUSED] = { 502, "Bad Gateway", 0x05 },
		[TIMED_OUT] = { 504, "Gateway Timeout", 0x04 },
		[STOPPED] = { 502, "Bad Gateway", 0x01 },
		[UPSTREAM] = { 502, "Bad Gateway", 0x01 },
	};
	if (o == OK || o == STOPPED)
		return;
	if (k->proto == PROXY_SOCKS5)
		socks_reply(k, a[o].socks);
	else
		http_error(k, a[o].http, a[o].text);
}

/* "HOST" for the web ports, "HOST:PORT" otherwise, brackets for v6: what
 * to add to --allow-host. */
static void suggestion(const char *host, unsigned port, char *out, size_t len)
{
	bool v6 = strchr(host, ':') != NULL;
	if (port == 80 || port == 443)
		snprintf(out, len, v6 ? "[%s]" : "%s", host);
	else
		snprintf(out, len, v6 ? "[%s]:%u" : "%s:%u", host, port);
}

static enum outcome refuse_rule(struct conn *k)
{
	const struct proxy_config *c = k->s->c;
	char dest[PP_HOST_MAX + 16];
	bool v6 = strchr(k->host, ':') != NULL;
	snprintf(dest, sizeof dest, v6 ? "[%s]:%u" : "%s:%u", k->host, k->rec.port);
	if (allow_match_any_port(c->rules, c->nrules, k->host) >= 0) {
		snprintf(k->allow, sizeof k->allow, "%s", dest);
		snprintf(k->reason, sizeof k->reason,
			 "kjail: %s: port %u is not allowed for this host (add --allow-host %s)",
			 dest, k->rec.port, k->allow);
		k->rec.reason = "port not allowed";
	} else {
		suggestion(k->host, k->rec.port, k->allow, sizeof k->allow);
		snprintf(k->reason, sizeof k->reason,
			 "kjail: %s is not an allowed host (add --allow-host %s)", dest, k->allow);
		k->rec.reason = "not an allowed host";
	}
	k->rec.allow = k->allow;
	k->rec.verdict = "refused";
	return REFUSED;
}

static void note_rule(struct conn *k, long i)
{
	const struct allow_rule *r = &k->s->c->rules[i];
	k->rec.rule = r->text ? r->text : r->host;
	k->rec.origin = r->origin;
}

static enum outcome fail_with(struct conn *k, enum outcome o, const char *why)
{
	snprintf(k->reason, sizeof k->reason, "kjail: %s:%u: %s", k->host, k->rec.port, why);
	k->rec.verdict = "failed";
	k->rec.reason = why;
	return o;
}

static void note_address(struct conn *k, const struct addrinfo *ai)
{
	getnameinfo(ai->ai_addr, ai->ai_addrlen, k->address, sizeof k->address, NULL, 0,
		    NI_NUMERICHOST);
	k->rec.address = k->address;
}

/* The first address that passed the checks, asked of the upstream: its
 * refusal or silence is the answer (the next address would be asked of
 * the same upstream), a 502 whose line names it. */
static enum outcome through_upstream(struct conn *k, const struct addrinfo *ai,
				     long long deadline)
{
	char why[sizeof k->reason - PP_HOST_MAX - 32];
	bool stopped = false;
	int fd = dial_upstream(k->up, ai->ai_addr, deadline, k->s->stop_fd, why, sizeof why,
			       &stopped);
	note_address(k, ai);
	if (stopped)
		return STOPPED;
	if (fd < 0) {
		bool v6 = strchr(k->host, ':') != NULL;
		/* the host is at most PP_HOST_MAX: the phrase always has room */
		int n = snprintf(k->reason, sizeof k->reason, "kjail: %s%s%s:%u: ", v6 ? "[" : "",
				 k->host, v6 ? "]" : "", k->rec.port);
		snprintf(k->reason + n, sizeof k->reason - (size_t)n, "%s", why);
		k->rec.reason = k->reason + n;
		k->rec.verdict = "failed";
		return UPSTREAM;
	}
	k->sfd = fd;
	return OK;
}

static enum outcome connect_list(struct conn *k, const struct addrinfo *ai)
{
	const struct proxy_config *c = k->s->c;
	long long deadline = proxy_now_ms() + k->s->connect_ms;
	const char *internal = NULL;
	char internal_addr[INET6_ADDRSTRLEN] = "";
	int last = 0;
	for (; ai; ai = ai->ai_next) {
		if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6)
			continue;
		const char *why = addr_internal(ai->ai_addr);
		long lit = why ? allow_match_addr(c->rules, c->nrules, ai->ai_addr, k->rec.port) : -1;
		if (why && lit < 0) {
			if (!internal) {
				internal = why;
				getnameinfo(ai->ai_addr, ai->ai_addrlen, internal_addr,
					    sizeof internal_addr, NULL, 0, NI_NUMERICHOST);
			}
			continue;
		}
		if (k->up)
			return through_upstream(k, ai, deadline);
		int fd = dial_addr(ai->ai_addr, ai->ai_addrlen, deadline, k->s->stop_fd);
		if (fd >= 0) {
			k->sfd = fd;
			note_address(k, ai);
			return OK;
		}
		last = -fd;
		if (last == ECANCELED)
			return STOPPED;
	}
	if (last == 0 && internal) {
		snprintf(k->allow, sizeof k->allow, strchr(internal_addr, ':') ? "[%s]:%u" : "%s:%u",
			 internal_addr, k->rec.port);
		snprintf(k->reason, sizeof k->reason,
			 "kjail: %s:%u resolves to %s, a%s %s address (add --allow-host %s to allow "
			 "it)",
			 k->host, k->rec.port, internal_addr,
			 strchr("aeiou", internal[0]) ? "n" : "", internal, k->allow);
		k->rec.allow = k->allow;
		k->rec.verdict = "refused";
		k->rec.reason = internal;
		snprintf(k->address, sizeof k->address, "%s", internal_addr);
		k->rec.address = k->address;
		return REFUSED;
	}
	if (last == ETIMEDOUT)
		return fail_with(k, TIMED_OUT, "connection timed out");
	if (last == ECONNREFUSED)
		return fail_with(k, CONN_REFUSED, "connection refused");
	return fail_with(k, UNREACHABLE, last ? strerror(last) : "no address to connect to");
}

/* Whether host is an IP literal (IPv6 without brackets). */
static bool is_literal(const char *host)
{
	unsigned char a[16];
	return inet_pton(AF_INET, host, a) == 1 || inet_pton(AF_INET6, host, a) == 1;
}

/* A loopback rule (rules.h) allowed it: the host's own loopback, never
 * what a resolver says "localhost" is. The destination's literal if it
 * is one, else the rule's address, or 127.0.0.1 then ::1 for a rule
 * naming localhost. */
static enum outcome connect_loopback(struct conn *k, const struct allow_rule *r,
				     const char *port)
{
	const char *lit[2] = { NULL, NULL };
	if (is_literal(k->host))
		lit[0] = k->host;
	else if (r->kind == ALLOW_NAME)
		lit[0] = "127.0.0.1", lit[1] = "::1";
	else
		lit[0] = r->host;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_protocol = IPPROTO_TCP,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
	struct addrinfo *ai[2] = { NULL, NULL };
	for (size_t j = 0; j < 2 && lit[j]; j++)
		if (getaddrinfo(lit[j], port, &hints, &ai[j]) != 0)
			ai[j] = NULL;
	if (!ai[0] && !ai[1])
		return fail_with(k, UNREACHABLE, "no address to connect to");
	struct addrinfo *tail = NULL;
	if (ai[0]) {
		for (tail = ai[0]; tail->ai_next; tail = tail->ai_next)
			;
		tail->ai_next = ai[1];
	}
	enum outcome o = connect_list(k, ai[0] ? ai[0] : ai[1]);
	if (tail)
		tail->ai_next = NULL;
	for (size_t j = 0; j < 2; j++)
		if (ai[j])
			freeaddrinfo(ai[j]);
	return o;
}

/* The caller's upstream for this request: an absolute-form HTTP request
 * goes by HTTP_PROXY's, a tunnel (CONNECT, SOCKS5) by HTTPS_PROXY's (each
 * else ALL_PROXY's, policy/egress.h), unless NO_PROXY names the
 * destination; the upstream is always asked for a tunnel. */
static const struct upstream *pick_upstream(const struct conn *k)
{
	const struct proxy_serving *s = k->s;
	bool http = strcmp(k->rec.proto, "http") == 0;
	const struct upstream *u = http ? s->up_http : s->up_tunnel;
	if (u && s->c->no_proxy && upstream_no_proxy_match(s->c->no_proxy, k->host, k->rec.port))
		return NULL;
	return u;
}

/* The rule check (before any resolving), then the addresses. */
static enum outcome decide_and_connect(struct conn *k)
{
	const struct proxy_config *c = k->s->c;
	k->rec.host = k->host;
	long i = allow_match(c->rules, c->nrules, k->host, k->rec.port);
	if (i < 0)
		return refuse_rule(k);
	note_rule(k, i);
	k->up = pick_upstream(k);
	k->rec.upstream = k->up ? k->up->shown : NULL;
	char port[8];
	snprintf(port, sizeof port, "%u", k->rec.port);
	if (allow_loopback(&c->rules[i])) {
		/* the host's own loopback: never through an upstream */
		k->up = NULL;
		k->rec.upstream = NULL;
		enum outcome o = connect_loopback(k, &c->rules[i], port);
		if (o == OK)
			k->rec.verdict = "allowed";
		return o;
	}
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_protocol = IPPROTO_TCP };
	struct addrinfo *ai = NULL;
	/* a rule for an address matched an address: never the resolver */
	if (c->rules[i].kind == ALLOW_IPV4 || c->rules[i].kind == ALLOW_IPV6)
		hints.ai_flags = AI_NUMERICHOST;
	int e = getaddrinfo(k->host, port, &hints, &ai);
	if (e != 0)
		return fail_with(k, UNRESOLVED, e == EAI_SYSTEM ? strerror(errno) : gai_strerror(e));
	enum outcome o = connect_list(k, ai);
	freeaddrinfo(ai);
	if (o == OK)
		k->rec.verdict = "allowed";
	return o;
}

static void bad_request(struct conn *k, const char *why)
{
	snprintf(k->reason, sizeof k->reason, "kjail: bad request: %s", why);
	k->rec.verdict = "failed";
	k->rec.reason = why;
	if (k->proto == PROXY_HTTP)
		http_error(k, 400, "Bad Request");
}

/* A refusal after the tunnel was answered: the client gets an alert or a
 * 403 if it speaks TLS or HTTP, else the connection just closes. */
static void refuse_inside(struct conn *k)
{
	/* TLS alert record: fatal (2), access_denied (49) */
	static const unsigned char alert[] = { 21, 3, 3, 0, 2, 2, 49 };
	const struct inspect *g = &k->gate;
	const char *why = g->why ? g->why : "too much sent before the proxy could decide";
	const char *name = g->http_host[0] ? g->http_host : g->sni;
	bool v6 = strchr(k->host, ':') != NULL;
	snprintf(k->reason, sizeof k->reason, "kjail: %s%s%s:%u: %s%s%s%s", v6 ? "[" : "", k->host,
		 v6 ? "]" : "", k->rec.port, why, *name ? " (" : "", name, *name ? ")" : "");
	k->rec.verdict = "refused";
	k->rec.reason = why;
	/* What the summary suggests: a name the proxy read and refused is not
	 * one any --allow-host lets through this destination (""), while what
	 * it could not read passes on a rule naming the port (HOST:PORT),
	 * unless such a rule already allowed it (a loopback rule always
	 * names its port): then no --allow-host would help either. */
	if (*name || !g->web_only)
		k->allow[0] = '\0';
	else
		snprintf(k->allow, sizeof k->allow, v6 ? "[%s]:%u" : "%s:%u", k->host, k->rec.port);
	k->rec.allow = k->allow;
	if (g->why && g->answer == INSPECT_TLS_ALERT)
		reply(k, alert, sizeof alert);
	else if (g->why && g->answer == INSPECT_HTTP_403)
		http_error(k, 403, "Forbidden");
}

/* Relays through the gate, then notes what it saw. */
static void relay(struct conn *k, const struct relay_start *st)
{
	bool ok = proxy_relay(k->cfd, k->sfd, st, k->s->idle_ms, k->s->stop_fd, &k->s->budget,
			      &k->rec.bytes_out, &k->rec.bytes_in);
	k->rec.sni = k->gate.sni[0] ? k->gate.sni : NULL;
	k->rec.http_host = k->gate.http_host[0] ? k->gate.http_host : NULL;
	if (!ok)
		refuse_inside(k);
}

static void serve_http(struct conn *k)
{
	struct pp_http h;
	const char *why = "no request";
	enum pp_status st;
	k->rec.proto = "http";
	while ((st = pp_http_head(k->buf, k->len, PROXY_HEADER_MAX, &h, &why)) == PP_NEED_MORE)
		if (!read_more(k)) {
			why = k->len ? "an incomplete request head" : NULL;
			break;
		}
	if (st != PP_OK) {
		if (why)
			bad_request(k, why);
		return;
	}
	k->rec.proto = h.connect ? "connect" : "http";
	/* an absolute-form request is framed as the server will frame it,
	 * strictly, before anything is connected */
	struct pp_request q;
	if (!h.connect &&
	    pp_http_request(k->buf, h.head_len, PROXY_HEADER_MAX, &q, &why) != PP_OK) {
		bad_request(k, why);
		return;
	}
	snprintf(k->host, sizeof k->host, "%s", h.host);
	k->rec.port = h.port;
	enum outcome o = decide_and_connect(k);
	if (o != OK) {
		answer(k, o);
		return;
	}
	struct relay_start rs = { .early = k->buf + h.head_len, .nearly = k->len - h.head_len,
				  .gate = &k->gate };
	if (h.connect) {
		static const char ok[] = "HTTP/1.1 200 Connection established\r\n\r\n";
		if (!proxy_send_all(k->cfd, ok, sizeof ok - 1, k->s->idle_ms, k->s->stop_fd))
			return;
		inspect_tunnel(&k->gate, k->s->c->rules, k->s->c->nrules, k->host, k->rec.port);
		relay(k, &rs);
		return;
	}
	/* its body goes on, framed as the server will frame it; nothing
	 * after it (the server was told Connection: close) */
	inspect_proxy_request(&k->gate, &q);
	size_t cap = PROXY_HEADER_MAX + PP_HOST_MAX + 64;
	char *head = malloc(cap);
	rs.nhead = head ? pp_http_rewrite(k->buf, &h, head, cap) : 0;
	if (rs.nhead == 0) {
		free(head);
		fail_with(k, UNREACHABLE, "out of memory");
		return;
	}
	rs.head = head;
	relay(k, &rs);
	free(head);
}

/* The bytes a SOCKS5 message needs, by the parser given. */
static bool socks_greet(struct conn *k)
{
	size_t used = 0;
	bool noauth = false;
	const char *why = NULL;
	enum pp_status st;
	while ((st = pp_socks_greeting((unsigned char *)k->buf, k->len, &used, &noauth, &why)) ==
	       PP_NEED_MORE)
		if (!read_more(k))
			return false;
	if (st != PP_OK) {
		bad_request(k, why);
		return false;
	}
	unsigned char r[2] = { 5, noauth ? 0x00 : 0xff };
	reply(k, r, 2);
	if (!noauth) {
		bad_request(k, "a SOCKS5 client that will not go without authentication");
		return false;
	}
	memmove(k->buf, k->buf + used, k->len - used);
	k->len -= used;
	return true;
}

static void serve_socks(struct conn *k)
{
	struct pp_socks q;
	size_t used = 0;
	unsigned char code = 0x01;
	const char *why = NULL;
	enum pp_status st;
	k->rec.proto = "socks5";
	if (!socks_greet(k))
		return;
	while ((st = pp_socks_request((unsigned char *)k->buf, k->len, &used, &q, &code, &why)) ==
	       PP_NEED_MORE)
		if (!read_more(k)) {
			bad_request(k, "an incomplete SOCKS5 request");
			return;
		}
	if (st != PP_OK) {
		bad_request(k, why);
		socks_reply(k, code);
		return;
	}
	snprintf(k->host, sizeof k->host, "%s", q.host);
	k->rec.port = q.port;
	enum outcome o = decide_and_connect(k);
	if (o != OK) {
		answer(k, o);
		return;
	}
	socks_reply(k, 0);
	inspect_tunnel(&k->gate, k->s->c->rules, k->s->c->nrules, k->host, k->rec.port);
	struct relay_start rs = { .early = k->buf + used, .nearly = k->len - used,
				  .gate = &k->gate };
	relay(k, &rs);
}

/* Ends the client's connection with a reset: what its client sees of a
 * host port that refused or is not allowed, as near as a listener that
 * accepted can come to "connection refused". */
static void reset(struct conn *k)
{
	struct linger l = { 1, 0 };
	setsockopt(k->cfd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
}

/* A connection to a loopback listener the jail's entry program made for
 * a loopback rule (proxy.h): the destination is the address and port the
 * client reached in the jail, the same on the host's loopback. */
static void serve_local(struct conn *k)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	char port[8];
	k->rec.proto = "local";
	if (getsockname(k->cfd, (struct sockaddr *)&ss, &sl) != 0 ||
	    (ss.ss_family != AF_INET && ss.ss_family != AF_INET6) ||
	    getnameinfo((struct sockaddr *)&ss, sl, k->host, sizeof k->host, port, sizeof port,
			NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		bad_request(k, "a local listener without an address");
		reset(k);
		return;
	}
	k->rec.port = (unsigned)atoi(port);
	/* only the loopback is forwarded, whatever a listener was bound to */
	const char *why = addr_internal((struct sockaddr *)&ss);
	if (!why || strcmp(why, "loopback") != 0) {
		bad_request(k, "a local listener not on the loopback");
		reset(k);
		return;
	}
	if (decide_and_connect(k) != OK) {
		reset(k);
		return;
	}
	inspect_tunnel(&k->gate, k->s->c->rules, k->s->c->nrules, k->host, k->rec.port);
	struct relay_start rs = { .early = k->buf, .nearly = 0, .gate = &k->gate };
	relay(k, &rs);
}

static void *conn_main(void *arg)
{
	struct conn *k = arg;
	struct proxy_serving *s = k->s;
	k->deadline = proxy_now_ms() + s->header_ms;
	k->rec.verdict = "failed";
	if (k->proto == PROXY_HTTP)
		serve_http(k);
	else if (k->proto == PROXY_SOCKS5)
		serve_socks(k);
	else
		serve_local(k);
	if (k->rec.reason || k->rec.host || k->len)
		proxy_log_write(s->log, &k->rec);
	close(k->cfd);
	if (k->sfd >= 0)
		close(k->sfd);
	free(k);
	atomic_fetch_sub(&s->active, 1);
	ssize_t w = write(s->done[1], "x", 1);
	(void)w; /* a full pipe is already readable */
	return NULL;
}

void proxy_conn_start(struct proxy_serving *s, int fd, enum proxy_proto proto)
{
	struct conn *k = calloc(1, sizeof *k);
	pthread_attr_t at;
	pthread_t t;
	if (!k) {
		close(fd);
		return;
	}
	k->s = s;
	k->cfd = fd;
	k->sfd = -1;
	k->proto = proto;
	atomic_fetch_add(&s->active, 1);
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&at, THREAD_STACK);
	if (pthread_create(&t, &at, conn_main, k) != 0) {
		atomic_fetch_sub(&s->active, 1);
		close(fd);
		free(k);
	}
	pthread_attr_destroy(&at);
}
