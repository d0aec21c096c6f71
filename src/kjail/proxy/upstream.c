/* SPDX-License-Identifier: MIT */
/* The upstream proxy's URL, NO_PROXY, and the handshakes' bytes
 * (proxy/upstream.h). */
#include "config.h"

#include "proxy/upstream.h"
#include "proxy/rules.h"
#include "util.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static bool has_bad_byte(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s <= 0x20 || (unsigned char)*s >= 0x7f)
			return true;
	return false;
}

/* s[0..n) percent-decoded into out (NUL-terminated); false on a bad
 * escape, %00 or no room. */
static bool pct_decode(const char *s, size_t n, char *out, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];
		if (c == '%') {
			if (i + 2 >= n)
				return false;
			int h = hex_value(s[i + 1]), l = hex_value(s[i + 2]);
			if (h < 0 || l < 0 || (h | l) == 0)
				return false;
			c = h * 16 + l;
			i += 2;
		}
		if (o + 1 >= len)
			return false;
		out[o++] = (char)c;
	}
	out[o] = '\0';
	return true;
}

static bool parse_port(const char *s, size_t n, unsigned *port)
{
	unsigned v = 0;
	if (n == 0 || n > 5 || (n > 1 && s[0] == '0'))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (v < 1 || v > 65535)
		return false;
	*port = v;
	return true;
}

static const char *scheme_of(const char *url, const char **rest, enum upstream_kind *kind)
{
	const char *sep = strstr(url, "://");
	*kind = UPSTREAM_HTTP;
	*rest = url;
	if (!sep)
		return NULL;
	size_t n = (size_t)(sep - url);
	*rest = sep + 3;
	if (n == 4 && strncasecmp(url, "http", 4) == 0)
		return NULL;
	if ((n == 6 && strncasecmp(url, "socks5", 6) == 0) ||
	    (n == 7 && strncasecmp(url, "socks5h", 7) == 0)) {
		*kind = UPSTREAM_SOCKS5;
		return NULL;
	}
	if (n == 5 && strncasecmp(url, "https", 5) == 0)
		return "an https:// proxy (TLS to the proxy) is not supported: use its http:// "
		       "address";
	return "a scheme kjail's proxy cannot speak (it speaks http://, socks5:// and "
	       "socks5h://)";
}

