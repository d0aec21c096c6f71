/* SPDX-License-Identifier: MIT */
/* proxy/summary.c: kjail's one line, after the run, about what the proxy
 * refused. */
#ifndef KJ_PROXY_SUMMARY_H
#define KJ_PROXY_SUMMARY_H

#include <stddef.h>

/* The most the proxy's summary line may take (proxy.h), its newline
 * included: PROXY_SUMMARY_TOP destinations of at most PP_HOST_MAX bytes
 * each, twice, and the counts. */
#define PROXY_SUMMARY_MAX 8192

/* Reads the last line of the log (its final PROXY_SUMMARY_MAX bytes at
 * most, one read: the cost does not grow with the log), which the proxy
 * wrote when it stopped, and writes the refusals into out:
 *   "refused 3 connections: evil.example:443 (2), 10.0.0.5:22 (1); add
 *    --allow-host evil.example --allow-host 10.0.0.5:22 to allow them"
 * (PROXY_SUMMARY_TOP destinations at most, then "other destinations
 * (N)"), then the connections that failed (a 502: the server refused
 * it, could not be reached, the name did not resolve):
 *   "; 1 connection failed: git.example:22 (connection refused, 1)"
 * (alone when nothing was refused). Strict: a line that is not a summary
 * as the proxy writes it (type, counts, destinations and values of
 * printable ASCII) is none. Returns how many connections were refused
 * or failed (0: out is ""), or -1 when the log cannot be read or ends in
 * no summary (the proxy did not stop well). */
long proxy_summary(int log_fd, char *out, size_t len);

#endif
