/* A reader for the part of git's config syntax that core.hooksPath and the
 * include directives need: section headers ([core], [include],
 * [includeIf "COND"], names in any case; [core "x"] and [core.x] are
 * subsections, not core), a key on the header's own line, comments (# and
 * ;), keys in any case, values with double quotes, backslash escapes and
 * continued lines, and a comment after an unquoted value. */
#include "config.h"
#include "gitconfig.h"
#include "strv.h"
#include "util.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct cursor {
	const char *p, *end;
};

static bool at_end(const struct cursor *c)
{
	return c->p >= c->end;
}

static void skip_blanks(struct cursor *c)
{
	while (!at_end(c) && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
}

static void skip_line(struct cursor *c)
{
	while (!at_end(c) && *c->p != '\n')
		c->p++;
	if (!at_end(c))
		c->p++;
}

enum section { SEC_OTHER, SEC_CORE, SEC_INCLUDE };

/* The section a header opens: [core] (no subsection), [include] (no
 * subsection) and [includeIf "COND"] or [includeIf.COND] (any condition:
 * kjail does not judge them) matter; names in any case. The cursor is left
 * after the ']': git reads a key on the rest of the line. */
static enum section read_section(struct cursor *c)
{
	c->p++; /* '[' */
	skip_blanks(c);
	const char *name = c->p;
	while (!at_end(c) && (isalnum((unsigned char)*c->p) || *c->p == '-' || *c->p == '.'))
		c->p++;
	size_t n = (size_t)(c->p - name);
	const char *dot = memchr(name, '.', n);
	size_t base = dot ? (size_t)(dot - name) : n;
	bool sub = dot != NULL;
	skip_blanks(c);
	if (!at_end(c) && *c->p == '"') {
		sub = true;
		for (c->p++; !at_end(c) && *c->p != '"' && *c->p != '\n'; c->p++)
			if (*c->p == '\\' && c->p + 1 < c->end && c->p[1] != '\n')
				c->p++;
		if (!at_end(c) && *c->p == '"')
			c->p++;
		skip_blanks(c);
	}
	if (at_end(c) || *c->p != ']') {
		skip_line(c); /* git refuses the file; nothing is taken from the line */
		return SEC_OTHER;
	}
	c->p++;
	if (!sub && base == 4 && strncasecmp(name, "core", 4) == 0)
		return SEC_CORE;
	if (!sub && base == 7 && strncasecmp(name, "include", 7) == 0)
		return SEC_INCLUDE;
	if (sub && base == 9 && strncasecmp(name, "includeif", 9) == 0)
		return SEC_INCLUDE;
	return SEC_OTHER;
}

/* The value after '=', as git reads it; the cursor is left after it. */
static char *read_value(struct cursor *c)
{
	size_t cap = 64, n = 0, keep = 0; /* keep: length up to the last quoted or non-blank byte */
	char *v = xmalloc(cap);
	bool quoted = false;
	skip_blanks(c);
	while (!at_end(c)) {
		char ch = *c->p++;
		if (ch == '\n')
			break;
		if (!quoted && (ch == '#' || ch == ';')) {
			skip_line(c);
			break;
		}
		if (ch == '"') {
			quoted = !quoted;
			keep = n;
			continue;
		}
		if (ch == '\\') {
			if (at_end(c))
				break;
			char e = *c->p++;
			if (e == '\n')
				continue; /* a continued line */
			if (e == '\r' && !at_end(c) && *c->p == '\n') {
				c->p++;
				continue;
			}
			ch = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'b' ? '\b' : e;
			if (n + 1 >= cap)
				v = xreallocarray(v, cap *= 2, 1);
			v[n++] = ch;
			keep = n;
			continue;
		}
		if (ch == '\r')
			continue;
		if (n + 1 >= cap)
			v = xreallocarray(v, cap *= 2, 1);
		v[n++] = ch;
		if (quoted || (ch != ' ' && ch != '\t'))
			keep = n;
	}
	v[keep] = '\0';
	return v;
}

void gitconfig_parse(const char *text, size_t len, struct gitconfig *out)
{
	struct cursor c = { text, text + len };
	enum section sec = SEC_OTHER;
	while (!at_end(&c)) {
		skip_blanks(&c);
		if (at_end(&c))
			break;
		char ch = *c.p;
		if (ch == '\n' || ch == '#' || ch == ';') {
			skip_line(&c);
			continue;
		}
		if (ch == '[') {
			sec = read_section(&c);
			continue;
		}
		const char *key = c.p;
		while (!at_end(&c) && (isalnum((unsigned char)*c.p) || *c.p == '-'))
			c.p++;
		size_t klen = (size_t)(c.p - key);
		skip_blanks(&c);
		bool has_value = !at_end(&c) && *c.p == '=';
		if (!has_value) {
			/* a bare key (a boolean, or a line git refuses) */
			skip_line(&c);
			continue;
		}
		c.p++; /* '=' */
		char *v = read_value(&c);
		if (sec == SEC_CORE && klen == 9 && strncasecmp(key, "hookspath", 9) == 0) {
			free(out->hooks_path);
			out->hooks_path = v;
		} else if (sec == SEC_INCLUDE && klen == 4 && strncasecmp(key, "path", 4) == 0) {
			strv_take(&out->includes, v);
		} else {
			free(v);
		}
	}
}

void gitconfig_free(struct gitconfig *g)
{
	free(g->hooks_path);
	g->hooks_path = NULL;
	strv_free(&g->includes);
}
