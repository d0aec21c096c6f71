/* SPDX-License-Identifier: MIT */
/* The environment a command of the agent gets (agent.h): with an
 * allowlist ([bash] env-allowlist), PATH, the proxy settings kjail
 * --allow-host sets (unless they carry credentials) and the listed names
 * (NAME* is a prefix); else all of it. Either way no variable whose value
 * holds the model's key, whatever it is called. Pure. */
#ifndef KLI_AGENT_ENVIRON_H
#define KLI_AGENT_ENVIRON_H

#include <stddef.h>

/* A new NULL-terminated list of copies from ENVIRON. */
char **agent_tool_environ(char *const *environ, char *const *allow, size_t nallow,
			  const char *key);

#endif
