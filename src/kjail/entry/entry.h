/* SPDX-License-Identifier: MIT */
/* Shared by kjail and kjail-entry: exec the command, and the jail entry. */
#ifndef KJ_ENTRY_H
#define KJ_ENTRY_H

#include "entry/abi.h" /* KJ_EXIT_FAIL, KJ_EXIT_NOEXEC, KJ_EXIT_NOTFOUND */
#include "util.h"


/* execvp (with envp when not NULL); on failure one line and 126 or 127. */
KJ_NORETURN void exec_command(char *const *cmd, char *const *envp);

/* Inside the jail: under an allowlist (proxy_fd >= 0), make the proxy's
 * listeners and hand them to kjail's proxy (entry_proxy_listeners); apply
 * Landlock (writes only under the nrw paths rw unless mounts, and the
 * scopes: landlock_apply), report
 * readiness on the status descriptor, restore the user's stderr and signal
 * dispositions, close every descriptor above 2 but the nkeep of keep (a
 * secret's, which the command inherits), exec cmd. spec is
 * "STATUS,STDERR,SIGNALS". Never returns. */
KJ_NORETURN void jail_entry(const char *spec, int proxy_fd, const char *const *local,
			    size_t nlocal, const int *keep, size_t nkeep, const char *const *rw,
			    size_t nrw, bool mounts, char *const *cmd);

/* Makes the listening sockets 127.0.0.1:PROXY_HTTP_PORT and
 * :PROXY_SOCKS_PORT in the jail's network namespace, and one at each of
 * the nlocal loopback rules' addresses (JAIL_LOCAL_PREFIX's values,
 * "HOST:PORT"; "localhost" is 127.0.0.1 and ::1, the latter skipped where
 * the jail has no IPv6), sends them on sock (fdpass.h, tags "http",
 * "socks5" and "local"), waits for the proxy's 'k' and closes its copies
 * and sock. No answer, a hang-up or any failure: one line and exit 125
 * (fails closed: the command never runs). */
void entry_proxy_listeners(int sock, const char *const *local, size_t nlocal);

/* For argv "PROG --jail-entry=S,E,M [--proxy-fd=N [--local=HOST:PORT]...] [--keep-fd=N]...
 * [--userns-mounts]
 * [--rw=PATH]... -- CMD...":
 * jail_entry,
 * which never returns; dies on a malformed one; any other argv: returns. */
void jail_entry_if_asked(int argc, char **argv);

#endif
