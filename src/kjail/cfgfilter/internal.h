/* SPDX-License-Identifier: MIT */
/* What the format filters of cfgfilter.h share (cfgfilter/common.c): the
 * output buffer, the lines of the input, the secret tests. cfgfilter.c
 * dispatches to one cf_filter_FORMAT per format, each declared in its
 * file's header (ini.h, yaml.h, json.h, git.h); each returns false with
 * res->err set. */
#ifndef KJ_CFGFILTER_INT_H
#define KJ_CFGFILTER_INT_H

#include "cfgfilter/cfgfilter.h"
#include "strbuf.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The end of a filter: out becomes res's copy when ok (ok returned), or is
 * freed (false: res->err was set where the filter failed). */
bool cf_done(struct strbuf *out, bool ok, struct cf_result *res);

/* One physical line: text[0..len) without its newline and a CR before it;
 * next: where the following line starts. */
struct cf_line {
	const char *text;
	size_t len;
	size_t full;   /* with its line ending, for copying it as it is */
};
/* Splits in into lines at LF, CR LF and a CR alone, as npm's ini, a
 * Python file read (universal newlines) and a YAML loader all do (the last
 * line may lack its line break). */
struct cf_line *cf_lines(const char *in, size_t len, size_t *n);

/* The code point at s[i] (valid UTF-8: cf_filter checked it), its length
 * in bytes into *len. */
uint32_t cf_utf8_at(const char *s, size_t n, size_t i, size_t *len);
/* What JavaScript's trim() and \s take for a blank (npm's ini). */
bool cf_js_space(uint32_t c);
/* What Python's str.strip() and \s take for a blank (configparser). */
bool cf_py_space(uint32_t c);
/* s[*b..*e): s without the blanks (by space) at either end. */
void cf_trim(const char *s, size_t n, bool (*space)(uint32_t), size_t *b, size_t *e);

/* cf_has_url_secret for a value as its reader decoded it: quotes and
 * blanks do not end the URL's authority there. */
bool cf_value_url_secret(const char *s, size_t n);

/* key (n bytes) matches one of the patterns, in any case. */
bool cf_key_secret(const char *const *secret, const char *key, size_t n);

KJ_PRINTF(3, 4) bool cf_fail(struct cf_result *res, size_t line, const char *fmt, ...);

#endif