bool upstream_parse(const char *url, struct upstream *u, const char **why)
{
	memset(u, 0, sizeof *u);
	*why = NULL;
	if (!url || !*url)
		return *why = "an empty URL", false;
	if (strlen(url) > UPSTREAM_URL_MAX)
		return *why = "a URL over 2048 bytes", false;
	if (has_bad_byte(url))
		return *why = "a space or a control byte in the URL", false;
	const char *p;
	if ((*why = scheme_of(url, &p, &u->kind)))
		return false;
	size_t alen = strcspn(p, "/?#");
	const char *tail = p + alen;
	if (*tail && strcmp(tail, "/") != 0)
		return *why = "a path, query or fragment after the proxy's address", false;
	const char *at = NULL;
	for (const char *q = p; q < tail; q++)
		if (*q == '@')
			at = q;
	const char *hp = p;
	if (at) {
		const char *colon = memchr(p, ':', (size_t)(at - p));
		size_t ul = colon ? (size_t)(colon - p) : (size_t)(at - p);
		if (!pct_decode(p, ul, u->user, sizeof u->user) ||
		    (colon && !pct_decode(colon + 1, (size_t)(at - colon - 1), u->pass,
					  sizeof u->pass)))
			return upstream_clear(u), *why = "a user or password that is not "
							 "percent-encoded text of at most 255 "
							 "bytes",
			       false;
		if (!u->user[0])
			return upstream_clear(u), *why = "an empty user name", false;
		u->auth = true;
		hp = at + 1;
	}
	size_t hl = (size_t)(tail - hp);
	const char *host = hp, *port = NULL;
	size_t host_len = hl;
	if (hl && hp[0] == '[') {
		const char *close = memchr(hp, ']', hl);
		if (!close)
			return upstream_clear(u), *why = "an IPv6 address without its ']'", false;
		host_len = (size_t)(close - hp) + 1;
		if (close + 1 < tail) {
			if (close[1] != ':')
				return upstream_clear(u), *why = "bytes after the IPv6 address", false;
			port = close + 2;
		}
	} else {
		const char *colon = memchr(hp, ':', hl);
		if (colon) {
			if (memchr(colon + 1, ':', (size_t)(tail - colon - 1)))
				return upstream_clear(u), *why = "an IPv6 address needs brackets",
				       false;
			host_len = (size_t)(colon - hp);
			port = colon + 1;
		}
	}
	u->port = UPSTREAM_DEFAULT_PORT;
	if (port && !parse_port(port, (size_t)(tail - port), &u->port))
		return upstream_clear(u), *why = "a port that is not 1..65535", false;
	if (host_len == 0)
		return upstream_clear(u), *why = "no host", false;
	if (host_len >= ALLOW_HOST_MAX || host[0] == '*' || host[0] == '@')
		return upstream_clear(u), *why = "not a host name or address", false;
	char hbuf[ALLOW_HOST_MAX];
	memcpy(hbuf, host, host_len);
	hbuf[host_len] = '\0';
	struct allow_rule r;
	const char *rwhy = NULL;
	if (!allow_parse(hbuf, &r, &rwhy) || r.kind == ALLOW_SUFFIX || r.port != ALLOW_PORT_WEB)
		return upstream_clear(u), *why = "not a host name or address", false;
	snprintf(u->host, sizeof u->host, "%s", r.host);
	bool v6 = r.kind == ALLOW_IPV6;
	snprintf(u->shown, sizeof u->shown, "%s://%s%s%s%s:%u",
		 u->kind == UPSTREAM_HTTP ? "http" : "socks5", u->auth ? "***@" : "",
		 v6 ? "[" : "", u->host, v6 ? "]" : "", u->port);
	return true;
}

void upstream_clear(struct upstream *u)
{
	explicit_bzero(u->user, sizeof u->user);
	explicit_bzero(u->pass, sizeof u->pass);
	u->auth = false;
}

/* --- NO_PROXY --------------------------------------------------------------- */

enum np_kind { NP_ALL, NP_NAME, NP_V4, NP_V6 };

struct np {
	enum np_kind kind;
	char name[ALLOW_HOST_MAX];
	unsigned char addr[16];
	unsigned prefix;
	unsigned port; /* 0: any */
};

static bool name_ok(const char *s)
{
	if (!*s || strlen(s) >= ALLOW_HOST_MAX)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '.' && *s != '-' && *s != '_')
			return false;
	return true;
}

