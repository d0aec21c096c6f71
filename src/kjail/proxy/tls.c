/* SPDX-License-Identifier: MIT */
/* A ClientHello's names and the server's first answer (see proxy/tls.h):
 * pure, incremental, strict. The hello is read through its records in
 * place, never copied: a reader that steps over each record's header. */
#include "config.h"

#include "proxy/tls.h"

#include <string.h>

#define REC_HANDSHAKE 22
#define REC_MAX 16384     /* a plaintext record's payload, RFC 8446 5.1 */
#define HS_CLIENT_HELLO 1
#define HS_SERVER_HELLO 2
#define EXT_SERVER_NAME 0x0000
#define EXT_ECH 0xfe0d
#define EXT_ESNI 0xffce
#define NOT_HANDSHAKE "a ClientHello continued by a record that is not a handshake"

/* The handshake bytes of consecutive records, read in order. st becomes
 * TLS_NEED_MORE when buf ends first, TLS_MALFORMED (why) on a bad record
 * or a read past the message's end. */
struct rd {
	const unsigned char *buf;
	size_t len;
	size_t pos;   /* the next byte in buf */
	size_t rec;   /* payload bytes left in the current record */
	size_t msg;   /* bytes left in the handshake message */
	enum tls_status st;
	const char *why;
};

static bool bad(struct rd *r, const char *why)
{
	if (r->st != TLS_MALFORMED) {
		r->st = TLS_MALFORMED;
		r->why = why;
	}
	return false;
}

/* Steps into the next record when the current one is used up. */
static bool record(struct rd *r)
{
	if (r->rec > 0)
		return true;
	if (r->len - r->pos < 5) {
		/* what there is of the header must already be right */
		if (r->len > r->pos && r->buf[r->pos] != REC_HANDSHAKE)
			return bad(r, NOT_HANDSHAKE);
		if (r->len > r->pos + 1 && r->buf[r->pos + 1] != 3)
			return bad(r, "a TLS record of a version other than 3.x");
		r->st = TLS_NEED_MORE;
		return false;
	}
	const unsigned char *h = r->buf + r->pos;
	size_t n = (size_t)h[3] << 8 | h[4];
	if (h[0] != REC_HANDSHAKE)
		return bad(r, NOT_HANDSHAKE);
	if (h[1] != 3)
		return bad(r, "a TLS record of a version other than 3.x");
	if (n == 0)
		return bad(r, "an empty handshake record");
	if (n > REC_MAX)
		return bad(r, "a TLS record over 16384 bytes");
	r->pos += 5;
	r->rec = n;
	return true;
}

/* n bytes of the message into out (NULL: skipped). */
static bool take(struct rd *r, unsigned char *out, size_t n)
{
	if (r->st != TLS_FOUND)
		return false;
	if (n > r->msg)
		return bad(r, "a ClientHello field longer than the message");
	while (n > 0) {
		if (!record(r))
			return false;
		size_t k = n < r->rec ? n : r->rec;
		if (k > r->len - r->pos)
			k = r->len - r->pos;
		if (k == 0) {
			r->st = TLS_NEED_MORE;
			return false;
		}
		if (out) {
			memcpy(out, r->buf + r->pos, k);
			out += k;
		}
		r->pos += k;
		r->rec -= k;
		r->msg -= k;
		n -= k;
	}
	return true;
}

static bool u8(struct rd *r, size_t *v)
{
	unsigned char b;
	if (!take(r, &b, 1))
		return false;
	*v = b;
	return true;
}

static bool u16(struct rd *r, size_t *v)
{
	unsigned char b[2];
	if (!take(r, b, 2))
		return false;
	*v = (size_t)b[0] << 8 | b[1];
	return true;
}

static bool name_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '-' || c == '_';
}

/* server_name's data (n bytes): one host_name into out->sni. */
static bool server_name(struct rd *r, size_t n, struct tls_hello *out)
{
	size_t list, type, len;
	if (n < 2)
		return bad(r, "an empty server_name extension");
	if (!u16(r, &list))
		return false;
	if (list != n - 2)
		return bad(r, "a server_name list that does not fill its extension");
	if (list < 3)
		return bad(r, "an empty server_name list");
	if (!u8(r, &type) || !u16(r, &len))
		return false;
	if (type != 0)
		return bad(r, "a server_name of a type other than host_name");
	if (len != list - 3)
		return bad(r, "more than one server_name, or a length that does not fit");
	if (len == 0 || len >= TLS_NAME_MAX)
		return bad(r, "a host_name of 0 or over 255 bytes");
	unsigned char name[TLS_NAME_MAX];
	if (!take(r, name, len))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!name_byte(name[i]))
			return bad(r, "a host_name with a byte a DNS name does not have");
	memcpy(out->sni, name, len);
	out->sni[len] = '\0';
	return true;
}

