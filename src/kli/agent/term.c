/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "agent/term.h"
#include "model/redact.h"
#include "strbuf.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void caret(struct strbuf *o, unsigned char c)
{
	char t[3] = { '^', c == 0x7f ? '?' : (char)(c + 64), 0 };
	sb_add(o, t, 2);
}

/* The length of an SGR sequence at P (ESC [ [0-9;:]* m); 0 when it is
 * something else; -1 when the N bytes end before it can be told. */
#define SGR_MAX 64
static long sgr_len(const char *p, size_t n)
{
	if (n < 2)
		return -1;
	if (p[1] != '[')
		return 0;
	for (size_t i = 2; i < n && i < SGR_MAX; i++) {
		char c = p[i];
		if (c == 'm')
			return (long)i + 1;
		if (!((c >= '0' && c <= '9') || c == ';' || c == ':'))
			return 0;
	}
	return n < SGR_MAX ? -1 : 0;
}

char *term_neutralise(const char *text, size_t n, bool final, size_t *used)
{
	struct strbuf o = STRBUF_INIT;
	size_t i = 0;
	while (i < n) {
		unsigned char c = (unsigned char)text[i];
		if (c == 0x1b) {
			long k = sgr_len(text + i, n - i);
			if (k < 0 && !final)
				break;
			if (k > 0) {
				sb_add(&o, text + i, (size_t)k);
				i += (size_t)k;
			} else {
				sb_adds(&o, "^[");
				i++;
			}
		} else if (c == '\r') {
			if (i + 1 == n && !final)
				break;
			if (i + 1 < n && text[i + 1] == '\n')
				sb_addc(&o, '\r'); /* CR LF is a line end */
			else
				caret(&o, c);
			i++;
		} else if (c < 0x20 && c != '\n' && c != '\t') {
			caret(&o, c);
			i++;
		} else if (c == 0x7f) {
			caret(&o, c);
			i++;
		} else if (c == 0xc2) {
			/* C1 controls in UTF-8: U+0080..U+009F (0x9b is CSI, 0x9d OSC) */
			if (i + 1 == n && !final)
				break;
			unsigned char d = i + 1 < n ? (unsigned char)text[i + 1] : 0;
			if (d >= 0x80 && d <= 0x9f) {
				char t[4] = { '^', '[', (char)(d - 0x40), 0 };
				sb_add(&o, t, 3);
				i += 2;
			} else {
				sb_addc(&o, text[i]);
				i++;
			}
		} else {
			sb_addc(&o, text[i]);
			i++;
		}
	}
	if (used)
		*used = i;
	return sb_detach(&o);
}

void term_print_answer(FILE *out, const char *answer, bool tty)
{
	size_t n = strlen(answer);
	_cleanup_free_ char *shown = tty ? term_neutralise(answer, n, true, NULL) : NULL;
	const char *s = shown ? shown : answer;
	size_t k = strlen(s);
	fprintf(out, "%s%s", s, k && s[k - 1] == '\n' ? "" : "\n");
	fflush(out);
}

/* ---------------------------------------------------------- live text */

void term_live_init(struct term_live *l, int fd, bool tty, const char *key)
{
	*l = (struct term_live){ .fd = fd, .tty = tty, .redact = redact_new(key), .text = STRBUF_INIT };
}

void term_live_clear(struct term_live *l)
{
	if (l->text.alloc)
		explicit_bzero(l->text.s, l->text.len);
	sb_release(&l->text);
	redact_free(l->redact);
	*l = (struct term_live){ 0 };
}

static void write_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return; /* a closed terminal: the run goes on, the text is in --json */
		s += w;
		n -= (size_t)w;
	}
}

static void flush_upto(struct term_live *l, size_t end, bool final)
{
	if (end <= l->done)
		return;
	size_t used = end - l->done;
	_cleanup_free_ char *safe = l->tty ? term_neutralise(l->text.s + l->done, end - l->done,
							     final, &used) : NULL;
	const char *s = safe ? safe : l->text.s + l->done;
	size_t n = safe ? strlen(safe) : used;
	if (n) {
		write_all(l->fd, s, n);
		l->wrote = true;
		l->last = s[n - 1];
	}
	l->done += used;
}

/* Masked text, to be written once the terminal filter lets it through. */
static void take(struct term_live *l, char *text, size_t n)
{
	if (l->done == l->text.len) {
		sb_reset(&l->text); /* all written: start over */
		l->done = 0;
	}
	sb_add(&l->text, text, n);
	free(text);
}

void term_live_add(struct term_live *l, const char *text, size_t n)
{
	size_t m;
	char *masked = redact_feed(l->redact, text, n, &m);
	take(l, masked, m);
	flush_upto(l, l->text.len, false);
}

void term_live_end(struct term_live *l)
{
	size_t m;
	char *masked = redact_finish(l->redact, &m);
	take(l, masked, m);
	flush_upto(l, l->text.len, true);
	if (l->wrote && l->last != '\n')
		write_all(l->fd, "\n", 1);
}

void term_live_restart(struct term_live *l)
{
	term_live_end(l); /* after redact_finish the matcher starts a new text */
	if (l->text.alloc)
		explicit_bzero(l->text.s, l->text.len);
	sb_reset(&l->text);
	l->done = 0;
	l->last = l->wrote ? '\n' : 0; /* term_live_end ended the line */
}

bool term_live_midline(const struct term_live *l)
{
	return l->wrote && l->last != '\n';
}
