/* SPDX-License-Identifier: MIT */
/* The proxy's identity and capabilities given up (proxy/privdrop.h), as
 * OpenSSH's privilege-separated child gives them up: groups, then gid,
 * then uid, each checked; then no capability left and none to regain. */
#include "config.h"

#include "proxy/privdrop.h"
#include "util.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#ifdef KJ_OS_LINUX
#include <linux/capability.h>
#include <linux/securebits.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

bool proxy_identity_choose(uid_t ruid, uid_t euid, uid_t suid, gid_t rgid,
			   const struct passwd *nobody, struct proxy_identity *id,
			   const char **why)
{
	*id = (struct proxy_identity){ .change = false, .uid = ruid, .gid = rgid };
	if (ruid != 0 && euid != 0 && suid != 0)
		return true;
	bool nobody_ok = nobody && nobody->pw_uid != 0 && nobody->pw_gid != 0;
	id->change = true;
	if (ruid != 0) {
		id->uid = ruid;
	} else if (nobody_ok) {
		id->uid = nobody->pw_uid;
	} else {
		*why = nobody ? "the account nobody has uid or gid 0"
			      : "there is no account nobody to run as";
		return false;
	}
	if (id->gid == 0 || ruid == 0) {
		if (!nobody_ok) {
			*why = nobody ? "the account nobody has uid or gid 0"
				      : "there is no account nobody whose group to run with";
			return false;
		}
		id->gid = nobody->pw_gid;
	}
	return true;
}

#ifdef KJ_OS_LINUX
/* Root's capabilities not given back by any later uid change or exec,
 * and the bounding set emptied: both need CAP_SETPCAP, which only a
 * process started by root has; without it there is nothing to give
 * back. */
static void lock_root_out(void)
{
	unsigned long bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP_LOCKED |
			     SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
			     SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
	(void)prctl(PR_SET_SECUREBITS, bits, 0, 0, 0);
	for (unsigned long cap = 0; cap < 64; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno == EINVAL)
			break;
}

static bool caps_clear(char *err, size_t errlen)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	memset(data, 0, sizeof data);
	if (syscall(SYS_capset, &hdr, data) < 0) {
		fmt_into(err, errlen, "capset: %s", strerror(errno));
		return false;
	}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL) {
		fmt_into(err, errlen, "PR_CAP_AMBIENT_CLEAR_ALL: %s", strerror(errno));
		return false;
	}
	memset(data, 0xff, sizeof data);
	hdr = (struct __user_cap_header_struct){ _LINUX_CAPABILITY_VERSION_3, 0 };
	if (syscall(SYS_capget, &hdr, data) < 0) {
		fmt_into(err, errlen, "capget: %s", strerror(errno));
		return false;
	}
	for (int i = 0; i < 2; i++)
		if (data[i].effective || data[i].permitted || data[i].inheritable) {
			fmt_into(err, errlen, "capabilities are left after capset");
			return false;
		}
	return true;
}
#endif

/* Groups, gid, uid, in that order (after the uid, the others could no
 * longer be changed), then the proof: each id as chosen, no groups, and
 * uid 0 out of reach. */
static bool become(const struct proxy_identity *id, char *err, size_t errlen)
{
	if (setgroups(0, NULL) < 0) {
		fmt_into(err, errlen, "setgroups: %s", strerror(errno));
		return false;
	}
#ifdef KJ_OS_LINUX
	if (setresgid(id->gid, id->gid, id->gid) < 0 || setresuid(id->uid, id->uid, id->uid) < 0) {
		fmt_into(err, errlen, "cannot become uid %ju gid %ju: %s%s", (uintmax_t)id->uid,
			 (uintmax_t)id->gid, strerror(errno),
			 errno == EINVAL ? " (a user namespace that does not map them?)" : "");
		return false;
	}
	uid_t r, e, s;
	gid_t rg, eg, sg;
	bool same = getresuid(&r, &e, &s) == 0 && getresgid(&rg, &eg, &sg) == 0 && r == id->uid &&
		    e == id->uid && s == id->uid && rg == id->gid && eg == id->gid && sg == id->gid;
#else
	if (setgid(id->gid) < 0 || setuid(id->uid) < 0) {
		fmt_into(err, errlen, "cannot become uid %ju gid %ju: %s", (uintmax_t)id->uid,
			 (uintmax_t)id->gid, strerror(errno));
		return false;
	}
	bool same = getuid() == id->uid && geteuid() == id->uid && getgid() == id->gid &&
		    getegid() == id->gid;
#endif
	if (!same || getgroups(0, NULL) != 0) {
		fmt_into(err, errlen, "the identity after the change is not uid %ju gid %ju alone",
			 (uintmax_t)id->uid, (uintmax_t)id->gid);
		return false;
	}
	if (setuid(0) == 0 || seteuid(0) == 0 || setgid(0) == 0) {
		fmt_into(err, errlen, "uid or gid 0 can be taken back after the change");
		return false;
	}
	return true;
}

/* No capability, none to regain, no_new_privs, dying with kjail. */
static bool finish(pid_t parent, char *err, size_t errlen)
{
#ifdef KJ_OS_LINUX
	if (!caps_clear(err, errlen))
		return false;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		fmt_into(err, errlen, "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
		return false;
	}
	/* cleared by a change of credentials: the helper must not outlive
	 * kjail */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0) {
		fmt_into(err, errlen, "PR_SET_PDEATHSIG: %s", strerror(errno));
		return false;
	}
#endif
	if (getppid() != parent) {
		fmt_into(err, errlen, "kjail ended before its helper started");
		return false;
	}
	return true;
}

bool proxy_privdrop_keep_uid(pid_t parent, char *err, size_t errlen)
{
	if (geteuid() == 0) {
		if (setgroups(0, NULL) < 0) {
			fmt_into(err, errlen, "setgroups: %s", strerror(errno));
			return false;
		}
#ifdef KJ_OS_LINUX
		lock_root_out();
#endif
	}
	return finish(parent, err, errlen);
}

bool proxy_privdrop(pid_t parent, char *err, size_t errlen)
{
	uid_t r = getuid(), e = geteuid(), s = e;
#ifdef KJ_OS_LINUX
	if (getresuid(&r, &e, &s) < 0) {
		fmt_into(err, errlen, "getresuid: %s", strerror(errno));
		return false;
	}
#endif
	/* looked up only when needed: the lookup reads the passwd database */
	const struct passwd *nobody = r == 0 || e == 0 || s == 0 ? getpwnam("nobody") : NULL;
	struct proxy_identity id;
	const char *why = NULL;
	if (!proxy_identity_choose(r, e, s, getgid(), nobody, &id, &why)) {
		fmt_into(err, errlen, "cannot drop root: %s", why);
		return false;
	}
	if (id.change) {
#ifdef KJ_OS_LINUX
		lock_root_out();
#endif
		if (!become(&id, err, errlen))
			return false;
	}
	return finish(parent, err, errlen);
}
