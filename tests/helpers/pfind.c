/* SPDX-License-Identifier: MIT */
/* pfind STRING
 * Print the pid of every process whose command line (arguments joined by
 * spaces) contains STRING, except pfind itself. Exit 0 when one was found,
 * 1 when none. procps' pgrep is not always installed; this is enough. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	char path[64], buf[65536];
	struct dirent *de;
	DIR *proc;
	int found = 0;

	if (argc != 2 || argv[1][0] == '\0') {
		fprintf(stderr, "usage: pfind STRING\n");
		return 2;
	}
	proc = opendir("/proc");
	if (!proc) {
		perror("pfind: /proc");
		return 2;
	}
	while ((de = readdir(proc)) != NULL) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		ssize_t n;
		int fd;

		if (*end != '\0' || pid <= 0 || pid == (long)getpid())
			continue;
		snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n <= 0)
			continue;
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] == '\0')
				buf[i] = ' ';
		buf[n] = '\0';
		if (strstr(buf, argv[1])) {
			printf("%ld\n", pid);
			found = 1;
		}
	}
	closedir(proc);
	return found ? 0 : 1;
}
