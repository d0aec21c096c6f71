/* SPDX-License-Identifier: MIT */
/* The Seatbelt backend (backend.h) and its side effects (seatbelt-run.h):
 * --print of the profile and its sandbox-exec command on every OS, the
 * host probe (homes, the per-user temporary directory) and, on macOS only,
 * the exec of sandbox-exec, with kjail's egress proxy in front for
 * --allow-host. The profile itself is generated, purely, in seatbelt.c. */
#include "config.h"
#include "run/seatbelt-run.h"
#include "build/seatbelt.h"
#include "run/backend.h"
#include "path.h"
#include "proxy/proxy.h"
#include "proxy/summary.h"
#include "proxy/spawn.h"
#include "run/locate.h"
#include "entry/entry.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef KJ_OS_DARWIN
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "fdpass.h"
#endif

/* ---------------------------------------------------------------- print */

/* A JSON string, or NULL (and *ok false) for text that is not UTF-8. */
static json_t *jstr(const char *s, size_t len, bool *ok)
{
	json_t *j = json_stringn(s, len);
	if (!j)
		*ok = false;
	return j;
}

static bool print_json(const struct plan *pl, const char *profile, const struct strv *params,
		       const struct strv *argv, FILE *out)
{
	bool ok = true;
	json_t *a = json_array(), *ps = json_array(), *env = json_array();
	for (size_t i = 0; i < argv->n; i++)
		json_array_append_new(a, jstr(argv->v[i], strlen(argv->v[i]), &ok));
	for (size_t i = 0; i < params->n; i++) {
		const char *p = params->v[i], *eq = strchr(p, '=');
		json_t *o = json_object();
		json_object_set_new(o, "name", jstr(p, (size_t)(eq - p), &ok));
		json_object_set_new(o, "value", jstr(eq + 1, strlen(eq + 1), &ok));
		json_array_append_new(ps, o);
	}
	for (size_t i = 0; i < pl->env_removed.n; i++) {
		const char *name = pl->env_removed.v[i].value;
		json_array_append_new(env, jstr(name, strlen(name), &ok));
	}
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("invocation"));
	json_object_set_new(o, "backend", json_string("seatbelt"));
	json_object_set_new(o, "argv", a);
	json_object_set_new(o, "profile", jstr(profile, strlen(profile), &ok));
	json_object_set_new(o, "params", ps);
	json_object_set_new(o, "env_unset", env);
	char *s = ok ? json_dumps(o, JSON_COMPACT) : NULL;
	bool shown = s != NULL;
	if (shown)
		fprintf(out, "%s\n", s);
	free(s);
	json_decref(o);
	return shown;
}

int seatbelt_print(const struct plan *pl, const struct seatbelt_host *h, char *const *cmd,
		   bool json, FILE *out)
{
	struct strv params = STRV_INIT, argv = STRV_INIT;
	_cleanup_free_ char *profile = seatbelt_profile(pl, h, &params);
	seatbelt_argv(profile, &params, cmd, &argv);
	if (!json) {
		_cleanup_free_ char *line = strv_shell_join(&argv);
		fprintf(out, "%s\n", line);
	} else if (!print_json(pl, profile, &params, &argv, out)) {
		warn_msg("--json: a path is not valid UTF-8 and cannot be shown as JSON; "
			 "use --print without --json");
		strv_free(&params);
		strv_free(&argv);
		return KJ_EXIT_FAIL;
	}
	strv_free(&params);
	strv_free(&argv);
	return fflush(out) == 0 && !ferror(out) ? 0 : KJ_EXIT_FAIL;
}

/* ------------------------------------------------------- host and exec */

