/* SPDX-License-Identifier: MIT */
/* kjail-proxy: kjail's egress proxy as a program of its own (proxy.h),
 * executed by proxy_spawn() (proxy/spawn.h) with an empty environment and
 * these descriptors, nothing else open but standard error:
 *   3  the control socket: the jail's entry program sends the listeners
 *      here (fdpass.h, tags "http", "socks5" and, one for each loopback
 *      address and port forwarded, "local") and waits for 'k'
 *   4  the log, O_RDWR (the cap rewrites it in place, proxy/log.h;
 *      closed when there is none)
 *   5  the stop pipe: readable or hung up, the proxy stops
 *   6  kjail's configuration (proxy/handoff.h), read to its end
 * In this order it reads its configuration, gives up its identity and
 * capabilities (proxy/privdrop.h), confines itself (proxy/sandbox.h),
 * and only then reads from the jail: the listeners, then connections.
 * Any failure is one line on standard error and exit 1, and the jail's
 * entry program, never answered, runs nothing. */
#include "config.h"

#include "fdpass.h"
#include "proxy/handoff.h"
#include "proxy/privdrop.h"
#include "proxy/proxy.h"
#include "proxy/sandbox.h"
#include "proxy/serve.h"
#include "proxy/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int fail(const char *what, const char *why)
{
	fprintf(stderr, "kjail: proxy: %s: %s\n", what, why);
	return 1;
}

/* The listeners, as the jail's entry program sends them. */
static int take_listeners(struct proxy_listener *l)
{
	int fds[FDPASS_MAX];
	char tags[FDPASS_MAX][FDPASS_TAG_MAX];
	int n = fdpass_recv(PROXY_FD_CTL, fds, tags, FDPASS_MAX);
	if (n < 0)
		fail("receiving the listeners", strerror(errno));
	for (int i = 0; i < n; i++) {
		l[i].fd = fds[i];
		if (strcmp(tags[i], "http") == 0)
			l[i].proto = PROXY_HTTP;
		else if (strcmp(tags[i], "socks5") == 0)
			l[i].proto = PROXY_SOCKS5;
		else if (strcmp(tags[i], "local") == 0)
			l[i].proto = PROXY_LOCAL;
		else
			return fail("a listener", "an unknown tag"), -1;
	}
	return n;
}

static int run(void)
{
	char err[512];
	struct proxy_handoff h;
	if (!proxy_handoff_recv(PROXY_FD_CONFIG, &h, err, sizeof err))
		return fail("kjail's configuration", err);
	close(PROXY_FD_CONFIG);
	/* jansson's hash seed from /dev/urandom, while that can be opened */
	json_object_seed(0);
	if (!proxy_privdrop(h.parent, err, sizeof err))
		return fail("dropping privileges", err);
	/* with no rule (-n) every host is refused before a lookup: no
	 * resolver to load, nothing to read */
	if (!proxy_sandbox_apply(h.c.nrules > 0, err, sizeof err))
		return fail("confining itself", err);
	struct proxy_listener l[FDPASS_MAX];
	int n = take_listeners(l);
	if (n <= 0)
		return 1;
	if (write(PROXY_FD_CTL, "k", 1) != 1)
		return 1;
	h.c.log_fd = h.log ? PROXY_FD_LOG : -1;
	return proxy_serve(&h.c, l, (size_t)n, PROXY_FD_STOP) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc != 2 || strcmp(argv[1], PROXY_PROGRAM_ARG) != 0 ||
	    fcntl(PROXY_FD_CONFIG, F_GETFD) < 0) {
		fprintf(stderr, "kjail-proxy: this is kjail's egress proxy, started by kjail for "
				"--allow-host: run kjail instead\n");
		return 2;
	}
	/* _exit: connections still resolving a name end with the process,
	 * and no exit handler runs under the filter */
	_exit(run());
}
