/* SPDX-License-Identifier: MIT */
/* Where kjail finds the programs it runs: by absolute path only, never
 * through a PATH entry the workspace could plant. */
#ifndef KJ_LOCATE_H
#define KJ_LOCATE_H

/* bwrap: the configure-time path, then fixed system directories. NULL when
 * none is an executable regular file. */
const char *bwrap_find(void);
/* "installed ... looked in ..." for the missing-bwrap message. */
const char *bwrap_search_list(void);

#include <stddef.h>

/* kjail's own binary, its real path (/proc/self/exe; on macOS
 * _NSGetExecutablePath, "" when it cannot say), where its programs are
 * looked for; "" elsewhere. Allocated; on Linux dies when it cannot be
 * read. */
char *kjail_self(void);

/* The jail's entry program, kjail-entry: next to kjail's own binary self
 * (the build tree, a copy made with install(1)), in ../libexec/kjail from
 * there, else in kjail's libexec directory. Allocated; NULL with one line
 * naming where it looked in err when none has it. Off Linux (no bwrap
 * backend, no kjail-entry): NULL, err empty. */
char *entry_helper_find(const char *self, char *err, size_t errlen);

/* The proxy program, kjail-proxy (proxy/spawn.h), looked for in the same
 * places from kjail's own binary; on macOS too. Allocated; NULL with one
 * line naming where it looked in err when none has it. */
char *proxy_helper_find(char *err, size_t errlen);

/* The ssh-agent relay, kjail-agent-relay (agent/spawn.h), looked for in
 * the same places. Allocated; NULL with one line in err. */
char *agent_relay_find(char *err, size_t errlen);

#endif
