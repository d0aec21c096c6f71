/* SPDX-License-Identifier: MIT */
/* Starting and ending the ssh-agent relay (agent/spawn.h). */
#include "config.h"
#include "agent/spawn.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef KJ_OS_LINUX
#include <sys/syscall.h>
#endif

/* Whether the directory DFD holds a relay socket nobody listens at any
 * more (its kjail was killed before it could remove it). */
static bool relay_dir_stale(int dfd)
{
	struct stat st;
	if (fstatat(dfd, AGENT_RELAY_SOCKET, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISSOCK(st.st_mode))
		return false;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	snprintf(sa.sun_path, sizeof sa.sun_path, "/proc/self/fd/%d/" AGENT_RELAY_SOCKET, dfd);
	/* non-blocking: a listener that accepts nothing (its backlog full)
	 * answers EAGAIN, and is not stale */
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return false;
	bool refused = connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0 && errno == ECONNREFUSED;
	close(fd);
	return refused;
}

/* What a kjail killed with SIGKILL left in /tmp: the caller's own relay
 * directories whose socket no relay listens at. Only directories the
 * caller owns, 0700 (mkdtemp's), are looked into, by descriptor. */
static void sweep_stale_relay_dirs(void)
{
	_cleanup_close_ int tmp = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = tmp >= 0 ? fdopendir(dup(tmp)) : NULL;
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "kjail-agent.", 12) != 0)
			continue;
		int dfd = openat(tmp, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (dfd < 0)
			continue;
		if (fstat(dfd, &st) == 0 && st.st_uid == getuid() && (st.st_mode & 07777) == 0700 &&
		    relay_dir_stale(dfd) && unlinkat(dfd, AGENT_RELAY_SOCKET, 0) == 0)
			unlinkat(tmp, e->d_name, AT_REMOVEDIR);
		close(dfd);
	}
	closedir(d);
}

int agent_listen(char **dir, char **path, char *err, size_t errlen)
{
	sweep_stale_relay_dirs();
	*dir = xstrdup("/tmp/kjail-agent.XXXXXX");
	*path = NULL;
	if (!mkdtemp(*dir)) {
		fmt_into(err, errlen, "cannot make a directory for the ssh-agent relay in /tmp: %s",
			 strerror(errno));
		free(*dir);
		*dir = NULL;
		return -1;
	}
	/* by its real name: kjail checks that what it binds is at that path */
	char *real = realpath(*dir, NULL);
	if (real) {
		free(*dir);
		*dir = real;
	}
	*path = xasprintf("%s/" AGENT_RELAY_SOCKET, *dir);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", *path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	/* only the caller (and so the jail, which is the caller) connects */
	mode_t old = umask(0077);
	bool ok = fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0 &&
		  listen(fd, 64) == 0;
	umask(old);
	if (!ok) {
		fmt_into(err, errlen, "cannot listen at %s for the ssh-agent relay: %s", *path,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		unlink(*path);
		rmdir(*dir);
		return -1;
	}
	return fd;
}

/* In the child: descriptors to their numbers, every other one closed. */
static KJ_NORETURN void child(const char *prog, const int src[3], const char *agent_path,
			      pid_t parent)
{
	child_tie_to_parent(parent);
	int tmp[3];
	for (int i = 0; i < 3; i++)
		if ((tmp[i] = fcntl(src[i], F_DUPFD_CLOEXEC, 16)) < 0)
			_exit(1);
	for (int i = 0; i < 3; i++)
		if (dup2(tmp[i], AGENT_FD_LISTEN + i) < 0)
			_exit(1);
#if defined(KJ_OS_LINUX) && defined(SYS_close_range)
	if (syscall(SYS_close_range, (unsigned)AGENT_FD_READY + 1, ~0U, 0) < 0)
#endif
		for (int fd = AGENT_FD_READY + 1; fd < 1024; fd++)
			close(fd);
	char *const argv[] = { (char *)AGENT_RELAY_PROGRAM, (char *)AGENT_RELAY_ARG,
			       (char *)agent_path, NULL };
	char *const envp[] = { NULL };
	execve(prog, argv, envp);
	static const char msg[] = "kjail: cannot execute kjail-agent-relay\n";
	(void)!write(2, msg, sizeof msg - 1);
	_exit(127);
}

pid_t agent_relay_spawn(const char *prog, int listener, const char *agent_path, int *stop_wfd,
			char *err, size_t errlen)
{
	int stop[2], ready[2];
	if (pipe2(stop, O_CLOEXEC) < 0)
		return fmt_into(err, errlen, "pipe: %s", strerror(errno)), -1;
	if (pipe2(ready, O_CLOEXEC) < 0) {
		close(stop[0]);
		close(stop[1]);
		return fmt_into(err, errlen, "pipe: %s", strerror(errno)), -1;
	}
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0)
		child(prog, (const int[3]){ listener, stop[0], ready[1] }, agent_path, parent);
	close(stop[0]);
	close(ready[1]);
	char k = 0;
	ssize_t r = -1;
	if (pid > 0)
		while ((r = read(ready[0], &k, 1)) < 0 && errno == EINTR)
			;
	close(ready[0]);
	if (pid < 0 || r != 1 || k != 'k') {
		fmt_into(err, errlen, "%s%s", pid < 0 ? "fork: " : "it did not start",
			 pid < 0 ? strerror(errno) : "");
		close(stop[1]);
		if (pid > 0) {
			kill(pid, SIGKILL);
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		return -1;
	}
	*stop_wfd = stop[1];
	return pid;
}

void agent_relay_stop(pid_t pid, int stop_wfd)
{
	close(stop_wfd);
	int st;
	/* it stops at once: the next poll sees the pipe hung up */
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}
