/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the bwrap probe's cache text (run/probe-cache.h).
 *
 * Besides crashes and sanitizer reports, it checks what the reader
 * promises: a text it takes is exactly the text the writer makes for that
 * answer and key (so nothing but kjail's own shape is an answer), and
 * its reason is one line within the cap. The input's first line is the
 * key, the rest the file. A broken promise aborts. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run/probe-cache.h"
#include "util.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	const char *nl = memchr(s, '\n', size);
	if (!nl)
		return 0;
	char *key = xstrndup(s, (size_t)(nl - s));
	const char *text = nl + 1;
	size_t len = size - (size_t)(nl - s) - 1;
	struct bwrap_probe r;
	if (probe_cache_parse(text, len, key, &r)) {
		CHECK(r.cached);
		CHECK(r.state == BWRAP_PROBE_WORKS || r.state == BWRAP_PROBE_NO_DISABLE);
		CHECK(strlen(r.why) <= PROBE_REASON_MAX);
		char *again = probe_cache_text(key, &r);
		CHECK(again && strlen(again) == len && memcmp(again, text, len) == 0);
		free(again);
	}
	char why[PROBE_REASON_MAX + 1];
	char *msg = xstrndup(s, size);
	probe_cache_reason(msg, why, sizeof why);
	CHECK(why[0] && strlen(why) <= PROBE_REASON_MAX && !strchr(why, '\n'));
	free(msg);
	free(key);
	return 0;
}
