/* SPDX-License-Identifier: MIT */
/* proxy/sandbox.c: the proxy's confinement, what pledge("stdio inet dns")
 * and unveil of the resolver's files give an OpenBSD daemon. kjail-proxy
 * applies it after dropping its identity (proxy/privdrop.h) and before it
 * reads a byte from the jail; tests/helpers/proxy-sandbox-try applies the
 * same to try what it refuses. */
#ifndef KJ_PROXY_SANDBOX_H
#define KJ_PROXY_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

/* The directories the resolver's files are read from, NULL-terminated:
 * directories, not files, since a Landlock rule on a file follows its
 * inode and a resolv.conf replaced by rename (NetworkManager, a VPN
 * client, resolvconf) would be a new inode. Besides these the directory
 * that each resolver file actually lies in (after its links) is granted
 * too, unless that is "/". */
const char *const *proxy_sandbox_dirs(void);

/* In this order: when the proxy resolves names (it has a rule), the
 * resolver's modules and files loaded once (getaddrinfo of "localhost",
 * tzset), so nothing needs loading later; a Landlock domain
 * (entry/landlock.h, landlock_restrict_reads) that reads only under those
 * directories (nothing at all when it resolves nothing: -n's proxy, with
 * no rule, refuses every host before any lookup and opens no resolver
 * file, not even at its start), writes and executes nothing and
 * binds no TCP port (nothing where the kernel has no Landlock; Landlock
 * decides at open, so the log, which kjail opened, keeps its rights to
 * write and truncate); then a seccomp allowlist: reading and writing
 * descriptors (at an offset and truncating too: the log's cap,
 * proxy/log.h), polling, sockets of AF_INET and AF_INET6 (stream and
 * datagram) with connect, accept, send and receive, threads (clone
 * with CLONE_THREAD only), memory without PROT_EXEC, clocks, sleeping,
 * read-only opens, stat, getrandom, signals to itself, exit. Every other
 * call kills the process (SECCOMP_RET_KILL_PROCESS, other ABIs too),
 * except where the C library probes and copes with a refusal: socket()
 * of another family is EPERM
 * (nscd's and systemd-resolved's AF_UNIX sockets, AF_NETLINK for address
 * sorting), clone3 is ENOSYS (glibc then uses clone, whose flags a
 * filter can read), ioctl TCGETS is ENOTTY (isatty). Sets no_new_privs.
 * false with one line in err. Linux built without libseccomp: false (the
 * proxy never runs unfiltered). Off Linux: true, nothing applied. */
bool proxy_sandbox_apply(bool resolves, char *err, size_t errlen);

#endif
