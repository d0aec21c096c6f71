/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the config file filters (src/kjail/cfgfilter/cfgfilter.h):
 * the first byte picks the format (npmrc, ini, yaml, json, gitconfig, with
 * the real table's patterns), the rest is the file.
 *
 * Besides crashes and sanitizer reports, it checks what the filters
 * promise: a refusal says why in one line and gives no data; a copy is
 * NUL-terminated text of the length it says; a line format's copy is the
 * file's own lines, in order, some left out, and nothing left out when
 * it says none was; and the copy filtered again is taken and comes out
 * the same, with nothing more removed: no secret entry the filter's decoder
 * (the consumer's rules: npm's ini, configparser, a YAML loader, Go's
 * JSON, git's lexer) finds is left in it. A broken promise aborts. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfgfilter/cfgfilter.h"
#include "policy/defaults.h"

#include "fuzz.h"

static const struct cred_store *row_of(enum cf_format f)
{
	for (const struct cred_store *c = cred_stores; c->tool; c++)
		if (c->format == f)
			return c;
	return NULL;
}

/* The length of the line at s (n bytes) with its ending: LF, and under
 * cr any CR too (npm's, Python's and YAML's line breaks; a line dropped
 * between one ending in a CR alone and an empty one may join the two
 * breaks into a CR LF, which loses an empty line and nothing else). */
static size_t line_len(const char *s, size_t n, bool cr)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\n' || (cr && s[i] == '\r'))
			return i + 1;
	return n;
}

/* out is in's lines (with their endings), in order, some left out. */
static bool subsequence(const char *in, size_t n, const char *out, size_t m, bool cr)
{
	size_t i = 0, j = 0;
	while (j < m) {
		size_t ol = line_len(out + j, m - j, cr);
		bool found = false;
		while (i < n && !found) {
			size_t il = line_len(in + i, n - i, cr);
			found = il == ol && memcmp(in + i, out + j, ol) == 0;
			i += il;
		}
		if (!found)
			return false;
		j += ol;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	enum cf_format f = (enum cf_format)(1 + data[0] % 5);
	const struct cred_store *c = row_of(f);
	CHECK(c != NULL);
	const char *in = (const char *)data + 1;
	size_t n = size - 1;
	struct cf_result r;
	if (!cf_filter(f, c->secret, in, n, &r)) {
		CHECK(r.data == NULL && r.err[0] != '\0' && !strchr(r.err, '\n'));
		return 0;
	}
	CHECK(r.data != NULL && strlen(r.data) == r.len);
	if (f != CF_JSON) {
		CHECK(r.len <= n && subsequence(in, n, r.data, r.len, f != CF_GITCONFIG));
		CHECK(r.removed > 0 || (r.len == n && memcmp(r.data, in, n) == 0));
	}
	struct cf_result again;
	CHECK(cf_filter(f, c->secret, r.data, r.len, &again));
	CHECK(again.removed == 0 && again.len == r.len && memcmp(again.data, r.data, r.len) == 0);
	free(again.data);
	free(r.data);
	return 0;
}
