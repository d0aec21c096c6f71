/* SPDX-License-Identifier: MIT */
/* proxy-sandbox-try [--bare] ACTION [ARG...]
 *
 * Confines itself exactly as kjail's proxy does, through the same function
 * (proxy_sandbox_apply(), proxy/sandbox.h), then makes ONE attempt and
 * prints one line: "ok" (and what it got) when it worked, "refused ENAME"
 * when the call failed. A call the seccomp filter kills ends the process
 * by SIGSYS before it prints anything (a shell sees status 159). --bare
 * skips the confinement: the baseline, that the attempt works (or reaches
 * the kernel and fails there) without it. "setup: ..." and exit 2: the
 * confinement itself, or the arguments, failed.
 *
 * ACTIONS (none changes the machine, even as root, even bare):
 *   execve             runs /bin/sh -c 'echo ok'
 *   fork               fork(); the child exits at once
 *   thread             pthread_create and join
 *   unix-socket        socket(AF_UNIX, SOCK_STREAM)
 *   socketpair         socketpair(AF_UNIX, SOCK_STREAM)
 *   netlink-socket     socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)
 *   ptrace             ptrace(PTRACE_TRACEME)
 *   mount              mount of a tmpfs on a directory that does not exist
 *   bpf                bpf(BPF_PROG_LOAD) with no program
 *   finit-module       finit_module(-1)
 *   kill-parent        kill(getppid(), 0)
 *   exec-memory        mmap of anonymous PROT_EXEC memory
 *   tcp-bind           bind of a TCP socket to 127.0.0.1, any port
 *   write-open PATH    open(PATH, O_WRONLY | O_CREAT | O_APPEND)
 *   read PATH          open(PATH, O_RDONLY) and read it
 *   resolve NAME       getaddrinfo(NAME): "ok ADDRESS..."
 *   http HOST PORT     getaddrinfo, connect, "GET / HTTP/1.0": "ok LINE",
 *                      the response's first line
 *   log PATH           the proxy's log (proxy/log.h) on PATH, opened
 *                      O_RDWR | O_APPEND before the confinement as kjail
 *                      opens it: 2,000 refusals under a 16 KiB cap (pread,
 *                      pwrite, ftruncate, fstat, fcntl), then the summary
 *                      line: "ok" */
#include "config.h"

#include "proxy/log.h"
#include "proxy/sandbox.h"
#include "errname.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/netlink.h>

static int said(int rc)
{
	if (rc < 0) {
		printf("refused %s\n", errname(errno));
		return 1;
	}
	printf("ok\n");
	return 0;
}

static void *nothing(void *arg)
{
	return arg;
}

static int resolve(const char *name)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *ai;
	int e = getaddrinfo(name, "80", &hints, &ai);
	if (e != 0) {
		printf("refused %s\n", e == EAI_SYSTEM ? errname(errno) : gai_strerror(e));
		return 1;
	}
	printf("ok");
	for (struct addrinfo *a = ai; a; a = a->ai_next) {
		char h[INET6_ADDRSTRLEN];
		if (getnameinfo(a->ai_addr, a->ai_addrlen, h, sizeof h, NULL, 0, NI_NUMERICHOST) == 0)
			printf(" %s", h);
	}
	printf("\n");
	freeaddrinfo(ai);
	return 0;
}

