/* SPDX-License-Identifier: MIT */
/* proxy/handoff.c: what kjail hands its proxy program, kjail-proxy,
 * besides descriptors: struct proxy_config's rules and limits and kjail's
 * pid, as bytes on a socket (never argv or the environment, which others
 * can read in /proc and which would outlive their use).
 *
 * The bytes are kjail's and its proxy's of one build: a version line, the
 * fields one a line, the upstream proxy's URLs and NO_PROXY (each a
 * length and its bytes; checked again with upstream_parse(), as rules
 * are), then each rule as the lengths of its text and origin
 * and those bytes. The proxy parses each rule's text again with
 * allow_parse(), so a rule means in the proxy exactly what it meant in
 * kjail and nothing but a value kjail accepted travels. The reader is
 * strict: any other byte, a length past the end, a text allow_parse
 * refuses, is an error. */
#ifndef KJ_PROXY_HANDOFF_H
#define KJ_PROXY_HANDOFF_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "proxy/proxy.h"

/* What the proxy reads: at most this many bytes and rules (a rule is at
 * most a few KiB with its origin's path; a config names a few dozen). */
#define PROXY_HANDOFF_MAX (4U << 20)
#define PROXY_HANDOFF_RULES_MAX 65536

struct proxy_handoff {
	struct proxy_config c; /* rules point into rules_buf; log_fd -1 */
	bool log;              /* kjail handed a log descriptor */
	pid_t parent;          /* kjail, the proxy's parent */
	struct allow_rule *rules_buf;
	char *bytes;           /* the rules' texts and origins point in here */
	char *strs[3];         /* c's upstream URLs and no_proxy point here */
};

/* The bytes for c (c->log_fd >= 0: there is a log) and parent; allocated,
 * *len set. Pure. */
char *proxy_handoff_encode(const struct proxy_config *c, pid_t parent, size_t *len);

/* Reads len bytes at buf into h, which then owns copies of what it needs;
 * false with one phrase in err ("rule 2: a port of 0 is not a port").
 * Pure. */
bool proxy_handoff_decode(const char *buf, size_t len, struct proxy_handoff *h, char *err,
			  size_t errlen);

void proxy_handoff_free(struct proxy_handoff *h);

/* Writes the bytes on fd, a stream socket, with no SIGPIPE if the reader
 * is gone: 0, or -1 with errno. */
int proxy_handoff_send(int fd, const struct proxy_config *c, pid_t parent);

/* Reads fd to its end (at most PROXY_HANDOFF_MAX) and decodes it. */
bool proxy_handoff_recv(int fd, struct proxy_handoff *h, char *err, size_t errlen);

#endif
