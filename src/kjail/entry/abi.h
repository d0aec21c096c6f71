/* SPDX-License-Identifier: MIT */
/* What kjail and its entry program agree on, in one place: macros only. */
#ifndef KJ_ENTRY_ABI_H
#define KJ_ENTRY_ABI_H

/* Exit statuses: the jail did not start; the command could not be run;
 * the command was not found (126 and 127 as a shell gives them). */
#define KJ_EXIT_FAIL 125
#define KJ_EXIT_NOEXEC 126
#define KJ_EXIT_NOTFOUND 127

/* --jail-entry=S,E,M: bits of M. kjail and bwrap ignore Ctrl-C and Ctrl-\
 * so the jail outlives them while the command decides; the command gets
 * back the dispositions kjail started with. */
#define JAIL_SIGINT_DEFAULT 1
#define JAIL_SIGQUIT_DEFAULT 2

/* The first Landlock ABI with LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET and _SIGNAL. */
#define LANDLOCK_SCOPES_ABI 6
/* The first with LANDLOCK_ACCESS_FS_TRUNCATE: from there the helper lets
 * the command write only under the writable paths, whatever descriptor it
 * reopens (renames across directories need ABI 2's REFER). */
#define LANDLOCK_WRITES_ABI 3

/* --jail-entry=S,E,M [--rw=PATH]... -- CMD: each writable path of the jail
 * (the workspace, --writable paths, /tmp, /dev, /proc). */
#define JAIL_RW_PREFIX "--rw="

/* --jail-entry=S,E,M [--proxy-fd=N] --userns-mounts ...: the jail was
 * started with --allow-userns, and the command may build mount namespaces
 * of its own (a nested jail): Landlock's write rules, under which no
 * mount, umount or pivot_root succeeds anywhere, are left off; the scopes
 * stay. Without the word the write rules apply (fails closed). */
#define JAIL_USERNS_MOUNTS "--userns-mounts"

/* --jail-entry=S,E,M --proxy-fd=N ...: under an allowlist, the socket on
 * which the entry program hands kjail's proxy its listeners (made inside
 * the jail's network namespace on 127.0.0.1, the ports proxy.h fixes)
 * and waits for its 'k'. */
#define JAIL_PROXY_PREFIX "--proxy-fd="

/* --jail-entry=S,E,M --proxy-fd=N --local=HOST:PORT ...: a loopback rule
 * (proxy/rules.h: "127.0.0.1:8080", "[::1]:8080", "localhost:8080", the
 * last meaning 127.0.0.1 and, if the jail has it, ::1): the entry program
 * listens there too and hands the listener to the proxy with the others,
 * which relays it to the same address and port on the host. */
#define JAIL_LOCAL_PREFIX "--local="

/* --jail-entry=S,E,M [--proxy-fd=N] --keep-fd=N ...: a descriptor the
 * command inherits (a secret's, named by KJAIL_SECRET_<NAME>_FD): the
 * only one above 2 the entry program leaves open. */
#define JAIL_KEEP_FD_PREFIX "--keep-fd="

/* Landlock's write rights, as the kernel numbers them. */
#define LL_FS_WRITE_FILE (1ULL << 1)
#define LL_FS_REMOVE_DIR (1ULL << 4)
#define LL_FS_REMOVE_FILE (1ULL << 5)
#define LL_FS_MAKE_CHAR (1ULL << 6)
#define LL_FS_MAKE_DIR (1ULL << 7)
#define LL_FS_MAKE_REG (1ULL << 8)
#define LL_FS_MAKE_SOCK (1ULL << 9)
#define LL_FS_MAKE_FIFO (1ULL << 10)
#define LL_FS_MAKE_BLOCK (1ULL << 11)
#define LL_FS_MAKE_SYM (1ULL << 12)
#define LL_FS_REFER (1ULL << 13)
#define LL_FS_TRUNCATE (1ULL << 14)
#define LL_FS_WRITES                                                                        \
	(LL_FS_WRITE_FILE | LL_FS_REMOVE_DIR | LL_FS_REMOVE_FILE | LL_FS_MAKE_CHAR |        \
	 LL_FS_MAKE_DIR | LL_FS_MAKE_REG | LL_FS_MAKE_SOCK | LL_FS_MAKE_FIFO |              \
	 LL_FS_MAKE_BLOCK | LL_FS_MAKE_SYM | LL_FS_REFER | LL_FS_TRUNCATE)
/* what a rule on a file (not a directory) may allow */
#define LL_FS_FILE_WRITES (LL_FS_WRITE_FILE | LL_FS_TRUNCATE)

#endif
