/* SPDX-License-Identifier: MIT */
/* proxy-flood [-j JOBS] [-p PORT] COUNT:HOST:PORT[:connect]...
 * Opens COUNT connections to kjail's proxy on 127.0.0.1:PORT (3128) for
 * each destination, in order, JOBS (16) at a time: an absolute-form GET
 * for HOST:PORT, or a CONNECT with ":connect"; "%d" in HOST becomes the
 * connection's number (COUNT destinations of one connection each). Reads
 * each answer to its end. Prints "403 N other M" and exits 0 when every
 * answer was a 403 (a refusal), 1 otherwise, 2 on a usage error. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define JOBS_MAX 256

struct dest {
	long count;
	char host[256];
	unsigned port;
	int connect;
};

struct slot {
	int fd;
	char req[600];
	size_t len, sent;
	char head[16];
	size_t got;
};

static struct dest *dests;
static int ndests, cur;
static long done_in_cur;
static long n403, nother;

static int parse(const char *s, struct dest *d)
{
	char host[256];
	char kind[16] = "";
	if (sscanf(s, "%ld:%255[^:]:%u:%15s", &d->count, host, &d->port, kind) < 3 ||
	    d->count <= 0 || d->port == 0 || d->port > 65535)
		return -1;
	snprintf(d->host, sizeof d->host, "%s", host);
	d->connect = strcmp(kind, "connect") == 0;
	return kind[0] && !d->connect ? -1 : 0;
}

/* The next request into s, or 0 when every one is out. */
static int next(struct slot *s)
{
	while (cur < ndests && done_in_cur >= dests[cur].count) {
		cur++;
		done_in_cur = 0;
	}
	if (cur >= ndests)
		return 0;
	const struct dest *d = &dests[cur];
	char host[300];
	const char *pct = strstr(d->host, "%d");
	if (pct)
		snprintf(host, sizeof host, "%.*s%ld%s", (int)(pct - d->host), d->host, done_in_cur,
			 pct + 2);
	else
		snprintf(host, sizeof host, "%s", d->host);
	done_in_cur++;
	int n = d->connect
			? snprintf(s->req, sizeof s->req,
				   "CONNECT %s:%u HTTP/1.1\r\nHost: %s:%u\r\n\r\n", host, d->port,
				   host, d->port)
			: snprintf(s->req, sizeof s->req,
				   "GET http://%s:%u/ HTTP/1.1\r\nHost: %s:%u\r\n\r\n", host, d->port,
				   host, d->port);
	s->len = (size_t)n;
	s->sent = s->got = 0;
	return 1;
}

static int start(struct slot *s, const struct sockaddr_in *sa)
{
	if (!next(s))
		return 0;
	s->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s->fd < 0) {
		perror("proxy-flood: socket");
		exit(1);
	}
	if (connect(s->fd, (const struct sockaddr *)sa, sizeof *sa) < 0 && errno != EINPROGRESS) {
		perror("proxy-flood: connect");
		exit(1);
	}
	return 1;
}

static void finish(struct slot *s)
{
	if (s->got >= 12 && memcmp(s->head, "HTTP/1.1 403", 12) == 0)
		n403++;
	else
		nother++;
	close(s->fd);
	s->fd = -1;
}

int main(int argc, char **argv)
{
	int jobs = 16, opt;
	unsigned port = 3128;
	while ((opt = getopt(argc, argv, "+j:p:")) != -1) {
		if (opt == 'j')
			jobs = atoi(optarg);
		else if (opt == 'p')
			port = (unsigned)atoi(optarg);
		else
			return 2;
	}
	if (optind >= argc || jobs < 1 || jobs > JOBS_MAX) {
		fprintf(stderr, "usage: proxy-flood [-j JOBS] [-p PORT] COUNT:HOST:PORT[:connect]...\n");
		return 2;
	}
	ndests = argc - optind;
	dests = calloc((size_t)ndests, sizeof *dests);
	for (int i = 0; i < ndests; i++)
		if (!dests || parse(argv[optind + i], &dests[i]) < 0) {
			fprintf(stderr, "proxy-flood: bad destination %s\n", argv[optind + i]);
			return 2;
		}
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((unsigned short)port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	struct slot slots[JOBS_MAX];
	struct pollfd pf[JOBS_MAX];
	int live = 0;
	for (int i = 0; i < jobs; i++) {
		slots[i].fd = -1;
		live += start(&slots[i], &sa);
	}
	while (live > 0) {
		for (int i = 0; i < jobs; i++) {
			struct slot *s = &slots[i];
			pf[i] = (struct pollfd){ .fd = s->fd,
						 .events = s->sent < s->len ? POLLOUT : POLLIN };
		}
		if (poll(pf, (nfds_t)jobs, 10000) <= 0) {
			fprintf(stderr, "proxy-flood: no answer in 10 s\n");
			return 1;
		}
		for (int i = 0; i < jobs; i++) {
			struct slot *s = &slots[i];
			if (s->fd < 0 || !pf[i].revents)
				continue;
			if (s->sent < s->len) {
				ssize_t w = send(s->fd, s->req + s->sent, s->len - s->sent,
						 MSG_NOSIGNAL);
				if (w > 0)
					s->sent += (size_t)w;
				else if (w < 0 && errno != EAGAIN && errno != EINPROGRESS) {
					finish(s);
					live -= 1 - start(s, &sa);
				}
				continue;
			}
			char buf[4096];
			ssize_t r = recv(s->fd, buf, sizeof buf, 0);
			if (r < 0 && errno == EAGAIN)
				continue;
			if (r > 0) {
				size_t k = sizeof s->head - s->got;
				if (k > (size_t)r)
					k = (size_t)r;
				memcpy(s->head + s->got, buf, k);
				s->got += k;
				continue;
			}
			finish(s);
			live -= 1 - start(s, &sa);
		}
	}
	printf("403 %ld other %ld\n", n403, nother);
	return nother == 0 ? 0 : 1;
}