static bool parse_entry(const char *s, size_t n, struct np *e)
{
	char b[ALLOW_HOST_MAX + 16];
	memset(e, 0, sizeof *e);
	if (n == 0 || n >= sizeof b)
		return false;
	memcpy(b, s, n);
	b[n] = '\0';
	if (strcmp(b, "*") == 0)
		return e->kind = NP_ALL, true;
	char *port = NULL, *host = b;
	if (b[0] == '[') {
		char *close = strchr(b, ']');
		if (!close || (close[1] && close[1] != ':'))
			return false;
		*close = '\0';
		host = b + 1;
		port = close[1] ? close + 2 : NULL;
		e->kind = NP_V6;
		e->prefix = 128;
		if (inet_pton(AF_INET6, host, e->addr) != 1)
			return false;
	} else if (strchr(b, '/')) {
		char *slash = strchr(b, '/');
		*slash = '\0';
		unsigned pfx = 0;
		const char *d = slash + 1;
		if (!*d || strlen(d) > 3)
			return false;
		for (; *d; d++) {
			if (*d < '0' || *d > '9')
				return false;
			pfx = pfx * 10 + (unsigned)(*d - '0');
		}
		if (inet_pton(AF_INET, b, e->addr) == 1)
			e->kind = NP_V4, e->prefix = 32;
		else if (inet_pton(AF_INET6, b, e->addr) == 1)
			e->kind = NP_V6, e->prefix = 128;
		else
			return false;
		if (pfx > e->prefix)
			return false;
		e->prefix = pfx;
		return true;
	} else if (strchr(b, ':') && strchr(b, ':') != strrchr(b, ':')) {
		e->kind = NP_V6;
		e->prefix = 128;
		return inet_pton(AF_INET6, b, e->addr) == 1;
	} else {
		char *colon = strchr(b, ':');
		if (colon) {
			*colon = '\0';
			port = colon + 1;
		}
		if (inet_pton(AF_INET, b, e->addr) == 1) {
			e->kind = NP_V4;
			e->prefix = 32;
		} else {
			if (strncmp(host, "*.", 2) == 0)
				host += 2;
			else if (host[0] == '.')
				host++;
			size_t hl = strlen(host);
			if (hl && host[hl - 1] == '.')
				host[--hl] = '\0';
			if (!name_ok(host))
				return false;
			e->kind = NP_NAME;
			for (size_t i = 0; i <= hl; i++)
				e->name[i] = (char)tolower((unsigned char)host[i]);
		}
	}
	if (port && !parse_port(port, strlen(port), &e->port))
		return false;
	return true;
}

/* Calls f on each entry; false at the first that does not parse. */
static bool each_entry(const char *v, bool (*f)(const struct np *, void *), void *arg)
{
	while (v && *v) {
		size_t n = strcspn(v, ",");
		const char *s = v, *end = v + n;
		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (end > s) {
			struct np e;
			if (!parse_entry(s, (size_t)(end - s), &e))
				return false;
			if (f && f(&e, arg))
				return true;
		}
		v += n;
		if (*v == ',')
			v++;
	}
	return true;
}

bool upstream_no_proxy_check(const char *no_proxy, const char **why)
{
	*why = NULL;
	if (no_proxy && strlen(no_proxy) > 16384)
		return *why = "a value over 16 KiB", false;
	if (!each_entry(no_proxy, NULL, NULL))
		return *why = "an entry that is not *, a name, an address or a CIDR (with an "
			      "optional :PORT)",
		       false;
	return true;
}

struct dest {
	const char *host;
	unsigned port;
	int family; /* AF_INET, AF_INET6 or 0: a name */
	unsigned char addr[16];
	bool matched;
};

static bool prefix_eq(const unsigned char *a, const unsigned char *b, unsigned bits)
{
	size_t full = bits / 8;
	if (memcmp(a, b, full) != 0)
		return false;
	unsigned rest = bits % 8;
	if (!rest)
		return true;
	unsigned char mask = (unsigned char)(0xff << (8 - rest));
	return (a[full] & mask) == (b[full] & mask);
}

static bool match_one(const struct np *e, void *arg)
{
	struct dest *d = arg;
	if (e->port && e->port != d->port)
		return false;
	switch (e->kind) {
	case NP_ALL:
		return d->matched = true;
	case NP_V4:
		return d->matched = d->family == AF_INET && prefix_eq(e->addr, d->addr, e->prefix);
	case NP_V6:
		return d->matched = d->family == AF_INET6 && prefix_eq(e->addr, d->addr, e->prefix);
	case NP_NAME: {
		if (d->family)
			return false;
		size_t hl = strlen(d->host), nl = strlen(e->name);
		if (hl && d->host[hl - 1] == '.')
			hl--;
		if (hl < nl || strncasecmp(d->host + hl - nl, e->name, nl) != 0)
			return false;
		return d->matched = hl == nl || d->host[hl - nl - 1] == '.';
	}
	}
	return false;
}

