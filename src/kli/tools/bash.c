/* SPDX-License-Identifier: MIT */
/* bash and its background jobs. A command runs with the environment
 * main.c built (the [bash] env-allowlist, never the API key), in the
 * workspace, in its own process group so a timeout stops all of it. */
#include "config.h"
#include "hint/hint.h"
#include "path.h"
#include "strbuf.h"
#include "authority/argv.h"
#include "tools/text.h"
#include "tools/bash.h"
#include "tools/call.h"
#include "tools/result.h"
#include "model/chat.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What a foreground command may print before the rest is counted, not kept. */
#define CAPTURE_MAX (1024u * 1024)

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* git's settings that run programs named in files the agent may edit
 * (.git/config, hooks): with a command constraint, the allowed command is
 * run with these fixed from the environment, which git reads after every
 * config file. A limit, not a proof: see doc/capabilities.md. */
static const char *const git_lockdown[][2] = {
	{ "core.fsmonitor", "false" },   { "core.hooksPath", "/dev/null" },
	{ "core.pager", "cat" },         { "core.editor", "false" },
	{ "core.sshCommand", "false" },  { "core.askPass", "false" },
	{ "sequence.editor", "false" },  { "diff.external", "" },
	{ "credential.helper", "" },     { "protocol.ext.allow", "never" },
	{ "gpg.program", "false" },      { "uploadpack.packObjectsHook", "" },
};

/* BASE plus the lockdown, for execve (leaked: the child execs or exits). */
static char *const *locked_env(char *const *base)
{
	size_t n = 0;
	while (base && base[n])
		n++;
	size_t k = ARRAY_SIZE(git_lockdown);
	char **e = xcalloc(n + 2 * k + 8, sizeof *e), **o = e;
	for (size_t i = 0; i < n; i++)
		if (strncmp(base[i], "GIT_", 4) != 0)
			*o++ = base[i];
	*o++ = xstrdup("GIT_CONFIG_NOSYSTEM=1");
	*o++ = xstrdup("GIT_CONFIG_GLOBAL=/dev/null");
	*o++ = xstrdup("GIT_PAGER=cat");
	*o++ = xasprintf("GIT_CONFIG_COUNT=%zu", k);
	for (size_t i = 0; i < k; i++) {
		*o++ = xasprintf("GIT_CONFIG_KEY_%zu=%s", i, git_lockdown[i][0]);
		*o++ = xasprintf("GIT_CONFIG_VALUE_%zu=%s", i, git_lockdown[i][1]);
	}
	*o = NULL;
	return e;
}

