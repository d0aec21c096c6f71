/* SPDX-License-Identifier: MIT */
/* proxy-bench: the egress proxy, fast and bounded (issue 26 acceptance 3,
 * issue 38 acceptance 6), on loopback. Not a test: `make bench-proxy` (or
 * `make bench`) runs it and prints a markdown section; doc/performance.md
 * keeps the numbers.
 *
 *   proxy-bench [--quick] [--strict] [--out FILE] [--log FILE]
 *
 * Three processes besides this one, all forked before anything is
 * allocated here: kjail's own engine (proxy_serve) with its default
 * configuration (connection cap, memory budget), the rules "127.0.0.1:*"
 * and "localhost:*" and its log written as in a run; a bare relay (one
 * connection at a time to the server, a poll loop, 1 MiB buffers, no
 * policy, no parsing): what a relay can reach on this machine; and the
 * server is a thread here that streams, per connection, what the client
 * asks for: a pattern seeded by the client's id, zeros, or an echo.
 *   1. One stream of 1 GiB of zeros read directly, through the bare relay
 *      and through a CONNECT tunnel, interleaved (the order turns each
 *      round), 7 rounds (quick: 3 x 64 MiB); the median of the rounds'
 *      proxy/bare throughput ratios must be >= 0.85.
 *   2. A new connection: connect (to the proxy: CONNECT, wait for the
 *      200), one byte there and back, directly and through the proxy,
 *      1,000 times each interleaved (quick: 100); the difference of the
 *      medians must be <= 0.5 ms. Once for 127.0.0.1 and once for
 *      localhost (a name the proxy resolves).
 *   3. 1,024 CONNECT tunnels open at once (a barrier: every one has its
 *      200 before any asks for data), each then reads 2 MiB of its own
 *      pattern; every byte is checked and each must end exactly at its
 *      length (quick: 128 x 256 KiB). The proxy's CPU time over it.
 *   The proxy's peak resident memory over the whole run (VmHWM) must stay
 *   within its budget plus 16 MiB.
 * --strict: exit 1 when a check fails (a corrupted byte always does). */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SOCK_CLOEXEC
#define SOCK_CLOEXEC 0 /* macOS */
#endif
#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0
#endif

#include "proxy/rules.h"
#include "proxy/proxy.h"
#include "proxy/serve.h"

#define SLACK_MIB 16 /* what the proxy may hold beyond its budget */
#define CONCURRENT 1024
_Static_assert(PROXY_MAX_CONNS_DEFAULT >= CONCURRENT, "the cap must admit the bench's tunnels");

enum path { DIRECT, BARE, PROXY };

static unsigned short server_port, proxy_port, bare_port;

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

static void detached(void *(*fn)(void *), void *arg, size_t stack)
{
	pthread_t t;
	pthread_attr_t at;
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&at, stack);
	if (pthread_create(&t, &at, fn, arg) != 0) {
		perror("proxy-bench: pthread_create");
		exit(2);
	}
	pthread_attr_destroy(&at);
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
		uint64_t buf[4096];
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
		detached(server_conn, (void *)(intptr_t)fd, 256 * 1024);
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

/* --- the bare relay ------------------------------------------------------------ */

/* One direction of the bare relay. */
struct half {
	int from, to;
	char *buf;
	size_t off, n;
	bool eof, done;
};

/* Moves what it can without waiting; false on an error. */
static bool half_step(struct half *h, bool *moved)
{
	if (h->done)
		return true;
	if (h->n == 0 && !h->eof) {
		ssize_t r = recv(h->from, h->buf, 1 << 20, 0);
		if (r > 0) {
			h->n = (size_t)r;
			h->off = 0;
			*moved = true;
		} else if (r == 0) {
			h->eof = *moved = true;
		} else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			return false;
		}
	}
	if (h->n > 0) {
		ssize_t w = send(h->to, h->buf + h->off, h->n, MSG_NOSIGNAL);
		if (w > 0) {
			h->off += (size_t)w;
			h->n -= (size_t)w;
			*moved = true;
		} else if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			return false;
		}
	}
	if (h->eof && h->n == 0) {
		shutdown(h->to, SHUT_WR);
		h->done = true;
	}
	return true;
}

