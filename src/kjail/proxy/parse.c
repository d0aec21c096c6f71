/* SPDX-License-Identifier: MIT */
/* The proxy's request parsers (see proxy/parse.h): pure, incremental,
 * strict. */
#include "config.h"

#include "proxy/parse.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define PP_METHOD_MAX 20
#define PP_HEADER_LINES_MAX 200

/* RFC 9110 tchar */
static bool tchar(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
		return true;
	return c && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static bool host_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '-' || c == '_';
}

static enum pp_status fail(const char **why, const char *w)
{
	*why = w;
	return PP_ERROR;
}

/* "digits" (n bytes) as a port 1..65535, or 0. */
static unsigned port_num(const char *s, size_t n)
{
	unsigned v = 0;
	if (n == 0 || n > 5)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	return v <= 65535 ? v : 0;
}

/* A Host header's value may name no port: h->port is then 0. */
#define PORT_OPTIONAL 0x10000u

/* HOST[:PORT] or [V6][:PORT] (s, n bytes) into h; a port is required when
 * defport is 0. */
static const char *authority(const char *s, size_t n, unsigned defport, struct pp_http *h)
{
	const char *host = s, *rest;
	size_t hn;
	if (n > 0 && s[0] == '[') {
		const char *end = memchr(s, ']', n);
		if (!end)
			return "an IPv6 literal without its ']'";
		host = s + 1;
		hn = (size_t)(end - host);
		rest = end + 1;
		char v6[INET6_ADDRSTRLEN + 1];
		struct in6_addr a;
		if (hn == 0 || hn >= sizeof v6)
			return "not an IPv6 address";
		memcpy(v6, host, hn);
		v6[hn] = '\0';
		if (inet_pton(AF_INET6, v6, &a) != 1)
			return "not an IPv6 address";
		h->host_v6 = true;
	} else {
		const char *colon = memchr(s, ':', n);
		hn = colon ? (size_t)(colon - s) : n;
		rest = s + hn;
		if (hn == 0)
			return "an empty host";
		for (size_t i = 0; i < hn; i++)
			if (!host_char((unsigned char)s[i]))
				return "a host name has only letters, digits, '.', '-' and '_'";
	}
	if (hn >= PP_HOST_MAX)
		return "a host name over 255 bytes";
	memcpy(h->host, host, hn);
	h->host[hn] = '\0';
	size_t rn = (size_t)(s + n - rest);
	if (rn == 0) {
		if (!defport)
			return "CONNECT needs HOST:PORT";
		h->port = defport == PORT_OPTIONAL ? 0 : defport;
		return NULL;
	}
	if (rest[0] != ':' || !(h->port = port_num(rest + 1, rn - 1)))
		return "a port is a number from 1 to 65535";
	return NULL;
}

static bool prefix_ci(const char *s, size_t n, const char *p)
{
	size_t pl = strlen(p);
	return n >= pl && strncasecmp(s, p, pl) == 0;
}

static const char *target(const char *t, size_t n, struct pp_http *h)
{
	if (h->connect)
		return authority(t, n, 0, h);
	if (prefix_ci(t, n, "https://"))
		return "an https:// URL goes through CONNECT";
	if (!prefix_ci(t, n, "http://"))
		return "not a proxy request: the target must be http://HOST/... (or HOST:PORT "
		       "for CONNECT)";
	const char *a = t + 7, *end = t + n;
	const char *p = a;
	while (p < end && *p != '/' && *p != '?' && *p != '#' && *p != '@')
		p++;
	if (p < end && *p == '@')
		return "a user part in the URL";
	if (p < end && *p == '#')
		return "a fragment in the URL";
	const char *w = authority(a, (size_t)(p - a), 80, h);
	if (w)
		return w;
	if (memchr(p, '#', (size_t)(end - p)))
		return "a fragment in the URL";
	h->path_off = (size_t)(p - t);
	h->path_len = (size_t)(end - p);
	return NULL;
}

/* "METHOD SP TARGET SP HTTP/1.x" (s, n bytes, no line end) into its
 * parts: the method is s[0 .. *m), the target t[0 .. *tn), the version at
 * *v. NULL, or why not. */
struct line {
	size_t m;
	const char *t;
	size_t tn;
	const char *v;
};