void seatbelt_host_probe(struct seatbelt_host *h, const char *home, const char *home_env,
			 bool defaults)
{
	memset(h, 0, sizeof *h);
	h->defaults = defaults;
	size_t n = 0;
	const char *homes[] = { home, home_env };
	for (size_t i = 0; i < ARRAY_SIZE(homes); i++) {
		if (!homes[i] || homes[i][0] != '/')
			continue;
		char *real = path_resolve(homes[i], "/");
		if (real && (n == 0 || strcmp(real, h->homes[0]) != 0))
			h->homes[n++] = real;
		else
			free(real);
	}
#ifdef KJ_OS_DARWIN
	/* The directory $TMPDIR normally names, asked of the system: $TMPDIR
	 * itself is the caller's to set and must not make a path writable. */
	char tmp[PATH_MAX];
	size_t len = confstr(_CS_DARWIN_USER_TEMP_DIR, tmp, sizeof tmp);
	if (len > 0 && len <= sizeof tmp && tmp[0] == '/')
		h->user_tmp = path_resolve(tmp, "/");
#endif
}

void seatbelt_host_free(struct seatbelt_host *h)
{
	free(h->user_tmp);
	for (size_t i = 0; i < ARRAY_SIZE(h->homes); i++)
		free(h->homes[i]);
	memset(h, 0, sizeof *h);
}

/* sandbox-exec is there to run (macOS); if not, false and one line. */
static bool available(char *why, size_t len)
{
#ifdef KJ_OS_DARWIN
	struct stat st;
	if (stat(SEATBELT_EXEC, &st) == 0 && S_ISREG(st.st_mode) && access(SEATBELT_EXEC, X_OK) == 0)
		return true;
	fmt_into(why, len, "%s is missing or not executable; the seatbelt backend needs it "
			   "(it ships with macOS)", SEATBELT_EXEC);
#else
	fmt_into(why, len, "--backend seatbelt needs macOS (%s); on Linux use --backend bwrap, "
			   "or add --print to see the profile", SEATBELT_EXEC);
#endif
	return false;
}

#ifdef KJ_OS_DARWIN
/* --allow-host on macOS: no network namespace, so the proxy's listeners
 * are kjail's own, on the host's loopback at the ports the profile allows
 * and the proxy variables name; the proxy serves them for sandbox-exec's
 * lifetime (kjail waits for it instead of becoming it), then the summary.
 * A second jail at once finds the ports taken and fails closed (125). */
static int host_listener(unsigned short port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	int one = 1;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
	    bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, SOMAXCONN) < 0)
		die_errno("--allow-host: cannot listen on 127.0.0.1:%u for kjail's proxy", port);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
}

