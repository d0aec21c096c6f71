/* SPDX-License-Identifier: MIT */
/* A streaming JSON writer: no tree, no allocation. kjail writes its policy
 * (thousands of mounts with a long policy) on every run; building it as a
 * jansson tree first cost more than all the rest of kjail's work. */
#ifndef KJ_JSONW_H
#define KJ_JSONW_H

#include <stdbool.h>
#include <stdio.h>
#include "strbuf.h"

#define JSONW_MAX_DEPTH 16

struct jsonw {
	FILE *out;
	struct strbuf sb; /* everything goes here first, to out in one write */
	unsigned depth;
	bool after_key;
	bool first[JSONW_MAX_DEPTH + 1];
};

void jw_init(struct jsonw *w, FILE *out);
/* Write what was built to out and release it; false on a write error. */
bool jw_flush(struct jsonw *w);
/* What was built, NUL-terminated, with end (may be NULL) appended; the
 * caller frees it. The writer is left empty. */
char *jw_take(struct jsonw *w, const char *end);
void jw_begin_object(struct jsonw *w);
void jw_end_object(struct jsonw *w);
void jw_begin_array(struct jsonw *w);
void jw_end_array(struct jsonw *w);
void jw_key(struct jsonw *w, const char *key);
/* NULL writes null. Invalid UTF-8 bytes become U+FFFD: the output is
 * always valid JSON. */
void jw_string(struct jsonw *w, const char *s);
void jw_bool(struct jsonw *w, bool v);
void jw_int(struct jsonw *w, long v);

/* Shorthands for "key": value inside an object. */
void jw_kstring(struct jsonw *w, const char *key, const char *s);
void jw_kbool(struct jsonw *w, const char *key, bool v);

#endif
