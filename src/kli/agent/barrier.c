/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "agent/barrier.h"
#include "agent/cancel.h"
#include "path.h"
#include "strbuf.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The frame on the pipe: ok, fault, aux, the lengths, then the text and
 * the show text. */
struct frame {
	uint8_t ok, fault;
	int64_t aux;
	uint64_t len, showlen;
};

KJ_NORETURN static void child(barrier_fn fn, void *arg, int wfd)
{
	/* The child must not outlive the agent, and its own group is what a
	 * deadline kills. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	setpgid(0, 0);
	/* A crash must end the child, not run a handler the parent installed
	 * (a sanitizer's, a test harness's) that would carry on in its place. */
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGSEGV, SIGBUS, SIGILL,
				    SIGFPE, SIGABRT };
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], SIG_DFL);
	struct barrier_out out = { 0 };
	fn(arg, &out);
	size_t len = out.text ? strlen(out.text) : 0;
	if (len > BARRIER_MAX_TEXT) {
		/* The rest is lost: whoever reads the answer (the model paging a
		 * long file) must not take the cut for its end. */
		static const char cut[] = "\n[cut: the answer was larger than 8 MiB]\n";
		len = BARRIER_MAX_TEXT;
		memcpy(out.text + len - (sizeof cut - 1), cut, sizeof cut - 1);
	}
	size_t showlen = out.show ? strlen(out.show) : 0;
	if (showlen > BARRIER_MAX_SHOW)
		showlen = 0;
	struct frame f = { out.ok, out.fault, out.aux, len, showlen };
	bool ok = fd_write_all(wfd, &f, sizeof f) && fd_write_all(wfd, out.text ? out.text : "", len) &&
		  fd_write_all(wfd, out.show ? out.show : "", showlen);
	/* _exit: the parent's stdio buffers must not be flushed a second time. */
	_exit(ok ? 0 : 1);
}

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

enum read_end { READ_EOF, READ_DEADLINE, READ_CANCELLED };

/* Read until EOF, the deadline, or Ctrl-C in an interactive session
 * (cancel.h). */