static bool extensions(struct rd *r, struct tls_hello *out, bool *named)
{
	size_t total, type, n;
	bool ech = false;
	if (r->msg == 0)
		return true; /* none at all: allowed before TLS 1.3 */
	if (!u16(r, &total))
		return false;
	if (total != r->msg)
		return bad(r, "extensions that do not fill the ClientHello");
	while (r->msg > 0) {
		if (!u16(r, &type) || !u16(r, &n))
			return false;
		if (n > r->msg)
			return bad(r, "an extension longer than the ClientHello");
		if (type == EXT_SERVER_NAME) {
			if (*named)
				return bad(r, "two server_name extensions");
			*named = true;
			if (!server_name(r, n, out))
				return false;
			continue;
		}
		if (type == EXT_ECH || type == EXT_ESNI) {
			if (ech)
				return bad(r, "two encrypted ClientHello extensions");
			ech = true;
		}
		if (!take(r, NULL, n))
			return false;
	}
	out->ech = ech;
	return true;
}

/* The ClientHello, field by field; false when r->st says why not. */
static bool hello(struct rd *r, struct tls_hello *out, bool *named)
{
	unsigned char h[4], ver[2];
	size_t n;
	r->msg = 4;
	if (!take(r, h, 4))
		return false;
	if (h[0] != HS_CLIENT_HELLO)
		return bad(r, "a first handshake message that is not a ClientHello");
	r->msg = (size_t)h[1] << 16 | (size_t)h[2] << 8 | h[3];
	if (r->msg > TLS_HELLO_MAX)
		return bad(r, "a ClientHello over 16384 bytes");
	if (!take(r, ver, 2))
		return false;
	if (ver[0] != 3)
		return bad(r, "a ClientHello of a version other than 3.x");
	if (!take(r, NULL, 32) || !u8(r, &n))
		return false;
	if (n > 32)
		return bad(r, "a session id over 32 bytes");
	if (!take(r, NULL, n) || !u16(r, &n))
		return false;
	if (n == 0 || n % 2)
		return bad(r, "an empty or odd list of cipher suites");
	if (!take(r, NULL, n) || !u8(r, &n))
		return false;
	if (n == 0)
		return bad(r, "no compression method");
	if (!take(r, NULL, n) || !extensions(r, out, named))
		return false;
	if (r->rec != 0)
		return bad(r, "bytes after the ClientHello in its record");
	out->used = r->pos;
	return true;
}

enum tls_status tls_client_hello(const unsigned char *buf, size_t len, struct tls_hello *out,
				 const char **why)
{
	/* st is TLS_FOUND while the reader is fine: "go on" */
	struct rd r = { .buf = buf, .len = len, .st = TLS_FOUND };
	memset(out, 0, sizeof *out);
	bool named = false;
	if (hello(&r, out, &named))
		return named ? TLS_FOUND : TLS_NONE;
	memset(out, 0, sizeof *out);
	if (r.st == TLS_MALFORMED)
		*why = r.why;
	return r.st;
}

enum tls_server_first tls_server_first(const unsigned char *buf, size_t len)
{
	/* SHA-256("HelloRetryRequest"), RFC 8446 4.1.3 */
	static const unsigned char retry[32] = {
		0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c,
		0x02, 0x1e, 0x65, 0xb8, 0x91, 0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb,
		0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
	};
	/* record header, handshake header, version, random */
	static const size_t need = 5 + 4 + 2 + 32;
	if (len >= 1 && buf[0] != REC_HANDSHAKE)
		return TLS_SERVER_OTHER;
	if (len >= 6 && buf[5] != HS_SERVER_HELLO)
		return TLS_SERVER_OTHER;
	if (len < need)
		return TLS_SERVER_NEED_MORE;
	/* a retry split into records too small for its random: no server
	 * sends one (a client may ask for records no smaller than 64 bytes,
	 * RFC 8449), so it is not taken for one */
	size_t rec = (size_t)buf[3] << 8 | buf[4];
	if (rec < need - 5)
		return TLS_SERVER_OTHER;
	return memcmp(buf + 11, retry, 32) == 0 ? TLS_SERVER_RETRY : TLS_SERVER_OTHER;
}
