/* SPDX-License-Identifier: MIT */
/* The egress allowlist: one value parsed, the groups (one table), a
 * destination matched, an address classified. Pure; see proxy/rules.h. */
#include "config.h"

#include "proxy/rules.h"
#include "proxy/proxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>

/* The built-in groups, the only place they are listed: --explain expands
 * them and the docs name them from here. */
static const char *const group_models[] = {
	"api.openai.com",
	"api.anthropic.com",
	"generativelanguage.googleapis.com",
	"api.mistral.ai",
	"api.groq.com",
	"openrouter.ai",
	"api.together.xyz",
	"api.deepseek.com",
	"api.fireworks.ai",
	"api.cohere.com",
	"api.x.ai",
	"api.perplexity.ai",
	NULL,
};

static const char *const group_registries[] = {
	"registry.npmjs.org",
	"registry.yarnpkg.com",
	"pypi.org",
	"files.pythonhosted.org",
	"crates.io",
	"static.crates.io",
	"index.crates.io",
	"proxy.golang.org",
	"sum.golang.org",
	"rubygems.org",
	"index.rubygems.org",
	"repo.maven.apache.org",
	"repo1.maven.org",
	"plugins.gradle.org",
	"api.nuget.org",
	"repo.packagist.org",
	"hackage.haskell.org",
	NULL,
};

static const struct {
	const char *name;
	const char *const *members;
} groups[] = {
	{ "models", group_models },
	{ "registries", group_registries },
};

static const char *const group_name_list[] = { "models", "registries", NULL };

const char *const *allow_group(const char *name)
{
	for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
		if (strcmp(groups[i].name, name) == 0)
			return groups[i].members;
	return NULL;
}

