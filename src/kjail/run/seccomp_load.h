/* SPDX-License-Identifier: MIT */
/* run/seccomp_load.c: the filter handed to the jail, from the program
 * compiled at build time (build/seccomp.h builds the rules). */
#ifndef KJ_RUN_SECCOMP_LOAD_H
#define KJ_RUN_SECCOMP_LOAD_H

#include "build/seccomp.h"

/* The filter for o as a sealed memfd: the program embedded at build time
 * when it was built for this machine, else seccomp_compile(). */
int seccomp_export(const struct sc_opts *o, char *err, size_t errlen);
/* The same program written into fd, an empty memfd made with
 * MFD_ALLOW_SEALING (seccomp_memfd), then sealed; false with one line in
 * err. For a descriptor bwrap was started with before the options that
 * choose the program were known. */
bool seccomp_fill(int fd, const struct sc_opts *o, char *err, size_t errlen);

/* The embedded program for o (NULL when none was built in) and its machine. */
const unsigned char *seccomp_embedded(const struct sc_opts *o, size_t *len);
const char *seccomp_embedded_machine(void);

#endif
