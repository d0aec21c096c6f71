/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "policy/credcache.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define HEADER "kjail-credscan 1\n"

/* One decimal number ending at a space: no sign, no leading zero. */
static bool number(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	if (s >= end || *s < '0' || *s > '9' || (*s == '0' && s + 1 < end && s[1] != ' '))
		return false;
	uint64_t v = 0;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (s >= end || *s != ' ')
		return false;
	*out = v;
	*p = s + 1;
	return true;
}

static bool printable(char c) { return c >= 0x20 && c < 0x7f; }

/* KEY: printable, no space, no '`', "-" alone for none */
static bool key_field(const char **p, const char *end, char *out)
{
	const char *s = *p;
	size_t n = 0;
	while (s + n < end && s[n] != ' ') {
		if (!printable(s[n]) || s[n] == '`' || n == CREDFILE_KEY_MAX)
			return false;
		n++;
	}
	if (!n || s + n >= end)
		return false;
	if (n == 1 && s[0] == '-')
		out[0] = '\0';
	else {
		memcpy(out, s, n);
		out[n] = '\0';
	}
	*p = s + n + 1;
	return true;
}

static bool entry(const char *s, const char *end, struct credcache_entry *e)
{
	uint64_t line;
	if (!number(&s, end, &e->dev) || !number(&s, end, &e->ino) ||
	    !number(&s, end, &e->ctime_s) || !number(&s, end, &e->ctime_ns) ||
	    !number(&s, end, &e->size) || !number(&s, end, &line) || e->ctime_ns >= 1000000000 ||
	    line > SIZE_MAX || !key_field(&s, end, e->key))
		return false;
	e->line = (size_t)line;
	size_t n = (size_t)(end - s);
	if (!n || n > CREDCACHE_WHY_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!printable(s[i]))
			return false;
	memcpy(e->why, s, n);
	e->why[n] = '\0';
	/* nothing found: no key, no reason */
	if (!e->line)
		return !e->key[0] && strcmp(e->why, "-") == 0;
	return strcmp(e->why, "-") != 0;
}

static int by_identity(const void *a, const void *b)
{
	const struct credcache_entry *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return 0;
}

bool credcache_parse(const char *text, size_t len, struct credcache *c)
{
	c->n = 0;
	size_t hl = sizeof HEADER - 1;
	if (len < hl || memcmp(text, HEADER, hl) != 0)
		return false;
	for (size_t at = hl; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		struct credcache_entry e;
		if (!nl || !entry(text + at, nl, &e) || !credcache_add(c, &e)) {
			c->n = 0;
			return false;
		}
		at = (size_t)(nl - text) + 1;
	}
	if (c->n)
		qsort(c->v, c->n, sizeof *c->v, by_identity);
	/* one entry an identity */
	for (size_t i = 1; i < c->n; i++)
		if (by_identity(&c->v[i - 1], &c->v[i]) == 0) {
			c->n = 0;
			return false;
		}
	return true;
}

bool credcache_add(struct credcache *c, const struct credcache_entry *e)
{
	if (c->n >= CREDCACHE_MAX_ENTRIES)
		return false;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->v = xreallocarray(c->v, c->cap, sizeof *c->v);
	}
	struct credcache_entry *d = &c->v[c->n++];
	*d = *e;
	d->key[CREDFILE_KEY_MAX] = '\0';
	d->why[CREDCACHE_WHY_MAX] = '\0';
	for (char *p = d->key; *p; p++)
		if (!printable(*p) || *p == ' ' || *p == '`')
			*p = '?';
	for (char *p = d->why; *p; p++)
		if (!printable(*p))
			*p = '?';
	if (!d->line) {
		d->key[0] = '\0';
		strcpy(d->why, "-");
	} else if (!d->why[0] || strcmp(d->why, "-") == 0) {
		strcpy(d->why, "?");
	}
	return true;
}

void credcache_settle(struct credcache *c)
{
	if (c->n)
		qsort(c->v, c->n, sizeof *c->v, by_identity);
	size_t m = 0;
	for (size_t i = 0; i < c->n; i++)
		if (!m || by_identity(&c->v[m - 1], &c->v[i]) != 0)
			c->v[m++] = c->v[i];
	c->n = m;
}

void credcache_format(const struct credcache *c, struct strbuf *out)
{
	sb_adds(out, HEADER);
	for (size_t i = 0; i < c->n; i++) {
		const struct credcache_entry *e = &c->v[i];
		sb_addf(out, "%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %zu %s %s\n",
			e->dev, e->ino, e->ctime_s, e->ctime_ns, e->size, e->line,
			e->key[0] ? e->key : "-", e->why);
	}
}

const struct credcache_entry *credcache_find(const struct credcache *c, uint64_t dev,
					     uint64_t ino, uint64_t ctime_s, uint64_t ctime_ns,
					     uint64_t size)
{
	struct credcache_entry k = { .dev = dev, .ino = ino };
	const struct credcache_entry *e =
		c->n ? bsearch(&k, c->v, c->n, sizeof *c->v, by_identity) : NULL;
	return e && e->ctime_s == ctime_s && e->ctime_ns == ctime_ns && e->size == size ? e
														: NULL;
}

void credcache_free(struct credcache *c)
{
	free(c->v);
	*c = (struct credcache){ 0 };
}
