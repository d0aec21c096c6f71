/* SPDX-License-Identifier: MIT */
/* try: perform one file-system or process operation and print its outcome
 * as one word ("ok", "ok N", or an errno name such as "EROFS"), so a test
 * can tell "the jail refused" from "the probe was wrong".
 *
 *   try read PATH          read it all; prints "ok BYTES"
 *   try append PATH TEXT   open O_APPEND (no create) and write TEXT
 *   try create PATH TEXT   open O_CREAT|O_EXCL and write TEXT
 *   try write PATH TEXT    open O_CREAT|O_TRUNC and write TEXT
 *   try mkdir PATH
 *   try rename OLD NEW
 *   try unlink PATH
 *   try link OLD NEW       hard link
 *   try list DIR           prints "ok ENTRIES" (without . and ..)
 *   try kill PID SIG
 *
 * Exit status: 0 when the operation succeeded, 1 when it failed, 2 on usage. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errname.h"

static int
fail(int e)
{
	printf("%s\n", errname(e));
	return 1;
}

static int
write_all(int fd, const char *text)
{
	size_t len = strlen(text), off = 0;

	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		off += (size_t)n;
	}
	return 0;
}

static int
do_open_write(const char *path, int flags, const char *text)
{
	int fd = open(path, flags | O_WRONLY | O_CLOEXEC | O_NOCTTY, 0644);

	if (fd < 0)
		return fail(errno);
	if (write_all(fd, text) < 0) {
		int e = errno;
		close(fd);
		return fail(e);
	}
	if (close(fd) < 0)
		return fail(errno);
	puts("ok");
	return 0;
}

static int
do_read(const char *path)
{
	char buf[8192];
	long long total = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return fail(errno);
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			return fail(e);
		}
		if (n == 0)
			break;
		total += n;
	}
	close(fd);
	printf("ok %lld\n", total);
	return 0;
}

static int
do_list(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	long n = 0;

	if (!d)
		return fail(errno);
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			n++;
		errno = 0;
	}
	if (errno != 0) {
		int e = errno;
		closedir(d);
		return fail(e);
	}
	closedir(d);
	printf("ok %ld\n", n);
	return 0;
}

static int
ok_or_fail(int rc)
{
	if (rc < 0)
		return fail(errno);
	puts("ok");
	return 0;
}

int
main(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";

	if (argc == 3 && strcmp(op, "read") == 0)
		return do_read(argv[2]);
	if (argc == 4 && strcmp(op, "append") == 0)
		return do_open_write(argv[2], O_APPEND, argv[3]);
	if (argc == 4 && strcmp(op, "create") == 0)
		return do_open_write(argv[2], O_CREAT | O_EXCL, argv[3]);
	if (argc == 4 && strcmp(op, "write") == 0)
		return do_open_write(argv[2], O_CREAT | O_TRUNC, argv[3]);
	if (argc == 3 && strcmp(op, "mkdir") == 0)
		return ok_or_fail(mkdir(argv[2], 0755));
	if (argc == 4 && strcmp(op, "rename") == 0)
		return ok_or_fail(rename(argv[2], argv[3]));
	if (argc == 3 && strcmp(op, "unlink") == 0)
		return ok_or_fail(unlink(argv[2]));
	if (argc == 4 && strcmp(op, "link") == 0)
		return ok_or_fail(link(argv[2], argv[3]));
	if (argc == 3 && strcmp(op, "list") == 0)
		return do_list(argv[2]);
	if (argc == 4 && strcmp(op, "kill") == 0)
		return ok_or_fail(kill((pid_t)atol(argv[2]), atoi(argv[3])));
	fprintf(stderr, "usage: try read|append|create|write|mkdir|rename|unlink|link|list|kill ARGS\n");
	return 2;
}
