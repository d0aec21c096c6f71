/* SPDX-License-Identifier: MIT */
/* proxy/privdrop.c: the proxy gives up who it is. Run by kjail-proxy once
 * it holds every descriptor it needs and before it reads a byte from the
 * jail. */
#ifndef KJ_PROXY_PRIVDROP_H
#define KJ_PROXY_PRIVDROP_H

#include <pwd.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct proxy_identity {
	bool change; /* false: already unprivileged, nothing to change */
	uid_t uid;
	gid_t gid;
};

/* Who the proxy becomes, from its real, effective and saved uids and its
 * real gid: when none of the uids is 0, no change; when one is, the
 * caller's real uid if that is not 0 (kjail run through a set-user-ID
 * wrapper), else the account nobody (nobody: getpwnam("nobody"), or
 * NULL). The group is the caller's real gid, or nobody's when that is 0.
 * false with a phrase in *why when no unprivileged identity is there to
 * take (no nobody, or a nobody whose uid or gid is 0). Pure. */
bool proxy_identity_choose(uid_t ruid, uid_t euid, uid_t suid, gid_t rgid,
			   const struct passwd *nobody, struct proxy_identity *id,
			   const char **why);

/* Drops to the chosen identity (no supplementary groups, then the gid,
 * then the uid, each real, effective and saved, checked afterwards and
 * checked that uid 0 cannot be taken back), locks the securebits that
 * would give root its capabilities back where it may (SECBIT_NOROOT and
 * friends need CAP_SETPCAP), empties the bounding set where it may,
 * clears every capability (permitted, effective, inheritable, ambient),
 * sets no_new_privs, and sets the parent-death signal again (a change of
 * uid clears it) to SIGKILL, checking that parent is still the parent.
 * false with one line in err (nothing half done is then used: the caller
 * exits). */
bool proxy_privdrop(pid_t parent, char *err, size_t errlen);

/* The same without a change of identity, for a helper that must stay
 * the caller to reach the caller's own socket (the ssh-agent relay:
 * agent/kjail-agent-relay.c): run as root, it stays uid 0 with no
 * supplementary groups, the securebits locked and no capability, so it
 * passes no permission check an owner would not; else only the
 * capabilities go. Then no_new_privs and the parent-death signal, as
 * above. false with one line in err. */
bool proxy_privdrop_keep_uid(pid_t parent, char *err, size_t errlen);

#endif
