/* SPDX-License-Identifier: MIT */
/* seccomp-dump: write the seccomp program kjail hands bwrap to a file.
 *
 * Links kjail's own seccomp_export() (libkjail.a), so the bytes are exactly
 * the ones `kjail -- CMD` passes on `--seccomp N`: the program embedded at
 * build time, or compiled by libseccomp when the build machine differs.
 * The benchmark exports it once and hands the raw bwrap line a fresh
 * descriptor on it per run (bench/fdexec).
 *
 *   seccomp-dump [--allow-userns] [--no-network] FILE
 */
#include "config.h"
#include "build/seccomp.h"
#include "run/seccomp_load.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sc_opts o = { .allow_userns = false };
	int i = 1;
	for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		if (strcmp(argv[i], "--allow-userns") == 0)
			o.allow_userns = true;
		else if (strcmp(argv[i], "--no-network") == 0)
			o.no_network = true;
		else
			break;
	}
	if (i + 1 != argc) {
		fprintf(stderr, "usage: seccomp-dump [--allow-userns] [--no-network] FILE\n");
		return 2;
	}
	char err[512];
	int in = seccomp_export(&o, err, sizeof err);
	if (in < 0) {
		fprintf(stderr, "seccomp-dump: %s\n", err);
		return 1;
	}
	int out = open(argv[i], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		fprintf(stderr, "seccomp-dump: %s: %s\n", argv[i], strerror(errno));
		return 1;
	}
	char buf[8192];
	size_t total = 0;
	for (;;) {
		ssize_t r = pread(in, buf, sizeof buf, (off_t)total);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fprintf(stderr, "seccomp-dump: read: %s\n", strerror(errno));
			return 1;
		}
		if (r == 0)
			break;
		for (ssize_t off = 0; off < r;) {
			ssize_t w = write(out, buf + off, (size_t)(r - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				fprintf(stderr, "seccomp-dump: write: %s\n", strerror(errno));
				return 1;
			}
			off += w;
		}
		total += (size_t)r;
	}
	if (close(out) < 0 || total == 0 || total % 8 != 0) {
		fprintf(stderr, "seccomp-dump: %s: bad program (%zu bytes)\n", argv[i], total);
		return 1;
	}
	printf("%zu\n", total);
	return 0;
}
