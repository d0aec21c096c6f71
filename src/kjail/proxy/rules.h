/* SPDX-License-Identifier: MIT */
/* The egress allowlist (--allow-host, allow-host = in [sandbox]): parsing
 * one value, the built-in groups, and matching a destination against the
 * rules. Pure: no I/O, no resolver; the proxy (proxy.h) and the policy
 * (conf.c, main.c) both use it.
 *
 * A value is HOST[:PORT]:
 *   HOST  a DNS name (api.openai.com), matched case-insensitively with a
 *         trailing dot ignored; "*.SUFFIX" for any name under SUFFIX (not
 *         SUFFIX itself); an IPv4 literal; a bracketed IPv6 literal
 *         ([2001:db8::1]); or "@GROUP", a built-in group (allow_group()).
 *   PORT  1..65535, or "*" for any port; absent: 80 and 443.
 * Refused (allow_parse() returns false and names why in one phrase):
 * empty, "*", "*.", a bare "*" inside a name other than a leading "*.", a
 * scheme ("https://..."), a path, query or user part, a port of 0 or over
 * 65535, an unbracketed IPv6 literal, a name over 253 bytes or a label
 * over 63, characters outside [A-Za-z0-9.-_], an unknown group.
 *
 * A loopback rule (allow_loopback(): an IPv4 literal in 127/8, [::1], or
 * the name "localhost") forwards that port of the host's loopback: the
 * jail's entry program listens at the same address inside the jail and
 * the proxy relays it (proxy.h). kjail takes one only with one port of
 * 1024 or more (allow_loopback_check(): no default 80 and 443, no "*":
 * the jail listens without privilege); the proxy's matching takes any.
 * "localhost" means 127.0.0.1 and ::1, never what a resolver says: a
 * localhost rule matches those two literals, and the name "localhost"
 * matches a rule for 127.0.0.1 or [::1] on its port. Those three are
 * what the jail's NO_PROXY (PROXY_NO_PROXY) calls local. */
#ifndef KJ_ALLOWHOST_H
#define KJ_ALLOWHOST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

enum allow_kind {
	ALLOW_NAME,   /* host is the name, lower case, no trailing dot */
	ALLOW_SUFFIX, /* "*.example.org": host is "example.org" */
	ALLOW_IPV4,   /* host is the literal's canonical text; addr its 4 bytes */
	ALLOW_IPV6,   /* host is the canonical text without brackets; addr 16 bytes */
};

#define ALLOW_PORT_WEB 0   /* no port given: 80 and 443 */
#define ALLOW_PORT_ANY (-1) /* ":*" */

#define ALLOW_HOST_MAX 254 /* 253 bytes and the NUL */
#define ALLOW_LOOPBACK_PORT_MIN 1024

struct allow_rule {
	enum allow_kind kind;
	char host[ALLOW_HOST_MAX];
	unsigned char addr[16];
	int port;             /* 1..65535, ALLOW_PORT_WEB or ALLOW_PORT_ANY */
	const char *text;     /* the entry as written (for a group's member:
			       * the member), not owned */
	const char *origin;   /* "--allow-host", "FILE:LINE", or
			       * "FILE:LINE (@models)" for a group's member;
			       * not owned */
};

/* Parses one value that is not a group into *out (text and origin left
 * NULL for the caller to set). On error returns false and sets *why to a
 * static phrase ("a port of 0 is not a port", "a scheme is not part of a
 * host: write api.example.com, not https://api.example.com", ...), which
 * callers print as "ORIGIN: --allow-host VALUE: WHY". */
bool allow_parse(const char *value, struct allow_rule *out, const char **why);

/* Whether r is a loopback rule (above). */
bool allow_loopback(const struct allow_rule *r);

/* What kjail requires of a loopback rule, whose port the jail listens on:
 * NULL when r is not one or names one port of 1024 or more that is not
 * the proxy's own (127.0.0.1:3128 and :1080), else why not, in one
 * phrase ("a loopback rule needs its port: ..."). */
const char *allow_loopback_check(const struct allow_rule *r);

/* A loopback rule that passes allow_loopback_check(): one whose port
 * kjail forwards into the jail. */
bool allow_forwarded(const struct allow_rule *r);

/* A built-in group: name without the '@' -> its members (NULL-terminated),
 * or NULL if there is no such group. The groups are one table in
 * proxy/rules.c (at least "models": the common hosted model APIs, and
 * "registries": the common package registries). */
const char *const *allow_group(const char *name);
/* The groups' names, NULL-terminated, in table order (for --help/docs). */
const char *const *allow_group_names(void);

/* The first rule that allows HOST (a name as the client sent it, or an IP
 * literal, IPv6 without brackets) on PORT, or -1. A name never matches an
 * address rule and an address never matches a name rule, but for
 * "localhost" and its two addresses (loopback rules, above). */
long allow_match(const struct allow_rule *r, size_t n, const char *host, unsigned port);

/* The first rule that allows HOST on some port, or -1: whether a refusal
 * is for the port or for the host. */
long allow_match_any_port(const struct allow_rule *r, size_t n, const char *host);

/* The first address rule (ALLOW_IPV4/ALLOW_IPV6) that names exactly the
 * address in sa (AF_INET or AF_INET6; a v4-mapped v6 address counts as
 * v4) on PORT, or -1. */
long allow_match_addr(const struct allow_rule *r, size_t n, const struct sockaddr *sa,
		      unsigned port);

/* Why the proxy must not connect to sa unless a literal rule names it:
 * "loopback", "private", "link-local", "CGNAT", "multicast", "cloud
 * metadata", "unspecified", "reserved" (and the v6 forms: ::1, fc00::/7,
 * fe80::/10, ff00::/8, fd00:ec2::254, v4-mapped and NAT64 forms of the
 * v4 ones); NULL for a public address. */
const char *addr_internal(const struct sockaddr *sa);

#endif