static short half_events(const struct half *h, bool from)
{
	if (h->done)
		return 0;
	if (from)
		return h->n == 0 && !h->eof ? POLLIN : 0;
	return h->n > 0 ? POLLOUT : 0;
}

/* Serves one connection at a time, each to the server: poll, then both
 * directions until neither moves. */
static void bare_relay(int l)
{
	static char ab[1 << 20], ba[1 << 20];
	for (;;) {
		int a = accept(l, NULL, NULL);
		if (a < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			_exit(1);
		}
		int b = connect_lo(server_port);
		if (b < 0) {
			close(a);
			continue;
		}
		fcntl(a, F_SETFL, O_NONBLOCK);
		fcntl(b, F_SETFL, O_NONBLOCK);
		struct half up = { a, b, ab, 0, 0, false, false };
		struct half down = { b, a, ba, 0, 0, false, false };
		while (!(up.done && down.done)) {
			struct pollfd pf[2] = {
				{ a, (short)(half_events(&up, true) | half_events(&down, false)), 0 },
				{ b, (short)(half_events(&down, true) | half_events(&up, false)), 0 },
			};
			if (poll(pf, 2, 60000) <= 0 && errno != EINTR)
				break;
			bool moved = true, ok = true;
			while (moved && ok) {
				moved = false;
				ok = half_step(&up, &moved) && half_step(&down, &moved);
			}
			if (!ok)
				break;
		}
		close(a);
		close(b);
	}
}

/* --- clients ------------------------------------------------------------------ */

/* A connection to the server: directly, through the bare relay, or through
 * a CONNECT tunnel to host (waiting for the 200 as a client does). */
static int open_stream(enum path via, const char *host)
{
	if (via == DIRECT)
		return connect_lo(server_port);
	if (via == BARE)
		return connect_lo(bare_port);
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
	fprintf(stderr, "proxy-bench: the proxy answered: %.*s\n", (int)strcspn(resp, "\r\n"), resp);
fail:
	close(fd);
	return -1;
}

/* Where the tunnels wait for one another (macOS has no pthread_barrier). */
struct gate {
	pthread_mutex_t m;
	pthread_cond_t c;
	size_t left;
};

static void gate_pass(struct gate *g)
{
	pthread_mutex_lock(&g->m);
	if (--g->left == 0)
		pthread_cond_broadcast(&g->c);
	while (g->left > 0)
		pthread_cond_wait(&g->c, &g->m);
	pthread_mutex_unlock(&g->m);
}

struct tunnel {
	uint64_t id, len;
	struct gate *all_open;
	pthread_t t;
	bool ok;
	char why[96];
};

/* Compares r bytes read at offset off of stream id with the pattern. */
static bool pattern_ok(uint64_t id, uint64_t off, const unsigned char *b, size_t r,
		       uint64_t *scratch)
{
	uint64_t w0 = off / 8, nw = (off % 8 + r + 7) / 8;
	for (uint64_t i = 0; i < nw; i++)
		scratch[i] = word(id, w0 + i);
	return memcmp(b, (unsigned char *)scratch + off % 8, r) == 0;
}