static const char *line_parts(const char *s, size_t n, struct line *l)
{
	size_t m = 0;
	while (m < n && tchar((unsigned char)s[m]))
		m++;
	if (m == 0 || m > PP_METHOD_MAX || m == n || s[m] != ' ')
		return "not an HTTP request line";
	const char *t = s + m + 1;
	const char *sp = memchr(t, ' ', n - m - 1);
	if (!sp || sp == t)
		return "not an HTTP request line";
	for (const char *p = t; p < sp; p++)
		if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f)
			return "a control or non-ASCII byte in the request target";
	const char *v = sp + 1;
	if ((size_t)(s + n - v) != 8 ||
	    (memcmp(v, "HTTP/1.1", 8) != 0 && memcmp(v, "HTTP/1.0", 8) != 0))
		return "not HTTP/1.0 or HTTP/1.1";
	*l = (struct line){ m, t, (size_t)(sp - t), v };
	return NULL;
}

/* The request line (without its line end). */
static const char *request_line(const char *s, size_t n, struct pp_http *h)
{
	struct line l;
	const char *w = line_parts(s, n, &l);
	if (w)
		return w;
	h->method_len = l.m;
	h->connect = l.m == 7 && memcmp(s, "CONNECT", 7) == 0;
	h->version_off = (size_t)(l.v - s);
	w = target(l.t, l.tn, h);
	if (!h->connect)
		h->path_off += (size_t)(l.t - s);
	return w;
}

/* A prefix of a request line that cannot become one: garbage (a TLS
 * hello, binary) is refused at its first bytes. */
static const char *request_prefix(const char *s, size_t n)
{
	size_t m = 0;
	while (m < n && tchar((unsigned char)s[m]))
		m++;
	if (m > PP_METHOD_MAX || (m < n && (m == 0 || s[m] != ' ')))
		return "not an HTTP request line";
	return NULL;
}

static const char *header_line(const char *s, size_t n, unsigned *hosts)
{
	if (s[0] == ' ' || s[0] == '\t')
		return "a folded header line (obs-fold)";
	size_t k = 0;
	while (k < n && tchar((unsigned char)s[k]))
		k++;
	if (k == 0 || k == n || s[k] != ':')
		return "a header line without NAME:";
	for (size_t i = k + 1; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return "a control byte in a header value";
	}
	if (k == 4 && strncasecmp(s, "host", 4) == 0 && ++*hosts > 1)
		return "more than one Host header";
	return NULL;
}

/* A request inside a tunnel: its target, as an origin server takes it. */
static const char *origin_target(const char *t, size_t n, bool options, struct pp_request *q)
{
	if (n > 0 && t[0] == '/')
		return memchr(t, '#', n) ? "a fragment in the request target" : NULL;
	if (n == 1 && t[0] == '*')
		return options ? NULL : "the target * is for OPTIONS only";
	size_t skip = prefix_ci(t, n, "http://") ? 7 : prefix_ci(t, n, "https://") ? 8 : 0;
	if (!skip)
		return "a request target that is neither /PATH, * nor an http(s):// URL";
	const char *a = t + skip, *end = t + n, *p = a;
	while (p < end && *p != '/' && *p != '?' && *p != '#' && *p != '@')
		p++;
	if (p < end && *p == '@')
		return "a user part in the URL";
	if (memchr(p, '#', (size_t)(end - p)))
		return "a fragment in the URL";
	struct pp_http h;
	memset(&h, 0, sizeof h);
	const char *w = authority(a, (size_t)(p - a), skip == 7 ? 80 : 443, &h);
	if (w)
		return w;
	memcpy(q->url_host, h.host, sizeof q->url_host);
	q->url_port = h.port;
	return NULL;
}

static const char *origin_request_line(const char *s, size_t n, struct pp_request *q)
{
	struct line l;
	const char *w = line_parts(s, n, &l);
	if (w)
		return w;
	q->http10 = l.v[7] == '0';
	if (l.m == 7 && memcmp(s, "CONNECT", 7) == 0)
		return "a CONNECT inside a tunnel";
	return origin_target(l.t, l.tn, l.m == 7 && memcmp(s, "OPTIONS", 7) == 0, q);
}

/* A header's value without the optional white space around it. */
static void header_value(const char *s, size_t n, const char **v, size_t *vn)
{
	const char *colon = memchr(s, ':', n);
	const char *p = colon + 1, *end = s + n;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*v = p;
	*vn = (size_t)(end - p);
}

static bool name_is(const char *s, size_t n, const char *name)
{
	size_t k = strlen(name);
	return n > k && s[k] == ':' && strncasecmp(s, name, k) == 0;
}

static bool value_is(const char *v, size_t n, const char *want)
{
	return n == strlen(want) && strncasecmp(v, want, n) == 0;
}

/* What an origin server frames or routes the request by, from one header
 * line already checked by header_line(). */
