/* SPDX-License-Identifier: MIT */
/* The jail's first program, kjail-entry (entry.c). bwrap has already set up the jail and installed the seccomp
 * filter; what is left is Landlock, telling kjail the jail is up, and giving
 * the command the user's stderr and signal dispositions. */
#include "config.h"
#include "entry/entry.h"
#include "build/bwrap.h"
#include "fdpass.h"
#include "entry/landlock.h"
#include "proxy/proxy.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

/* How long the entry program waits for kjail's proxy to take its
 * listeners (it is already running: only a wedged proxy is this slow). */
#define ENTRY_PROXY_TIMEOUT_MS 10000

void exec_command(char *const *cmd, char *const *envp)
{
#ifdef KJ_OS_LINUX
	if (envp)
		execvpe(cmd[0], cmd, envp);
	else
		execvp(cmd[0], cmd);
#else
	extern char **environ; /* no execvpe: the PATH search uses environ */
	if (envp)
		environ = (char **)envp;
	execvp(cmd[0], cmd);
#endif
	int e = errno;
	warn_msg("%s: %s", cmd[0], strerror(e));
	_exit(e == ENOENT || e == ENOTDIR ? KJ_EXIT_NOTFOUND : KJ_EXIT_NOEXEC);
}

static int parse_fd(const char *s, const char **end)
{
	char *e;
	errno = 0;
	long v = strtol(s, &e, 10);
	if (errno || e == s || v < 0 || v > INT_MAX)
		die("--jail-entry: bad descriptor list");
	*end = e;
	return (int)v;
}

void jail_entry_if_asked(int argc, char **argv)
{
	if (argc < 3 || !str_has_prefix(argv[1], "--jail-entry="))
		return;
	int i = 2, proxy_fd = -1;
	if (str_has_prefix(argv[i], JAIL_PROXY_PREFIX)) {
		const char *end;
		proxy_fd = parse_fd(argv[i] + strlen(JAIL_PROXY_PREFIX), &end);
		if (*end)
			die("--jail-entry: bad proxy descriptor");
		i++;
	}
	/* the secrets' descriptors: numbers, parsed in place */
	int keep[64];
	size_t nkeep = 0;
	for (; i < argc && str_has_prefix(argv[i], JAIL_KEEP_FD_PREFIX); i++) {
		const char *end;
		if (nkeep == ARRAY_SIZE(keep))
			die("--jail-entry: more than %zu descriptors to keep", ARRAY_SIZE(keep));
		keep[nkeep++] = parse_fd(argv[i] + strlen(JAIL_KEEP_FD_PREFIX), &end);
		if (*end || keep[nkeep - 1] <= STDERR_FILENO)
			die("--jail-entry: bad descriptor to keep");
	}
	bool mounts = i < argc && strcmp(argv[i], JAIL_USERNS_MOUNTS) == 0;
	if (mounts)
		i++;
	int first_rw = i;
	while (i < argc && str_has_prefix(argv[i], JAIL_RW_PREFIX "/"))
		i++;
	if (i >= argc || strcmp(argv[i], "--") != 0)
		die("--jail-entry: expected --rw=/PATH words, then --, then the command");
	/* the writable paths, their prefix dropped in place */
	const char **rw = (const char **)argv + first_rw;
	for (int k = first_rw; k < i; k++)
		rw[k - first_rw] = argv[k] + strlen(JAIL_RW_PREFIX);
	jail_entry(argv[1] + strlen("--jail-entry="), proxy_fd, keep, nkeep, rw,
		   (size_t)(i - first_rw), mounts, argv + i + 1);
}

/* One listening TCP socket on 127.0.0.1:port, or -1 with errno set. */
static int listen_loopback(unsigned short port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	int one = 1;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
	    bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, SOMAXCONN) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

void entry_proxy_listeners(int sock)
{
	static const char *const tags[] = { "http", "socks5" };
	static const unsigned short ports[] = { PROXY_HTTP_PORT, PROXY_SOCKS_PORT };
	int fds[2];
	for (size_t i = 0; i < 2; i++) {
		fds[i] = listen_loopback(ports[i]);
		if (fds[i] < 0)
			die_errno("cannot listen on 127.0.0.1:%u in the jail for kjail's proxy "
				  "(--allow-host, -n)", ports[i]);
	}
	if (fdpass_send(sock, fds, tags, 2) < 0)
		die_errno("cannot hand kjail's proxy (--allow-host, -n) its listeners");
	/* the proxy answers once it serves them; silence means it cannot,
	 * and the command must not run believing it has a network */
	struct pollfd p = { .fd = sock, .events = POLLIN };
	char k = 0;
	int r;
	do
		r = poll(&p, 1, ENTRY_PROXY_TIMEOUT_MS);
	while (r < 0 && errno == EINTR);
	if (r <= 0 || read(sock, &k, 1) != 1 || k != 'k')
		die("kjail's proxy (--allow-host, -n) did not take the jail's listeners%s; "
		    "nothing was run", r == 0 ? " in time" : "");
	close(fds[0]);
	close(fds[1]);
	close(sock);
}

void jail_entry(const char *spec, int proxy_fd, const int *keep, size_t nkeep,
		const char *const *rw, size_t nrw, bool mounts, char *const *cmd)
{
	const char *p;
	int status = parse_fd(spec, &p);
	if (*p != ',')
		die("--jail-entry: bad descriptor list");
	int user_err = parse_fd(p + 1, &p);
	if (*p != ',')
		die("--jail-entry: bad descriptor list");
	int sig = parse_fd(p + 1, &p);
	if (*p)
		die("--jail-entry: bad descriptor list");
	if (!cmd || !cmd[0])
		die("--jail-entry: no command");
	if (sig & JAIL_SIGINT_DEFAULT)
		signal(SIGINT, SIG_DFL);
	if (sig & JAIL_SIGQUIT_DEFAULT)
		signal(SIGQUIT, SIG_DFL);
	/* before Landlock and the exec, in the jail's own network namespace */
	if (proxy_fd >= 0)
		entry_proxy_listeners(proxy_fd);
	char err[PATH_MAX + 64];
	/* the command's stderr is the user's, still on its own descriptor */
	const int std[3] = { STDIN_FILENO, STDOUT_FILENO, user_err };
	if (landlock_apply(rw, nrw, std, mounts, err, sizeof err) == LL_FAILED)
		die("cannot apply the jail's Landlock rules: %s", err);
	if (write(status, "R", 1) != 1)
		die_errno("--jail-entry: cannot report readiness");
	close(status);
	if (dup2(user_err, STDERR_FILENO) < 0)
		die_errno("--jail-entry: cannot restore stderr");
	close(user_err);
	/* nothing but stdin, stdout and stderr passes to the command: whatever
	 * bwrap or the caller left open above 2 goes at the exec */
	if (!cloexec_above_2())
		die_errno("--jail-entry: cannot close the inherited descriptors");
	/* but a secret's descriptor, which the command reads (and should
	 * close) itself; one that is not there fails the start */
	for (size_t k = 0; k < nkeep; k++)
		if (fcntl(keep[k], F_SETFD, 0) < 0)
			die_errno("--jail-entry: secret descriptor %d", keep[k]);
	exec_command(cmd, NULL);
}