bool upstream_no_proxy_match(const char *no_proxy, const char *host, unsigned port)
{
	struct dest d = { .host = host, .port = port };
	if (inet_pton(AF_INET, host, d.addr) == 1)
		d.family = AF_INET;
	else if (inet_pton(AF_INET6, host, d.addr) == 1)
		d.family = AF_INET6;
	return each_entry(no_proxy, match_one, &d) && d.matched;
}

/* --- HTTP CONNECT ------------------------------------------------------------- */

static size_t base64(const unsigned char *in, size_t n, char *out, size_t len)
{
	static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0;
	if ((n + 2) / 3 * 4 + 1 > len)
		return 0;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)in[i + 1] << 8;
		if (i + 2 < n)
			v |= in[i + 2];
		out[o++] = t[(v >> 18) & 63];
		out[o++] = t[(v >> 12) & 63];
		out[o++] = i + 1 < n ? t[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < n ? t[v & 63] : '=';
	}
	out[o] = '\0';
	return o;
}

size_t upstream_http_request(const struct upstream *u, const char *addr, unsigned port,
			     char *out, size_t len)
{
	char cred[2 * UPSTREAM_CRED_MAX + 2], b64[(sizeof cred + 2) / 3 * 4 + 1];
	char auth[sizeof b64 + 40] = "";
	bool v6 = strchr(addr, ':') != NULL;
	if (u->auth) {
		int cn = snprintf(cred, sizeof cred, "%s:%s", u->user, u->pass);
		if (cn < 0 || (size_t)cn >= sizeof cred ||
		    !base64((const unsigned char *)cred, (size_t)cn, b64, sizeof b64)) {
			explicit_bzero(cred, sizeof cred);
			return 0;
		}
		snprintf(auth, sizeof auth, "Proxy-Authorization: Basic %s\r\n", b64);
		explicit_bzero(cred, sizeof cred);
		explicit_bzero(b64, sizeof b64);
	}
	int n = snprintf(out, len, "CONNECT %s%s%s:%u HTTP/1.1\r\nHost: %s%s%s:%u\r\n%s\r\n",
			 v6 ? "[" : "", addr, v6 ? "]" : "", port, v6 ? "[" : "", addr,
			 v6 ? "]" : "", port, auth);
	explicit_bzero(auth, sizeof auth);
	if (n < 0 || (size_t)n >= len) {
		if (len)
			explicit_bzero(out, len);
		return 0;
	}
	return (size_t)n;
}

enum pp_status upstream_http_reply(const char *buf, size_t len, size_t max, size_t *head_len,
				   int *status, const char **why)
{
	size_t end = 0;
	for (size_t i = 0; i + 1 < len && !end; i++) {
		if (buf[i] == '\0')
			return *why = "a NUL byte in the upstream proxy's answer", PP_ERROR;
		if (buf[i] != '\n')
			continue;
		if (buf[i + 1] == '\n')
			end = i + 2;
		else if (buf[i + 1] == '\r' && i + 2 < len && buf[i + 2] == '\n')
			end = i + 3;
	}
	/* the status line can be judged before the head is whole */
	size_t have = end ? end : len;
	static const char v[] = "HTTP/1.";
	if (memcmp(buf, v, have < 7 ? have : 7) != 0)
		return *why = "an answer that is not HTTP", PP_ERROR;
	if (have >= 12) {
		if ((buf[7] != '0' && buf[7] != '1') || buf[8] != ' ' ||
		    !isdigit((unsigned char)buf[9]) || !isdigit((unsigned char)buf[10]) ||
		    !isdigit((unsigned char)buf[11]) || buf[9] == '0' ||
		    (have > 12 && buf[12] != ' ' && buf[12] != '\r' && buf[12] != '\n'))
			return *why = "an answer without an HTTP status line", PP_ERROR;
	}
	if (!end) {
		if (len >= max)
			return *why = "an answer head over the limit", PP_ERROR;
		return PP_NEED_MORE;
	}
	if (end > max)
		return *why = "an answer head over the limit", PP_ERROR;
	if (have < 13)
		return *why = "an answer without an HTTP status line", PP_ERROR;
	*status = (buf[9] - '0') * 100 + (buf[10] - '0') * 10 + (buf[11] - '0');
	*head_len = end;
	return PP_OK;
}