/* In the forked child: become the command. Never returns. */
KJ_NORETURN static void exec_command(const char *command, const struct tool_env *env,
				     bool lockdown, bool argv_exec, int out_fd)
{
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
		_exit(126);
	/* Dispositions kli set for itself must not leak into the command. */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (chdir(env->workspace) < 0) {
		dprintf(2, "kli: cannot enter the workspace %s: %s\n", env->workspace,
			strerror(errno));
		_exit(126);
	}
	if (argv_exec) {
		/* the words mediate() checked, and nothing a shell would add */
		size_t n;
		char **words = argv_words(command, &n);
		if (!words) {
			dprintf(2, "kli: the command is not a simple command\n");
			_exit(126);
		}
		/* execvpe looks the program up in the PATH the command gets */
		environ = (char **)(lockdown ? locked_env(env->bash_env) : env->bash_env);
		execvpe(words[0], words, environ);
		dprintf(2, "kli: cannot run %s: %s\n", words[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	const char *name = strrchr(env->shell, '/');
	char *const argv[] = { (char *)(name ? name + 1 : env->shell), (char *)"-c",
			       (char *)command, NULL };
	execve(env->shell, argv, lockdown ? locked_env(env->bash_env) : env->bash_env);
	dprintf(2, "kli: cannot run %s: %s\n", env->shell, strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/* A command's output: what fits under CAPTURE_MAX, and how much did not. */
struct capture {
	struct strbuf text;
	size_t dropped;
};

#define CAPTURE_INIT { .text = STRBUF_INIT_MAX(CAPTURE_MAX) }

static void capture_add(struct capture *c, const char *p, size_t n)
{
	size_t keep = n < sb_room(&c->text) ? n : sb_room(&c->text);
	sb_add(&c->text, p, keep);
	c->dropped += n - keep;
}

/* Read FD into C while PID runs; false when the deadline came first. Once
 * the shell has exited, whatever it left running in its group is stopped:
 * a foreground command does not leave stragglers holding the pipe. */
static bool collect(int fd, pid_t pid, long deadline, struct capture *c, int *status)
{
	char buf[65536];
	bool exited = false;
	for (;;) {
		if (!exited && waitpid(pid, status, WNOHANG) == pid)
			exited = true;
		long left = deadline - now_ms();
		if (left <= 0 && !exited)
			return false;
		struct pollfd p = { fd, POLLIN, 0 };
		int r = poll(&p, 1, exited ? 0 : (left < 100 ? (int)left : 100));
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0) {
			if (exited)
				return true;
			continue;
		}
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!exited) {
				/* EOF before exit: wait for the exit, within the deadline. */
				while (waitpid(pid, status, WNOHANG) == 0 && now_ms() < deadline)
					poll(NULL, 0, 20);
				return now_ms() < deadline || waitpid(pid, status, WNOHANG) == pid;
			}
			return true;
		}
		capture_add(c, buf, (size_t)n);
	}
}

static char *status_line(int status)
{
	if (WIFEXITED(status))
		return xasprintf("[exit status %d]", WEXITSTATUS(status));
	const char *abbrev = sigabbrev_np(WTERMSIG(status));
	return abbrev ? xasprintf("[killed by SIG%s]", abbrev)
		      : xasprintf("[killed by signal %d]", WTERMSIG(status));
}

static char *render(struct capture *c, const char *tail)
{
	char dropped[96] = "";
	if (c->dropped)
		fmt_into(dropped, sizeof dropped, "[%zu more bytes of output were discarded]\n",
			 c->dropped);
	bool nl = c->text.len == 0 || c->text.s[c->text.len - 1] == '\n';
	char *s = xasprintf("%s%s%s%s", c->text.s, nl ? "" : "\n", dropped, tail);
	utf8_scrub(s, strlen(s));
	return s;
}

#define SHOW_TAIL_LINES 10

/* For the person watching: "→ exit 0, 2.1 s, 48 lines", and on failure the
 * output's last SHOW_TAIL_LINES lines. */
static char *bash_show(const struct capture *c, int status, long ms, bool timed_out)
{
	const char *s = c->text.s;
	size_t len = c->text.len, lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += s[i] == '\n';
	if (len && s[len - 1] != '\n')
		lines++;
	char what[64];
	if (timed_out)
		fmt_into(what, sizeof what, "timed out");
	else if (WIFEXITED(status))
		fmt_into(what, sizeof what, "exit %d", WEXITSTATUS(status));
	else
		fmt_into(what, sizeof what, "killed by signal %d", WTERMSIG(status));
	bool failed = timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	size_t from = len;
	if (failed) {
		/* back over SHOW_TAIL_LINES line ends (a last line without one counts) */
		size_t seen = 0, i = len;
		if (i && s[i - 1] == '\n')
			i--;
		while (i > 0 && seen < SHOW_TAIL_LINES) {
			if (s[i - 1] == '\n' && ++seen == SHOW_TAIL_LINES)
				break;
			i--;
		}
		from = i;
	}
	bool nl = from == len || s[len - 1] == '\n';
	return xasprintf("\u2192 %s, %ld.%ld s, %zu line%s%s\n%.*s%s", what, ms / 1000,
			 ms % 1000 / 100, lines, lines == 1 ? "" : "s", c->dropped ? " (more dropped)" : "",
			 (int)(len - from), s + from, nl ? "" : "\n");
}

/* ---------------------------------------------------------------- hints */

static char *hint_resolve(const char *path)
{
	return path_resolve(path, "/");
}

static bool hint_is_dir(const char *dir)
{
	struct stat st;
	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* What access(2) says of writing PATH, or its nearest existing parent. */
static int hint_write_errno(const char *path)
{
	_cleanup_free_ char *p = xstrdup(path);
	struct stat st;
	while (stat(p, &st) < 0 && strcmp(p, "/") != 0) {
		char *up = path_dirname(p);
		free(p);
		p = up;
	}
	return access(p, W_OK) == 0 ? 0 : errno;
}

/* The proxy's log (kjail's, read-only in the jail), at most 1 MiB. */
static char *hint_read_log(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	size_t cap = 1u << 20;
	char *buf = xmalloc(cap + 1);
	*len = 0;
	ssize_t r;
	while (*len < cap && (r = read(fd, buf + *len, cap - *len)) > 0)
		*len += (size_t)r;
	close(fd);
	buf[*len] = '\0';
	return buf;
}

/* The HOME a command sees: its environment's, else kli's. */
static const char *command_home(const struct tool_env *env)
{
	for (char *const *e = env->bash_env; e && *e; e++)
		if (strncmp(*e, "HOME=", 5) == 0)
			return *e + 5;
	return getenv("HOME");
}

/* TEXT (a command's result) with the sandbox hint for its output at the
 * end, after a blank line, when kli runs in a jail and the output looks
 * like the jail refused something (hint.h). The agent takes it apart again
 * with hint_split(). STATUS: a wait status, or -1 for a job still running. */
static char *with_hint(char *text, const char *command, const struct tool_env *env,
		       int status, const char *output)
{
	if (!env->policy || !command)
		return text;
	const struct hint_env he = {
		.cwd = env->workspace,
		.home = command_home(env),
		.resolve = hint_resolve,
		.is_dir = hint_is_dir,
		.write_errno = hint_write_errno,
		.read_log = hint_read_log,
	};
	int code = status < 0 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status)
							: 128 + WTERMSIG(status);
	_cleanup_free_ char *hint = hint_for(env->policy, &he, command, code,
					     output ? output : "");
	if (!hint)
		return text;
	char *t = xasprintf("%s\n\n%s", text, hint);
	free(text);
	return t;
}

static void start_job(const struct tool_call *c, const struct tool_env *env,
		      struct barrier_out *out);

void tool_bash(const struct tool_call *c, const struct tool_env *env, struct barrier_out *out)
{
	if (c->background) {
		start_job(c, env, out);
		return;
	}
	long timeout = c->timeout && c->timeout < env->bash_timeout ? c->timeout
								    : env->bash_timeout;
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		tool_fail(out, "cannot make a pipe: %s", strerror(errno));
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		exec_command(c->command, env, c->lockdown, c->argv_exec, fds[1]);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		tool_fail(out, "cannot start the command: %s", strerror(errno));
		return;
	}
	setpgid(pid, pid);
	struct capture cap = CAPTURE_INIT;
	int status = 0;
	long started = now_ms();
	bool in_time = collect(fds[0], pid, started + timeout * 1000, &cap, &status);
	close(fds[0]);
	kill(-pid, SIGKILL);
	if (!in_time) {
		waitpid(pid, &status, 0);
		_cleanup_free_ char *tail = xasprintf("[stopped: the command did not finish "
						      "within %ld s]", timeout);
		_cleanup_free_ char *text = render(&cap, tail);
		tool_fail(out, "the command did not finish within %ld s and was killed; its "
			       "output so far:\n%s", timeout, text);
		out->fault = true;
		out->show = bash_show(&cap, status, now_ms() - started, true);
	} else {
		_cleanup_free_ char *tail = status_line(status);
		out->show = bash_show(&cap, status, now_ms() - started, false);
		tool_ok(out, with_hint(render(&cap, tail), c->command, env, status, cap.text.s));
	}
	sb_release(&cap.text);
}

/* ----------------------------------------------------------------- jobs */

static void start_job(const struct tool_call *c, const struct tool_env *env,
		      struct barrier_out *out)
{
	if (!env->jobs->dir) {
		tool_fail(out, "background jobs are not available (no directory for their output)");
		return;
	}
	_cleanup_free_ char *path = xasprintf("%s/job-%ld.out", env->jobs->dir,
					      env->jobs->next_id);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		tool_fail(out, "cannot make the job's output file: %s", strerror(errno));
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		/* Its own session: it outlives this child (kli, a subreaper,
		 * inherits it) and one kill stops all of it. */
		setsid();
		exec_command(c->command, env, c->lockdown, c->argv_exec, fd);
	}
	close(fd);
	if (pid < 0) {
		tool_fail(out, "cannot start the job: %s", strerror(errno));
		return;
	}
	out->aux = pid;
	tool_ok(out, xasprintf("started job %ld; read its output with bash-output",
			       env->jobs->next_id));
}

