/* SPDX-License-Identifier: MIT */
/* hs-pty [-t SECONDS] COMMAND [ARG...]
 *
 * Run COMMAND on a new pseudo-terminal that is its controlling terminal:
 * the child starts a new session (setsid), opens the pty's slave side and
 * takes it as controlling terminal (TIOCSCTTY), puts it in raw mode (no
 * echo, no output processing, so the output is byte for byte what COMMAND
 * wrote) and makes it fd 0, 1 and 2. This is the situation of a command
 * started from the user's interactive terminal, which is what TIOCSTI
 * ("type into the terminal") abuses.
 *
 * Everything COMMAND writes is copied to our stdout. Nothing is ever typed
 * into the pty by us. Exit status: COMMAND's (128+N for signal N); 124 if
 * it did not finish within SECONDS (default 30), then it is killed; 125 if
 * the pty could not be set up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static void
usage(void)
{
	fprintf(stderr, "usage: hs-pty [-t SECONDS] COMMAND [ARG...]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	int master, st, timed_out = 0, first = 1;
	unsigned seconds = 30;
	struct timespec start, now;
	pid_t pid;

	/* no getopt(): the build's libbsd overlay would want its library */
	if (argc > 2 && strcmp(argv[1], "-t") == 0) {
		seconds = (unsigned)atoi(argv[2]);
		first = 3;
	}
	if (first >= argc)
		usage();

	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0) {
		fprintf(stderr, "hs-pty: cannot open a pseudo-terminal: %s\n", strerror(errno));
		return 125;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "hs-pty: fork: %s\n", strerror(errno));
		return 125;
	}
	if (pid == 0) {
		struct termios t;
		const char *name = ptsname(master);
		int slave;

		if (setsid() < 0 || !name) {
			fprintf(stderr, "hs-pty: setsid: %s\n", strerror(errno));
			_exit(125);
		}
		slave = open(name, O_RDWR);
		if (slave < 0) {
			fprintf(stderr, "hs-pty: %s: %s\n", name, strerror(errno));
			_exit(125);
		}
		if (ioctl(slave, TIOCSCTTY, 0) < 0) {
			fprintf(stderr, "hs-pty: TIOCSCTTY: %s\n", strerror(errno));
			_exit(125);
		}
		if (tcgetattr(slave, &t) == 0) {
			cfmakeraw(&t);
			(void)tcsetattr(slave, TCSANOW, &t);
		}
		if (dup2(slave, 0) < 0 || dup2(slave, 1) < 0 || dup2(slave, 2) < 0)
			_exit(125);
		if (slave > 2)
			close(slave);
		execvp(argv[first], argv + first);
		fprintf(stderr, "hs-pty: %s: %s\n", argv[first], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd pfd = { .fd = master, .events = POLLIN };
		char buf[4096];
		ssize_t n;
		int pr = poll(&pfd, 1, 200);

		if (pr > 0) {
			n = read(master, buf, sizeof buf);
			if (n > 0) {
				if (fwrite(buf, 1, (size_t)n, stdout) != (size_t)n)
					break;
				fflush(stdout);
				continue;
			}
			if (n == 0 || errno != EINTR)
				break;  /* EIO: every slave descriptor is closed */
		} else if (pr < 0 && errno != EINTR) {
			break;
		}
		/* the child may be gone while a grandchild keeps the slave */
		if (waitpid(pid, &st, WNOHANG) == pid) {
			pid = -1;
			/* drain what is left */
			while (poll(&pfd, 1, 0) > 0 && (n = read(master, buf, sizeof buf)) > 0)
				if (fwrite(buf, 1, (size_t)n, stdout) != (size_t)n)
					break;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((unsigned)(now.tv_sec - start.tv_sec) >= seconds) {
			timed_out = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			break;
		}
	}
	fflush(stdout);
	if (pid > 0) {
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	close(master);
	if (timed_out) {
		fprintf(stderr, "hs-pty: timed out after %u s\n", seconds);
		return 124;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 125;
}
