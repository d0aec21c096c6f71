/* SPDX-License-Identifier: MIT */
/* nosys NAME[,NAME...] CMD [ARG...]
 *
 * Run CMD with the named system calls answering ENOSYS, as a kernel that
 * predates them would (a seccomp filter, installed with no_new_privs), so a
 * test can reach the fallback a program keeps for older kernels. Exit 2 on
 * a usage or setup error, with one line. */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: nosys NAME[,NAME...] CMD [ARG...]\n");
		return 2;
	}
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx) {
		fprintf(stderr, "nosys: seccomp_init failed\n");
		return 2;
	}
	char *names = strdup(argv[1]);
	for (char *save = NULL, *n = strtok_r(names, ",", &save); n;
	     n = strtok_r(NULL, ",", &save)) {
		int nr = seccomp_syscall_resolve_name(n);
		if (nr == __NR_SCMP_ERROR) {
			fprintf(stderr, "nosys: unknown system call %s\n", n);
			return 2;
		}
		int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0);
		if (rc < 0) {
			fprintf(stderr, "nosys: %s: %s\n", n, strerror(-rc));
			return 2;
		}
	}
	int rc = seccomp_load(ctx);
	if (rc < 0) {
		fprintf(stderr, "nosys: seccomp_load: %s\n", strerror(-rc));
		return 2;
	}
	seccomp_release(ctx);
	free(names);
	execvp(argv[2], argv + 2);
	fprintf(stderr, "nosys: %s: %s\n", argv[2], strerror(errno));
	return 2;
}
