/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "model/sse.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void sse_clear(struct sse *p)
{
	sb_release(&p->line);
	sb_release(&p->data);
	*p = (struct sse)SSE_INIT;
}

static bool too_big(struct sse *p, char *err, size_t errlen, const char *what)
{
	fmt_into(err, errlen, "the model's stream has %s larger than %u MiB", what,
		 SSE_MAX / (1024 * 1024));
	p->failed = true;
	return false;
}

static bool dispatch(struct sse *p, sse_event_fn fn, void *ud, char *err, size_t errlen)
{
	bool ok = true;
	if (p->has_data)
		ok = fn(ud, p->event[0] ? p->event : "message", p->data.s, p->data.len, err, errlen);
	sb_reset(&p->data);
	p->has_data = false;
	p->event[0] = '\0';
	if (!ok)
		p->failed = true;
	return ok;
}

static bool add_data(struct sse *p, const char *v, size_t n, char *err, size_t errlen)
{
	if (!p->has_data)
		p->event_at = p->line_at;
	if ((p->has_data ? 1 : 0) + n > sb_room(&p->data))
		return too_big(p, err, errlen, "an event");
	if (p->has_data)
		sb_addc(&p->data, '\n');
	sb_add(&p->data, v, n);
	p->has_data = true;
	return true;
}

/* One complete line (without its end). */
static bool line(struct sse *p, const char *l, size_t n, sse_event_fn fn, void *ud, char *err,
		 size_t errlen)
{
	if (n == 0)
		return dispatch(p, fn, ud, err, errlen);
	if (l[0] == ':')
		return true;
	const char *colon = memchr(l, ':', n);
	size_t flen = colon ? (size_t)(colon - l) : n;
	const char *v = colon ? colon + 1 : l + n;
	size_t vlen = colon ? n - flen - 1 : 0;
	if (vlen > 0 && v[0] == ' ')
		v++, vlen--;
	if (flen == 4 && memcmp(l, "data", 4) == 0)
		return add_data(p, v, vlen, err, errlen);
	if (flen == 5 && memcmp(l, "event", 5) == 0) {
		size_t k = vlen < sizeof p->event - 1 ? vlen : sizeof p->event - 1;
		memcpy(p->event, v, k);
		p->event[k] = '\0';
	}
	return true;
}

static bool push_byte(struct sse *p, char c, char *err, size_t errlen)
{
	return sb_addc(&p->line, c) || too_big(p, err, errlen, "a line");
}

/* The line held so far ends: handled, then emptied. */
static bool end_line(struct sse *p, sse_event_fn fn, void *ud, char *err, size_t errlen)
{
	bool ok = line(p, p->line.s, p->line.len, fn, ud, err, errlen);
	sb_reset(&p->line);
	return ok;
}

bool sse_feed(struct sse *p, const char *buf, size_t n, sse_event_fn fn, void *ud, char *err,
	      size_t errlen)
{
	if (p->failed) {
		fmt_into(err, errlen, "the model's stream was already refused");
		return false;
	}
	static const char bom[] = "\xef\xbb\xbf";
	for (size_t i = 0; i < n; i++) {
		char c = buf[i];
		size_t at = p->offset++;
		/* The BOM's bytes are held in the line until it is whole. */
		if (at < 3 && p->line.len == at && c == bom[at]) {
			if (!push_byte(p, c, err, errlen))
				return false;
			if (at == 2) {
				sb_reset(&p->line);
				p->line_at = 3;
			}
			continue;
		}
		if (c == '\n' && p->after_cr) {
			p->after_cr = false;
			p->line_at = at + 1;
			continue;
		}
		p->after_cr = c == '\r';
		if (c == '\n' || c == '\r') {
			if (!end_line(p, fn, ud, err, errlen))
				return false;
			p->line_at = at + 1;
			continue;
		}
		if (!push_byte(p, c, err, errlen))
			return false;
	}
	return true;
}

bool sse_finish(struct sse *p, sse_event_fn fn, void *ud, char *err, size_t errlen)
{
	if (p->failed) {
		fmt_into(err, errlen, "the model's stream was already refused");
		return false;
	}
	if (p->line.len > 0 && !end_line(p, fn, ud, err, errlen))
		return false;
	return dispatch(p, fn, ud, err, errlen);
}
