/* SPDX-License-Identifier: MIT */
/* proxy-run: kjail's egress proxy engine alone, for tests and the bench.
 *
 *   proxy-run [-m MAXCONNS] [-b BUDGET_BYTES] [-c CONNECT_MS] [-i IDLE_MS]
 *             [-H HEADER_MS] HTTPPORT SOCKSPORT LOGFILE [HOST[:PORT] | @GROUP]...
 *
 * Listens on 127.0.0.1:HTTPPORT (HTTP/CONNECT) and :SOCKSPORT (SOCKS5), a
 * port of 0 for any free one, prints "ready HTTPPORT SOCKSPORT" on stdout,
 * appends the log to LOGFILE, and serves until its standard input ends.
 * Each value is parsed as --allow-host would be (origin "--allow-host");
 * a bad one is one line on stderr and exit 125. On the way out it prints
 * proxy_summary's line on stderr ("summary: ..."), read from the
 * summary line the proxy ended the log with. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef SOCK_CLOEXEC
#define SOCK_CLOEXEC 0 /* macOS */
#endif

#include "proxy/rules.h"
#include "proxy/proxy.h"
#include "proxy/summary.h"
#include "proxy/serve.h"

static int listen_on(unsigned port, unsigned *bound)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	socklen_t l = sizeof a;
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
	    bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 1024) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &l) < 0) {
		fprintf(stderr, "proxy-run: 127.0.0.1:%u: %s\n", port, strerror(errno));
		exit(125);
	}
	*bound = ntohs(a.sin_port);
	return fd;
}

static void add_rule(struct allow_rule **r, size_t *n, const char *v, const char *origin)
{
	const char *why;
	*r = realloc(*r, (*n + 1) * sizeof **r);
	if (!*r)
		exit(125);
	if (!allow_parse(v, &(*r)[*n], &why)) {
		fprintf(stderr, "proxy-run: %s: --allow-host %s: %s\n", origin, v, why);
		exit(125);
	}
	(*r)[*n].text = v;
	(*r)[*n].origin = origin;
	(*n)++;
}

int main(int argc, char **argv)
{
	struct proxy_config c = { 0 };
	int opt;
	while ((opt = getopt(argc, argv, "+m:b:c:i:H:")) != -1) {
		switch (opt) {
		case 'm': c.max_conns = (unsigned)atoi(optarg); break;
		case 'b': c.budget = (size_t)strtoull(optarg, NULL, 10); break;
		case 'c': c.connect_timeout_ms = atoi(optarg); break;
		case 'i': c.idle_timeout_ms = atoi(optarg); break;
		case 'H': c.header_timeout_ms = atoi(optarg); break;
		default: return 125;
		}
	}
	if (argc - optind < 3) {
		fprintf(stderr, "usage: proxy-run [-m N] [-b BYTES] [-c MS] [-i MS] [-H MS] HTTPPORT SOCKSPORT "
				"LOGFILE [HOST[:PORT]|@GROUP]...\n");
		return 125;
	}
	struct allow_rule *rules = NULL;
	size_t n = 0, norigins = 0;
	char **origins = calloc((size_t)argc, sizeof *origins); /* the groups' */
	if (!origins)
		return 125;
	for (int i = optind + 3; i < argc; i++) {
		const char *const *g = argv[i][0] == '@' ? allow_group(argv[i] + 1) : NULL;
		if (!g) {
			add_rule(&rules, &n, argv[i], "--allow-host");
			continue;
		}
		char *origin = malloc(strlen(argv[i]) + 32);
		if (!origin)
			return 125;
		sprintf(origin, "--allow-host (%s)", argv[i]);
		origins[norigins++] = origin;
		for (; *g; g++)
			add_rule(&rules, &n, *g, origin);
	}
	c.rules = rules;
	c.nrules = n;
	c.log_fd = open(argv[optind + 2], O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (c.log_fd < 0) {
		fprintf(stderr, "proxy-run: %s: %s\n", argv[optind + 2], strerror(errno));
		return 125;
	}
	unsigned hp, sp;
	struct proxy_listener l[2] = {
		{ listen_on((unsigned)atoi(argv[optind]), &hp), PROXY_HTTP },
		{ listen_on((unsigned)atoi(argv[optind + 1]), &sp), PROXY_SOCKS5 },
	};
	printf("ready %u %u\n", hp, sp);
	fflush(stdout);
	int rc = proxy_serve(&c, l, 2, 0);
	char sum[4096];
	long refused = proxy_summary(c.log_fd, sum, sizeof sum);
	fprintf(stderr, "summary: %ld %s\n", refused, sum);
	free(rules);
	for (size_t i = 0; i < norigins; i++)
		free(origins[i]);
	free(origins);
	return rc == 0 ? 0 : 1;
}
