/* SPDX-License-Identifier: MIT */
/* hs-abstract listen NAME READYFILE [SECONDS]
 * hs-abstract connect NAME
 *
 * An abstract Unix stream socket ("\0NAME": no file, it lives in the
 * network namespace) such as X11, D-Bus and systemd listen on.
 *
 * "listen" binds it, creates READYFILE once it listens, answers every
 * connection with "hello\n" and exits by itself after SECONDS (default 20),
 * so a test can never leak it. "connect" prints exactly one word:
 * "connected" once the listener's greeting arrived, else the errno name of
 * the failing step (ECONNREFUSED: nobody listens there; EPERM: refused, e.g.
 * by a Landlock scope). Exit 0 in both cases; 1 if listen fails; 2 on a
 * usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static const char *
ename(int e)
{
	static char buf[16];

	switch (e) {
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case ECONNREFUSED: return "ECONNREFUSED";
	case ECONNRESET: return "ECONNRESET";
	case EADDRINUSE: return "EADDRINUSE";
	case EAFNOSUPPORT: return "EAFNOSUPPORT";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EAGAIN: return "EAGAIN";
	case EINTR: return "EINTR";
	case EINVAL: return "EINVAL";
	case EIO: return "EIO";
	case ENOSYS: return "ENOSYS";
	default:
		snprintf(buf, sizeof buf, "E%d", e);
		return buf;
	}
}

static socklen_t
address(struct sockaddr_un *sa, const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n + 1 > sizeof sa->sun_path) {
		fprintf(stderr, "hs-abstract: bad name\n");
		exit(2);
	}
	memset(sa, 0, sizeof *sa);
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path + 1, name, n);  /* sun_path[0] = '\0': abstract */
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

static void
usage(void)
{
	fprintf(stderr, "usage: hs-abstract listen NAME READYFILE [SECONDS]\n"
		"       hs-abstract connect NAME\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct sockaddr_un sa;
	socklen_t len;
	int fd;

	if (argc < 3)
		usage();
	len = address(&sa, argv[2]);

	if (strcmp(argv[1], "listen") == 0) {
		unsigned seconds = argc > 4 ? (unsigned)atoi(argv[4]) : 20;
		int r;

		if (argc < 4 || argc > 5)
			usage();
		alarm(seconds ? seconds : 20);
		signal(SIGPIPE, SIG_IGN);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0 || bind(fd, (struct sockaddr *)&sa, len) < 0 || listen(fd, 16) < 0) {
			fprintf(stderr, "hs-abstract: listen @%s: %s\n", argv[2], ename(errno));
			return 1;
		}
		r = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (r < 0) {
			fprintf(stderr, "hs-abstract: %s: %s\n", argv[3], ename(errno));
			return 1;
		}
		close(r);
		for (;;) {
			int c = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
			if (c < 0)
				continue;
			if (write(c, "hello\n", 6) < 0) {
				/* the peer went away */
			}
			close(c);
		}
	}
	if (strcmp(argv[1], "connect") == 0) {
		char buf[16];
		ssize_t n;

		if (argc != 3)
			usage();
		alarm(10);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			printf("%s\n", ename(errno));
			return 0;
		}
		if (connect(fd, (struct sockaddr *)&sa, len) < 0) {
			printf("%s\n", ename(errno));
			return 0;
		}
		n = read(fd, buf, sizeof buf);
		if (n == 6 && memcmp(buf, "hello\n", 6) == 0)
			printf("connected\n");
		else if (n < 0)
			printf("%s\n", ename(errno));
		else
			printf("EIO\n");
		return 0;
	}
	usage();
	return 2;
}
