/* SPDX-License-Identifier: MIT */
/* swap-race A B SECONDS: exchange the names A and B (a directory and a
 * symlink, say) with renameat2(RENAME_EXCHANGE) in a tight loop, for at
 * most SECONDS or until SIGTERM, and always stop with both back where they
 * were. Prints the number of exchanges. Exit 77 when the kernel or the
 * file system cannot exchange names, 1 on any other error. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int exchange(const char *a, const char *b)
{
	return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: swap-race A B SECONDS\n");
		return 2;
	}
	struct sigaction sa = { .sa_handler = on_term };
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	time_t end = time(NULL) + atol(argv[3]);
	unsigned long n = 0;
	if (exchange(argv[1], argv[2]) < 0) {
		fprintf(stderr, "swap-race: %s\n", strerror(errno));
		return errno == EINVAL || errno == ENOSYS ? 77 : 1;
	}
	n++;
	while (!stop && (n & 1023 || time(NULL) < end)) {
		if (exchange(argv[1], argv[2]) < 0) {
			perror("swap-race");
			break;
		}
		n++;
	}
	if (n & 1 && exchange(argv[1], argv[2]) == 0)
		n++;
	printf("%lu\n", n);
	return n & 1;
}
