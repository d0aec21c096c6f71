/* SPDX-License-Identifier: MIT */
/* kjail's proxy configuration as bytes and back (proxy/handoff.h). */
#include "config.h"

#include "proxy/handoff.h"
#include "proxy/rules.h"
#include "proxy/upstream.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* 2: log_cap (the log's cap, proxy/log.h); 3: the upstream proxy's URLs
 * and NO_PROXY (proxy/upstream.h), each "NAME LEN\nBYTES\n", LEN 0 for
 * none */
#define MAGIC "kjail-proxy-handoff 3\n"

struct out {
	char *p;
	size_t len, cap;
};

static void put(struct out *o, const void *b, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		while (o->len + n + 1 > o->cap)
			o->cap = o->cap ? o->cap * 2 : 256;
		o->p = xreallocarray(o->p, o->cap, 1);
	}
	memcpy(o->p + o->len, b, n);
	o->len += n;
	o->p[o->len] = '\0';
}

KJ_PRINTF(2, 3) static void putf(struct out *o, const char *fmt, ...)
{
	char b[128];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b, sizeof b, fmt, ap);
	va_end(ap);
	put(o, b, n < 0 ? 0 : (size_t)n < sizeof b ? (size_t)n : sizeof b - 1);
}

static const char *const string_names[] = { "upstream_tunnel", "upstream_http", "no_proxy" };

char *proxy_handoff_encode(const struct proxy_config *c, pid_t parent, size_t *len)
{
	struct out o = { 0 };
	put(&o, MAGIC, strlen(MAGIC));
	putf(&o, "parent %jd\n", (intmax_t)parent);
	putf(&o, "log %d\n", c->log_fd >= 0);
	putf(&o, "log_cap %zu\n", c->log_cap);
	putf(&o, "max_conns %u\n", c->max_conns);
	putf(&o, "connect_ms %d\n", c->connect_timeout_ms > 0 ? c->connect_timeout_ms : 0);
	putf(&o, "idle_ms %d\n", c->idle_timeout_ms > 0 ? c->idle_timeout_ms : 0);
	putf(&o, "header_ms %d\n", c->header_timeout_ms > 0 ? c->header_timeout_ms : 0);
	const char *const strs[] = { c->upstream_tunnel, c->upstream_http, c->no_proxy };
	for (size_t i = 0; i < 3; i++) {
		const char *v = strs[i] ? strs[i] : "";
		putf(&o, "%s %zu\n", string_names[i], strlen(v));
		put(&o, v, strlen(v));
		put(&o, "\n", 1);
	}
	putf(&o, "rules %zu\n", c->nrules);
	for (size_t i = 0; i < c->nrules; i++) {
		const struct allow_rule *r = &c->rules[i];
		/* a rule travels as the value kjail parsed: one without it is
		 * not kjail's (rules.h: text is always set) */
		const char *text = r->text ? r->text : r->host;
		const char *origin = r->origin ? r->origin : "";
		putf(&o, "%zu %zu\n", strlen(text), strlen(origin));
		put(&o, text, strlen(text));
		put(&o, origin, strlen(origin));
		put(&o, "\n", 1);
	}
	put(&o, "end\n", 4);
	*len = o.len;
	return o.p;
}

/* A cursor over the bytes; every reader fails once anything is off. */
struct in {
	const char *p, *end;
	bool bad;
};

static void word(struct in *in, const char *w)
{
	size_t n = strlen(w);
	if (in->bad || (size_t)(in->end - in->p) < n || memcmp(in->p, w, n) != 0) {
		in->bad = true;
		return;
	}
	in->p += n;
}

/* Decimal digits, no sign, no leading zero but "0", at most max. */
static uintmax_t number(struct in *in, uintmax_t max)
{
	uintmax_t v = 0;
	const char *s = in->p;
	while (!in->bad && in->p < in->end && *in->p >= '0' && *in->p <= '9') {
		unsigned d = (unsigned)(*in->p - '0');
		if (d > max || v > (max - d) / 10)
			in->bad = true;
		v = v * 10 + d;
		in->p++;
	}
	if (in->p == s || (in->p - s > 1 && *s == '0'))
		in->bad = true;
	return in->bad ? 0 : v;
}

static uintmax_t field(struct in *in, const char *name, uintmax_t max)
{
	word(in, name);
	word(in, " ");
	uintmax_t v = number(in, max);
	word(in, "\n");
	return v;
}

/* n bytes, which hold no NUL, as a string in *at (advanced). */
static const char *bytes(struct in *in, size_t n, char **at)
{
	if (in->bad || (size_t)(in->end - in->p) < n || memchr(in->p, '\0', n)) {
		in->bad = true;
		return NULL;
	}
	char *s = *at;
	memcpy(s, in->p, n);
	s[n] = '\0';
	*at += n + 1;
	in->p += n;
	return s;
}