static const char *origin_header(const char *s, size_t n, struct pp_request *q)
{
	const char *v;
	size_t vn;
	if (name_is(s, n, "host")) {
		header_value(s, n, &v, &vn);
		q->has_host = true;
		if (vn == 0)
			return NULL; /* an empty Host: no name */
		struct pp_http h;
		memset(&h, 0, sizeof h);
		const char *w = authority(v, vn, PORT_OPTIONAL, &h);
		if (w)
			return w;
		memcpy(q->host, h.host, sizeof q->host);
		q->host_port = h.port;
	} else if (name_is(s, n, "content-length")) {
		header_value(s, n, &v, &vn);
		if (q->has_length)
			return "more than one Content-Length";
		if (vn == 0 || vn > 18)
			return "a Content-Length that is not a number up to 18 digits";
		for (size_t i = 0; i < vn; i++) {
			if (v[i] < '0' || v[i] > '9')
				return "a Content-Length that is not a number up to 18 digits";
			q->length = q->length * 10 + (unsigned)(v[i] - '0');
		}
		q->has_length = true;
	} else if (name_is(s, n, "transfer-encoding")) {
		header_value(s, n, &v, &vn);
		if (q->chunked)
			return "more than one Transfer-Encoding";
		if (!value_is(v, vn, "chunked"))
			return "a Transfer-Encoding other than chunked";
		q->chunked = true;
	} else if (name_is(s, n, "upgrade")) {
		header_value(s, n, &v, &vn);
		if (q->upgrade)
			return "more than one Upgrade";
		q->upgrade = true;
		q->websocket = value_is(v, vn, "websocket");
	}
	return NULL;
}

/* Both heads, line by line: the request line by request_line() (a proxy
 * request into *h) or origin_request_line() (into *q), the headers by
 * header_line() and, for *q, origin_header(). */
static enum pp_status parse_head(const char *buf, size_t len, size_t max, struct pp_http *h,
				 struct pp_request *q, const char **why)
{
	size_t pos = 0, lines = 0;
	unsigned hosts = 0;
	for (;;) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;
		/* line by line: what follows the head is the client's payload
		 * (a TLS hello sent ahead), NULs and all */
		if (memchr(buf + pos, '\0', end - pos))
			return fail(why, "a NUL byte in the request head");
		const char *cr = memchr(buf + pos, '\r', end - pos);
		if (cr && (size_t)(cr - buf) + 1 < (nl ? end : len))
			return fail(why, "a bare CR in the request head");
		if (!nl) {
			const char *w = lines == 0 ? request_prefix(buf, len) : NULL;
			if (w)
				return fail(why, w);
			if (len >= max)
				return fail(why, "the request head is too long");
			return PP_NEED_MORE;
		}
		if (end + 1 > max)
			return fail(why, "the request head is too long");
		size_t ln = end - pos - (cr ? 1 : 0);
		const char *line = buf + pos;
		const char *w = NULL;
		if (lines == 0) {
			w = h ? request_line(line, ln, h) : origin_request_line(line, ln, q);
			if (h)
				h->headers_off = end + 1;
		} else if (ln == 0) {
			if (h)
				h->head_len = end + 1;
			else
				q->head_len = end + 1;
			*why = NULL;
			return PP_OK;
		} else if (lines > PP_HEADER_LINES_MAX) {
			w = "too many header lines";
		} else {
			w = header_line(line, ln, &hosts);
			if (!w && q)
				w = origin_header(line, ln, q);
		}
		if (w)
			return fail(why, w);
		lines++;
		pos = end + 1;
	}
}

enum pp_status pp_http_head(const char *buf, size_t len, size_t max, struct pp_http *out,
			    const char **why)
{
	memset(out, 0, sizeof *out);
	return parse_head(buf, len, max, out, NULL, why);
}

enum pp_status pp_http_request(const char *buf, size_t len, size_t max, struct pp_request *out,
			       const char **why)
{
	memset(out, 0, sizeof *out);
	enum pp_status st = parse_head(buf, len, max, NULL, out, why);
	if (st != PP_OK)
		return st;
	if (out->chunked && out->has_length)
		return fail(why, "both Content-Length and Transfer-Encoding");
	if (out->chunked && out->http10)
		return fail(why, "a Transfer-Encoding in an HTTP/1.0 request");
	return PP_OK;
}

static bool hop_header(const char *s, size_t n)
{
	static const char *const drop[] = { "host", "proxy-connection", "proxy-authorization",
					    "connection", "keep-alive" };
	const char *colon = memchr(s, ':', n);
	size_t k = colon ? (size_t)(colon - s) : n;
	for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
		if (strlen(drop[i]) == k && strncasecmp(s, drop[i], k) == 0)
			return true;
	return false;
}

