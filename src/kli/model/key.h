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

#include "settings.h"

/* Load the key [model] names into *key (NULL when none is configured).
 * HOME expands "~/" in api-key-file. On false, err holds one line naming
 * the file or variable, never the key. */
bool key_load(const struct kli_model *m, const char *home, char **key, char *err,
	      size_t errlen);

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

/* explicit_bzero, then free. */
void key_free(char *key);

#endif
