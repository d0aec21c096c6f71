/* SPDX-License-Identifier: MIT */
/* Config files that hold a secret among ordinary settings (~/.npmrc,
 * ~/.pypirc, pip.conf, ~/.yarnrc.yml, docker's config.json, ~/.gitconfig):
 * the jail sees a copy with the secret-bearing entries removed, instead of
 * an empty file. Pure: bytes in, bytes out, no I/O.
 *
 * Threat model: the file is the user's, but what is in it is not trusted
 * to be well formed; a filter that reads it otherwise than the program
 * that consumes it could pass a secret on. So each format is decoded as
 * its consumer decodes it (npm's ini module, Python's configparser, a YAML
 * loader, Go's encoding/json with its case folding, git's own parser:
 * git/lexer.h), and an entry is judged by the key and value that consumer
 * reads; anything the filter cannot decode as the consumer would, any
 * doubt (a syntax it does not know, a line break or blank two readers of
 * the format take differently, an open quote, a YAML anchor, a duplicate
 * JSON key, a NUL byte, bytes that are not UTF-8, a byte order mark
 * anywhere, more than CF_MAX_SIZE bytes) fails the whole file, and the
 * caller masks it whole (reads as empty). An entry is secret when its
 * decoded key matches one of the row's patterns (fnmatch, case-insensitive,
 * on the key as the format names it: "//host/:_authToken",
 * "auths.HOST.auth", "credential.helper"), or when its decoded value holds
 * a URL with a password (scheme://user:pw@host), or an http(s) URL with any
 * user part (a token as the user name). A secret entry goes whole, with
 * its continuation lines; the rest is kept byte for byte (JSON is written
 * anew, in the same member order). tests/integration/kjail-cfgfilter-
 * oracle.test holds each consumer's own reader to the copies. */
#ifndef KJ_CFGFILTER_H
#define KJ_CFGFILTER_H

#include <stdbool.h>
#include <stddef.h>

enum cf_format {
	CF_NONE,      /* not filtered: masked whole */
	CF_NPMRC,     /* npm's ini module: key = value lines, [sections], ; and # comments */
	CF_INI,       /* Python's configparser (.pypirc, pip.conf): sections,
		       * key = value or key: value, indented continuation lines */
	CF_YAML,      /* a block-style YAML subset (.yarnrc.yml) */
	CF_JSON,      /* JSON (docker's config.json) */
	CF_GITCONFIG, /* git's config syntax */
};

/* The largest file filtered; a larger one is masked whole. */
#define CF_MAX_SIZE (256u * 1024u)

struct cf_result {
	char *data;       /* the filtered copy (malloc'd, NUL-terminated) */
	size_t len;
	unsigned removed; /* secret entries removed: lines (members for JSON) */
	char err[160];    /* on failure: "line N: why" or "why" */
};

/* "npmrc", "ini", "yaml", "json", "gitconfig" */
const char *cf_format_name(enum cf_format f);
/* What cf_result.removed counts: "line" or "member". */
const char *cf_unit(enum cf_format f);

/* s (n bytes) holds a URL with a password, or an http(s) URL with a user
 * (a token as the user name): every format's filter removes such an entry,
 * and the environment scrub such a variable (env.h). */
bool cf_has_url_secret(const char *s, size_t n);

/* Filters in (len bytes) as format f, secret being the NULL-terminated
 * patterns. True: res->data holds the copy (free it). False: res->err
 * says why and res->data is NULL. */
bool cf_filter(enum cf_format f, const char *const *secret, const char *in, size_t len,
	       struct cf_result *res);

#endif
