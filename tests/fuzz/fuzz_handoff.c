/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for what kjail hands its proxy program
 * (src/kjail/proxy/handoff.h): the reader takes any bytes without a
 * crash, a sanitizer report or a leak; and what it accepts is what the
 * writer would have written: encoding the configuration it read gives
 * back the very bytes, so no two messages mean the same thing and
 * nothing the reader skips could carry meaning. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proxy/handoff.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proxy_handoff h;
	char err[256];
	if (!proxy_handoff_decode((const char *)data, size, &h, err, sizeof err)) {
		CHECK(err[0] != '\0');
		return 0;
	}
	struct proxy_config c = h.c;
	c.log_fd = h.log ? 4 : -1;
	size_t len;
	char *again = proxy_handoff_encode(&c, h.parent, &len);
	CHECK(len == size && memcmp(again, data, size) == 0);
	free(again);
	proxy_handoff_free(&h);
	return 0;
}
