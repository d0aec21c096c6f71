/* SPDX-License-Identifier: MIT */
/* The egress proxy: what a jail with --allow-host reaches the network
 * through. It runs outside the jail, as a program of its own
 * (kjail-proxy, proxy/kjail-proxy.c) that kjail starts for the jail's
 * lifetime and that gives up its privileges before it reads anything from
 * the jail (proxy/privdrop.h, proxy/sandbox.h). It serves listeners that
 * the jail's entry program made inside the jail's own network namespace
 * (127.0.0.1:PROXY_HTTP_PORT and :PROXY_SOCKS_PORT there) and handed over
 * a Unix socket (fdpass.h): the proxy accepts on them directly, so no
 * relay runs inside the jail and nothing needs privilege. If the proxy
 * dies, the listeners close with it and the jail has no network at all.
 *
 * Local: for each loopback rule (proxy/rules.h: 127.0.0.1:PORT, any 127/8
 * address, [::1]:PORT, localhost:PORT) the entry program also listens at
 * that address and port in the jail (PROXY_LOCAL, tag "local"). A
 * connection there is a tunnel to the address and port the client
 * reached (getsockname, so a listener means only what the rules say it
 * may), on the host's loopback, checked, inspected and logged as a
 * CONNECT is ("proto":"local"); one no rule allows, or whose host port
 * refuses, is reset. So NO_PROXY's local names (PROXY_NO_PROXY), reached
 * directly, and CONNECT or SOCKS5 to them through the proxy end at the
 * same host port.
 *
 * HTTP: CONNECT host:port (any TLS, no interception) and absolute-form
 * requests (GET http://host/path), sent on with a Connection: close.
 * A tunnel's first bytes are read before they are relayed: the name a
 * TLS ClientHello or an HTTP request in it carries must be one the rules
 * allow for its destination (proxy/inspect.h).
 * SOCKS5: no authentication, the CONNECT command, IPv4, IPv6 and domain
 * name addresses. Every destination is checked against the rules
 * (proxy/rules.h) before anything is resolved; a name is resolved here (the
 * jail has no DNS) and refused if it resolves to an internal address
 * (addr_internal()) that no literal rule allows. A refusal is an HTTP 403
 * with one line "kjail: HOST:PORT is not an allowed host (add
 * --allow-host HOST)" (or the reason), or SOCKS5 reply 0x02. Every
 * allowed and refused connection is one JSON line in the log:
 *   {"time":"2026-12-02T05:00:00Z","proto":"connect"|"http"|"socks5"|"local",
 *    "host":H,"port":P,"verdict":"allowed"|"refused"|"failed",
 *    "reason":R|null,"rule":TEXT|null,"origin":ORIGIN|null,"address":A|null,
 *    "sni":NAME|null,"http_host":NAME|null,"upstream":URL|null,
 *    "bytes_out":N,"bytes_in":N}
 * (a refused one when refused, an allowed one when it closes). "failed":
 * a request that could not be served though no rule refused it: a bad
 * request (host null), a name that does not resolve, a connect that
 * fails or times out, an upstream proxy that cannot be reached or refuses
 * (a 502 whose line names it); R says which. "upstream": the caller's
 * upstream proxy (proxy/upstream.h) the connection went through, its
 * credentials hidden, or null (direct). A client that connects and sends
 * nothing is not logged.
 *
 * The log is capped (log_cap): a line that would pass the cap first drops
 * the oldest lines, keeping the newest half. The counts are kept in the
 * proxy's memory (bounded: TALLY_MAX destinations by name) and, when it
 * stops, written as the log's last line:
 *   {"time":T,"type":"summary","allowed":N,"refused":N,"failed":N,
 *    "dropped_lines":N,"refused_top":[{"destination":"H:P",
 *    "allow_host":A,"count":N}...],"refused_other":N,
 *    "failed_top":[{"destination":"H:P","reason":R,"count":N}...],
 *    "failed_other":N,"bad_requests":N}
 * (refused_top: the PROXY_SUMMARY_TOP destinations refused most, each
 * with the value of --allow-host its refusal named; refused_other: the
 * refusals not among them; failed_top and failed_other the same for
 * failures to a destination, by destination and reason: the 502s, a
 * server that refused the connection or could not be reached, a name
 * that did not resolve; bad_requests: the failures before any
 * destination was read, so failed is the sum of the three).
 * doc/kjail-net-log.schema.json
 * gives both shapes. kjail's report after the run reads that line
 * alone (proxy/summary.h).
 *
 * Portable C (Linux and macOS): read/write through a buffer per direction
 * (doc/performance.md says why not splice). One thread per connection.
 *
 * Bounded: at most max_conns connections at once; one more is accepted and
 * refused at once (HTTP 503, or SOCKS5's "no acceptable method") and logged
 * as refused with the reason "connection cap reached" and host null. The
 * connections hold at most `budget` bytes together: each its state and
 * thread (counted as 32 KiB, proxy/serve.c) and two small relay buffers
 * (16 KiB) whatever the budget, and, while a tunnel's gate holds more
 * than a small buffer undecided, a 32 KiB one for it (INSPECT_HOLD_MAX):
 * the cap bounds those (96 MiB at 1,024 at the very worst); a busy
 * tunnel's buffers grow only while the total stays within the budget and
 * go back when it idles (proxy/relay.c). A tunnel that finds no
 * budget keeps its small buffers and is only slower. */
