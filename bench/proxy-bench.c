/* SPDX-License-Identifier: MIT */
/* proxy-bench: the egress proxy under load (issue 26, acceptance 3), on
 * loopback. Not a test: `make bench` (or `make bench-proxy`) runs it and
 * prints a markdown section; doc/performance.md keeps the numbers.
 *
 *   proxy-bench [--quick] [--strict] [--out FILE] [--log FILE]
 *
 * The proxy is kjail's own engine (proxy_serve) in a child process, with
 * the rules "127.0.0.1:*" and "localhost:*" and its log written as in a
 * run. A server in this process streams, per connection, what the client
 * asks for: a pattern seeded by the client's id, zeros, or an echo.
 *   1. 256 concurrent CONNECT tunnels each read 4 MiB of their own
 *      pattern; every byte is checked, and each tunnel must end exactly
 *      at its length (quick: 64 x 1 MiB).
 *   2. One tunnel reads 1 GiB against a direct loopback connection
 *      reading the same (median of 3 each; quick: 128 MiB); the ratio of
 *      throughputs must be >= 0.5.
 *   3. A new connection: connect, (CONNECT, wait for 200,) one byte there
 *      and back, directly and through the proxy, 1,000 times each
 *      interleaved (quick: 100); the difference of the medians must be
 *      under 1 ms. Once for 127.0.0.1 and once for localhost (a name the
 *      proxy resolves).
 * --strict: exit 1 when a check fails (a corrupted byte always does). */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SOCK_CLOEXEC
#define SOCK_CLOEXEC 0 /* macOS */
#endif

#include "proxy/rules.h"
#include "proxy/proxy.h"
#include "proxy/serve.h"

static unsigned short server_port, proxy_port;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* The pattern's 8-byte word number w of stream id. */
static uint64_t word(uint64_t id, uint64_t w)
{
	return mix(id * 0x100000001b3ULL ^ w);
}

static bool read_full(int fd, void *buf, size_t n)
{
	char *p = buf;
	while (n > 0) {
		ssize_t r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p += r;
		n -= (size_t)r;
	}
	return true;
}

static bool write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

/* --- the server ------------------------------------------------------------- */

/* 'P' id len: the pattern; 'Z' len: zeros; 'E': one byte back. */
static void *server_conn(void *arg)
{
	int fd = (int)(intptr_t)arg;
	char mode;
	uint64_t id = 0, len = 0;
	static char zeros[1 << 20];
	if (!read_full(fd, &mode, 1))
		goto out;
	if (mode == 'E') {
		char c;
		if (read_full(fd, &c, 1))
			write_full(fd, &c, 1);
	} else if (mode == 'Z') {
		if (!read_full(fd, &len, 8))
			goto out;
		while (len > 0) {
			size_t n = len < sizeof zeros ? (size_t)len : sizeof zeros;
			if (!write_full(fd, zeros, n))
				break;
			len -= n;
		}
	} else if (mode == 'P') {
		if (!read_full(fd, &id, 8) || !read_full(fd, &len, 8))
			goto out;
		uint64_t buf[8192];
		for (uint64_t off = 0; off < len;) {
			size_t n = sizeof buf;
			if (len - off < n)
				n = (size_t)(len - off);
			for (size_t i = 0; i < (n + 7) / 8; i++)
				buf[i] = word(id, off / 8 + i);
			if (!write_full(fd, buf, n))
				break;
			off += n;
		}
	}
out:
	close(fd);
	return NULL;
}

static void *server_main(void *arg)
{
	int l = (int)(intptr_t)arg;
	for (;;) {
		int fd = accept(l, NULL, NULL);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EMFILE || errno == ENFILE) {
				usleep(1000);
				continue;
			}
			return NULL;
		}
		pthread_t t;
		pthread_attr_t at;
		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		pthread_attr_setstacksize(&at, 256 * 1024);
		if (pthread_create(&t, &at, server_conn, (void *)(intptr_t)fd) != 0)
			close(fd);
		pthread_attr_destroy(&at);
	}
}

static int listen_lo(unsigned short *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t sl = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 4096) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &sl) < 0) {
		perror("proxy-bench: listen");
		exit(2);
	}
	*port = ntohs(a.sin_port);
	return fd;
}

/* --- clients ------------------------------------------------------------------ */

static int connect_lo(unsigned short port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0)
		return fd;
	if (fd >= 0)
		close(fd);
	return -1;
}

/* A connection to the server: directly, or through a CONNECT tunnel to
 * host (waiting for the 200 as a client does). */