const char *const *allow_group_names(void)
{
	return group_name_list;
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/* s (n bytes) as a DNS name into out: lower case, one trailing dot
 * dropped. NULL when it is one, else why not. */
static const char *name_canon(const char *s, size_t n, char out[ALLOW_HOST_MAX])
{
	if (n > 0 && s[n - 1] == '.')
		n--;
	if (n == 0)
		return "an empty name is not a host";
	if (n > ALLOW_HOST_MAX - 1)
		return "a name over 253 bytes is not a DNS name";
	size_t label = 0;
	bool last_digits = true;
	for (size_t i = 0; i < n; i++) {
		char c = lower(s[i]);
		if (c == '.') {
			if (label == 0)
				return "an empty label (\"..\" or a leading dot) is not a DNS name";
			label = 0;
			last_digits = true;
		} else if (!name_char(c)) {
			return c == '*' ? "a \"*\" may only lead a name, as in *.example.org"
					: "a host name has only letters, digits, '.', '-' and '_'";
		} else {
			if (++label > 63)
				return "a label over 63 bytes is not a DNS name";
			if (c < '0' || c > '9')
				last_digits = false;
		}
		out[i] = c;
	}
	out[n] = '\0';
	/* "1.2.3" or "0x7f.1" would be read as an address by the resolver */
	if (last_digits)
		return "a name whose last label is a number is not a DNS name: write an IPv4 "
		       "address in full (a.b.c.d)";
	return NULL;
}

/* A v4-mapped v6 address's v4 part (::ffff:a.b.c.d), else NULL. */
static const unsigned char *mapped_v4(const unsigned char a[16])
{
	static const unsigned char pre[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	return memcmp(a, pre, 12) == 0 ? a + 12 : NULL;
}

static void set_v4(struct allow_rule *r, const unsigned char v4[4])
{
	r->kind = ALLOW_IPV4;
	memset(r->addr, 0, sizeof r->addr);
	memcpy(r->addr, v4, 4);
	inet_ntop(AF_INET, v4, r->host, sizeof r->host);
}

/* The PORT part (after the ':'), into *port. */
static const char *parse_port(const char *p, int *port)
{
	if (*p == '\0')
		return "an empty port (write HOST or HOST:PORT)";
	if (strcmp(p, "*") == 0) {
		*port = ALLOW_PORT_ANY;
		return NULL;
	}
	long v = 0;
	for (const char *q = p; *q; q++) {
		if (*q < '0' || *q > '9')
			return "a port is a number from 1 to 65535, or \"*\"";
		if (v <= 65535)
			v = v * 10 + (*q - '0');
	}
	if (v == 0)
		return "a port of 0 is not a port";
	if (v > 65535)
		return "a port over 65535 is not a port";
	*port = (int)v;
	return NULL;
}

static const char *parse_v6(const char *s, size_t n, struct allow_rule *out)
{
	char buf[INET6_ADDRSTRLEN + 1];
	if (n == 0)
		return "an empty IPv6 literal ([]) is not a host";
	if (n >= sizeof buf || memchr(s, '%', n))
		return "not an IPv6 address (no zone, as in [2001:db8::1])";
	memcpy(buf, s, n);
	buf[n] = '\0';
	struct in6_addr a;
	if (inet_pton(AF_INET6, buf, &a) != 1)
		return "not an IPv6 address (write it as in [2001:db8::1])";
	const unsigned char *v4 = mapped_v4(a.s6_addr);
	if (v4) {
		set_v4(out, v4);
		return NULL;
	}
	out->kind = ALLOW_IPV6;
	memcpy(out->addr, a.s6_addr, 16);
	inet_ntop(AF_INET6, &a, out->host, sizeof out->host);
	return NULL;
}

static const char *parse_host(const char *s, size_t n, struct allow_rule *out)
{
	char buf[INET_ADDRSTRLEN + 1];
	if (n < sizeof buf) {
		memcpy(buf, s, n);
		buf[n] = '\0';
		struct in_addr a;
		if (inet_pton(AF_INET, buf, &a) == 1) {
			set_v4(out, (const unsigned char *)&a.s_addr);
			return NULL;
		}
	}
	if (n >= 1 && s[0] == '*') {
		if (n == 1)
			return "\"*\" alone would allow every host: name them";
		if (s[1] != '.')
			return "a \"*\" may only lead a name, as in *.example.org";
		if (n == 2 || (n == 3 && s[2] == '.'))
			return "\"*.\" names no domain: write *.example.org";
		out->kind = ALLOW_SUFFIX;
		return name_canon(s + 2, n - 2, out->host);
	}
	out->kind = ALLOW_NAME;
	return name_canon(s, n, out->host);
}

static const char *parse_value(const char *v, struct allow_rule *out)
{
	if (*v == '\0')
		return "an empty value is not a host";
	if (*v == '@')
		return allow_group(v + 1) ? "a group is expanded by the caller (allow_group())"
					  : "not a group: the groups are @models and @registries";
	if (strstr(v, "://"))
		return "a scheme is not part of a host: write api.example.com, not "
		       "https://api.example.com";
	if (strpbrk(v, "/?#"))
		return "a path or query is not part of a host: write the host alone";
	if (strchr(v, '@'))
		return "a user part is not part of a host: write the host alone";
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f)
			return "a host has no spaces, control characters or non-ASCII bytes";
	out->port = ALLOW_PORT_WEB;
	if (*v == '[') {
		const char *end = strchr(v, ']');
		if (!end)
			return "an IPv6 literal needs its closing bracket: [2001:db8::1]";
		const char *why = parse_v6(v + 1, (size_t)(end - v - 1), out);
		if (why)
			return why;
		if (end[1] == '\0')
			return NULL;
		if (end[1] != ':')
			return "after an IPv6 literal only :PORT may follow";
		return parse_port(end + 2, &out->port);
	}
	const char *colon = strchr(v, ':');
	if (colon && strchr(colon + 1, ':'))
		return "an IPv6 literal needs brackets: [2001:db8::1] or [2001:db8::1]:443";
	size_t hn = colon ? (size_t)(colon - v) : strlen(v);
	const char *why = parse_host(v, hn, out);
	if (why)
		return why;
	return colon ? parse_port(colon + 1, &out->port) : NULL;
}

static const unsigned char v6_one[16] = { [15] = 1 };

bool allow_loopback(const struct allow_rule *r)
{
	switch (r->kind) {
	case ALLOW_IPV4:
		return r->addr[0] == 127;
	case ALLOW_IPV6:
		return memcmp(r->addr, v6_one, 16) == 0;
	case ALLOW_NAME:
		return strcmp(r->host, "localhost") == 0;
	default:
		return false;
	}
}

/* A loopback rule forwards one port of the host's loopback, listened on
 * at the same address inside the jail: a port of its own, never the web
 * default or "*", and one the jail can listen on without privilege. */
const char *allow_loopback_check(const struct allow_rule *r)
{
	if (!allow_loopback(r))
		return NULL;
	if (r->port == ALLOW_PORT_WEB)
		return "a loopback rule needs its port: write HOST:PORT (127.0.0.1:8080, "
		       "[::1]:8080, localhost:8080)";
	if (r->port == ALLOW_PORT_ANY)
		return "a loopback rule takes one port, not \"*\": write HOST:PORT for each";
	if (r->port < ALLOW_LOOPBACK_PORT_MIN)
		return "a loopback port below 1024 cannot be listened on inside the jail without "
		       "privilege: run the server on a port from 1024 up";
	if ((r->port == PROXY_HTTP_PORT || r->port == PROXY_SOCKS_PORT) &&
	    (r->kind == ALLOW_NAME || (r->kind == ALLOW_IPV4 && r->addr[1] == 0 &&
				       r->addr[2] == 0 && r->addr[3] == 1)))
		return "127.0.0.1:3128 and 127.0.0.1:1080 are kjail's proxy inside the jail: run "
		       "the server on another port";
	return NULL;
}

bool allow_forwarded(const struct allow_rule *r)
{
	return allow_loopback(r) && !allow_loopback_check(r);
}

bool allow_parse(const char *value, struct allow_rule *out, const char **why)
{
	memset(out, 0, sizeof *out);
	const char *w = parse_value(value ? value : "", out);
	if (w) {
		*why = w;
		return false;
	}
	return true;
}

static bool port_ok(int rule, unsigned port)
{
	if (port == 0)
		return true; /* allow_match_any_port */
	if (port > 65535)
		return false;
	if (rule == ALLOW_PORT_ANY)
		return true;
	if (rule == ALLOW_PORT_WEB)
		return port == 80 || port == 443;
	return (unsigned)rule == port;
}

/* An address as 16 bytes and whether it is v4 (then in the first 4). */
static bool addr_bytes(int family, const void *raw, unsigned char out[16], bool *v4)
{
	memset(out, 0, 16);
	if (family == AF_INET) {
		memcpy(out, raw, 4);
		*v4 = true;
		return true;
	}
	if (family != AF_INET6)
		return false;
	const unsigned char *m = mapped_v4(raw);
	if (m) {
		memcpy(out, m, 4);
		*v4 = true;
	} else {
		memcpy(out, raw, 16);
		*v4 = false;
	}
	return true;
}

/* 127.0.0.1 or ::1 (a v4 address in its first 4 bytes): what "localhost"
 * means on both sides of the proxy. */
static bool is_localhost_addr(const unsigned char a[16], bool v4)
{
	static const unsigned char lo4[4] = { 127, 0, 0, 1 };
	return v4 ? memcmp(a, lo4, 4) == 0 : memcmp(a, v6_one, 16) == 0;
}

static long match_addr(const struct allow_rule *r, size_t n, const unsigned char a[16], bool v4,
		       unsigned port)
{
	for (size_t i = 0; i < n; i++) {
		/* a loopback rule "localhost:PORT" names 127.0.0.1 and ::1 */
		if (r[i].kind == ALLOW_NAME && allow_loopback(&r[i]) && is_localhost_addr(a, v4) &&
		    port_ok(r[i].port, port))
			return (long)i;
		if (r[i].kind != (v4 ? ALLOW_IPV4 : ALLOW_IPV6))
			continue;
		if (memcmp(r[i].addr, a, v4 ? 4 : 16) == 0 && port_ok(r[i].port, port))
			return (long)i;
	}
	return -1;
}

static long match_host(const struct allow_rule *r, size_t n, const char *host, unsigned port);

long allow_match(const struct allow_rule *r, size_t n, const char *host, unsigned port)
{
	return port == 0 ? -1 : match_host(r, n, host, port);
}

long allow_match_any_port(const struct allow_rule *r, size_t n, const char *host)
{
	return match_host(r, n, host, 0);
}

/* port 0: any port */
static long match_host(const struct allow_rule *r, size_t n, const char *host, unsigned port)
{
	if (!host)
		return -1;
	size_t hn = strlen(host);
	if (hn > 0 && host[0] == '[' && host[hn - 1] == ']') {
		host++;
		hn -= 2;
	}
	char buf[INET6_ADDRSTRLEN + 1];
	if (hn < sizeof buf) {
		memcpy(buf, host, hn);
		buf[hn] = '\0';
		unsigned char raw[16], a[16];
		bool v4;
		if (inet_pton(AF_INET, buf, raw) == 1 && addr_bytes(AF_INET, raw, a, &v4))
			return match_addr(r, n, a, v4, port);
		if (inet_pton(AF_INET6, buf, raw) == 1 && addr_bytes(AF_INET6, raw, a, &v4))
			return match_addr(r, n, a, v4, port);
	}
	char name[ALLOW_HOST_MAX];
	if (name_canon(host, hn, name))
		return -1;
	size_t nl = strlen(name);
	bool localhost = strcmp(name, "localhost") == 0;
	for (size_t i = 0; i < n; i++) {
		if (!port_ok(r[i].port, port))
			continue;
		/* "localhost" on a loopback rule for 127.0.0.1 or ::1 */
		if (localhost && r[i].kind != ALLOW_NAME && allow_loopback(&r[i]) &&
		    is_localhost_addr(r[i].addr, r[i].kind == ALLOW_IPV4))
			return (long)i;
		if (r[i].kind == ALLOW_NAME && strcmp(r[i].host, name) == 0)
			return (long)i;
		if (r[i].kind == ALLOW_SUFFIX) {
			size_t sl = strlen(r[i].host);
			if (nl > sl + 1 && name[nl - sl - 1] == '.' &&
			    strcmp(name + nl - sl, r[i].host) == 0)
				return (long)i;
		}
	}
	return -1;
}

long allow_match_addr(const struct allow_rule *r, size_t n, const struct sockaddr *sa,
		      unsigned port)
{
	unsigned char a[16];
	bool v4;
	if (!sa || port == 0)
		return -1;
	const void *raw = sa->sa_family == AF_INET
				  ? (const void *)&((const struct sockaddr_in *)sa)->sin_addr
				  : (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr;
	if (!addr_bytes(sa->sa_family, raw, a, &v4))
		return -1;
	return match_addr(r, n, a, v4, port);
}

static const char *v4_internal(const unsigned char b[4])
{
	uint32_t a = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	static const struct {
		uint32_t net, mask;
		const char *why;
	} nets[] = {
		{ 0xa9fea9fe, 0xffffffff, "cloud metadata" }, /* 169.254.169.254 */
		{ 0x00000000, 0xff000000, "unspecified" },    /* 0/8 */
		{ 0x7f000000, 0xff000000, "loopback" },       /* 127/8 */
		{ 0x0a000000, 0xff000000, "private" },        /* 10/8 */
		{ 0xac100000, 0xfff00000, "private" },        /* 172.16/12 */
		{ 0xc0a80000, 0xffff0000, "private" },        /* 192.168/16 */
		{ 0xa9fe0000, 0xffff0000, "link-local" },     /* 169.254/16 */
		{ 0x64400000, 0xffc00000, "CGNAT" },          /* 100.64/10 */
		{ 0xc0000000, 0xffffff00, "reserved" },       /* 192.0.0/24 */
		{ 0xc6120000, 0xfffe0000, "reserved" },       /* 198.18/15 */
		{ 0xe0000000, 0xf0000000, "multicast" },      /* 224/4 */
		{ 0xf0000000, 0xf0000000, "reserved" },       /* 240/4, broadcast */
	};
	for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++)
		if ((a & nets[i].mask) == nets[i].net)
			return nets[i].why;
	return NULL;
}

static bool v6_prefix(const unsigned char *a, const unsigned char *p, unsigned bits)
{
	unsigned full = bits / 8, rest = bits % 8;
	if (memcmp(a, p, full) != 0)
		return false;
	if (rest == 0)
		return true;
	unsigned char m = (unsigned char)(0xff << (8 - rest));
	return (a[full] & m) == (p[full] & m);
}

static const char *v6_internal(const unsigned char a[16])
{
	static const unsigned char zero[16] = { 0 };
	static const unsigned char one[16] = { [15] = 1 };
	static const unsigned char nat64[16] = { 0, 0x64, 0xff, 0x9b };
	static const unsigned char nat64_local[16] = { 0, 0x64, 0xff, 0x9b, 0, 1 };
	static const unsigned char sixtofour[16] = { 0x20, 0x02 };
	static const unsigned char ec2[16] = { 0xfd, 0, 0x0e, 0xc2, [14] = 0x02, [15] = 0x54 };
	static const unsigned char ula[16] = { 0xfc };
	static const unsigned char ll[16] = { 0xfe, 0x80 };
	static const unsigned char site[16] = { 0xfe, 0xc0 };
	static const unsigned char mc[16] = { 0xff };
	static const unsigned char discard[16] = { 0x01, 0x00 };

	if (memcmp(a, zero, 16) == 0)
		return "unspecified";
	if (memcmp(a, one, 16) == 0)
		return "loopback";
	if (mapped_v4(a) || v6_prefix(a, nat64, 96))
		return v4_internal(a + 12);
	if (v6_prefix(a, zero, 96))
		return "reserved"; /* the deprecated v4-compatible ::a.b.c.d */
	if (v6_prefix(a, nat64_local, 48))
		return "private";
	if (v6_prefix(a, sixtofour, 16))
		return v4_internal(a + 2);
	if (memcmp(a, ec2, 16) == 0)
		return "cloud metadata";
	if (v6_prefix(a, ula, 7))
		return "private";
	if (v6_prefix(a, ll, 10))
		return "link-local";
	if (v6_prefix(a, site, 10))
		return "private";
	if (v6_prefix(a, mc, 8))
		return "multicast";
	if (v6_prefix(a, discard, 64))
		return "reserved";
	return NULL;
}

const char *addr_internal(const struct sockaddr *sa)
{
	if (!sa)
		return "reserved";
	if (sa->sa_family == AF_INET)
		return v4_internal((const unsigned char *)&((const struct sockaddr_in *)sa)->sin_addr);
	if (sa->sa_family == AF_INET6)
		return v6_internal(((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr);
	return "reserved";
}
