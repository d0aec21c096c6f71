/* SPDX-License-Identifier: MIT */
/* The CONNECT request kjail-entry --connect sends, and its reading of the
 * answer (tunnel.h). */
#include "config.h"
#include "entry/tunnel.h"

#include <stdio.h>
#include <string.h>

static bool host_ok(const char *h, bool *v6)
{
	size_t n = strlen(h);
	if (n == 0 || n > TUNNEL_HOST_MAX || h[0] == '-' || h[0] == '.')
		return false;
	*v6 = strchr(h, ':') != NULL;
	for (const char *c = h; *c; c++) {
		bool digit = *c >= '0' && *c <= '9';
		bool hex = digit || (*c >= 'a' && *c <= 'f') || (*c >= 'A' && *c <= 'F');
		bool alpha = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z');
		if (*v6 ? !(hex || *c == ':' || *c == '.')
			: !(alpha || digit || *c == '.' || *c == '-' || *c == '_'))
			return false;
	}
	return true;
}

static bool port_ok(const char *p)
{
	unsigned long v = 0;
	size_t n = strlen(p);
	if (n == 0 || n > 5 || p[0] == '0')
		return false;
	for (const char *c = p; *c; c++) {
		if (*c < '0' || *c > '9')
			return false;
		v = v * 10 + (unsigned long)(*c - '0');
	}
	return v >= 1 && v <= 65535;
}

bool tunnel_request(const char *host, const char *port, char *buf, size_t len, size_t *n,
		    const char **why)
{
	bool v6 = false;
	if (!host_ok(host, &v6)) {
		*why = "not a host name or address";
		return false;
	}
	if (!port_ok(port)) {
		*why = "not a port (1 to 65535)";
		return false;
	}
	const char *o = v6 ? "[" : "", *c = v6 ? "]" : "";
	int w = snprintf(buf, len, "CONNECT %s%s%s:%s HTTP/1.1\r\nHost: %s%s%s:%s\r\n\r\n", o, host,
			 c, port, o, host, c, port);
	if (w < 0 || (size_t)w >= len) {
		*why = "too long";
		return false;
	}
	*n = (size_t)w;
	return true;
}

/* The end of the header (after its blank line), or NULL. A bare "\n\n"
 * ends it too, as HTTP readers accept. */
static const char *header_end(const char *buf, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		if (buf[i] != '\n')
			continue;
		if (buf[i + 1] == '\n')
			return buf + i + 2;
		if (buf[i + 1] == '\r' && i + 2 < n && buf[i + 2] == '\n')
			return buf + i + 3;
	}
	return NULL;
}

int tunnel_reply(const char *buf, size_t n, size_t *head)
{
	const char *end = header_end(buf, n);
	if (!end)
		return n >= TUNNEL_REPLY_MAX ? TUNNEL_BAD : TUNNEL_MORE;
	/* "HTTP/1.0 200 ..." or "HTTP/1.1 200 ..." */
	if (end - buf < 13 || memcmp(buf, "HTTP/1.", 7) != 0 || (buf[7] != '0' && buf[7] != '1') ||
	    buf[8] != ' ')
		return TUNNEL_BAD;
	int code = 0;
	for (int i = 9; i < 12; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return TUNNEL_BAD;
		code = code * 10 + (buf[i] - '0');
	}
	if (code < 100 || code > 599 || (buf[12] != ' ' && buf[12] != '\r' && buf[12] != '\n'))
		return TUNNEL_BAD;
	*head = (size_t)(end - buf);
	return code;
}

bool tunnel_refusal(const char *body, size_t n, char *out, size_t len)
{
	static const char prefix[] = "kjail: ";
	if (n < sizeof prefix || memcmp(body, prefix, sizeof prefix - 1) != 0 || len == 0)
		return false;
	size_t i = 0;
	for (; i < n && i + 1 < len && body[i] != '\n' && body[i] != '\r'; i++) {
		if (body[i] < 0x20 || body[i] >= 0x7f)
			return false;
		out[i] = body[i];
	}
	out[i] = '\0';
	return true;
}
