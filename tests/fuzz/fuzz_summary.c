/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for kjail's reading of the proxy's summary line
 * (src/kjail/proxy/summary.h): the input is the whole log. Besides crashes
 * and sanitizer reports, it checks what the reader promises: -1 leaves
 * the line empty; 0 leaves it empty; a count above 0 gives a line that
 * starts "refused N connection" and holds only printable ASCII (it goes
 * to the user's terminal), never more than the buffer. */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "proxy/summary.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	if (fd < 0)
		fd = memfd_create("fuzz-log", MFD_CLOEXEC);
	CHECK(fd >= 0);
	CHECK(ftruncate(fd, 0) == 0);
	CHECK(pwrite(fd, data, size, 0) == (ssize_t)size);
	/* a small buffer too, so a long line is cut */
	static const size_t lens[] = { 4096, 40 };
	for (size_t k = 0; k < 2; k++) {
		char out[4096 + 1];
		memset(out, 'Z', sizeof out);
		long n = proxy_summary(fd, out, lens[k]);
		CHECK(n >= -1);
		CHECK(out[lens[k]] == 'Z');
		size_t len = strnlen(out, lens[k]);
		CHECK(len < lens[k]);
		if (n <= 0) {
			CHECK(len == 0);
			continue;
		}
		/* "refused N connection..." or, with failures alone,
		 * "N connection... failed" */
		char want[64];
		snprintf(want, sizeof want, "refused ");
		bool refusals = strncmp(out, want, len < 8 ? len : 8) == 0;
		CHECK(refusals || (out[0] >= '1' && out[0] <= '9') || len == 0);
		for (size_t i = 0; i < len; i++)
			CHECK(out[i] >= 0x20 && out[i] < 0x7f);
	}
	return 0;
}
