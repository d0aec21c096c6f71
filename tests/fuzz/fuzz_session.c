/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the saved-session reader (agent/transcript.h),
 * which reads a file any program of the user may have written.
 *
 * Input: one session file. Whatever parses holds no system message and
 * only the three message shapes, reads back the same after
 * transcript_dump, and has a valid id and an absolute workspace; whatever
 * does not gives one line. Nothing may crash, leak or trip a sanitizer. */
#include "config.h"
#include "agent/transcript.h"
#include "util.h"
#include "fuzz.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return 0;
	struct transcript t;
	char err[600];
	if (!transcript_parse((const char *)data, size, &t, err, sizeof err)) {
		CHECK(err[0] && !strchr(err, '\n'));
		CHECK(t.messages == NULL && t.id == NULL);
		return 0;
	}
	CHECK(transcript_id_valid(t.id));
	CHECK(t.workspace[0] == '/');
	size_t i;
	json_t *m;
	json_array_foreach(t.messages, i, m) {
		const char *role = json_string_value(json_object_get(m, "role"));
		CHECK(role && (strcmp(role, "user") == 0 || strcmp(role, "assistant") == 0 ||
			       strcmp(role, "tool") == 0));
	}
	char *d = transcript_dump(&t);
	struct transcript b;
	CHECK(transcript_parse(d, strlen(d), &b, err, sizeof err));
	CHECK(json_equal(t.messages, b.messages));
	CHECK(strcmp(t.id, b.id) == 0 && strcmp(t.workspace, b.workspace) == 0);
	CHECK(strcmp(t.first_prompt, b.first_prompt) == 0 && t.updated == b.updated);
	transcript_clear(&b);
	free(d);
	transcript_clear(&t);
	return 0;
}
