/* SPDX-License-Identifier: MIT */
/* The proxy's run (an allowlist, or -n): started before the jail, ended
 * after it, reported on once the workspace is safe again (run/egress.h). */
#include "config.h"
#ifdef KJ_OS_LINUX
#include "run/egress.h"
#include "fdpass.h"
#include "path.h"
#include "proxy/proxy.h"
#include "proxy/spawn.h"
#include "proxy/summary.h"
#include "run/locate.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The log lives in a 0700 directory of the host's /tmp, which the jail
 * (its own /tmp) never sees, unless /tmp is writable to it: then the jail
 * could write the log through that path, and kjail refuses. */
static void make_log(struct egress_run *e, const struct plan *pl)
{
	e->dir = xstrdup(PROXY_LOG_DIR_TEMPLATE);
	if (!mkdtemp(e->dir))
		die_errno("cannot make a directory for the proxy's log in /tmp");
	const struct op *o = plan_verdict(pl, e->dir);
	if (o && (o->kind == OP_BIND || o->kind == OP_PIN)) {
		rmdir(e->dir);
		die("the proxy's log %s would lie inside the writable %s %s, where the jail "
		    "could rewrite it; run with a workspace outside /tmp",
		    e->dir, o->rule, o->path);
	}
	e->path = xasprintf("%s/net.log", e->dir);
	/* read and write: the proxy's cap moves the newest lines to the
	 * start (proxy/log.h) */
	e->log_w = open(e->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
	if (e->log_w < 0)
		die_errno("cannot create the proxy's log %s", e->path);
	e->log_r = open(e->path, O_RDONLY | O_CLOEXEC);
	if (e->log_r < 0)
		die_errno("cannot open the proxy's log %s", e->path);
}

/* --net-log's directory, now: the planner checked the jail cannot write
 * it (planner/netlog.h), and this is the directory it checked. */
static void open_keep(struct egress_run *e, const char *path)
{
	_cleanup_free_ char *dir = path_dirname(path);
	e->keep_dir = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (e->keep_dir < 0)
		die_errno("--net-log %s: its directory %s", path, dir);
	e->keep_name = xstrdup(strrchr(path, '/') + 1);
	e->keep_path = path;
}

static bool copy_log(int from, int to)
{
	char buf[65536];
	off_t off = 0;
	for (;;) {
		ssize_t r = pread(from, buf, sizeof buf, off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return false;
		if (r == 0)
			return true;
		for (ssize_t w, done = 0; done < r; done += w) {
			w = write(to, buf + done, (size_t)(r - done));
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w <= 0)
				return false;
		}
		off += r;
	}
}

/* A new file beside the name (a fresh random name, O_EXCL), filled and
 * renamed over it. */
static void keep_log(struct egress_run *e)
{
	if (e->keep_dir < 0)
		return;
	char tmp[NAME_MAX + 1];
	int fd = -1;
	for (int i = 0; fd < 0 && i < 16; i++) {
		unsigned long r = 0;
		if (getentropy(&r, sizeof r) < 0)
			r = (unsigned long)getpid() * 2654435761u + (unsigned long)i;
		snprintf(tmp, sizeof tmp, ".%.*s.%08lx.kjail", NAME_MAX - 20, e->keep_name,
			 r & 0xffffffffUL);
		fd = openat(e->keep_dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	int err = 0;
	if (fd < 0)
		err = errno;
	else if ((errno = 0, !copy_log(e->log_r, fd)) || fsync(fd) < 0)
		err = errno ? errno : EIO;
	if (fd >= 0 && close(fd) < 0 && !err)
		err = errno;
	if (fd >= 0 && !err && renameat(e->keep_dir, tmp, e->keep_dir, e->keep_name) < 0)
		err = errno;
	if (fd >= 0 && err)
		unlinkat(e->keep_dir, tmp, 0);
	if (err)
		e->keep_err = xasprintf("cannot keep the proxy's log at %s: %s", e->keep_path,
					strerror(err));
}

void egress_open(struct egress_run *e, const struct plan *pl, bool dry_run)
{
	*e = (struct egress_run){ .ctl = { -1, -1 }, .log_w = -1, .log_r = -1, .pid = -1,
				  .stop = -1, .cut = pl->net == NET_NONE,
				  .origin = pl->net_origin, .keep_dir = -1 };
	if (!pl->proxied)
		return;
	if (pl->net_log && !dry_run)
		open_keep(e, pl->net_log);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, e->ctl) < 0)
		die_errno("cannot make the proxy's control socket");
	if (!dry_run) {
		make_log(e, pl);
		return;
	}
	e->log_r = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (e->log_r < 0)
		die_errno("/dev/null");
}

void egress_start(struct egress_run *e, const struct plan *pl)
{
	if (!pl->proxied)
		return;
	struct proxy_config c = { .rules = pl->allow, .nrules = pl->nallow, .log_fd = e->log_w,
				  .upstream_tunnel = pl->upstream.tunnel,
				  .upstream_http = pl->upstream.http,
				  .no_proxy = pl->upstream.no_proxy };
	char err[PATH_MAX * 3 + 256];
	_cleanup_free_ char *prog = proxy_helper_find(err, sizeof err);
	if (prog)
		e->pid = proxy_spawn(prog, &c, e->ctl[0], &e->stop);
	if (e->pid < 0) {
		egress_close(e); /* the log's directory goes too */
		if (!prog)
			die("%s", err);
		die("cannot start kjail's proxy (%s); nothing was run",
		    e->cut ? "-n: it refuses every host, naming --allow-host" : "--allow-host");
	}
	/* the proxy holds its own copies now */
	close_fd(&e->ctl[0]);
	close_fd(&e->log_w);
}

/* The log's name and directory go: kjail reads it through log_r, so
 * nothing is left on the host whenever kjail ends from here on. */
static void remove_log(struct egress_run *e)
{
	if (e->path)
		unlink(e->path);
	if (e->dir)
		rmdir(e->dir);
	free(e->path);
	free(e->dir);
	e->path = e->dir = NULL;
}

void egress_stop(struct egress_run *e)
{
	if (e->pid < 0)
		return;
	e->stopped_ill = proxy_stop(e->pid, e->stop) != 0;
	e->pid = -1;
	e->stop = -1;
	e->ran = true;
	keep_log(e);
	remove_log(e);
}

void egress_report(struct egress_run *e, struct notice *note)
{
	if (!e->ran)
		return;
	const char *what = e->cut ? "kjail's proxy (-n)" : "the proxy for --allow-host";
	if (e->keep_err)
		notice_warn(note, "--net-log: %s", e->keep_err);
	if (e->stopped_ill)
		notice_warn(note, "%s did not end well; the jail's connections ended with it", what);
	char sum[4096];
	long n = proxy_summary(e->log_r, sum, sizeof sum);
	if (n > 0 && e->cut)
		notice_warn(note, "no network (%s): %s", e->origin ? e->origin : "-n", sum);
	else if (n > 0)
		notice_warn(note, "%s", sum);
	else if (n < 0 && !e->stopped_ill)
		notice_warn(note, "%s left no summary of what it refused", what);
}

void egress_close(struct egress_run *e)
{
	close_fd(&e->ctl[0]);
	close_fd(&e->ctl[1]);
	close_fd(&e->log_w);
	close_fd(&e->log_r);
	close_fd(&e->stop);
	close_fd(&e->keep_dir);
	free(e->keep_name);
	free(e->keep_err);
	e->keep_name = e->keep_err = NULL;
	remove_log(e);
}

/* One listening socket on the host's loopback, any port: a stand-in for
 * the jail's, so the whole hand-over is tried. */
static int doctor_listener(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (fd >= 0 && (bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 1) < 0)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

bool egress_doctor(char *msg, size_t len)
{
	int ctl[2], l[2] = { doctor_listener(), doctor_listener() };
	if (l[0] < 0 || l[1] < 0 || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ctl) < 0) {
		fmt_into(msg, len, "cannot make the proxy's sockets: %s", strerror(errno));
		return false;
	}
	struct proxy_config c = { .log_fd = -1 };
	int stop = -1;
	char err[PATH_MAX * 3 + 256];
	_cleanup_free_ char *prog = proxy_helper_find(err, sizeof err);
	if (!prog)
		fprintf(stderr, "kjail: %s\n", err);
	pid_t pid = prog ? proxy_spawn(prog, &c, ctl[0], &stop) : -1;
	close(ctl[0]);
	static const char *const tags[] = { "http", "socks5" };
	char k = 0;
	struct pollfd p = { .fd = ctl[1], .events = POLLIN };
	bool took = pid >= 0 && fdpass_send(ctl[1], l, tags, 2) == 0 &&
		    poll(&p, 1, 5000) == 1 && read(ctl[1], &k, 1) == 1 && k == 'k';
	close(ctl[1]);
	close(l[0]);
	close(l[1]);
	bool ended = pid >= 0 && proxy_stop(pid, stop) == 0;
	if (took && ended)
		fmt_into(msg, len, "the proxy starts, takes its listeners and stops: --allow-host "
				   "works here");
	else
		fmt_into(msg, len, "the proxy %s: --allow-host fails here",
			 pid < 0 ? "cannot start (see the line above)"
			 : !took ? "did not take its listeners"
				 : "did not end well");
	return took && ended;
}
#endif
