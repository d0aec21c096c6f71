/* SPDX-License-Identifier: MIT */
/* A growable string, after git's strbuf: always NUL-terminated (s is ""
 * before the first add, never NULL once initialised), grown by doubling
 * with the size arithmetic checked, and dying on out-of-memory like the x*
 * allocators (util.h), so no caller checks an add.
 *
 * A buffer that holds what hostile input sends (a server's reply, a
 * command's output) may have a limit, max: an add that would take len past
 * it adds nothing and returns false, and nothing is allocated past max + 1.
 * The buffer then keeps what it had; the caller refuses, or keeps the part
 * that fits (sb_room). Without a limit every add returns true. */
#ifndef KJ_STRBUF_H
#define KJ_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include "util.h"

struct strbuf {
	char *s;      /* s[len] == '\0' */
	size_t len;
	size_t alloc; /* bytes allocated at s; 0 while s is the shared "" */
	size_t max;   /* the limit on len; 0: none */
};

/* The "" every empty, unallocated buffer points at; never written. */
extern char sb_empty[1];

#define STRBUF_INIT { sb_empty, 0, 0, 0 }
#define STRBUF_INIT_MAX(m) { sb_empty, 0, 0, (m) }

/* Empty, without a limit, with room for hint bytes (0: none yet). A zeroed
 * strbuf takes adds too, but its s is NULL until the first one. */
void sb_init(struct strbuf *sb, size_t hint);

/* sb_grow's reallocation (the inline test keeps it off the fast path). */
void sb_realloc(struct strbuf *sb, size_t extra);

/* Bytes that fit before the next reallocation. */
static inline size_t sb_avail(const struct strbuf *sb)
{
	return sb->alloc ? sb->alloc - sb->len - 1 : 0;
}

/* Room for extra more bytes (and the NUL) without a reallocation, for a
 * caller that writes at s + len itself and then calls sb_setlen. The limit
 * is not checked: what is written there is the caller's to bound. */
static inline void sb_grow(struct strbuf *sb, size_t extra)
{
	if (extra > sb_avail(sb))
		sb_realloc(sb, extra);
}

/* len set to n (at most len + sb_avail: what was written after
 * sb_grow, or a shorter string), and the NUL after it. */
static inline void sb_setlen(struct strbuf *sb, size_t n)
{
	sb->len = n;
	if (sb->alloc)
		sb->s[n] = '\0';
}

/* How many more bytes an add may bring before the limit refuses it. */
size_t sb_room(const struct strbuf *sb);

bool sb_add(struct strbuf *sb, const void *p, size_t n);
bool sb_adds(struct strbuf *sb, const char *str);
KJ_PRINTF(2, 3) bool sb_addf(struct strbuf *sb, const char *fmt, ...);
KJ_PRINTF(2, 0) bool sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap);

static inline bool sb_addc(struct strbuf *sb, char c)
{
	if (sb->max && sb->len >= sb->max)
		return false;
	sb_grow(sb, 1);
	sb->s[sb->len++] = c;
	sb->s[sb->len] = '\0';
	return true;
}

/* Empty again, keeping the memory for what comes next. */
static inline void sb_reset(struct strbuf *sb) { sb_setlen(sb, 0); }

/* The string, allocated (an empty one too), for the caller to free; the
 * buffer is left empty and unallocated, its limit kept. */
char *sb_detach(struct strbuf *sb);
/* Frees the string; the buffer is left empty, its limit kept. */
void sb_release(struct strbuf *sb);

#endif
