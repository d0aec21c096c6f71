/* SPDX-License-Identifier: MIT */
/* nouserns CMD...: run CMD as in a container whose seccomp profile refuses
 * user namespaces as Docker's default profile does (unshare(2) and
 * clone(2) with CLONE_NEWUSER: EPERM; clone3(2): ENOSYS, which makes libc
 * fall back to clone), with CAP_SYS_ADMIN gone from the bounding set as a
 * container's root lacks it, and no_new_privs. As a user without
 * CAP_SETPCAP the bounding set cannot be changed, and holds nothing a
 * user has anyway. Exit 2 on usage or setup failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <linux/capability.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: nouserns CMD [ARG]...\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		perror("nouserns: PR_SET_NO_NEW_PRIVS");
		return 2;
	}
	if (prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0) < 0 && geteuid() == 0) {
		perror("nouserns: PR_CAPBSET_DROP CAP_SYS_ADMIN");
		return 2;
	}
	scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
	int rc = f ? 0 : -ENOMEM;
	if (!rc)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1,
				      SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
	/* clone's flags are its first argument on x86_64 and arm64 */
	if (!rc)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
				      SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
	if (!rc)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	if (!rc)
		rc = seccomp_load(f);
	if (rc) {
		fprintf(stderr, "nouserns: seccomp: %s\n", strerror(-rc));
		return 2;
	}
	seccomp_release(f);
	execvp(argv[1], argv + 1);
	fprintf(stderr, "nouserns: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