static void *tunnel_main(void *arg)
{
	struct tunnel *t = arg;
	enum { CHUNK = 64 * 1024 };
	int fd = open_stream(PROXY, "127.0.0.1");
	gate_pass(t->all_open);
	if (fd < 0) {
		snprintf(t->why, sizeof t->why, "no tunnel");
		return NULL;
	}
	struct timeval tv = { 120, 0 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	char req[17] = { 'P' };
	memcpy(req + 1, &t->id, 8);
	memcpy(req + 9, &t->len, 8);
	unsigned char *buf = malloc(CHUNK);
	uint64_t *scratch = malloc(CHUNK + 16);
	uint64_t off = 0;
	if (!buf || !scratch || !write_full(fd, req, sizeof req)) {
		snprintf(t->why, sizeof t->why, "request not sent");
		goto out;
	}
	for (;;) {
		ssize_t r = read(fd, buf, CHUNK);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(t->why, sizeof t->why, "%s after %llu bytes", strerror(errno),
				 (unsigned long long)off);
			goto out;
		}
		if (r == 0)
			break;
		if (off + (uint64_t)r > t->len || !pattern_ok(t->id, off, buf, (size_t)r, scratch)) {
			snprintf(t->why, sizeof t->why, "bytes %llu-%llu differ",
				 (unsigned long long)off, (unsigned long long)off + (uint64_t)r);
			goto out;
		}
		off += (uint64_t)r;
	}
	if (off != t->len)
		snprintf(t->why, sizeof t->why, "%llu bytes of %llu", (unsigned long long)off,
			 (unsigned long long)t->len);
	else
		t->ok = true;
out:
	free(buf);
	free(scratch);
	close(fd);
	return NULL;
}

