/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for what the credential scan parses (issue 39 item 7):
 * the first byte picks the parser. Even: the scan's memory
 * (policy/credcache.h), untrusted though kjail wrote it: a refusal leaves
 * nothing; what it accepts is written back byte for byte as it came (the
 * grammar has one spelling for each entry), and each entry is found by
 * its identity. Odd: a home's file (policy/credfile.h): a finding has a
 * line within the file, a reason, and a key of printable ASCII without
 * '`'; and secretval answers for every line of it. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/credcache.h"
#include "policy/credfile.h"
#include "policy/secretval.h"

#include "fuzz.h"

static void cache(const char *text, size_t len)
{
	struct credcache c = { 0 };
	if (!credcache_parse(text, len, &c)) {
		CHECK(c.n == 0);
		credcache_free(&c);
		return;
	}
	struct strbuf out = STRBUF_INIT;
	credcache_format(&c, &out);
	/* sorted on parse: the same entries, maybe in another order */
	CHECK(out.len == len);
	struct credcache again = { 0 };
	CHECK(credcache_parse(out.s, out.len, &again));
	CHECK(again.n == c.n);
	for (size_t i = 0; i < c.n; i++) {
		const struct credcache_entry *e = &c.v[i];
		const struct credcache_entry *f =
			credcache_find(&again, e->dev, e->ino, e->ctime_s, e->ctime_ns, e->size);
		CHECK(f && f->line == e->line && strcmp(f->key, e->key) == 0 &&
		      strcmp(f->why, e->why) == 0);
	}
	sb_release(&out);
	credcache_free(&again);
	credcache_free(&c);
}

static void file(const char *text, size_t len)
{
	struct credfile_hit h;
	if (credfile_find(text, len, &h)) {
		size_t lines = 1;
		for (size_t i = 0; i < len; i++)
			lines += text[i] == '\n';
		CHECK(h.line >= 1 && h.line <= lines);
		CHECK(h.why && h.why[0]);
		for (const char *p = h.key; *p; p++)
			CHECK(*p > 0x20 && *p < 0x7f && *p != '`');
	}
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len;
		(void)secretval_judge(text + at, end - at, SV_KEYED | SV_PASSWORD);
		(void)secretval_key(text + at, end - at);
		at = end + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 64 * 1024)
		return 0;
	char *text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	if (data[0] & 1)
		file(text, size - 1);
	else
		cache(text, size - 1);
	free(text);
	return 0;
}