static enum read_end read_until(int fd, long deadline, struct strbuf *data)
{
	for (;;) {
		if (cancel_requested())
			return READ_CANCELLED;
		long left = deadline - now_ms();
		if (left <= 0)
			return READ_DEADLINE;
		struct pollfd p[2] = { { fd, POLLIN, 0 }, { cancel_fd(), POLLIN, 0 } };
		int r = poll(p, p[1].fd >= 0 ? 2 : 1, left > INT32_MAX ? INT32_MAX : (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return READ_EOF;
		if (r == 0)
			return READ_DEADLINE;
		if (!p[0].revents)
			continue; /* the self-pipe: cancel_requested() says */
		sb_grow(data, 65536);
		ssize_t n = read(fd, data->s + data->len, sb_avail(data));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return READ_EOF;
		sb_setlen(data, data->len + (size_t)n);
		if (data->len > BARRIER_MAX_TEXT + BARRIER_MAX_SHOW + sizeof(struct frame))
			return READ_EOF; /* more than any honest child sends */
	}
}

/* SIG to the process group of each child of PID (a tool's command leads
 * one of its own), and to PID's own group. */
static void signal_groups(pid_t pid, int sig)
{
	char path[64];
	fmt_into(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
	int kids[256];
	int n = proc_children_read(path, kids, 256);
	for (int i = 0; i < n; i++)
		if (kids[i] > 1) {
			kill(-(pid_t)kids[i], sig);
			kill((pid_t)kids[i], sig);
		}
	if (sig == SIGKILL)
		kill(-pid, SIGKILL), kill(pid, SIGKILL);
}

/* Ctrl-C: the command the child runs gets SIGTERM and a short grace to
 * end (the child then reports, and exits), then whatever is left of it,
 * and the child, SIGKILL. */
#define CANCEL_GRACE_MS 300
static void stop_cancelled(pid_t pid, int fd)
{
	signal_groups(pid, SIGTERM);
	long end = now_ms() + CANCEL_GRACE_MS;
	char buf[4096];
	for (long left; (left = end - now_ms()) > 0;) {
		struct pollfd p = { fd, POLLIN, 0 };
		if (poll(&p, 1, (int)left) > 0 && read(fd, buf, sizeof buf) == 0)
			break; /* the child is gone */
	}
	signal_groups(pid, SIGKILL);
}

static void decode(const char *data, size_t len, int status, struct barrier_result *res)
{
	struct frame f;
	if (WIFSIGNALED(status)) {
		res->outcome = BARRIER_CRASHED;
		res->signal = WTERMSIG(status);
		return;
	}
	if (len < sizeof f) {
		res->outcome = BARRIER_LOST;
		res->status = status;
		return;
	}
	memcpy(&f, data, sizeof f);
	if (f.len > BARRIER_MAX_TEXT || f.showlen > BARRIER_MAX_SHOW ||
	    f.len + f.showlen != len - sizeof f) {
		res->outcome = BARRIER_LOST;
		res->status = status;
		return;
	}
	res->outcome = BARRIER_RETURNED;
	res->out.ok = f.ok;
	res->out.fault = f.fault;
	res->out.aux = (long)f.aux;
	res->out.text = xstrndup(data + sizeof f, (size_t)f.len);
	res->out.show = f.showlen ? xstrndup(data + sizeof f + f.len, (size_t)f.showlen) : NULL;
}

void barrier_run(barrier_fn fn, void *arg, long timeout_ms, struct barrier_result *res)
{
	*res = (struct barrier_result){ .outcome = BARRIER_LOST };
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		child(fn, arg, fds[1]);
	}
	close(fds[1]);
	/* Both sides set the group: whichever runs first, the kill below finds it. */
	setpgid(pid, pid);
	struct strbuf data = STRBUF_INIT;
	enum read_end end = read_until(fds[0], now_ms() + timeout_ms, &data);
	if (end == READ_CANCELLED)
		stop_cancelled(pid, fds[0]);
	close(fds[0]);
	if (end == READ_DEADLINE)
		kill(-pid, SIGKILL), kill(pid, SIGKILL);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (end == READ_EOF)
		decode(data.s, data.len, status, res);
	else
		res->outcome = end == READ_CANCELLED ? BARRIER_CANCELLED : BARRIER_TIMED_OUT;
	sb_release(&data);
}

void barrier_result_clear(struct barrier_result *res)
{
	free(res->out.text);
	free(res->out.show);
	*res = (struct barrier_result){ 0 };
}

char *barrier_describe(const struct barrier_result *res, long timeout_ms)
{
	switch (res->outcome) {
	case BARRIER_CRASHED: {
		const char *abbrev = sigabbrev_np(res->signal);
		return abbrev ? xasprintf("crashed (SIG%s)", abbrev)
			      : xasprintf("crashed (signal %d)", res->signal);
	}
	case BARRIER_TIMED_OUT:
		if (timeout_ms % 1000 == 0)
			return xasprintf("did not finish within %ld s and was stopped",
					 timeout_ms / 1000);
		return xasprintf("did not finish within %ld ms and was stopped", timeout_ms);
	case BARRIER_CANCELLED:
		return xstrdup(CANCEL_TEXT);
	case BARRIER_LOST:
		if (WIFEXITED(res->status))
			return xasprintf("exited with status %d without an answer",
					 WEXITSTATUS(res->status));
		return xstrdup("could not be started");
	default:
		return NULL;
	}
}

/* ------------------------------------------------------------ fault log */

char *faultlog_path(const char *xdg_cache_home, const char *home)
{
	if (xdg_cache_home && xdg_cache_home[0] == '/')
		return path_join(xdg_cache_home, "kli/faults.log");
	if (home && home[0] == '/')
		return path_join(home, ".cache/kli/faults.log");
	return NULL;
}

static char *stamp_line(const char *line)
{
	char when[32] = "";
	time_t t = time(NULL);
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	char *s = xasprintf("%s kli[%ld]: %s\n", when, (long)getpid(), line);
	for (char *p = s; p[1]; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	return s;
}

bool faultlog_append(const char *path, const char *line, long cap)
{
	_cleanup_free_ char *dir = path_dirname(path);
	if (!path_mkdirs(dir))
		return false;
	_cleanup_free_ char *s = stamp_line(line);
	struct stat st;
	if (lstat(path, &st) == 0 && st.st_size + (off_t)strlen(s) > cap) {
		_cleanup_free_ char *old = xasprintf("%s.1", path);
		if (rename(path, old) < 0)
			return false;
	}
	_cleanup_close_ int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
				      0600);
	if (fd < 0)
		return false;
	return fd_write_all(fd, s, strlen(s));
}
