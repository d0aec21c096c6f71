/* SPDX-License-Identifier: MIT */
/* Handing descriptors over a Unix socket (SCM_RIGHTS), each with a short
 * tag: the jail's entry program sends the proxy its listeners this way.
 * Small and dependency-free: the entry program links it. */
#ifndef KJ_FDPASS_H
#define KJ_FDPASS_H

#include <stddef.h>

#define FDPASS_MAX 32 /* the proxy's two and 30 loopback listeners */
#define FDPASS_TAG_MAX 16

/* Sends n (<= FDPASS_MAX) descriptors and their tags in one message.
 * 0, or -1 with errno set. */
int fdpass_send(int sock, const int *fds, const char *const *tags, size_t n);

/* Receives one message: at most max descriptors (close-on-exec) and their
 * tags (each NUL-terminated in tags[i], FDPASS_TAG_MAX bytes). Returns how
 * many, or -1 with errno set (EPROTO for a malformed message, whose
 * descriptors are closed). 0 means the peer hung up. */
int fdpass_recv(int sock, int *fds, char (*tags)[FDPASS_TAG_MAX], size_t max);

#endif