static KJ_NORETURN void run_with_proxy(const struct plan *pl, struct strv *argv)
{
	int ctl[2], l[2] = { host_listener(PROXY_HTTP_PORT), host_listener(PROXY_SOCKS_PORT) };
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, ctl) < 0)
		die_errno("cannot make the proxy's control socket");
	fcntl(ctl[0], F_SETFD, FD_CLOEXEC);
	fcntl(ctl[1], F_SETFD, FD_CLOEXEC);
	char dir[] = PROXY_LOG_DIR_TEMPLATE;
	if (!mkdtemp(dir))
		die_errno("cannot make a directory for the proxy's log");
	char log_path[sizeof dir + 16];
	snprintf(log_path, sizeof log_path, "%s/net.log", dir);
	int log_w = open(log_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
	int log_r = open(log_path, O_RDONLY | O_CLOEXEC);
	if (log_w < 0 || log_r < 0)
		die_errno("cannot create the proxy's log %s", log_path);
	struct proxy_config c = { .rules = pl->allow, .nrules = pl->nallow, .log_fd = log_w,
				  .upstream_tunnel = pl->upstream.tunnel,
				  .upstream_http = pl->upstream.http,
				  .no_proxy = pl->upstream.no_proxy };
	int stop = -1;
	char err[PATH_MAX * 3 + 256];
	_cleanup_free_ char *prog = proxy_helper_find(err, sizeof err);
	if (!prog)
		die("%s", err);
	pid_t proxy = proxy_spawn(prog, &c, ctl[0], &stop);
	if (proxy < 0)
		die("cannot start the proxy for --allow-host; nothing was run");
	close(ctl[0]);
	close(log_w);
	static const char *const tags[] = { "http", "socks5" };
	char k = 0;
	if (fdpass_send(ctl[1], l, tags, 2) < 0 || read(ctl[1], &k, 1) != 1 || k != 'k')
		die("--allow-host: kjail's proxy did not take its listeners; nothing was run");
	close(ctl[1]);
	close(l[0]);
	close(l[1]);
	pid_t pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (pid == 0) {
		execve(SEATBELT_EXEC, strv_argv(argv), strv_argv((struct strv *)&pl->env));
		die_errno("cannot execute %s", SEATBELT_EXEC);
	}
	struct sigaction ign = { .sa_handler = SIG_IGN }, int_was, quit_was;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &int_was);
	sigaction(SIGQUIT, &ign, &quit_was);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (proxy_stop(proxy, stop) != 0)
		warn_msg("the proxy for --allow-host did not end well");
	unlink(log_path);
	rmdir(dir);
	/* kjail's Ctrl-C back for the report, read from the summary line
	 * alone (Seatbelt leaves nothing to move aside) */
	sigaction(SIGINT, &int_was, NULL);
	sigaction(SIGQUIT, &quit_was, NULL);
	char sum[4096];
	if (proxy_summary(log_r, sum, sizeof sum) > 0)
		warn_msg("%s", sum);
	exit(WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : KJ_EXIT_FAIL);
}

void seatbelt_run(const struct plan *pl, const struct seatbelt_host *h, char *const *cmd)
{
	char why[PATH_MAX + 128];
	if (!available(why, sizeof why))
		die("%s", why);
	struct strv argv = STRV_INIT;
	seatbelt_build(pl, h, cmd, &argv);
	if (chdir(pl->workspace) < 0)
		die_errno("cannot enter the workspace %s", pl->workspace);
	if (pl->net == NET_ALLOWLIST)
		run_with_proxy(pl, &argv);
	/* The scrubbed environment: removed variables never reach even
	 * sandbox-exec. The command's exit status becomes kjail's. */
	execve(SEATBELT_EXEC, strv_argv(&argv), strv_argv((struct strv *)&pl->env));
	die_errno("cannot execute %s", SEATBELT_EXEC);
}
#else
void seatbelt_run(const struct plan *pl, const struct seatbelt_host *h, char *const *cmd)
{
	(void)pl;
	(void)h;
	(void)cmd;
	char why[PATH_MAX + 128];
	available(why, sizeof why);
	die("%s", why);
}
#endif

/* ------------------------------------------------------------- backend */

static void describe(char *buf, size_t len)
{
#ifdef KJ_OS_DARWIN
	fmt_into(buf, len, "seatbelt (%s)", SEATBELT_EXEC);
#else
	fmt_into(buf, len, "seatbelt (--print only)");
#endif
}

static void probe(struct seatbelt_host *sh, const struct launch *l)
{
	seatbelt_host_probe(sh, l->host->home, l->host->home_env, l->policy->defaults.value);
}

static int print(const struct launch *l)
{
	struct seatbelt_host sh;
	probe(&sh, l);
	int rc = seatbelt_print(l->plan, &sh, l->cmd, l->json, stdout);
	seatbelt_host_free(&sh);
	return rc;
}

static int run(const struct launch *l)
{
	struct seatbelt_host sh;
	probe(&sh, l);
	seatbelt_run(l->plan, &sh, l->cmd);
}

const struct backend_ops backend_seatbelt = {
	.id = BACKEND_SEATBELT,
	.name = "seatbelt",
#ifdef KJ_OS_DARWIN
	.runs_here = true,
#else
	.runs_here = false,
#endif
	.describe = describe,
	.available = available,
	.print = print,
	.run = run,
};
