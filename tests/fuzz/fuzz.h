/* SPDX-License-Identifier: MIT */
/* What every harness shares: CHECK(cond), a promise of the code under
 * test; a broken one aborts, which libFuzzer reports as a finding. */
#ifndef KJ_FUZZ_H
#define KJ_FUZZ_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "broken promise: %s (%s:%d)\n", #cond, \
				__FILE__, __LINE__);                         \
			abort();                                             \
		}                                                            \
	} while (0)

#endif
