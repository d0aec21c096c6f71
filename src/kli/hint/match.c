/* SPDX-License-Identifier: MIT */
/* Sandbox hints, recognising a denial in a line: see hint/match.h. */
#include "config.h"
#include "hint/match.h"
#include "util.h"

#include <string.h>
#include <strings.h>

bool hint_has(const char *line, const char *needle)
{
	bool code = true;
	for (const char *c = needle; *c && code; c++)
		code = (*c >= 'A' && *c <= 'Z') || *c == '_';
	if (!code)
		return strcasestr(line, needle) != NULL;
	size_t n = strlen(needle);
	for (const char *p = strstr(line, needle); p; p = strstr(p + 1, needle)) {
		unsigned char before = p > line ? (unsigned char)p[-1] : ' ';
		unsigned char after = (unsigned char)p[n];
		bool alnum_b = (before | 0x20) >= 'a' && (before | 0x20) <= 'z';
		bool alnum_a = (after | 0x20) >= 'a' && (after | 0x20) <= 'z';
		if (!alnum_b && !alnum_a && !(before >= '0' && before <= '9') && after != '_')
			return true;
	}
	return false;
}

static bool has_any(const char *line, const char *const *needles)
{
	for (; *needles; needles++)
		if (hint_has(line, *needles))
			return true;
	return false;
}

enum hint_refusal hint_refusal_of(const char *line, const char **at)
{
	static const struct {
		const char *text;
		enum hint_refusal r;
	} sigs[] = {
		{ "read-only file system", HINT_REF_EROFS },
		{ "EROFS", HINT_REF_EROFS },
		{ "permission denied", HINT_REF_EACCES },
		{ "EACCES", HINT_REF_EACCES },
		{ "operation not permitted", HINT_REF_EPERM },
		{ "EPERM", HINT_REF_EPERM },
		{ "device or resource busy", HINT_REF_EBUSY },
		{ "EBUSY", HINT_REF_EBUSY },
	};
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
		if (!hint_has(line, sigs[i].text))
			continue;
		/* Where the message starts, for the field before it. */
		*at = sigs[i].text[0] == 'E' ? strstr(line, sigs[i].text)
					     : strcasestr(line, sigs[i].text);
		return sigs[i].r;
	}
	return HINT_REF_NONE;
}

/* Words that say an EACCES or EPERM came from changing something, not
 * from reading it (without a way to ask the file system, the only clue). */
bool hint_says_write(const char *line)
{
	static const char *const verbs[] = {
		"cannot touch", "cannot create", "cannot make", "cannot mkdir", "cannot remove",
		"cannot move", "cannot rename", "cannot overwrite", "cannot link", "cannot write",
		"cannot change", "cannot set", "for writing", "changing ", "setting ",
		"failed to create", "failed to write", "failed to remove", "failed to rename",
		"could not create", "could not write", "could not lock", "could not remove",
		"unable to create", "unable to write", "unable to remove", "can't create",
		"can't write", "can't remove", "mkdir", "unlink", "rmdir", "rename", "symlink",
		"chmod", "chown", "utime", NULL,
	};
	return has_any(line, verbs);
}

bool hint_says_network(const char *line)
{
	static const char *const sigs[] = {
		"could not resolve host", "could not resolve hostname",
		"temporary failure in name resolution", "name or service not known",
		"nodename nor servname", "no address associated with hostname",
		"network is unreachable", "connection refused", "no route to host",
		"ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ENETUNREACH", "EHOSTUNREACH",
		"getaddrinfo", "failed to resolve", "unable to resolve host",
		"could not connect to server", NULL,
	};
	return has_any(line, sigs);
}

/* A line that may name a path a program found empty or missing. */
bool hint_says_trouble(const char *line)
{
	static const char *const sigs[] = {
		"no such file", "errno", "empty", "not found", "cannot", "can't", "unable",
		"failed", "error", "missing", NULL,
	};
	return has_any(line, sigs);
}
