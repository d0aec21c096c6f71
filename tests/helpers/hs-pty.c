/* SPDX-License-Identifier: MIT */
/* hs-pty [-t SECONDS] [-i FILE] COMMAND [ARG...]
 *
 * Run COMMAND on a new pseudo-terminal that is its controlling terminal:
 * the child starts a new session (setsid), opens the pty's slave side and
 * takes it as controlling terminal (TIOCSCTTY), puts it in raw mode (no
 * echo, no output processing, so the output is byte for byte what COMMAND
 * wrote) and makes it fd 0, 1 and 2. This is the situation of a command
 * started from the user's interactive terminal, which is what TIOCSTI
 * ("type into the terminal") abuses.
 *
 * Everything COMMAND writes is copied to our stdout. Without -i nothing is
 * ever typed into the pty by us. With -i, FILE's bytes are typed into it
 * once, as a person types ahead, as soon as COMMAND is running (after its
 * exec: the terminal is raw by then, so nothing is echoed or translated
 * on the way; "\n" ends a line, as Enter's ^J does for a shell on a raw
 * terminal). Exit status: COMMAND's (128+N for signal N); 124 if
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
	fprintf(stderr, "usage: hs-pty [-t SECONDS] [-i FILE] COMMAND [ARG...]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	int master, st, timed_out = 0, first = 1, exec_pipe[2];
	unsigned seconds = 30;
	struct timespec start, now;
	pid_t pid;
	const char *input = NULL;
	char typed[4096];
	size_t ntyped = 0;

	/* no getopt(): the build's libbsd overlay would want its library */
	for (;;) {
		if (argc > first + 1 && strcmp(argv[first], "-t") == 0)
			seconds = (unsigned)atoi(argv[first + 1]);
		else if (argc > first + 1 && strcmp(argv[first], "-i") == 0)
			input = argv[first + 1];
		else
			break;
		first += 2;
	}
	if (first >= argc)
		usage();
	if (input) {
		/* at most what a terminal's input queue holds unread */
		FILE *f = fopen(input, "rb");
		if (!f) {
			fprintf(stderr, "hs-pty: %s: %s\n", input, strerror(errno));
			return 125;
		}
		ntyped = fread(typed, 1, sizeof typed, f);
		if (ferror(f) || ntyped == sizeof typed) {
			fprintf(stderr, "hs-pty: %s: unreadable or over %zu bytes\n", input,
				sizeof typed - 1);
			return 125;
		}
		fclose(f);
	}
	/* closed by the child's exec: then it runs, on a raw terminal */
	if (pipe2(exec_pipe, O_CLOEXEC) < 0) {
		fprintf(stderr, "hs-pty: pipe: %s\n", strerror(errno));
		return 125;
	}

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
		close(exec_pipe[0]);
		execvp(argv[first], argv + first);
		fprintf(stderr, "hs-pty: %s: %s\n", argv[first], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}

	close(exec_pipe[1]);
	{
		char c;
		while (read(exec_pipe[0], &c, 1) < 0 && errno == EINTR)
			;
		close(exec_pipe[0]);
	}
	for (size_t off = 0; off < ntyped;) {
		ssize_t w = write(master, typed + off, ntyped - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			fprintf(stderr, "hs-pty: typing into the terminal: %s\n", strerror(errno));
			break;
		}
		off += (size_t)w;
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
