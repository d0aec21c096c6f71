/* SPDX-License-Identifier: MIT */
/* kjail --doctor: a line per check (ok, warn, FAIL), what works, what does
 * not, the fix; trial runs of kjail itself. */
#include "config.h"
#include "run/doctor.h"
#include "build/landlock-degraded.h"
#include "build/seccomp.h"
#include "entry/abi.h"
#include "entry/landlock.h"
#include "run/bwrap-probe.h"
#include "run/egress.h"
#include "run/ll-domain.h"
#include "run/probe.h"
#include "util.h"

#include <stdio.h>
#ifdef KJ_OS_LINUX
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

struct report {
	int problems;
	bool landlock_ran; /* its trial ran /bin/true */
};

KJ_PRINTF(3, 4) static void line(struct report *r, const char *status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("%-5s ", status);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	if (strcmp(status, "FAIL") == 0)
		r->problems++;
}

/* The real thing: kjail itself runs /bin/true (with backend, an option
 * naming one, or NULL), its one line kept. */
static bool trial(struct report *r, const char *self, const char *backend, const char *what,
		  const char *failed)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		line(r, failed, "%s: pipe: %s", what, strerror(errno));
		return false;
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], STDERR_FILENO);
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		/* /tmp as the workspace: the trial must not depend on the cwd ("/" is refused). */
		if (backend)
			execl(self, "kjail", backend, "-C", "/tmp", "--", "/bin/true", (char *)NULL);
		else
			execl(self, "kjail", "-C", "/tmp", "--", "/bin/true", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	char msg[1024];
	read_text(p[0], msg, sizeof msg);
	close(p[0]);
	int st = 0;
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	char cmd[128];
	fmt_into(cmd, sizeof cmd, "kjail%s%s -C /tmp -- /bin/true", backend ? " " : "",
		 backend ? backend : "");
	msg[strcspn(msg, "\n")] = '\0';
	bool ran = pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	if (ran)
		line(r, "ok", "%s: '%s' ran", what, cmd);
	else
		line(r, failed, "%s: %s", what, msg[0] ? msg : cmd);
	return ran;
}

/* The landlock backend (run/landlock-run.c), for where bwrap cannot run:
 * whether it would, what it loses (its one line, build/landlock-degraded.h),
 * and, where user namespaces are refused, a trial of it. Its lines are
 * advice: the status stays bwrap's. */
static void landlock_lines(struct report *r, const char *self, bool userns_refused)
{
	int abi = landlock_abi();
	if (abi < LL_BACKEND_MIN_ABI) {
		line(r, userns_refused ? "FAIL" : "warn",
		     "landlock backend: not available as a fallback: it needs Landlock ABI %d (Linux "
		     "6.2), this kernel has %s",
		     LL_BACKEND_MIN_ABI, abi < 0 ? "none" : "an older one");
		return;
	}
	_cleanup_free_ char *loses = ll_degraded_line(abi);
	if (!userns_refused) {
		line(r, "ok", "landlock backend: available as a fallback (fallback = landlock), "
			      "Landlock ABI %d; not needed here", abi);
		return;
	}
	/* its run's line, less the name this line already gives */
	const char *what = loses;
	if (strncmp(what, "landlock backend: ", 18) == 0)
		what += 18;
	line(r, "warn", "landlock backend: --backend=landlock (or fallback = landlock in kjail.ini) "
			"would run here, Landlock ABI %d; it loses against bwrap: %s",
	     abi, what);
	r->landlock_ran = trial(r, self, "--backend=landlock", "landlock trial", "warn");
}

/* bwrap's --disable-userns where user namespaces work (run/bwrap-probe.h) */
static void disable_userns_line(struct report *r, const char *bwrap)
{
	struct bwrap_probe bp;
	bwrap_probe(bwrap, true, &bp);
	if (bp.state == BWRAP_PROBE_WORKS)
		line(r, "ok", "bwrap --disable-userns: works here%s", bp.cached ? " (cached probe)" : "");
	else if (bp.state == BWRAP_PROBE_NO_DISABLE)
		line(r, "warn", "bwrap --disable-userns: cannot here (%s): user namespaces are "
				"refused by seccomp alone", bp.why);
	else
		line(r, "warn", "bwrap: does not run here: %s", bp.why);
}

int doctor(const char *self, const char *bwrap)
{
	struct report r = { 0 };
	char buf[512];
	if (!bwrap) {
		line(&r, "FAIL", "bubblewrap: not found; fix: 'apt-get install bubblewrap' (Debian, "
				 "Ubuntu) or 'dnf install bubblewrap'");
	} else {
		probe_bwrap_version(bwrap, buf, sizeof buf);
		line(&r, "ok", "bubblewrap: %s (%s)", bwrap, buf[0] ? buf : "version unknown");
	}
	bool userns_refused = probe_userns(buf, sizeof buf);
	if (userns_refused)
		line(&r, "FAIL", "user namespaces: %s", buf);
	else
		line(&r, "ok", "user namespaces: this user can create them");
	if (bwrap && !userns_refused)
		disable_userns_line(&r, bwrap);
	long aa = probe_sysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
	if (aa == 1)
		line(&r, getuid() == 0 ? "warn" : "FAIL",
		     "AppArmor: unprivileged user namespaces are restricted; fix: the AppArmor "
		     "profile in kjail's contrib/apparmor");
	else
		line(&r, "ok", "AppArmor: no restriction on user namespaces");
	long sc = probe_sysctl("/proc/sys/kernel/seccomp/actions_avail");
	bool kernel_seccomp = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 || sc >= 0;
	if (!seccomp_built_in())
		line(&r, "FAIL", "seccomp: this kjail was built without libseccomp; fix: rebuild "
				 "with libseccomp-dev installed");
	else if (!kernel_seccomp)
		line(&r, "FAIL", "seccomp: the kernel has no seccomp filtering; fix: a kernel "
				 "built with CONFIG_SECCOMP_FILTER");
	else
		line(&r, "ok", "seccomp: filter built in, kernel supports it");
	int abi = landlock_abi();
	line(&r, abi >= LANDLOCK_SCOPES_ABI ? "ok" : "warn", "landlock: %s", landlock_status(false));
	if (probe_proc_masked(buf, sizeof buf))
		line(&r, "warn", "/proc: %s is mounted over (a container?): a fresh /proc may be "
				 "refused; fix: --nested-userns",
		     buf);
	else
		line(&r, "ok", "/proc: not masked");
	if (egress_doctor(buf, sizeof buf))
		line(&r, "ok", "allow-host: %s", buf);
	else
		line(&r, "warn", "allow-host: %s", buf);
	if (bwrap)
		trial(&r, self, NULL, "trial jail", "FAIL");
	landlock_lines(&r, self, userns_refused);
	if (!r.problems)
		printf("kjail can confine commands here\n");
	else if (r.landlock_ran)
		printf("kjail cannot confine commands here with bwrap: see the FAIL lines; "
		       "--backend=landlock can, losing what its line says\n");
	else
		printf("kjail cannot confine commands here: see the FAIL lines\n");
	finish_stdout();
	return r.problems ? 1 : 0;
}
#else
int doctor(const char *self, const char *bwrap)
{
	(void)self;
	(void)bwrap;
	printf("kjail --doctor checks a Linux host; on macOS kjail uses /usr/bin/sandbox-exec\n");
	return 1;
}
#endif