static const struct job *find_job(const struct tool_env *env, long id, struct barrier_out *out)
{
	for (size_t i = 0; i < env->jobs->n; i++)
		if (env->jobs->v[i].id == id)
			return &env->jobs->v[i];
	tool_fail(out, "there is no job %ld (bash-jobs lists them)", id);
	return NULL;
}

static char *job_state(const struct job *j)
{
	if (!j->done)
		return xasprintf("[job %ld is running]", j->id);
	_cleanup_free_ char *s = status_line(j->status);
	return xasprintf("[job %ld has finished: %.*s]", j->id, (int)strlen(s) - 2, s + 1);
}

void tool_bash_output(const struct tool_call *c, const struct tool_env *env,
		      struct barrier_out *out)
{
	const struct job *j = find_job(env, c->job, out);
	if (!j)
		return;
	_cleanup_close_ int fd = open(j->out_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || lseek(fd, j->read_off, SEEK_SET) < 0) {
		tool_fail(out, "cannot read the output of job %ld: %s", j->id, strerror(errno));
		return;
	}
	struct capture cap = CAPTURE_INIT;
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		capture_add(&cap, buf, (size_t)n);
	out->aux = (long)(j->read_off + (off_t)(cap.text.len + cap.dropped));
	_cleanup_free_ char *tail = job_state(j);
	/* A running job shown again with nothing new: its hint was given. */
	char *text = render(&cap, tail);
	if (cap.text.len || j->done)
		text = with_hint(text, j->command, env, j->done ? j->status : -1, cap.text.s);
	tool_ok(out, text);
	sb_release(&cap.text);
}