bool proxy_handoff_decode(const char *buf, size_t len, struct proxy_handoff *h, char *err,
			  size_t errlen)
{
	memset(h, 0, sizeof *h);
	h->c.log_fd = -1;
	struct in in = { buf, buf + len, false };
	word(&in, MAGIC);
	if (in.bad) {
		fmt_into(err, errlen, "not kjail's proxy configuration (or another version's)");
		return false;
	}
	uintmax_t parent = field(&in, "parent", INT_MAX);
	uintmax_t log = field(&in, "log", 1);
	uintmax_t log_cap = field(&in, "log_cap", SIZE_MAX);
	uintmax_t max_conns = field(&in, "max_conns", UINT_MAX);
	uintmax_t cms = field(&in, "connect_ms", INT_MAX);
	uintmax_t ims = field(&in, "idle_ms", INT_MAX);
	uintmax_t hms = field(&in, "header_ms", INT_MAX);
	/* the strings (URLs checked again, as rules are) go in h->strs */
	const char *strs[3] = { NULL, NULL, NULL };
	size_t slen[3] = { 0, 0, 0 };
	for (size_t i = 0; i < 3 && !in.bad; i++) {
		slen[i] = (size_t)field(&in, string_names[i], PROXY_HANDOFF_MAX);
		if (in.bad || (size_t)(in.end - in.p) < slen[i] + 1 ||
		    memchr(in.p, '\0', slen[i]) || in.p[slen[i]] != '\n') {
			in.bad = true;
			break;
		}
		strs[i] = in.p;
		in.p += slen[i] + 1;
	}
	/* a rule takes at least 6 bytes ("1 0\nx\n"), so len bounds n too */
	uintmax_t n = field(&in, "rules", len / 6 < PROXY_HANDOFF_RULES_MAX ? len / 6
								  : PROXY_HANDOFF_RULES_MAX);
	if (in.bad || parent < 1) {
		fmt_into(err, errlen, "a malformed header");
		return false;
	}
	h->parent = (pid_t)parent;
	h->log = log == 1;
	h->c.log_cap = (size_t)log_cap;
	h->c.max_conns = (unsigned)max_conns;
	h->c.connect_timeout_ms = (int)cms;
	h->c.idle_timeout_ms = (int)ims;
	h->c.header_timeout_ms = (int)hms;
	for (size_t i = 0; i < 3; i++) {
		if (!slen[i])
			continue;
		h->strs[i] = xmalloc(slen[i] + 1);
		memcpy(h->strs[i], strs[i], slen[i]);
		h->strs[i][slen[i]] = '\0';
	}
	h->c.upstream_tunnel = h->strs[0];
	h->c.upstream_http = h->strs[1];
	h->c.no_proxy = h->strs[2];
	const char *uwhy = NULL;
	struct upstream u;
	for (size_t i = 0; i < 2; i++) {
		bool good = !h->strs[i] || upstream_parse(h->strs[i], &u, &uwhy);
		upstream_clear(&u);
		if (!good) {
			fmt_into(err, errlen, "%s: %s", string_names[i], uwhy);
			proxy_handoff_free(h);
			return false;
		}
	}
	if (h->strs[2] && !upstream_no_proxy_check(h->strs[2], &uwhy)) {
		fmt_into(err, errlen, "no_proxy: %s", uwhy);
		proxy_handoff_free(h);
		return false;
	}
	/* every text and origin fits in a copy of the rest, with its NUL */
	h->bytes = xmalloc((size_t)(in.end - in.p) + 2 * (size_t)n + 1);
	h->rules_buf = xreallocarray(NULL, n ? (size_t)n : 1, sizeof *h->rules_buf);
	char *at = h->bytes;
	for (size_t i = 0; i < n; i++) {
		uintmax_t tl = number(&in, len);
		word(&in, " ");
		uintmax_t ol = number(&in, len);
		word(&in, "\n");
		const char *text = bytes(&in, (size_t)tl, &at);
		const char *origin = bytes(&in, (size_t)ol, &at);
		word(&in, "\n");
		if (in.bad) {
			fmt_into(err, errlen, "rule %zu: malformed", i + 1);
			proxy_handoff_free(h);
			return false;
		}
		struct allow_rule *r = &h->rules_buf[i];
		const char *why = NULL;
		if (text[0] == '@' || !allow_parse(text, r, &why)) {
			fmt_into(err, errlen, "rule %zu: %s: %s", i + 1, text,
				 why ? why : "a group, not a rule");
			proxy_handoff_free(h);
			return false;
		}
		r->text = text;
		r->origin = origin[0] ? origin : NULL;
	}
	word(&in, "end\n");
	if (in.bad || in.p != in.end) {
		fmt_into(err, errlen, "malformed after the rules");
		proxy_handoff_free(h);
		return false;
	}
	h->c.rules = h->rules_buf;
	h->c.nrules = (size_t)n;
	return true;
}

void proxy_handoff_free(struct proxy_handoff *h)
{
	free(h->rules_buf);
	free(h->bytes);
	for (size_t i = 0; i < 3; i++) {
		if (h->strs[i])
			explicit_bzero(h->strs[i], strlen(h->strs[i]));
		free(h->strs[i]);
	}
	memset(h, 0, sizeof *h);
	h->c.log_fd = -1;
}

int proxy_handoff_send(int fd, const struct proxy_config *c, pid_t parent)
{
	size_t len;
	_cleanup_free_ char *b = proxy_handoff_encode(c, parent, &len);
	int flags = 0;
#ifdef MSG_NOSIGNAL
	flags = MSG_NOSIGNAL;
#endif
#ifdef SO_NOSIGPIPE
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
	for (size_t off = 0; off < len;) {
		ssize_t w = send(fd, b + off, len - off, flags);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

bool proxy_handoff_recv(int fd, struct proxy_handoff *h, char *err, size_t errlen)
{
	size_t len = 0;
	_cleanup_free_ char *b = read_stream_capped(fd, PROXY_HANDOFF_MAX, &len);
	if (!b) {
		fmt_into(err, errlen, "reading it: %s", strerror(errno));
		memset(h, 0, sizeof *h);
		return false;
	}
	return proxy_handoff_decode(b, len, h, err, errlen);
}