static int open_stream(bool proxied, const char *host)
{
	if (!proxied)
		return connect_lo(server_port);
	int fd = connect_lo(proxy_port);
	if (fd < 0)
		return -1;
	char req[128], resp[256];
	int n = snprintf(req, sizeof req, "CONNECT %s:%u HTTP/1.1\r\nHost: %s:%u\r\n\r\n", host,
			 server_port, host, server_port);
	size_t got = 0;
	if (!write_full(fd, req, (size_t)n))
		goto fail;
	/* "HTTP/1.1 200 Connection established\r\n\r\n": read to its end */
	while (got < sizeof resp - 1) {
		ssize_t r = read(fd, resp + got, 1);
		if (r <= 0)
			goto fail;
		got++;
		if (got >= 4 && memcmp(resp + got - 4, "\r\n\r\n", 4) == 0)
			break;
	}
	resp[got] = '\0';
	if (strncmp(resp, "HTTP/1.1 200 ", 13) == 0)
		return fd;
fail:
	close(fd);
	return -1;
}

struct tunnel {
	uint64_t id, len;
	bool ok;
	char why[96];
};

static void *tunnel_main(void *arg)
{
	struct tunnel *t = arg;
	int fd = open_stream(true, "127.0.0.1");
	if (fd < 0) {
		snprintf(t->why, sizeof t->why, "no tunnel");
		return NULL;
	}
	char req[17] = { 'P' };
	memcpy(req + 1, &t->id, 8);
	memcpy(req + 9, &t->len, 8);
	if (!write_full(fd, req, sizeof req)) {
		snprintf(t->why, sizeof t->why, "request not sent");
		close(fd);
		return NULL;
	}
	static _Thread_local uint64_t buf[8192];
	uint64_t off = 0;
	for (;;) {
		ssize_t r = read(fd, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		/* off is a multiple of 8 until the last read */
		unsigned char *b = (unsigned char *)buf;
		uint64_t w = 0;
		for (ssize_t i = 0; i < r; i++) {
			uint64_t pos = off + (uint64_t)i;
			if (i == 0 || pos % 8 == 0)
				w = word(t->id, pos / 8);
			if (b[i] != ((unsigned char *)&w)[pos % 8]) {
				snprintf(t->why, sizeof t->why, "byte %llu differs",
					 (unsigned long long)pos);
				close(fd);
				return NULL;
			}
		}
		off += (uint64_t)r;
	}
	close(fd);
	if (off != t->len)
		snprintf(t->why, sizeof t->why, "%llu bytes of %llu", (unsigned long long)off,
			 (unsigned long long)t->len);
	else
		t->ok = true;
	return NULL;
}

/* Seconds to read len zeros through one stream, or -1. */
static double bulk(bool proxied, uint64_t len)
{
	int fd = open_stream(proxied, "127.0.0.1");
	if (fd < 0)
		return -1;
	double t0 = now_s();
	char req[9] = { 'Z' };
	memcpy(req + 1, &len, 8);
	write_full(fd, req, sizeof req);
	static char buf[1 << 20];
	uint64_t got = 0;
	for (;;) {
		ssize_t r = read(fd, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (uint64_t)r;
	}
	double dt = now_s() - t0;
	close(fd);
	return got == len ? dt : -1;
}

/* Seconds for a new connection and one byte there and back, or -1. */
static double one_rtt(bool proxied, const char *host)
{
	double t0 = now_s();
	int fd = open_stream(proxied, host);
	if (fd < 0)
		return -1;
	/* a line end: "Ex" alone could still become an HTTP request line,
	 * which the proxy waits to read (proxy/inspect.h) */
	char e[2] = { 'E', '\n' }, c = 0;
	bool ok = write_full(fd, e, 2) && read_full(fd, &c, 1) && c == '\n';
	double dt = now_s() - t0;
	close(fd);
	return ok ? dt : -1;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* --- the proxy's process ----------------------------------------------------- */

static pid_t start_proxy(const char *logpath, int *stop)
{
	static struct allow_rule r[2];
	const char *why;
	if (!allow_parse("127.0.0.1:*", &r[0], &why) || !allow_parse("localhost:*", &r[1], &why))
		exit(2);
	r[0].text = "127.0.0.1:*";
	r[1].text = "localhost:*";
	r[0].origin = r[1].origin = "proxy-bench";
	int l = listen_lo(&proxy_port);
	int p[2];
	if (pipe(p) < 0)
		exit(2);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[1]);
		int log = open(logpath, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
		struct proxy_config c = { .rules = r, .nrules = 2, .log_fd = log };
		struct proxy_listener pl = { l, PROXY_HTTP };
		_exit(proxy_serve(&c, &pl, 1, p[0]) == 0 ? 0 : 1);
	}
	close(p[0]);
	close(l);
	*stop = p[1];
	return pid;
}

static void raise_nofile(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char **argv)
{
	bool quick = false, strict = false;
	const char *out = NULL, *logpath = "proxy-bench.log";
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			quick = true;
		else if (strcmp(argv[i], "--strict") == 0)
			strict = true;
		else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (strcmp(argv[i], "--log") == 0 && i + 1 < argc)
			logpath = argv[++i];
		else {
			fprintf(stderr, "usage: proxy-bench [--quick] [--strict] [--out FILE] [--log FILE]\n");
			return 2;
		}
	}
	signal(SIGPIPE, SIG_IGN);
	raise_nofile();
	int sl = listen_lo(&server_port);
	int stop;
	pid_t proxy = start_proxy(logpath, &stop);
	pthread_t st;
	pthread_create(&st, NULL, server_main, (void *)(intptr_t)sl);

	/* 1. concurrent tunnels, every byte checked */
	size_t ntun = quick ? 64 : 256;
	uint64_t each = quick ? (1u << 20) : (4u << 20);
	struct tunnel *tv = calloc(ntun, sizeof *tv);
	pthread_t *th = calloc(ntun, sizeof *th);
	double t0 = now_s();
	for (size_t i = 0; i < ntun; i++) {
		tv[i].id = i + 1;
		tv[i].len = each;
		pthread_create(&th[i], NULL, tunnel_main, &tv[i]);
	}
	size_t good = 0;
	for (size_t i = 0; i < ntun; i++) {
		pthread_join(th[i], NULL);
		if (tv[i].ok)
			good++;
		else
			fprintf(stderr, "proxy-bench: tunnel %zu: %s\n", i + 1, tv[i].why);
	}
	double t_conc = now_s() - t0;

	/* 2. one big tunnel against a direct connection, interleaved */
	uint64_t big = quick ? (128u << 20) : (1u << 30);
	double d[3], p[3];
	for (int i = 0; i < 3; i++) {
		d[i] = bulk(false, big);
		p[i] = bulk(true, big);
	}
	double dm = median(d, 3), pm = median(p, 3);
	double ratio = dm > 0 && pm > 0 ? dm / pm : 0;

	/* 3. new connections, interleaved */
	size_t nl = quick ? 100 : 1000;
	double *ld = calloc(nl, sizeof *ld), *lp = calloc(nl, sizeof *lp),
	       *ln = calloc(nl, sizeof *ln);
	size_t lat_fail = 0;
	for (size_t i = 0; i < nl; i++) {
		ld[i] = one_rtt(false, NULL);
		lp[i] = one_rtt(true, "127.0.0.1");
		ln[i] = one_rtt(true, "localhost");
		lat_fail += ld[i] < 0 || lp[i] < 0 || ln[i] < 0;
	}
	double md = median(ld, nl) * 1e3, mp = median(lp, nl) * 1e3, mn = median(ln, nl) * 1e3;

	close(stop);
	int ws;
	waitpid(proxy, &ws, 0);

	bool c1 = good == ntun, c2 = ratio >= 0.5, c3 = mp - md < 1.0 && lat_fail == 0;
	double load[3] = { 0 };
	FILE *la = fopen("/proc/loadavg", "r");
	if (la) {
		if (fscanf(la, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
			load[0] = -1;
		fclose(la);
	}
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char text[4096];
	snprintf(text, sizeof text,
		 "### Egress proxy (proxy-bench%s)\n\n"
		 "%ld CPUs, load average %.2f at the end.\n\n"
		 "| measure | result | check |\n|---|---|---|\n"
		 "| %zu concurrent CONNECT tunnels x %llu MiB, every byte checked | %zu of %zu "
		 "intact in %.2f s (%.0f MiB/s in all) | %s |\n"
		 "| one tunnel, %llu MiB: direct / through the proxy (median of 3) | %.0f / %.0f "
		 "MiB/s, ratio %.2f | %s (>= 0.5) |\n"
		 "| new connection + 1-byte round trip, median of %zu: direct | %.3f ms | |\n"
		 "| the same through CONNECT 127.0.0.1 | %.3f ms (+%.3f ms) | %s (< 1 ms added) |\n"
		 "| the same through CONNECT localhost (resolved by the proxy) | %.3f ms (+%.3f ms) "
		 "| |\n",
		 quick ? ", --quick: a smoke test, not a measurement" : "", ncpu, load[0], ntun,
		 (unsigned long long)(each >> 20), good, ntun, t_conc,
		 (double)(ntun * each) / (1 << 20) / t_conc, c1 ? "PASS" : "FAIL",
		 (unsigned long long)(big >> 20), (double)big / (1 << 20) / dm,
		 (double)big / (1 << 20) / pm, ratio, c2 ? "PASS" : "FAIL", nl, md, mp, mp - md,
		 c3 ? "PASS" : "FAIL", mn, mn - md);
	fputs(text, stdout);
	if (out) {
		FILE *f = fopen(out, "w");
		if (f) {
			fputs(text, f);
			fclose(f);
		}
	}
	if (!c1)
		return 1;
	return strict && !(c2 && c3) ? 1 : 0;
}
