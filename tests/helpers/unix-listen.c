/* SPDX-License-Identifier: MIT */
/* unix-listen [-t SECONDS] [-r READYFILE] PATH
 * Listen on a Unix stream socket (PATH, or @NAME for an abstract one) and
 * answer every connection with "hello\n". Creates READYFILE once listening;
 * exits by itself after SECONDS (default 30) so a test can never leak it. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "errname.h"
#include "sockaddr-un.h"

int
main(int argc, char **argv)
{
	struct sockaddr_un sa;
	socklen_t len;
	const char *ready = NULL;
	unsigned seconds = 30;
	int opt, fd;

	while ((opt = getopt(argc, argv, "t:r:")) != -1) {
		switch (opt) {
		case 't': seconds = (unsigned)atoi(optarg); break;
		case 'r': ready = optarg; break;
		default: goto usage;
		}
	}
	if (optind + 1 != argc)
		goto usage;
	if (fill_sockaddr_un(&sa, &len, argv[optind]) < 0)
		goto usage;
	alarm(seconds);
	signal(SIGPIPE, SIG_IGN);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, len) < 0 || listen(fd, 16) < 0) {
		fprintf(stderr, "unix-listen: %s: %s\n", argv[optind], errname(errno));
		return 1;
	}
	if (ready) {
		int r = open(ready, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (r < 0) {
			fprintf(stderr, "unix-listen: %s: %s\n", ready, errname(errno));
			return 1;
		}
		close(r);
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
	fprintf(stderr, "usage: unix-listen [-t SECONDS] [-r READYFILE] PATH|@NAME\n");
	return 2;
}
