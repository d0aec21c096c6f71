/* A reader for the part of git's config syntax that core.hooksPath needs:
 * sections ([core], names in any case; [core "x"] and [core.x] are
 * subsections, not core), comments (# and ;), keys in any case, values
 * with double quotes, backslash escapes and continued lines, and a comment
 * after an unquoted value. */
#include "config.h"
#include "gitconfig.h"
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

/* "[core]" (any case, blanks allowed inside the brackets) and nothing
 * else: true. The cursor is left after the line. */
static bool section_is_core(struct cursor *c)
{
	c->p++; /* '[' */
	skip_blanks(c);
	const char *name = c->p;
	while (!at_end(c) && (isalnum((unsigned char)*c->p) || *c->p == '-'))
		c->p++;
	size_t n = (size_t)(c->p - name);
	skip_blanks(c);
	bool core = n == 4 && strncasecmp(name, "core", 4) == 0 && !at_end(c) && *c->p == ']';
	skip_line(c);
	return core;
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

char *gitconfig_hooks_path(const char *text, size_t len)
{
	struct cursor c = { text, text + len };
	bool in_core = false;
	char *found = NULL;
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
			in_core = section_is_core(&c);
			continue;
		}
		const char *key = c.p;
		while (!at_end(&c) && (isalnum((unsigned char)*c.p) || *c.p == '-'))
			c.p++;
		size_t klen = (size_t)(c.p - key);
		skip_blanks(&c);
		bool has_value = !at_end(&c) && *c.p == '=';
		if (!in_core || klen != 9 || strncasecmp(key, "hookspath", 9) != 0 || !has_value) {
			/* another key, or a bare boolean: its value (which may go on
			 * over continued lines) is read and dropped */
			if (has_value) {
				c.p++;
				free(read_value(&c));
			} else {
				skip_line(&c);
			}
			continue;
		}
		c.p++; /* '=' */
		free(found);
		found = read_value(&c);
	}
	return found;
}
