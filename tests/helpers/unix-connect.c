/* SPDX-License-Identifier: MIT */
/* unix-connect PATH|@NAME
 * Connect to a Unix stream socket; prints "connected" (having read the
 * listener's greeting) or the errno name. Exit 0 when connected, else 1. */
#include <poll.h>
#include <stdio.h>
#include <unistd.h>

#include "errname.h"
#include "sockaddr-un.h"

int
main(int argc, char **argv)
{
	struct sockaddr_un sa;
	socklen_t len;
	char buf[64];
	int fd;

	if (argc != 2 || fill_sockaddr_un(&sa, &len, argv[1]) < 0) {
		fprintf(stderr, "usage: unix-connect PATH|@NAME\n");
		return 2;
	}
	alarm(10);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, len) < 0) {
		printf("%s\n", errname(errno));
		return 1;
	}
	struct pollfd p = { .fd = fd, .events = POLLIN };
	if (poll(&p, 1, 3000) == 1 && read(fd, buf, sizeof buf) > 0)
		puts("connected");
	else
		puts("connected-silent");
	close(fd);
	return 0;
}
