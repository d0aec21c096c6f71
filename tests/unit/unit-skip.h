/* SPDX-License-Identifier: MIT */
/* unit-skip.h: make a skipped cmocka case visible to automake.
 *
 * cmocka counts a case that calls skip() apart from the failures, and
 * cmocka_run_group_tests() returns only the failures: a binary whose cases
 * were all skipped exited 0 and read as PASS. Every unit test includes this
 * after <cmocka.h> and ends main with unit_status(): 1 when a case failed,
 * else 77 (automake's SKIP) when a case was skipped, else 0. Returning the
 * raw failure count would also read 77 failures as a SKIP. */
#ifndef KJAIL_UNIT_SKIP_H
#define KJAIL_UNIT_SKIP_H

static int unit_skipped;

#undef skip
#define skip()                                                                 \
	do {                                                                   \
		unit_skipped++;                                                \
		_skip(__FILE__, __LINE__);                                     \
	} while (0)

/* unit_status FAILED: main's exit status, from the number of failed cases */
static inline int unit_status(int failed)
{
	if (failed != 0)
		return 1;
	return unit_skipped != 0 ? 77 : 0;
}

#endif
