/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the guarded INI reader.
 *
 * Besides crashes and sanitizer reports, it checks what the reader promises:
 * every delivered item comes from a physical line that inih could hold whole
 * and that starts with the item's own key (so no tail of a split line and no
 * continuation line ever becomes a key), repeated scalar keys never get
 * through, and an error is one "NAME:..." line. A broken promise aborts. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ini_reader.h"
#include "util.h"

#define NAME "fuzz.ini"
#define LONGEST_LINE 198 /* inih's 200-byte buffer less newline and NUL */

static const struct ini_key_spec sandbox_keys[] = {
	{ "network", false }, { "nested-userns", false }, { "defaults", false },
	{ "backend", false }, { "writable", true }, { "deny-read", true },
	{ "deny-env", true }, { "keep-env", true }, { NULL, false },
};
static const struct ini_key_spec profile_keys[] = {
	{ "model", false }, { NULL, false },
};
static const struct ini_section_spec schema[] = {
	{ "sandbox", false, sandbox_keys },
	{ "profile ", true, profile_keys },
	{ NULL, false, NULL },
};

struct ctx {
	const uint8_t *data;
	size_t size;
	unsigned last_line;
	char seen[64][2][64]; /* section, key of scalar items */
	size_t nseen;
};

#include "fuzz.h"

/* Start and length (without the newline) of 1-based physical line n. */
static const uint8_t *find_line(const struct ctx *c, unsigned n, size_t *len)
{
	const uint8_t *p = c->data, *end = c->data + c->size;
	for (unsigned i = 1; i < n; i++) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return NULL;
		p = nl + 1;
	}
	const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
	*len = nl ? (size_t)(nl - p) : (size_t)(end - p);
	return p;
}

static bool item(void *vctx, const struct ini_item *it, char *err, size_t errlen)
{
	struct ctx *c = vctx;
	CHECK(it->file && strcmp(it->file, NAME) == 0);
	CHECK(it->line >= 1 && it->line >= c->last_line);
	c->last_line = it->line;
	CHECK(it->section && it->section[0]);
	CHECK(it->section_spec && it->key_spec);
	CHECK(strcmp(it->key_spec->name, it->key) == 0);
	CHECK(!strchr(it->value, '\n'));

	size_t len = 0;
	const uint8_t *line = find_line(c, it->line, &len);
	CHECK(line != NULL);
	CHECK(len <= LONGEST_LINE);
	CHECK(!memchr(line, '\0', len));
	if (it->line == 1 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
		line += 3;
		len -= 3;
	}
	size_t k = strlen(it->key);
	CHECK(len > k && memcmp(line, it->key, k) == 0);
	CHECK(line[k] == ' ' || line[k] == '\t' || line[k] == '=');

	if (!it->key_spec->list) {
		for (size_t i = 0; i < c->nseen; i++)
			CHECK(!(strcmp(c->seen[i][0], it->section) == 0 &&
				strcmp(c->seen[i][1], it->key) == 0));
		if (c->nseen < ARRAY_SIZE(c->seen) && strlen(it->section) < 64) {
			strcpy(c->seen[c->nseen][0], it->section);
			strcpy(c->seen[c->nseen][1], it->key);
			c->nseen++;
		}
	}

	if (strcmp(it->key, "network") == 0 || strcmp(it->key, "nested-userns") == 0 ||
	    strcmp(it->key, "defaults") == 0) {
		bool b;
		if (!ini_parse_bool(it->value, &b)) {
			snprintf(err, errlen, "'%s' is not a boolean", it->value);
			return false;
		}
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ctx c = { .data = data, .size = size };
	char err[512];
	memset(err, 'x', sizeof err - 1);
	err[sizeof err - 1] = '\0';
	int rc = ini_read_text(NAME, (const char *)data, size, schema, item, &c, err, sizeof err);
	CHECK(rc == INI_OK || rc == INI_ERROR);
	if (rc == INI_ERROR) {
		CHECK(strncmp(err, NAME ":", strlen(NAME ":")) == 0);
		CHECK(!strchr(err, '\n'));
	}
	return 0;
}