static int http(const char *host, const char *port)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *ai;
	int e = getaddrinfo(host, port, &hints, &ai);
	if (e != 0) {
		printf("refused %s\n", e == EAI_SYSTEM ? errname(errno) : gai_strerror(e));
		return 1;
	}
	int fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen) < 0)
		return said(-1);
	freeaddrinfo(ai);
	static const char req[] = "GET / HTTP/1.0\r\n\r\n";
	if (write(fd, req, sizeof req - 1) != (ssize_t)(sizeof req - 1))
		return said(-1);
	char buf[256];
	size_t n = 0;
	ssize_t r;
	while (n < sizeof buf - 1 && (r = read(fd, buf + n, sizeof buf - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	printf("ok %s\n", buf);
	return 0;
}

/* What the proxy does on its log, through proxy/log.c itself: a cap
 * small enough that the newest half is moved to the start many times. */
static int log_flood(int fd)
{
	struct proxy_log *l = fd < 0 ? NULL : proxy_log_open(fd, 16384);
	if (!l)
		return said(-1);
	int rc = 0;
	for (unsigned i = 0; i < 2000 && rc == 0; i++) {
		char host[32];
		snprintf(host, sizeof host, "h%u.example", i % 7);
		struct proxy_record r = { .proto = "connect", .host = host, .port = 443,
					  .verdict = "refused", .reason = "not an allowed host" };
		rc = proxy_log_write(l, &r);
	}
	if (rc == 0)
		rc = proxy_log_finish(l);
	proxy_log_free(l);
	return said(rc);
}

static int try(int argc, char **argv, int log_fd)
{
	const char *a = argv[0];
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
	if (strcmp(a, "thread") == 0) {
		pthread_t t;
		int e = pthread_create(&t, NULL, nothing, NULL);
		if (e == 0)
			pthread_join(t, NULL);
		errno = e;
		return said(e ? -1 : 0);
	}
	if (strcmp(a, "unix-socket") == 0)
		return said(socket(AF_UNIX, SOCK_STREAM, 0));
	if (strcmp(a, "socketpair") == 0) {
		int sv[2];
		return said(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	}
	if (strcmp(a, "netlink-socket") == 0)
		return said(socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE));
	if (strcmp(a, "ptrace") == 0)
		return said((int)ptrace(PTRACE_TRACEME, 0, NULL, NULL));
	if (strcmp(a, "mount") == 0)
		return said(mount("none", "/nonexistent-kjail-proxy-sandbox-try", "tmpfs", 0, NULL));
	if (strcmp(a, "bpf") == 0)
		return said((int)syscall(SYS_bpf, 5 /* BPF_PROG_LOAD */, NULL, 0));
	if (strcmp(a, "finit-module") == 0)
		return said((int)syscall(SYS_finit_module, -1, "", 0));
	if (strcmp(a, "kill-parent") == 0)
		return said(kill(getppid(), 0));
	if (strcmp(a, "exec-memory") == 0) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return said(p == MAP_FAILED ? -1 : 0);
	}
	if (strcmp(a, "tcp-bind") == 0) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		struct sockaddr_in sa = { .sin_family = AF_INET };
		sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		return said(fd < 0 ? -1 : bind(fd, (struct sockaddr *)&sa, sizeof sa));
	}
	if (strcmp(a, "write-open") == 0 && argc == 2)
		return said(open(argv[1], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600));
	if (strcmp(a, "read") == 0 && argc == 2) {
		int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
		char b[64];
		return said(fd < 0 ? -1 : (int)read(fd, b, sizeof b));
	}
	if (strcmp(a, "resolve") == 0 && argc == 2)
		return resolve(argv[1]);
	if (strcmp(a, "http") == 0 && argc == 3)
		return http(argv[1], argv[2]);
	if (strcmp(a, "log") == 0 && argc == 2)
		return log_flood(log_fd);
	fprintf(stderr, "proxy-sandbox-try: unknown action or arguments: %s\n", a);
	return 2;
}

int main(int argc, char **argv)
{
	bool bare = argc > 1 && strcmp(argv[1], "--bare") == 0;
	argc -= 1 + bare;
	argv += 1 + bare;
	if (argc < 1) {
		fprintf(stderr, "usage: proxy-sandbox-try [--bare] ACTION [ARG...]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	/* opened outside the confinement, as kjail opens the proxy's */
	int log_fd = -1;
	if (strcmp(argv[0], "log") == 0 && argc == 2)
		log_fd = open(argv[1], O_RDWR | O_APPEND | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	char err[512];
	if (!bare && !proxy_sandbox_apply(true, err, sizeof err)) {
		printf("setup: %s\n", err);
		return 2;
	}
	/* _exit: no exit handler under the filter, as in kjail-proxy */
	_exit(try(argc, argv, log_fd));
}
