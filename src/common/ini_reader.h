/* SPDX-License-Identifier: MIT */
/* The guarded INI reader: inih underneath, a schema on top.
 *
 * inih on its own accepts things a security tool must not: unknown keys are
 * the caller's problem, a repeated key silently overrides, an indented line
 * continues the previous value, and a line longer than its buffer is split,
 * its tail read as a fresh "key = value" (a config injection). This reader
 * refuses all of those and reports "FILE:LINE: what is wrong". */
#ifndef KJ_INI_READER_H
#define KJ_INI_READER_H

#include <stdbool.h>
#include <sys/types.h>
#include <stddef.h>

struct ini_key_spec {
	const char *name;
	bool list;          /* may repeat; each line adds one entry */
};

struct ini_section_spec {
	const char *name;   /* exact name, or with prefix: the leading part ("profile ") */
	bool prefix;        /* section is NAME<something non-empty> */
	const struct ini_key_spec *keys; /* ends with { NULL } */
};

struct ini_item {
	const char *file;
	unsigned line;
	const char *section;   /* the full section name as written */
	const char *key;
	const char *value;     /* trimmed, inline comment removed; may be "" */
	const struct ini_section_spec *section_spec;
	const struct ini_key_spec *key_spec;
};

/* Accept the item, or return false with a message (no FILE:LINE prefix,
 * the reader adds it). */
typedef bool (*ini_item_fn)(void *ctx, const struct ini_item *item, char *err, size_t errlen);

enum { INI_OK = 0, INI_MISSING = 1, INI_ERROR = -1 };

#define INI_MAX_FILE_SIZE (1024 * 1024)

/* Read PATH. A missing file is INI_MISSING when optional, else an error.
 * On INI_ERROR, err holds one line: "FILE:LINE: message" or "FILE: message". */
int ini_read_file(const char *path, bool optional, const struct ini_section_spec *schema,
		  ini_item_fn fn, void *ctx, char *err, size_t errlen);

/* ini_read_file for a config file that sets what a run may do: refused
 * (INI_ERROR, err one line) when someone other than uid or root could
 * change it, or could make it where it is missing (file_owned_safely;
 * flags: OWNED_UNMAPPED_OK for a path fixed at build time); what is read is
 * the file that was checked. */
int ini_read_file_trusted(const char *path, bool optional, uid_t uid, int flags,
			  const struct ini_section_spec *schema, ini_item_fn fn, void *ctx, char *err,
			  size_t errlen);

/* The same over text in memory; name is used in messages. */
int ini_read_text(const char *name, const char *text, size_t len,
		  const struct ini_section_spec *schema, ini_item_fn fn, void *ctx,
		  char *err, size_t errlen);

/* true/false, yes/no, on/off, 1/0 (any case). */
bool ini_parse_bool(const char *value, bool *out);

#endif
