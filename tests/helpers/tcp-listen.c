/* SPDX-License-Identifier: MIT */
/* tcp-listen [-t SECONDS] PORTFILE
 * Listen on 127.0.0.1 on a free port, write the port number to PORTFILE
 * (atomically, through a rename) and answer every connection with "hello\n".
 * Exits by itself after SECONDS (default 30). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
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
	socklen_t len = sizeof sa;
	unsigned seconds = 30;
	char tmp[4096];
	FILE *f;
	int opt, fd, one = 1;

	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't')
			goto usage;
		seconds = (unsigned)atoi(optarg);
	}
	if (optind + 1 != argc)
		goto usage;
	alarm(seconds);
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(fd, 16) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
		fprintf(stderr, "tcp-listen: %s\n", errname(errno));
		return 1;
	}
	snprintf(tmp, sizeof tmp, "%s.tmp", argv[optind]);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%u\n", ntohs(sa.sin_port)) < 0 || fclose(f) != 0 ||
	    rename(tmp, argv[optind]) < 0) {
		fprintf(stderr, "tcp-listen: %s: %s\n", argv[optind], errname(errno));
		return 1;
	}
	for (;;) {
		int c = accept(fd, NULL, NULL);
		if (c < 0)
			continue;
		if (write(c, "hello\n", 6) < 0) {
			/* the peer went away: nothing to answer */
		}
		close(c);
	}
usage:
	fprintf(stderr, "usage: tcp-listen [-t SECONDS] PORTFILE\n");
	return 2;
}
