/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "run/probe-cache.h"
#include "util.h"

#include <string.h>

#define MAGIC "kjail-bwrap-probe 1\nkey "
#define WORKS "disable-userns works\n"
#define FAILS "disable-userns fails "

void probe_cache_reason(const char *msg, char *out, size_t len)
{
	if (!len)
		return;
	const char *s = msg ? msg : "";
	if (strncmp(s, "bwrap: ", 7) == 0)
		s += 7;
	size_t n = 0, cap = len - 1 < PROBE_REASON_MAX ? len - 1 : PROBE_REASON_MAX;
	for (; s[n] && s[n] != '\n' && n < cap; n++) {
		unsigned char c = (unsigned char)s[n];
		out[n] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	out[n] = '\0';
	if (!n)
		fmt_into(out, len, "no message");
}

static bool one_line(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

char *probe_cache_text(const char *key, const struct bwrap_probe *r)
{
	if (!key[0] || !one_line(key))
		return NULL;
	if (r->state == BWRAP_PROBE_WORKS)
		return xasprintf(MAGIC "%s\n" WORKS, key);
	if (r->state == BWRAP_PROBE_NO_DISABLE && r->why[0] && one_line(r->why) &&
	    strlen(r->why) <= PROBE_REASON_MAX)
		return xasprintf(MAGIC "%s\n" FAILS "%s\n", key, r->why);
	return NULL;
}

/* text starts with the len bytes of want: the rest after them, or NULL. */
static const char *after(const char *text, size_t *len, const char *want, size_t wlen)
{
	if (*len < wlen || memcmp(text, want, wlen) != 0)
		return NULL;
	*len -= wlen;
	return text + wlen;
}

bool probe_cache_parse(const char *text, size_t len, const char *key, struct bwrap_probe *out)
{
	if (!key[0] || !one_line(key))
		return false;
	const char *p = after(text, &len, MAGIC, strlen(MAGIC));
	if (p)
		p = after(p, &len, key, strlen(key));
	if (p)
		p = after(p, &len, "\n", 1);
	if (!p)
		return false;
	struct bwrap_probe r = { .cached = true };
	if (len == strlen(WORKS) && memcmp(p, WORKS, len) == 0) {
		r.state = BWRAP_PROBE_WORKS;
		*out = r;
		return true;
	}
	p = after(p, &len, FAILS, strlen(FAILS));
	/* the reason: 1..PROBE_REASON_MAX bytes, no control character, then
	 * the one newline that ends the text */
	if (!p || len < 2 || len - 1 > PROBE_REASON_MAX || p[len - 1] != '\n')
		return false;
	for (size_t i = 0; i + 1 < len; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			return false;
	r.state = BWRAP_PROBE_NO_DISABLE;
	memcpy(r.why, p, len - 1);
	r.why[len - 1] = '\0';
	*out = r;
	return true;
}
