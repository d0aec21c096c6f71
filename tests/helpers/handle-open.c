/* SPDX-License-Identifier: MIT */
/* handle-open save PATH HANDLEFILE | handle-open open DIR HANDLEFILE
 * The "shocker" bypass of a mount: save the file handle of PATH, then open
 * the file by that handle from anywhere on the same file system, which
 * ignores every mount stacked over the path. "open" prints "ok BYTES" then
 * the content, or an errno name. Needs CAP_DAC_READ_SEARCH, which a jail
 * must not have. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errname.h"

#define HANDLE_MAX 128

int
main(int argc, char **argv)
{
	union {
		struct file_handle fh;
		char raw[sizeof(struct file_handle) + HANDLE_MAX];
	} h;
	int mount_id, fd;
	FILE *f;

	if (argc != 4)
		goto usage;
	memset(&h, 0, sizeof h);
	if (strcmp(argv[1], "save") == 0) {
		h.fh.handle_bytes = HANDLE_MAX;
		if (name_to_handle_at(AT_FDCWD, argv[2], &h.fh, &mount_id, 0) < 0) {
			printf("%s\n", errname(errno));
			return 1;
		}
		f = fopen(argv[3], "wb");
		if (!f || fwrite(&h, sizeof h, 1, f) != 1 || fclose(f) != 0) {
			printf("%s\n", errname(errno));
			return 1;
		}
		puts("ok");
		return 0;
	}
	if (strcmp(argv[1], "open") == 0) {
		char buf[4096];
		ssize_t n;
		int dir;

		f = fopen(argv[3], "rb");
		if (!f || fread(&h, sizeof h, 1, f) != 1) {
			printf("%s\n", errname(errno));
			return 1;
		}
		fclose(f);
		if (h.fh.handle_bytes > HANDLE_MAX)
			goto usage;
		dir = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dir < 0) {
			printf("%s\n", errname(errno));
			return 1;
		}
		fd = open_by_handle_at(dir, &h.fh, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			printf("%s\n", errname(errno));
			return 1;
		}
		n = read(fd, buf, sizeof buf - 1);
		if (n < 0) {
			printf("%s\n", errname(errno));
			return 1;
		}
		buf[n] = '\0';
		printf("ok %zd\n%s\n", n, buf);
		return 0;
	}
usage:
	fprintf(stderr, "usage: handle-open save PATH HANDLEFILE | open DIR HANDLEFILE\n");
	return 2;
}
