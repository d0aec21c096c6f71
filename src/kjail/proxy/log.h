/* SPDX-License-Identifier: MIT */
/* proxy/log.c: the proxy's log, its cap, its counts and the summary line
 * it ends with. */
#ifndef KJ_PROXY_LOG_H
#define KJ_PROXY_LOG_H

#include "proxy/proxy.h"

/* What one connection's log line says. */
struct proxy_record {
	const char *proto;    /* "connect", "http", "socks5" */
	const char *host;     /* NULL: never learnt (a bad request) */
	unsigned port;
	const char *verdict;  /* "allowed", "refused", "failed" */
	const char *reason;   /* NULL when allowed and relayed */
	const char *rule;     /* the rule's text, or NULL */
	const char *origin;
	const char *address;  /* the address connected to, or NULL */
	const char *sni;      /* the name a tunnel's ClientHello carried, or NULL */
	const char *http_host; /* the host an HTTP request in it named, or NULL */
	const char *upstream; /* the upstream proxy it went through, its
			       * credentials hidden (upstream.h), or NULL */
	const char *allow;    /* refused: the value of --allow-host that would
			       * allow it, as the refusal's line names it (NULL:
			       * HOST, or HOST:PORT off the web ports) */
	unsigned long long bytes_out, bytes_in;
};

struct proxy_log;

/* The log on fd (-1: nothing written, only counted), at most cap bytes
 * (0: PROXY_LOG_CAP_DEFAULT). The proxy keeps its own offset: O_APPEND
 * is cleared, and with fd open for reading too (O_RDWR) the cap drops
 * the oldest lines and keeps the newest half, else it starts the log
 * over. NULL if out of memory. */
struct proxy_log *proxy_log_open(int fd, size_t cap);

/* Counts the record and appends it as one line under the lock (lines of
 * concurrent connections never interleave), first making room under the
 * cap; nothing after proxy_log_finish(). -1 if the line was lost. */
int proxy_log_write(struct proxy_log *l, const struct proxy_record *r);

/* The last line (proxy.h gives its format): the counts of the whole run
 * and the destinations refused most; nothing is written after it. -1 if
 * it could not be written. */
int proxy_log_finish(struct proxy_log *l);

void proxy_log_free(struct proxy_log *l);

#endif