void tool_bash_kill(const struct tool_call *c, const struct tool_env *env,
		    struct barrier_out *out)
{
	const struct job *j = find_job(env, c->job, out);
	if (!j)
		return;
	if (j->done) {
		tool_ok(out, job_state(j));
		return;
	}
	/* Unreaped, the group's id cannot be reused: the second kill is safe. */
	kill(-j->pid, SIGTERM);
	poll(NULL, 0, 200);
	kill(-j->pid, SIGKILL);
	tool_ok(out, xasprintf("job %ld stopped", j->id));
}

void tool_bash_jobs(const struct tool_call *c, const struct tool_env *env,
		    struct barrier_out *out)
{
	(void)c;
	if (env->jobs->n == 0) {
		tool_ok(out, xstrdup("no jobs"));
		return;
	}
	struct capture cap = CAPTURE_INIT;
	for (size_t i = 0; i < env->jobs->n; i++) {
		const struct job *j = &env->jobs->v[i];
		_cleanup_free_ char *state = job_state(j);
		_cleanup_free_ char *line = xasprintf("%s %.200s\n", state, j->command);
		capture_add(&cap, line, strlen(line));
	}
	tool_ok(out, render(&cap, ""));
	sb_release(&cap.text);
}

/* ----------------------------------------------------------- result-read */

void tool_result_read(const struct tool_call *c, const struct tool_env *env,
		      struct barrier_out *out)
{
	char *end;
	long idx = c->result[0] == 'r' ? strtol(c->result + 1, &end, 10) : 0;
	if (c->result[0] != 'r' || *end || idx < 1 || (size_t)idx > env->results->n) {
		tool_fail(out, "there is no result \"%.40s\"", c->result);
		return;
	}
	if (env->results->owner[idx - 1] != env->owner) {
		tool_fail(out, "result \"%.40s\" was stored by another agent or under another "
			  "grant; this one cannot read it", c->result);
		return;
	}
	char err[200];
	char *page = result_page(env->results->v[idx - 1], c->result, (size_t)c->first,
				 c->count ? (size_t)c->count : 16384, err, sizeof err);
	if (!page) {
		tool_fail(out, "%s", err);
		return;
	}
	tool_ok(out, page);
}