/* Seconds to read len zeros through one stream, or -1. */
static double bulk(enum path via, uint64_t len)
{
	int fd = open_stream(via, "127.0.0.1");
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
static double one_rtt(enum path via, const char *host)
{
	double t0 = now_s();
	int fd = open_stream(via, host);
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

/* --- the other processes ----------------------------------------------------- */

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

/* close_fd: the proxy's stop pipe, which only this process may hold. */
static pid_t start_bare(int close_fd)
{
	int l = listen_lo(&bare_port);
	pid_t pid = fork();
	if (pid == 0) {
		close(close_fd);
		bare_relay(l);
		_exit(0);
	}
	close(l);
	return pid;
}

/* A number from /proc/PID/status ("VmHWM:   1234 kB"), or -1. */
static long status_kb(pid_t pid, const char *key)
{
	char path[64], line[256];
	long v = -1;
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t kl = strlen(key);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
			v = strtol(line + kl + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* CPU seconds (user + system) the process has used, or -1. */
static double cpu_s(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	unsigned long long ut, st;
	/* after the name: state, then fields 4 to 13, then utime and stime */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
			 &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* Until the proxy has no connection left (its threads have ended). */
static void proxy_quiet(pid_t pid)
{
	for (int i = 0; i < 500 && status_kb(pid, "Threads") > 1; i++)
		usleep(10000);
}

/* The machine's busy and total CPU time from /proc/stat, in seconds. */
static bool machine_cpu(double *busy, double *total)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	if (!f)
		return false;
	int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		       &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n != 8)
		return false;
	double tick = (double)sysconf(_SC_CLK_TCK);
	unsigned long long all = 0;
	for (int i = 0; i < 8; i++)
		all += v[i];
	*total = (double)all / tick;
	*busy = (double)(all - v[3] - v[4]) / tick; /* less idle and iowait */
	return true;
}

static void loadavg(double *l)
{
	FILE *f = fopen("/proc/loadavg", "r");
	l[0] = l[1] = l[2] = -1;
	if (f) {
		if (fscanf(f, "%lf %lf %lf", &l[0], &l[1], &l[2]) != 3)
			l[0] = -1;
		fclose(f);
	}
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
	double load0[3], busy0 = 0, total0 = 0, busy1 = 0, total1 = 0;
	loadavg(load0);
	bool have_cpu = machine_cpu(&busy0, &total0);
	int sl = listen_lo(&server_port);
	int stop;
	pid_t proxy = start_proxy(logpath, &stop);
	pid_t bare = start_bare(stop);
	detached(server_main, (void *)(intptr_t)sl, 256 * 1024);
	usleep(100000);
	long rss_idle = status_kb(proxy, "VmRSS");

	/* 1. one stream: direct, bare relay, proxy; the order turns */
	int rounds = quick ? 3 : 7;
	uint64_t big = quick ? (64u << 20) : (1u << 30);
	double t[3][7], ratio[7], cpu[3][7] = { { 0 } };
	bool bulk_fail = false;
	for (int r = 0; r < rounds; r++)
		for (int k = 0; k < 3; k++) {
			int via = (r + k) % 3;
			pid_t who = via == PROXY ? proxy : via == BARE ? bare : 0;
			double c0 = who ? cpu_s(who) : 0;
			t[via][r] = bulk((enum path)via, big);
			cpu[via][r] = who ? cpu_s(who) - c0 : 0;
			bulk_fail |= t[via][r] < 0;
		}
	for (int r = 0; r < rounds; r++)
		ratio[r] = t[PROXY][r] > 0 ? t[BARE][r] / t[PROXY][r] : 0;
	double rm = median(ratio, (size_t)rounds); /* sorts them */
	double mib = (double)big / (1 << 20), tm[3], cm[3];
	for (int k = 0; k < 3; k++) {
		tm[k] = median(t[k], (size_t)rounds);
		cm[k] = median(cpu[k], (size_t)rounds) / (mib / 1024);
	}

	/* 2. new connections, interleaved */
	size_t nl = quick ? 100 : 1000;
	double *ld = calloc(nl, sizeof *ld), *lp = calloc(nl, sizeof *lp),
	       *ln = calloc(nl, sizeof *ln);
	size_t lat_fail = 0;
	for (size_t i = 0; i < nl; i++) {
		ld[i] = one_rtt(DIRECT, NULL);
		lp[i] = one_rtt(PROXY, "127.0.0.1");
		ln[i] = one_rtt(PROXY, "localhost");
		lat_fail += ld[i] < 0 || lp[i] < 0 || ln[i] < 0;
	}
	double md = median(ld, nl) * 1e3, mp = median(lp, nl) * 1e3, mn = median(ln, nl) * 1e3;

	/* 3. concurrent tunnels, all open at once, every byte checked */
	proxy_quiet(proxy);
	size_t ntun = quick ? 128 : CONCURRENT;
	uint64_t each = quick ? (256u << 10) : (2u << 20);
	struct tunnel *tv = calloc(ntun, sizeof *tv);
	struct gate all_open = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, ntun };
	double c0 = cpu_s(proxy), t0 = now_s();
	for (size_t i = 0; i < ntun; i++) {
		tv[i].id = i + 1;
		tv[i].len = each;
		tv[i].all_open = &all_open;
		pthread_attr_t at;
		pthread_attr_init(&at);
		pthread_attr_setstacksize(&at, 256 * 1024);
		if (pthread_create(&tv[i].t, &at, tunnel_main, &tv[i]) != 0) {
			perror("proxy-bench: pthread_create");
			exit(2);
		}
		pthread_attr_destroy(&at);
	}
	size_t good = 0;
	for (size_t i = 0; i < ntun; i++) {
		pthread_join(tv[i].t, NULL);
		if (tv[i].ok)
			good++;
		else
			fprintf(stderr, "proxy-bench: tunnel %zu: %s\n", i + 1, tv[i].why);
	}
	double t_conc = now_s() - t0;
	proxy_quiet(proxy);
	double cpu_conc = cpu_s(proxy) - c0;

	long hwm = status_kb(proxy, "VmHWM");
	/* this benchmark's own CPU time: this process (server and clients)
	 * and the two it started */
	double ours = cpu_s(getpid()) + cpu_s(proxy) + cpu_s(bare);
	have_cpu = have_cpu && machine_cpu(&busy1, &total1) && total1 > total0;
	double ncpu = (double)sysconf(_SC_NPROCESSORS_ONLN);
	double wall = have_cpu ? (total1 - total0) / ncpu : 0;
	double others = have_cpu ? (busy1 - busy0 - ours) / wall : -1;
	close(stop);
	int ws;
	waitpid(proxy, &ws, 0);
	kill(bare, SIGKILL);
	waitpid(bare, &ws, 0);
	double load1[3];
	loadavg(load1);

	double budget_mib = (double)PROXY_BUDGET_DEFAULT / (1 << 20);
	double hwm_mib = (double)hwm / 1024;
	bool c1 = !bulk_fail && rm >= 0.85, c2 = mp - md <= 0.5 && lat_fail == 0,
	     c3 = good == ntun, c4 = hwm > 0 && hwm_mib <= budget_mib + SLACK_MIB;
	char text[6144];
	snprintf(text, sizeof text,
		 "### Egress proxy (proxy-bench%s)\n\n"
		 "%ld CPUs; load average %.2f %.2f %.2f at the start (the end's, %.2f, counts "
		 "this benchmark's own threads); other processes kept %.2f CPUs busy on average "
		 "during the run (%.0f s), this benchmark %.2f. "
		 "The proxy's defaults: at most %u connections, a budget of %.0f MiB.\n\n"
		 "| measure | result | check |\n|---|---|---|\n"
		 "| one stream of %.0f MiB, median of %d interleaved rounds: direct | %.0f MiB/s | |\n"
		 "| the same through the bare relay (poll, 1 MiB buffers, no policy) | %.0f MiB/s "
		 "(%.2f of direct), %.2f CPU s/GiB | |\n"
		 "| the same through a CONNECT tunnel of the proxy | %.0f MiB/s (%.2f of direct), "
		 "%.2f CPU s/GiB | |\n"
		 "| proxy / bare relay, median of the rounds' ratios (each round: %s) | %.2f "
		 "(rounds %.2f-%.2f) | %s (>= 0.85) |\n"
		 "| new connection + 1-byte round trip, median of %zu: direct | %.3f ms | |\n"
		 "| the same through CONNECT 127.0.0.1 | %.3f ms (+%.3f ms) | %s (<= 0.5 ms "
		 "added) |\n"
		 "| the same through CONNECT localhost (resolved by the proxy) | %.3f ms (+%.3f ms) "
		 "| |\n"
		 "| %zu CONNECT tunnels open at once x %.2f MiB each, every byte checked | %zu of %zu "
		 "intact in %.2f s (%.0f MiB/s in all); the proxy used %.2f CPU s (%.2f CPUs) | "
		 "%s |\n"
		 "| the proxy's peak resident memory (VmHWM) over the whole run | %.1f MiB (%.1f MiB "
		 "idle) | %s (<= %.0f + %d MiB) |\n",
		 quick ? ", --quick: a smoke test, not a measurement" : "",
		 sysconf(_SC_NPROCESSORS_ONLN), load0[0], load0[1], load0[2], load1[0], others,
		 wall, wall > 0 ? ours / wall : -1, PROXY_MAX_CONNS_DEFAULT, budget_mib, mib, rounds, mib / tm[DIRECT],
		 mib / tm[BARE], tm[DIRECT] / tm[BARE], cm[BARE], mib / tm[PROXY],
		 tm[DIRECT] / tm[PROXY], cm[PROXY], "direct, bare, proxy, turned", rm, ratio[0],
		 ratio[rounds - 1],
		 c1 ? "PASS" : "FAIL", nl, md, mp, mp - md, c2 ? "PASS" : "FAIL", mn, mn - md, ntun,
		 (double)each / (1 << 20), good, ntun, t_conc,
		 (double)(ntun * each) / (1 << 20) / t_conc, cpu_conc, cpu_conc / t_conc,
		 c3 ? "PASS" : "FAIL", hwm_mib, (double)rss_idle / 1024, c4 ? "PASS" : "FAIL",
		 budget_mib, SLACK_MIB);
	fputs(text, stdout);
	if (out) {
		FILE *f = fopen(out, "w");
		if (f) {
			fputs(text, f);
			fclose(f);
		}
	}
	if (!c3)
		return 1;
	return strict && !(c1 && c2 && c4) ? 1 : 0;
}
