/* SPDX-License-Identifier: MIT */
/* A secret's bytes (policy/secret.h), read outside the jail into a sealed
 * memfd that the command inherits: never a file or a variable inside. */
#ifndef KJ_RUN_SECRET_H
#define KJ_RUN_SECRET_H

/* The entry's bytes (its file read through, or kjail's own variable) in a
 * new memfd, close-on-exec, sealed against any change, offset 0. An
 * unreadable file, an unset variable, an empty secret or one over
 * SECRET_MAX bytes: one line naming origin, and exit 125. */
int secret_open(const char *value, const char *origin);

#endif
