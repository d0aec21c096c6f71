/* SPDX-License-Identifier: MIT */
/* The credential scan's memory (planner/credscan.h): what it found in
 * each file it read, by the file's identity, so that a start reads only
 * the files changed since. Pure: text in, entries out, and back.
 *
 * The text is kjail's own, kept where no jail can write (the runtime
 * directory, masked in every jail), but read as untrusted all the same:
 * a strict grammar, one entry a line,
 *   "kjail-credscan 1\n" then  DEV INO CTIME_S CTIME_NS SIZE LINE KEY WHY\n
 * numbers in decimal without sign or leading zero, LINE 0 for a file
 * with no finding (KEY and WHY then "-"), KEY printable ASCII without
 * space or '`' ("-" for none), WHY printable ASCII to the end of the
 * line. Anything else, anywhere, and the whole text is refused (the scan
 * reads every file again). An entry counts only for a file whose
 * identity is the same in all five numbers. */
#ifndef KJ_POLICY_CREDCACHE_H
#define KJ_POLICY_CREDCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/credfile.h"
#include "strbuf.h"

#define CREDCACHE_MAX_ENTRIES 100000
#define CREDCACHE_WHY_MAX 120

struct credcache_entry {
	uint64_t dev, ino, ctime_s, ctime_ns, size;
	size_t line;                      /* 0: nothing found */
	char key[CREDFILE_KEY_MAX + 1];
	char why[CREDCACHE_WHY_MAX + 1];
};

struct credcache {
	struct credcache_entry *v;
	size_t n, cap;
};

/* text into c (emptied first; sorted for credcache_find); false, c
 * empty, on any fault (two entries for one DEV INO too). */
bool credcache_parse(const char *text, size_t len, struct credcache *c);
/* Sorted, one entry an identity (a file with two names is read twice):
 * before credcache_format, whose text parses again. */
void credcache_settle(struct credcache *c);
/* c as text, appended to out. */
void credcache_format(const struct credcache *c, struct strbuf *out);
/* The entry for this identity, or NULL: in a parsed cache only. */
const struct credcache_entry *credcache_find(const struct credcache *c, uint64_t dev,
					     uint64_t ino, uint64_t ctime_s, uint64_t ctime_ns,
					     uint64_t size);
/* Adds e (its strings cut and cleaned to the grammar); false when full. */
bool credcache_add(struct credcache *c, const struct credcache_entry *e);
void credcache_free(struct credcache *c);

#endif
