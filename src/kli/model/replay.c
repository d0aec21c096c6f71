/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "model/replay.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void replay_init(struct replay *r)
{
	*r = (struct replay){ 0 };
}

void replay_clear(struct replay *r)
{
	if (r->shown)
		explicit_bzero(r->shown, r->len); /* an echo of the key may be split in it */
	free(r->shown);
	*r = (struct replay){ 0 };
}

void replay_retry(struct replay *r)
{
	r->pos = 0;
	r->repeating = r->len > 0;
}

static void append(struct replay *r, const char *s, size_t n)
{
	if (r->len + n + 1 > r->cap) {
		r->cap = (r->len + n + 1) * 2;
		r->shown = xreallocarray(r->shown, r->cap, 1);
	}
	memcpy(r->shown + r->len, s, n);
	r->len += n;
	r->shown[r->len] = '\0';
}

/* The answer so far is SHOWN's first POS bytes and then S: all of it is
 * shown again. */
static enum replay_step restart(struct replay *r, const char *s, size_t n, const char **out,
				size_t *outlen)
{
	r->len = r->pos;
	r->repeating = false;
	append(r, s, n);
	*out = r->shown;
	*outlen = r->len;
	return REPLAY_RESTART;
}

enum replay_step replay_text(struct replay *r, const char *text, size_t n, const char **out,
			     size_t *outlen)
{
	*out = text;
	*outlen = n;
	if (!r->repeating) {
		append(r, text, n);
		return REPLAY_SHOW;
	}
	size_t left = r->len - r->pos;
	size_t m = 0;
	while (m < n && m < left && text[m] == r->shown[r->pos + m])
		m++;
	if (m == n) { /* all of it was shown already */
		r->pos += n;
		*outlen = 0;
		return REPLAY_SHOW;
	}
	if (m == left) { /* it goes on past what was shown: the rest is new */
		r->pos = r->len;
		r->repeating = false;
		append(r, text + m, n - m);
		*out = text + m;
		*outlen = n - m;
		return REPLAY_SHOW;
	}
	r->pos += m;
	return restart(r, text + m, n - m, out, outlen);
}

enum replay_step replay_end(struct replay *r, const char **out, size_t *outlen)
{
	*out = "";
	*outlen = 0;
	if (!r->repeating || r->pos == r->len) {
		r->repeating = false;
		return REPLAY_SHOW;
	}
	return restart(r, "", 0, out, outlen);
}