#ifndef KJ_PROXY_H
#define KJ_PROXY_H

#include <stddef.h>
#include <sys/types.h>

#include "proxy/rules.h"

/* The jail's side: fixed, since the jail's network namespace is its own. */
#define PROXY_HTTP_PORT 3128
#define PROXY_SOCKS_PORT 1080
#define PROXY_HTTP_URL "http://127.0.0.1:3128"
#define PROXY_SOCKS_URL "socks5h://127.0.0.1:1080"
#define PROXY_NO_PROXY "localhost,127.0.0.1,::1"
/* The proxy's log on the host: in a 0700 directory made from this
 * (mkdtemp), which must not lie where the jail can write */
#define PROXY_LOG_DIR_TEMPLATE "/tmp/kjail-net.XXXXXX"

#define PROXY_MAX_CONNS_DEFAULT 1024
#define PROXY_BUDGET_DEFAULT ((size_t)64 << 20)
#define PROXY_CONNECT_TIMEOUT_MS 10000
#define PROXY_IDLE_TIMEOUT_MS 300000
#define PROXY_HEADER_TIMEOUT_MS 10000
#define PROXY_HEADER_MAX 16384
#define PROXY_LOG_CAP_DEFAULT (4u << 20) /* 4 MiB: some 15,000 lines */
#define PROXY_SUMMARY_TOP 5

/* PROXY_LOCAL: a loopback rule's listener (tag "local") */
enum proxy_proto { PROXY_HTTP, PROXY_SOCKS5, PROXY_LOCAL };

struct proxy_listener {
	int fd;                /* listening, non-blocking or not */
	enum proxy_proto proto;
};

struct proxy_config {
	const struct allow_rule *rules;
	size_t nrules;
	int log_fd;            /* -1: no log; O_RDWR lets the cap keep the
				* newest half (proxy/log.h) */
	size_t log_cap;        /* 0: PROXY_LOG_CAP_DEFAULT */
	unsigned max_conns;    /* 0: PROXY_MAX_CONNS_DEFAULT */
	size_t budget;         /* bytes; 0: PROXY_BUDGET_DEFAULT */
	int connect_timeout_ms; /* 0: the defaults above */
	int idle_timeout_ms;
	int header_timeout_ms;
	/* The caller's upstream proxy (proxy/upstream.h), which every
	 * connection the rules allow goes through once its address has been
	 * checked, unless no_proxy names its destination: a URL for tunnels
	 * (CONNECT, SOCKS5) and one for absolute-form HTTP requests, each
	 * NULL for none (direct); no_proxy NULL for none. */
	const char *upstream_tunnel;
	const char *upstream_http;
	const char *no_proxy;
};

/* The reason of a refusal at the connection cap, before any destination
 * was read: the one refusal counted under its reason, not a host. */
#define PROXY_REASON_CAP "connection cap reached"

#endif
