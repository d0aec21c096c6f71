/* SPDX-License-Identifier: MIT */
/* The ssh-agent relay's confinement: reads only in the agent socket's
 * directory (Landlock), and a seccomp allowlist with no execve, no open,
 * and no socket but a Unix stream one. */
#ifndef KJ_AGENT_SANDBOX_H
#define KJ_AGENT_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

/* Applies both, for the agent's socket at agent_path. false with one
 * line in err; a kernel without Landlock is no failure (the filter
 * still holds: the relay opens no file). */
bool agent_sandbox_apply(const char *agent_path, char *err, size_t errlen);

#endif
