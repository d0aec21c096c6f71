/* SPDX-License-Identifier: MIT */
/* The text of kjail's cached bwrap probe (run/bwrap-probe.h): what this
 * bwrap could do, keyed by what would change the answer. Pure: no I/O.
 *
 *   kjail-bwrap-probe 1
 *   key KEY
 *   disable-userns works          or    disable-userns fails REASON
 *
 * The file is kjail's own, but a jail whose writable root holds it could
 * rewrite it: a text not exactly of this shape, or of another key, is no
 * answer (the probe runs again). Either answer it could plant costs no
 * containment: "fails" leaves the seccomp rules, which refuse user
 * namespaces whatever bwrap does; "works" where it does not makes bwrap
 * fail before the command starts, and kjail probe again (spawn.c). */
#ifndef KJ_PROBE_CACHE_H
#define KJ_PROBE_CACHE_H

#include <stdbool.h>
#include <stddef.h>

enum bwrap_probe_state {
	BWRAP_PROBE_UNKNOWN,        /* not probed (no bwrap, or not allowed to) */
	BWRAP_PROBE_WORKS,          /* --disable-userns works */
	BWRAP_PROBE_NO_DISABLE,     /* bwrap runs, but not with --disable-userns */
	BWRAP_PROBE_BWRAP_FAILS,    /* bwrap does not run at all: never cached */
};

#define PROBE_REASON_MAX 200

struct bwrap_probe {
	enum bwrap_probe_state state;
	bool cached;                   /* the answer came from the cache file */
	char why[PROBE_REASON_MAX + 1]; /* NO_DISABLE, BWRAP_FAILS: bwrap's line */
};

/* bwrap's stderr made one reason: its first line, "bwrap: " taken off,
 * every control character a '?', at most PROBE_REASON_MAX bytes;
 * "no message" when empty. */
void probe_cache_reason(const char *msg, char *out, size_t len);

/* The file's text for an answer (WORKS or NO_DISABLE) under key (one line,
 * no control character); NULL for a key or answer that cannot be kept. */
char *probe_cache_text(const char *key, const struct bwrap_probe *r);

/* Reads text (len bytes, not NUL-terminated) as written for key; true and
 * *out (cached set) only when it is exactly such a text. */
bool probe_cache_parse(const char *text, size_t len, const char *key, struct bwrap_probe *out);

#endif
