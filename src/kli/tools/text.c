/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "tools/text.h"
#include "strbuf.h"
#include "util.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

/* Where old (k bytes) first occurs in [p, end), or NULL. memmem with the
 * lengths known (strstr would measure the rest of an 8 MiB text again on
 * every match), over a window at a time: AddressSanitizer's memmem checks
 * the whole range it is given on every call, so one call over the rest of
 * the text made a text of a million matches quadratic under CI's ASan
 * (test_tools ran for minutes). A window of step + k - 1 bytes holds every
 * match that starts in its first step bytes, so the first match is found
 * in the first window that has one; step is at least k, so no byte is
 * searched more than twice. */
#define NEXT_AT_STEP 4096
static const char *next_at(const char *p, const char *end, const char *old, size_t k)
{
	const size_t step = k > NEXT_AT_STEP ? k : NEXT_AT_STEP;
	for (;; p += step) {
		size_t left = (size_t)(end - p), len = left < step + k - 1 ? left : step + k - 1;
		const char *q = memmem(p, len, old, k);
		if (q || len == left)
			return q;
	}
}

static size_t count_occurrences(const char *text, const char *end, const char *old, size_t k)
{
	size_t n = 0;
	for (const char *p = next_at(text, end, old, k); p; p = next_at(p + k, end, old, k))
		n++;
	return n;
}

char *edit_apply(const char *text, const char *old, const char *new_text, bool all,
		 size_t *replaced, char *err, size_t errlen)
{
	size_t k = strlen(old), m = strlen(new_text), len = strlen(text);
	const char *end = text + len;
	size_t n = k ? count_occurrences(text, end, old, k) : 0;
	*replaced = 0;
	if (n == 0) {
		fmt_into(err, errlen, "old_text was not found");
		return NULL;
	}
	if (n > 1 && !all) {
		fmt_into(err, errlen, "old_text occurs %zu times; give more context to make it "
				      "unique, or set replace_all", n);
		return NULL;
	}
	/* Checked before the allocation: one short old_text, replaced
	 * everywhere by a longer text, would take gigabytes. */
	if (m > k && (len > EDIT_MAX || m - k > (EDIT_MAX - len) / n)) {
		fmt_into(err, errlen, "the file would grow past %u MiB", EDIT_MAX >> 20);
		return NULL;
	}
	char *out = xmalloc(len - n * k + n * m + 1), *o = out;
	const char *p = text;
	for (const char *q = next_at(p, end, old, k); q; q = next_at(p, end, old, k)) {
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		memcpy(o, new_text, m);
		o += m;
		p = q + k;
	}
	strcpy(o, p);
	*replaced = n;
	return out;
}

char *text_lines(const char *text, size_t len, long first, long count, char *err,
		 size_t errlen)
{
	if (first < 1)
		first = 1;
	long total = 0;
	for (size_t i = 0; i < len; i++)
		total += text[i] == '\n';
	if (len > 0 && text[len - 1] != '\n')
		total++;
	if (first > total && !(first == 1 && total == 0)) {
		fmt_into(err, errlen, "offset %ld is past the end: the file has %ld lines", first,
			 total);
		return NULL;
	}
	struct strbuf out = STRBUF_INIT;
	long line = 1;
	for (size_t i = 0; i < len && (count == 0 || line < first + count);) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - text) : len;
		if (line >= first)
			sb_addf(&out, "%6ld\t%.*s\n", line, (int)(e - i), text + i);
		i = e + 1;
		line++;
	}
	return sb_detach(&out);
}

static bool has_slash(const char *s)
{
	return strchr(s, '/') != NULL;
}

bool glob_match(const char *pattern, const char *rel)
{
	if (!has_slash(pattern)) {
		const char *base = strrchr(rel, '/');
		return fnmatch(pattern, base ? base + 1 : rel, FNM_PERIOD) == 0;
	}
	if (fnmatch(pattern, rel, 0) == 0)
		return true;
	/* A double star and its slash may stand for no directory at all:
	 * "src/" + "**" + "/x.c" matches "src/x.c" too. */
	const char *dd = strstr(pattern, "**/");
	if (!dd)
		return false;
	_cleanup_free_ char *shorter = xasprintf("%.*s%s", (int)(dd - pattern), pattern, dd + 3);
	return glob_match(shorter, rel);
}

bool text_is_binary(const char *text, size_t len)
{
	return memchr(text, '\0', len < 8192 ? len : 8192) != NULL;
}

size_t utf8_cut(const char *s, size_t n)
{
	size_t len = strlen(s);
	if (n >= len)
		return len;
	/* Step back over continuation bytes to the start of the cut sequence. */
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return n;
}

char *result_preview(const char *text, size_t limit, const char *id)
{
	size_t len = strlen(text), k = utf8_cut(text, limit);
	return xasprintf("%.*s\n[output truncated: %zu of %zu bytes shown; call result-read "
			 "with id \"%s\" and offset %zu for the rest]",
			 (int)k, text, k, len, id, k);
}

char *result_page(const char *text, const char *id, size_t offset, size_t limit, char *err,
		  size_t errlen)
{
	size_t len = strlen(text);
	if (offset > len || (offset == len && len > 0)) {
		fmt_into(err, errlen, "offset %zu is past the end of result %s (%zu bytes)",
			 offset, id, len);
		return NULL;
	}
	/* An offset inside a UTF-8 sequence moves to the sequence's start. */
	while (offset > 0 && ((unsigned char)text[offset] & 0xc0) == 0x80)
		offset--;
	size_t k = utf8_cut(text + offset, limit);
	if (offset + k >= len)
		return xasprintf("%.*s", (int)k, text + offset);
	return xasprintf("%.*s\n[bytes %zu to %zu of %zu; call result-read with id \"%s\" and "
			 "offset %zu for more]",
			 (int)k, text + offset, offset, offset + k, len, id, offset + k);
}
