/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the ssh-agent relay's judge (src/kjail/agent/msg.h):
 * the input is what a jail writes to the relay, judged message by message
 * as the relay does. No crash, sanitizer report or leak; each message
 * judged lies within the bytes given and the frame limit; only listing,
 * signing and the two extensions ever pass, and each exactly as long as
 * its fields; what it is called is printable. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent/msg.h"

#include "fuzz.h"

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The passed extension's name, by a second reading. */
static int ext_is(const uint8_t *m, size_t len, const char *name)
{
	size_t n = strlen(name);
	return len >= 9 + n && get32(m + 5) == n && memcmp(m + 9, name, n) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t at = 0;
	while (at < size) {
		size_t len = 0;
		char what[80];
		enum agent_verdict v = agent_msg_judge(data + at, size - at, &len, what, sizeof what);
		if (v == AGENT_MORE || v == AGENT_BAD) {
			CHECK(len == 0);
			break;
		}
		CHECK(v == AGENT_PASS || v == AGENT_REFUSE);
		CHECK(len >= 5 && len <= size - at && len <= 4 + (size_t)AGENT_MSG_MAX);
		CHECK(get32(data + at) == len - 4);
		CHECK(strlen(what) > 0 && strlen(what) < sizeof what);
		for (const char *c = what; *c; c++)
			CHECK(*c >= 0x20 && *c < 0x7f);
		const uint8_t *m = data + at;
		if (v == AGENT_PASS) {
			CHECK(m[4] == 11 || m[4] == 13 || m[4] == 27);
			if (m[4] == 11)
				CHECK(len == 5);
			if (m[4] == 13) {
				size_t k = 5 + 4 + get32(m + 5);
				CHECK(k + 4 <= len);
				CHECK(k + 4 + get32(m + k) + 4 == len);
			}
			if (m[4] == 27)
				CHECK(ext_is(m, len, "query") ? len == 14
				      : ext_is(m, len, "session-bind@openssh.com"));
		}
		size_t step;
		CHECK(agent_msg_frame(data + at, size - at, &step) == AGENT_PASS && step == len);
		at += len;
	}
	return 0;
}
