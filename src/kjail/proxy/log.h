/* SPDX-License-Identifier: MIT */
/* proxy/log.c: the log's lines and the run's summary of them. */
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
	unsigned long long bytes_out, bytes_in;
};

/* Appends the record as one line with one write(); -1 if it failed. */
int proxy_log_write(int fd, const struct proxy_record *r);

/* Reads the log from the start and writes the run's summary of refusals
 * into out: "refused 3 connections: evil.example:443 (2), 10.0.0.5:22 (1)"
 * (at most 5 destinations, then ", ..."; a connection refused at a cap
 * counts under its reason, "connection cap reached"); returns how many
 * connections were refused (0: out is ""), or -1 if the log cannot be
 * read. */
long proxy_log_summary(int log_fd, char *out, size_t len);

#endif
