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
#include <stdint.h>
#include <stdio.h>
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
	/* the loopback rules' addresses, checked where they are listened on */
	const char *local[FDPASS_MAX];
	size_t nlocal = 0;
	for (; i < argc && str_has_prefix(argv[i], JAIL_LOCAL_PREFIX); i++) {
		if (proxy_fd < 0 || nlocal == ARRAY_SIZE(local))
			die("--jail-entry: %s without the proxy, or too many",
			    JAIL_LOCAL_PREFIX "HOST:PORT");
		local[nlocal++] = argv[i] + strlen(JAIL_LOCAL_PREFIX);
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
	jail_entry(argv[1] + strlen("--jail-entry="), proxy_fd, local, nlocal, keep, nkeep, rw,
		   (size_t)(i - first_rw), mounts, argv + i + 1);
}

/* One listening TCP socket at sa, or -1 with errno set. */
static int listen_at(const struct sockaddr *sa, socklen_t sl)
{
	int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	int one = 1;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
	    (sa->sa_family == AF_INET6 &&
	     setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one) < 0) ||
	    bind(fd, sa, sl) < 0 || listen(fd, SOMAXCONN) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* The listeners made so far, and their addresses (no address twice:
 * "localhost:8080" and "127.0.0.1:8080" are one listener). */
struct listeners {
	int fd[FDPASS_MAX];
	const char *tag[FDPASS_MAX];
	struct sockaddr_in6 at[FDPASS_MAX]; /* large enough for either family */
	size_t n;
};

static void add_listener(struct listeners *l, const char *tag, const struct sockaddr *sa,
			 socklen_t sl, const char *rule, bool optional)
{
	char text[INET6_ADDRSTRLEN + 16] = "?";
	for (size_t i = 0; i < l->n; i++)
		if (memcmp(&l->at[i], sa, sl) == 0)
			return;
	const void *raw = sa->sa_family == AF_INET
				  ? (const void *)&((const struct sockaddr_in *)sa)->sin_addr
				  : (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr;
	unsigned port = ntohs(((const struct sockaddr_in *)sa)->sin_port);
	char a[INET6_ADDRSTRLEN] = "?";
	inet_ntop(sa->sa_family, raw, a, sizeof a);
	snprintf(text, sizeof text, sa->sa_family == AF_INET6 ? "[%s]:%u" : "%s:%u", a, port);
	if (l->n == FDPASS_MAX)
		die("%s: more than %d loopback ports for kjail's proxy (--allow-host); nothing "
		    "was run", rule, FDPASS_MAX - 2);
	int fd = listen_at(sa, sl);
	if (fd < 0 && optional && (errno == EADDRNOTAVAIL || errno == EAFNOSUPPORT))
		return; /* no ::1 in this jail: localhost is 127.0.0.1 alone */
	if (fd < 0)
		die_errno("cannot listen on %s in the jail for kjail's proxy (--allow-host %s)",
			  text, rule);
	l->fd[l->n] = fd;
	l->tag[l->n] = tag;
	memset(&l->at[l->n], 0, sizeof l->at[l->n]);
	memcpy(&l->at[l->n], sa, sl);
	l->n++;
}

static void add_v4(struct listeners *l, const char *tag, uint32_t host_order, unsigned port,
		   const char *rule)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(host_order) };
	add_listener(l, tag, (struct sockaddr *)&a, sizeof a, rule, false);
}

/* A JAIL_LOCAL_PREFIX value: "A.B.C.D:PORT", "[V6]:PORT", "localhost:PORT". */
static void add_local(struct listeners *l, const char *v)
{
	const char *colon = strrchr(v, ':');
	char *end;
	errno = 0;
	long port = colon ? strtol(colon + 1, &end, 10) : 0;
	if (!colon || errno || end == colon + 1 || *end || port < 1 || port > 65535)
		die("--jail-entry: bad %s%s", JAIL_LOCAL_PREFIX, v);
	char host[INET6_ADDRSTRLEN + 2];
	size_t hn = (size_t)(colon - v);
	if (hn >= sizeof host)
		die("--jail-entry: bad %s%s", JAIL_LOCAL_PREFIX, v);
	memcpy(host, v, hn);
	host[hn] = '\0';
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port) };
	if (strcmp(host, "localhost") == 0) {
		a4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		add_listener(l, "local", (struct sockaddr *)&a4, sizeof a4, v, false);
		a6.sin6_addr = in6addr_loopback;
		add_listener(l, "local", (struct sockaddr *)&a6, sizeof a6, v, true);
	} else if (inet_pton(AF_INET, host, &a4.sin_addr) == 1) {
		add_listener(l, "local", (struct sockaddr *)&a4, sizeof a4, v, false);
	} else if (hn > 2 && host[0] == '[' && host[hn - 1] == ']' &&
		   (host[hn - 1] = '\0', inet_pton(AF_INET6, host + 1, &a6.sin6_addr) == 1)) {
		add_listener(l, "local", (struct sockaddr *)&a6, sizeof a6, v, false);
	} else {
		die("--jail-entry: bad %s%s", JAIL_LOCAL_PREFIX, v);
	}
}

void entry_proxy_listeners(int sock, const char *const *local, size_t nlocal)
{
	struct listeners l = { .n = 0 };
	add_v4(&l, "http", INADDR_LOOPBACK, PROXY_HTTP_PORT, "HOST, -n");
	add_v4(&l, "socks5", INADDR_LOOPBACK, PROXY_SOCKS_PORT, "HOST, -n");
	for (size_t i = 0; i < nlocal; i++)
		add_local(&l, local[i]);
	if (fdpass_send(sock, l.fd, l.tag, l.n) < 0)
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
	for (size_t i = 0; i < l.n; i++)
		close(l.fd[i]);
	close(sock);
}

void jail_entry(const char *spec, int proxy_fd, const char *const *local, size_t nlocal,
		const int *keep, size_t nkeep, const char *const *rw, size_t nrw, bool mounts,
		char *const *cmd)
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
		entry_proxy_listeners(proxy_fd, local, nlocal);
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
