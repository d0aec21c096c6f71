/* SPDX-License-Identifier: MIT */
/* git's config syntax, a character at a time in the same states as git's
 * own parser (git/lexer.h). */
#include "config.h"
#include "git/lexer.h"
#include "strbuf.h"

#include <stdbool.h>
#include <string.h>

struct reader {
	const char *text, *p, *end;
	unsigned line;     /* of the character last read, from 1 */
	size_t line_start; /* where the line of the character last read starts */
	bool eof;
};

/* The next character as git's parser sees it: CR LF is a newline, and the
 * end of the text is one newline more (eof set). */
static int next_char(struct reader *r)
{
	if (r->p >= r->end) {
		r->eof = true;
		return '\n';
	}
	int c = (unsigned char)*r->p++;
	if (c == '\r' && r->p < r->end && *r->p == '\n')
		c = *r->p++;
	if (c == '\n') {
		r->line++;
		r->line_start = (size_t)(r->p - r->text);
	}
	return c;
}

/* git's own character classes: ASCII only, whatever the locale */
static bool git_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool git_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool key_char(int c)
{
	return git_alpha(c) || (c >= '0' && c <= '9') || c == '-';
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* [name "subsection"]: the subsection as written but for a backslash,
 * which keeps the next character. Read after the blank that ended the
 * name, c. */
static bool read_subsection(struct reader *r, struct strbuf *name, int c)
{
	do {
		if (c == '\n')
			return false;
		c = next_char(r);
	} while (git_space(c));
	if (c != '"')
		return false;
	sb_addc(name, '.');
	for (;;) {
		c = next_char(r);
		if (c == '\n')
			return false;
		if (c == '"')
			break;
		if (c == '\\') {
			c = next_char(r);
			if (c == '\n')
				return false;
		}
		sb_addc(name, (char)c);
	}
	return next_char(r) == ']';
}

/* A section header, after its '[': the name in lower case (the old
 * [name.sub] too), then "." and a quoted subsection as written. */
static bool read_header(struct reader *r, struct strbuf *name)
{
	sb_setlen(name, 0);
	for (;;) {
		int c = next_char(r);
		if (r->eof)
			return false;
		if (c == ']')
			return name->len > 0;
		if (git_space(c))
			return read_subsection(r, name, c) && name->len > 0;
		if (!key_char(c) && c != '.')
			return false;
		sb_addc(name, (char)lower(c));
	}
}

/* A value, after its '=': quotes removed, the escapes git knows replaced,
 * a comment after it dropped, blanks at either end dropped and a run of
 * them inside (unquoted) kept as one space each. *mixed: such a run held
 * a tab (GITLEX_MIXED_TAB) or a carriage return (GITLEX_MIXED_CR): newer gits keep those
 * as they are. */
static bool read_value(struct reader *r, struct strbuf *v, unsigned *mixed)
{
	bool quote = false, comment = false;
	size_t space = 0;
	unsigned odd = 0;
	sb_setlen(v, 0);
	*mixed = 0;
	for (;;) {
		int c = next_char(r);
		if (c == '\n')
			return !quote;
		if (comment)
			continue;
		if (git_space(c) && !quote) {
			if (v->len) {
				space++;
				odd |= c == '\t' ? GITLEX_MIXED_TAB : c == '\r' ? GITLEX_MIXED_CR : 0;
			}
			continue;
		}
		if (!quote && (c == ';' || c == '#')) {
			comment = true;
			continue;
		}
		if (space)
			*mixed |= odd;
		for (; space; space--)
			sb_addc(v, ' ');
		odd = 0;
		if (c == '\\') {
			c = next_char(r);
			switch (c) {
			case '\n': continue;
			case 't': c = '\t'; break;
			case 'b': c = '\b'; break;
			case 'n': c = '\n'; break;
			case '\\': case '"': break;
			default: return false; /* git refuses an unknown escape */
			}
			sb_addc(v, (char)c);
			continue;
		}
		if (c == '"') {
			quote = !quote;
			continue;
		}
		sb_addc(v, (char)c);
	}
}


/* The body of gitlex_scan. */
static enum gitlex_result scan(struct reader *r, struct strbuf *name, struct strbuf *value,
			       bool (*fn)(void *ctx, const struct gitlex_item *it), void *ctx,
			       unsigned *at)
{
	static const char bom[] = "\xEF\xBB\xBF";
	if (r->end > r->p && *r->p == bom[0]) {
		size_t n = 0;
		while (n < 3 && r->p + n < r->end && r->p[n] == bom[n])
			n++;
		if (n < 3)
			return GITLEX_REFUSED; /* git does not take part of one */
		r->p += 3;
	}
	size_t base = 0; /* name's length up to the key: "section.sub." */
	bool comment = false, header_line = false;
	for (;;) {
		int c = next_char(r);
		if (c == '\n') {
			if (r->eof)
				return GITLEX_OK;
			comment = header_line = false;
			continue;
		}
		if (comment || git_space(c))
			continue;
		if (c == '#' || c == ';') {
			comment = true;
			continue;
		}
		*at = r->line; /* where what follows starts, for the error */
		size_t start = r->line_start;
		struct gitlex_item it = { .line = r->line, .start = start };
		if (c == '[') {
			if (!read_header(r, name))
				return GITLEX_REFUSED;
			it.kind = GITLEX_SECTION;
			it.name = name->s;
			it.name_len = name->len;
			it.end = (size_t)(r->p - r->text);
			if (!fn(ctx, &it))
				return GITLEX_STOPPED;
			sb_addc(name, '.');
			base = name->len;
			header_line = true;
			continue;
		}
		if (!git_alpha(c))
			return GITLEX_REFUSED;
		sb_setlen(name, base);
		sb_addc(name, (char)lower(c));
		for (;;) {
			c = next_char(r);
			if (r->eof || !key_char(c))
				break;
			sb_addc(name, (char)lower(c));
		}
		while (c == ' ' || c == '\t')
			c = next_char(r);
		bool has_value = c != '\n';
		if (has_value && (c != '=' || !read_value(r, value, &it.mixed)))
			return GITLEX_REFUSED;
		it.kind = GITLEX_KEY;
		it.name = name->s;
		it.name_len = name->len;
		it.value = has_value ? value->s : NULL;
		it.value_len = has_value ? value->len : 0;
		it.end = (size_t)(r->p - r->text);
		it.after_header = header_line;
		if (!fn(ctx, &it))
			return GITLEX_STOPPED;
		header_line = false; /* the key's line has ended */
	}
}

enum gitlex_result gitlex_scan(const char *text, size_t len,
			       bool (*fn)(void *ctx, const struct gitlex_item *it), void *ctx,
			       unsigned *line)
{
	struct reader r = { .text = text, .p = text, .end = text + len, .line = 1 };
	/* an empty value is "", never NULL */
	struct strbuf name = STRBUF_INIT, value = STRBUF_INIT;
	*line = 1;
	enum gitlex_result res = scan(&r, &name, &value, fn, ctx, line);
	sb_release(&name);
	sb_release(&value);
	return res;
}
