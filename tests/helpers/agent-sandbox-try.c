/* SPDX-License-Identifier: MIT */
/* agent-sandbox-try [--bare] AGENT ACTION [ARG]
 *
 * Confines itself exactly as kjail's ssh-agent relay does, through the
 * same function (agent_sandbox_apply(), agent/sandbox.h) for the agent's
 * socket at AGENT, then makes ONE attempt and prints one line: "ok" when
 * it worked, "refused ENAME" when the call failed. A call the seccomp
 * filter kills ends the process by SIGSYS before it prints anything (a
 * shell sees status 159). --bare skips the confinement: the baseline.
 * "setup: ..." and exit 2: the confinement itself, or the arguments,
 * failed.
 *
 * ACTIONS (none changes the machine):
 *   agent          connect to AGENT (what the relay must still do)
 *   execve         runs /bin/sh -c 'echo ok'
 *   fork           fork(); the child exits at once
 *   read PATH      open(PATH, O_RDONLY)
 *   tcp-socket     socket(AF_INET, SOCK_STREAM)
 *   unix-dgram     socket(AF_UNIX, SOCK_DGRAM)
 *   exec-memory    mmap of anonymous PROT_EXEC memory
 *   kill-parent    kill(getppid(), 0) */
#include "config.h"

#include "agent/relay.h"
#include "agent/sandbox.h"
#include "errname.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int said(int rc)
{
	if (rc < 0) {
		printf("refused %s\n", errname(errno));
		return 1;
	}
	printf("ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	bool bare = argc > 1 && strcmp(argv[1], "--bare") == 0;
	argv += bare;
	argc -= bare;
	if (argc < 3) {
		printf("setup: usage: agent-sandbox-try [--bare] AGENT ACTION [ARG]\n");
		return 2;
	}
	const char *agent = argv[1], *a = argv[2], *arg = argc > 3 ? argv[3] : NULL;
	char err[512];
	if (!bare && !agent_sandbox_apply(agent, err, sizeof err)) {
		printf("setup: %s\n", err);
		return 2;
	}
	if (strcmp(a, "agent") == 0) {
		int fd = agent_connect(agent);
		return said(fd);
	}
	if (strcmp(a, "execve") == 0) {
		execl("/bin/sh", "sh", "-c", "echo ok", (char *)NULL);
		return said(-1);
	}
	if (strcmp(a, "fork") == 0) {
		pid_t p = fork();
		if (p == 0)
			_exit(0);
		if (p > 0)
			waitpid(p, NULL, 0);
		return said(p < 0 ? -1 : 0);
	}
	if (strcmp(a, "read") == 0 && arg)
		return said(open(arg, O_RDONLY | O_CLOEXEC));
	if (strcmp(a, "tcp-socket") == 0)
		return said(socket(AF_INET, SOCK_STREAM, 0));
	if (strcmp(a, "unix-dgram") == 0)
		return said(socket(AF_UNIX, SOCK_DGRAM, 0));
	if (strcmp(a, "exec-memory") == 0) {
		void *m = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return said(m == MAP_FAILED ? -1 : 0);
	}
	if (strcmp(a, "kill-parent") == 0)
		return said(kill(getppid(), 0));
	printf("setup: unknown action %s\n", a);
	return 2;
}