struct out {
	char *p;
	size_t len, cap;
	bool over;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->over || n > o->cap - o->len) {
		o->over = true;
		return;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

size_t pp_http_rewrite(const char *buf, const struct pp_http *h, char *out, size_t cap)
{
	struct out o = { out, 0, cap, false };
	put(&o, buf, h->method_len);
	puts_(&o, " ");
	if (h->path_len == 0 || buf[h->path_off] != '/')
		puts_(&o, "/");
	put(&o, buf + h->path_off, h->path_len);
	puts_(&o, " ");
	put(&o, buf + h->version_off, 8);
	puts_(&o, "\r\n");
	for (size_t pos = h->headers_off; pos < h->head_len;) {
		const char *nl = memchr(buf + pos, '\n', h->head_len - pos);
		size_t end = (size_t)(nl - buf), n = end - pos;
		if (n > 0 && buf[end - 1] == '\r')
			n--;
		if (n > 0 && !hop_header(buf + pos, n)) {
			put(&o, buf + pos, n);
			puts_(&o, "\r\n");
		}
		pos = end + 1;
	}
	char hostline[PP_HOST_MAX + 32];
	const char *l = h->host_v6 ? "[" : "", *r = h->host_v6 ? "]" : "";
	if (h->port == 80)
		snprintf(hostline, sizeof hostline, "Host: %s%s%s\r\n", l, h->host, r);
	else
		snprintf(hostline, sizeof hostline, "Host: %s%s%s:%u\r\n", l, h->host, r, h->port);
	puts_(&o, hostline);
	puts_(&o, "Connection: close\r\n\r\n");
	return o.over ? 0 : o.len;
}

enum pp_status pp_socks_greeting(const unsigned char *buf, size_t len, size_t *used,
				 bool *noauth, const char **why)
{
	if (len >= 1 && buf[0] != 5)
		return fail(why, "not a SOCKS5 greeting");
	if (len < 2)
		return PP_NEED_MORE;
	if (buf[1] == 0)
		return fail(why, "a SOCKS5 greeting with no method");
	if (len < 2 + (size_t)buf[1])
		return PP_NEED_MORE;
	*noauth = memchr(buf + 2, 0, buf[1]) != NULL;
	*used = 2 + (size_t)buf[1];
	return PP_OK;
}

static enum pp_status socks_fail(unsigned char *reply, unsigned char code, const char **why,
				 const char *w)
{
	*reply = code;
	return fail(why, w);
}

enum pp_status pp_socks_request(const unsigned char *buf, size_t len, size_t *used,
				struct pp_socks *out, unsigned char *reply, const char **why)
{
	memset(out, 0, sizeof *out);
	if (len >= 1 && buf[0] != 5)
		return socks_fail(reply, 0x01, why, "not a SOCKS5 request");
	if (len >= 2 && buf[1] != 1)
		return socks_fail(reply, 0x07, why, "a SOCKS5 command other than CONNECT");
	if (len >= 3 && buf[2] != 0)
		return socks_fail(reply, 0x01, why, "a SOCKS5 request with a reserved byte set");
	if (len < 4)
		return PP_NEED_MORE;
	size_t need;
	switch (buf[3]) {
	case 1:
		need = 4 + 4 + 2;
		break;
	case 4:
		need = 4 + 16 + 2;
		break;
	case 3:
		if (len < 5)
			return PP_NEED_MORE;
		if (buf[4] == 0)
			return socks_fail(reply, 0x01, why, "an empty SOCKS5 domain name");
		need = 5 + (size_t)buf[4] + 2;
		break;
	default:
		return socks_fail(reply, 0x08, why, "a SOCKS5 address type other than 1, 3 or 4");
	}
	if (len < need)
		return PP_NEED_MORE;
	if (buf[3] == 3) {
		size_t n = buf[4];
		/* the name goes to the log and to kjail's summary on the
		 * user's terminal: printable ASCII only, as DNS names are */
		for (size_t i = 0; i < n; i++)
			if (buf[5 + i] <= 0x20 || buf[5 + i] >= 0x7f)
				return socks_fail(reply, 0x01, why,
						  "a NUL, space, control or non-ASCII byte in a "
						  "SOCKS5 domain name");
		memcpy(out->host, buf + 5, n);
		out->host[n] = '\0';
	} else {
		inet_ntop(buf[3] == 1 ? AF_INET : AF_INET6, buf + 4, out->host, sizeof out->host);
		out->is_addr = true;
	}
	out->port = (unsigned)buf[need - 2] << 8 | buf[need - 1];
	if (out->port == 0)
		return socks_fail(reply, 0x01, why, "a SOCKS5 request for port 0");
	*used = need;
	return PP_OK;
}
