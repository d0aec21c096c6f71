/* Landlock scopes, applied by the jail's entry helper right before exec. */
#ifndef KJ_LANDLOCK_H
#define KJ_LANDLOCK_H

#include <stddef.h>

#include "entry-abi.h" /* LANDLOCK_SCOPES_ABI */

/* The kernel's Landlock ABI version, or -1 (with errno) without Landlock. */
int landlock_abi(void);


enum { LL_APPLIED = 0, LL_UNSUPPORTED = 1, LL_FAILED = -1 };

/* Restrict this process and what it execs: no connecting to abstract Unix
 * sockets made outside, no signals to processes outside. */
int landlock_apply_scopes(char *err, size_t errlen);

/* One line on the scopes this kernel gives, for --explain and --doctor. */
const char *landlock_status(void);

#endif
