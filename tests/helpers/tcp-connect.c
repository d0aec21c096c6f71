/* SPDX-License-Identifier: MIT */
/* tcp-connect HOST PORT
 * Connect over TCP (IPv4 address HOST) within 3 seconds; prints "connected"
 * (having read the greeting) or the errno name. Exit 0 when connected. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "errname.h"

int
main(int argc, char **argv)
{
	struct sockaddr_in sa;
	struct pollfd p;
	char buf[64];
	int fd, err = 0;
	socklen_t elen = sizeof err;

	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	if (argc != 3 || inet_pton(AF_INET, argv[1], &sa.sin_addr) != 1 || atoi(argv[2]) <= 0) {
		fprintf(stderr, "usage: tcp-connect IPV4 PORT\n");
		return 2;
	}
	sa.sin_port = htons((unsigned short)atoi(argv[2]));
	alarm(10);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		printf("%s\n", errname(errno));
		return 1;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		if (errno != EINPROGRESS) {
			printf("%s\n", errname(errno));
			return 1;
		}
		p = (struct pollfd){ .fd = fd, .events = POLLOUT };
		if (poll(&p, 1, 3000) != 1) {
			printf("%s\n", errname(ETIMEDOUT));
			return 1;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0)
			err = errno;
		if (err != 0) {
			printf("%s\n", errname(err));
			return 1;
		}
	}
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	if (poll(&p, 1, 3000) == 1 && read(fd, buf, sizeof buf) > 0)
		puts("connected");
	else
		puts("connected-silent");
	close(fd);
	return 0;
}
