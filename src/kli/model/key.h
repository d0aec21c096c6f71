/* SPDX-License-Identifier: MIT */
/* The model API key: read once, kept only in memory, sent only in the
 * Authorization header. Never printed, logged, put in argv, or handed to a
 * tool: a key named by api-key-env is wiped from kli's own environment
 * (the bytes too, so /proc/PID/environ no longer shows it) before any tool
 * can run. */
#ifndef KLI_MODEL_KEY_H
#define KLI_MODEL_KEY_H

#include <stdbool.h>
#include <stddef.h>

#include "settings/settings.h"

/* Load the key [model] names into *key (NULL when none is configured):
 * api-key-secret NAME, when set, alone (the descriptor in
 * $KJAIL_SECRET_<NAME>_FD, read, closed and its variable unset; not set:
 * an error, never another source); else api-key-file or api-key-env (both:
 * an error). HOME expands "~/" in api-key-file. On false, err holds one
 * line naming the file, variable or secret, never the key. */
bool key_load(const struct kli_model *m, const char *home, char **key, char *err,
	      size_t errlen);

/* The key file's path (expanded, to be freed) when the key comes from
 * api-key-file (no api-key-secret) and this process may read it, as a
 * shell tool's command could; else NULL. */
char *key_file_readable(const struct kli_model *m, const char *home);

/* "KJAIL_SECRET_<NAME>_FD", NAME upper case and '-' as '_' (kjail's name). */
char *key_secret_var(const char *name);

/* Take NAME out of this process's environment and overwrite its value in
 * place; returns a copy of the value (NULL when unset). */
char *key_take_env(const char *name);

/* Whether a variable's VALUE holds KEY: anywhere in it, or, for a key of
 * fewer than KEY_SHORT bytes (a local server's placeholder such as "x" or
 * "EMPTY", which ordinary values contain by chance), as the whole value. */
#define KEY_SHORT 8
bool key_in_value(const char *value, const char *key);

/* Wipe, as key_take_env does, every variable of this process's
 * environment whose value holds KEY (key_in_value), whatever its name. */
void key_scrub_environ(const char *key);

/* A key must fit in one header line: visible ASCII only. */
bool key_valid(const char *key);

/* Overwrite with '*', in place, every echo of KEY in BUF (LEN bytes, a
 * server's raw body or text decoded from it), however the server wrote it:
 * as is; JSON-escaped, each character possibly as \" \\ \/ or \uXXXX;
 * URL-encoded (%XX); or inside base64 of "user:KEY" (an echoed Basic
 * header, standard or URL-safe alphabet, the characters that depend on the
 * key alone). Each echo keeps its length, so a JSON text stays valid. A
 * key shorter than KEY_SHORT is a placeholder, not a secret: left alone,
 * since masking every "x" would break every reply. Pure. */
void key_mask(char *buf, size_t len, const char *key);

/* The two halves of key_mask, for a masker that sees a text in pieces
 * (model/redact.h); key_mask is the base64 forms, then the echoes.
 *
 * The base64 forms of KEY key_mask masks, in the order it masks them
 * (each occurrence, leftmost first, not overlapping): standard, then
 * URL-safe alphabet, each at offsets 0, 1 and 2; those of KEY_SHORT
 * characters or more. Into OUT, each to be freed with key_free; how many. */
#define KEY_B64_FORMS 6
size_t key_b64_forms(const char *key, char *out[KEY_B64_FORMS]);

/* The end of the longest echo of KEY (as is, JSON-escaped or URL-encoded,
 * each byte its own way) starting at BUF[I], of LEN bytes; 0 when none.
 * When MORE, bytes may follow BUF[LEN]: KEY_ECHO_OPEN when they could
 * still change the answer. */
#define KEY_ECHO_OPEN ((size_t)-1)
size_t key_echo_end(const char *buf, size_t len, size_t i, const char *key, bool more);

/* explicit_bzero, then free. */
void key_free(char *key);

#endif