/* --- SOCKS5 -------------------------------------------------------------------- */

size_t upstream_socks_greeting(const struct upstream *u, unsigned char *out, size_t len)
{
	if (len < 4)
		return 0;
	out[0] = 5;
	out[1] = u->auth ? 2 : 1;
	out[2] = 0;
	out[3] = 2;
	return u->auth ? 4 : 3;
}

size_t upstream_socks_auth(const struct upstream *u, unsigned char *out, size_t len)
{
	size_t ul = strlen(u->user), pl = strlen(u->pass);
	if (ul < 1 || ul > 255 || pl > 255 || 3 + ul + pl > len)
		return 0;
	out[0] = 1;
	out[1] = (unsigned char)ul;
	memcpy(out + 2, u->user, ul);
	out[2 + ul] = (unsigned char)pl;
	memcpy(out + 3 + ul, u->pass, pl);
	return 3 + ul + pl;
}

size_t upstream_socks_request(const unsigned char *addr, size_t alen, unsigned port,
			      unsigned char *out, size_t len)
{
	if ((alen != 4 && alen != 16) || len < 6 + alen || port < 1 || port > 65535)
		return 0;
	out[0] = 5;
	out[1] = 1; /* CONNECT */
	out[2] = 0;
	out[3] = alen == 4 ? 1 : 4;
	memcpy(out + 4, addr, alen);
	out[4 + alen] = (unsigned char)(port >> 8);
	out[5 + alen] = (unsigned char)(port & 0xff);
	return 6 + alen;
}

enum pp_status upstream_socks_method(const unsigned char *buf, size_t len, bool offered_auth,
				     size_t *used, unsigned char *method, const char **why)
{
	if (len >= 1 && buf[0] != 5)
		return *why = "an answer that is not SOCKS5", PP_ERROR;
	if (len < 2)
		return PP_NEED_MORE;
	*method = buf[1];
	if (buf[1] == 0xff)
		return *why = "it accepts none of the methods offered (credentials needed?)",
		       PP_ERROR;
	if (buf[1] != 0 && !(buf[1] == 2 && offered_auth))
		return *why = "it chose a method that was not offered", PP_ERROR;
	*used = 2;
	return PP_OK;
}

enum pp_status upstream_socks_auth_reply(const unsigned char *buf, size_t len, size_t *used,
					 const char **why)
{
	if (len >= 1 && buf[0] != 1)
		return *why = "an answer to the password that is not RFC 1929's", PP_ERROR;
	if (len < 2)
		return PP_NEED_MORE;
	if (buf[1] != 0)
		return *why = "it refused the user and password", PP_ERROR;
	*used = 2;
	return PP_OK;
}

enum pp_status upstream_socks_reply(const unsigned char *buf, size_t len, size_t *used,
				    unsigned char *code, const char **why)
{
	if (len >= 1 && buf[0] != 5)
		return *why = "an answer that is not SOCKS5", PP_ERROR;
	if (len >= 3 && buf[2] != 0)
		return *why = "a SOCKS5 answer with a reserved byte set", PP_ERROR;
	if (len < 5)
		return PP_NEED_MORE;
	size_t need;
	switch (buf[3]) {
	case 1: need = 4 + 4 + 2; break;
	case 4: need = 4 + 16 + 2; break;
	case 3: need = 4 + 1 + (size_t)buf[4] + 2; break;
	default: return *why = "a SOCKS5 answer with an unknown address type", PP_ERROR;
	}
	if (len < need)
		return PP_NEED_MORE;
	*code = buf[1];
	*used = need;
	return PP_OK;
}
