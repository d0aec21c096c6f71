/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "run/probe.h"
#include "run/bwrap-probe.h"
#include "build/bwrap.h"
#include "entry/landlock.h"
#include "planner/plan.h"
#include "build/seccomp.h"
#include "util.h"

#include <stdio.h>
#ifdef KJ_OS_LINUX
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

long probe_sysctl(const char *path)
{
	char buf[32];
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read_text(fd, buf, sizeof buf) == 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/* Can this process make a user namespace at all? Tried in a child. */
static int userns_errno(void)
{
	pid_t pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0)
		_exit(unshare(CLONE_NEWUSER) == 0 ? 0 : (errno & 0xff));
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : EPERM;
}

bool probe_in_kjail_jail(void)
{
	struct stat dir, tmp, file;
	struct statfs fs;
	return lstat(KJ_POLICY_DIR, &dir) == 0 && S_ISDIR(dir.st_mode) &&
	       lstat("/tmp", &tmp) == 0 && dir.st_dev != tmp.st_dev &&
	       statfs(KJ_POLICY_DIR, &fs) == 0 && fs.f_type == TMPFS_MAGIC &&
	       (fs.f_flags & ST_RDONLY) && lstat(KJ_POLICY_FILE, &file) == 0 &&
	       S_ISREG(file.st_mode);
}

bool probe_inside_kjail(char *fix, size_t len)
{
	/* a diagnosis only: the file is trusted for nothing else */
	if (access(KJ_POLICY_FILE, F_OK) != 0)
		return false;
	fmt_into(fix, len,
		 "this process runs inside a kjail jail (%s names it), and kjail nests only in "
		 "a jail started with --allow-userns: a jail inside a jail needs user and mount "
		 "namespaces of its own, which the outer one refuses without it; run the "
		 "command in the outer jail, or start that one with --allow-userns",
		 KJ_POLICY_FILE);
	return true;
}

bool probe_userns(char *fix, size_t len)
{
	if (getuid() != 0 &&
	    probe_sysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == 1)
		fmt_into(fix, len,
			 "AppArmor restricts unprivileged user namespaces "
			 "(kernel.apparmor_restrict_unprivileged_userns=1); fix: install the AppArmor "
			 "profile for bwrap from kjail's contrib/apparmor, or run "
			 "'sysctl kernel.apparmor_restrict_unprivileged_userns=0', or where you "
			 "cannot, --backend=landlock (fallback = landlock in kjail.ini)");
	else if (probe_sysctl("/proc/sys/user/max_user_namespaces") == 0)
		fmt_into(fix, len,
			 "user namespaces are disabled (user.max_user_namespaces=0); fix: "
			 "'sysctl user.max_user_namespaces=10000', or if a container or VM is the "
			 "boundary, choose --backend container");
	else if (probe_sysctl("/proc/sys/kernel/unprivileged_userns_clone") == 0 && getuid() != 0)
		fmt_into(fix, len,
			 "unprivileged user namespaces are disabled "
			 "(kernel.unprivileged_userns_clone=0); fix: "
			 "'sysctl kernel.unprivileged_userns_clone=1'");
	else if (userns_errno() != 0)
		fmt_into(fix, len,
			 "this process may not create user namespaces (a container's seccomp "
			 "profile?); fix: allow them (the AppArmor profile for bwrap in kjail's "
			 "contrib/apparmor, or the container's profile), or run without them: "
			 "--backend=landlock (fallback = landlock in kjail.ini); if the container "
			 "is the boundary, --backend container");
	else
		return false;
	return true;
}

void probe_bwrap_version(const char *bwrap, char *out, size_t len)
{
	out[0] = '\0';
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		execl(bwrap, bwrap, "--version", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	if (pid > 0) {
		read_text(p[0], out, len);
		waitpid(pid, NULL, 0);
	}
	close(p[0]);
	out[strcspn(out, "\n")] = '\0';
}

void probe_bwrap_too_old(const char *bwrap, char *fix, size_t len)
{
	char ver[128];
	probe_bwrap_version(bwrap, ver, sizeof ver);
	fmt_into(fix, len, "%s is too old (%s); fix: install bubblewrap %s or later", bwrap,
		 ver[0] ? ver : "unknown version", BWRAP_MIN_VERSION);
}

bool probe_proc_masked(char *where, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return false;
	char line[4096];
	bool masked = false;
	while (!masked && fgets(line, sizeof line, f)) {
		/* field 5 is the mount point */
		char *save, *tok = strtok_r(line, " ", &save);
		for (int i = 1; tok && i < 5; i++)
			tok = strtok_r(NULL, " ", &save);
		if (tok && strncmp(tok, "/proc/", 6) == 0) {
			fmt_into(where, len, "%s", tok);
			masked = true;
		}
	}
	fclose(f);
	return masked;
}

/* Can a PID namespace of a user namespace of our own get a fresh /proc, as
 * bwrap's does? Tried in a child (and its PID 1), in namespaces of its own:
 * the errno of the mount, 0 when it worked or no namespace could be made
 * (probe_userns's case). */
static int fresh_proc_errno(void)
{
	pid_t pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID) != 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
			_exit(0);
		pid_t init = fork();
		if (init == 0)
			_exit(mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0
				      ? 0
				      : (errno & 0xff));
		int st;
		while (init > 0 && waitpid(init, &st, 0) < 0 && errno == EINTR)
			;
		_exit(init > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : 0);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 0;
}

bool probe_fresh_proc(char *fix, size_t len)
{
	char where[256];
	if (!probe_proc_masked(where, sizeof where) || fresh_proc_errno() == 0)
		return false;
	fmt_into(fix, len,
		 "the kernel refuses bwrap a fresh /proc, %s being mounted over (a container "
		 "engine's masked /proc); fix: --backend=landlock (fallback = landlock in "
		 "kjail.ini), or if the container is the boundary, --backend container",
		 where);
	return true;
}

/* Why the jail did not start, with the fix, as one line. */
void probe_diagnose(const struct plan *pl, const char *bwrap, char *msg)
{
	msg[strcspn(msg, "\n")] = '\0';
	const char *what = msg[0] ? msg : "bwrap exited before the command started";
	char fix[1024] = "";
	/* --disable-userns on a stale cache's word (run/bwrap-probe.h) */
	if (pl->disable_userns_cached)
		bwrap_probe_stale(bwrap, fix, sizeof fix);
	if (!fix[0] && !probe_inside_kjail(fix, sizeof fix) && !probe_userns(fix, sizeof fix) &&
	    !(strstr(msg, "Can't mount proc") && probe_fresh_proc(fix, sizeof fix)) &&
	    (strstr(msg, "Unknown option") || strstr(msg, "unrecognized option")))
		probe_bwrap_too_old(bwrap, fix, sizeof fix);
	/* root in the jail holds no capability: a directory only its owner
	 * may enter (another user's 0700 home) stays shut to it */
	if (!fix[0] && geteuid() == 0 && strstr(msg, "Permission denied"))
		snprintf(fix, sizeof fix, "run as root, the jail cannot enter a directory only "
					  "another user may (mode 0700); run kjail as that user "
					  "(runuser -u USER -- kjail ...)");
	die("cannot start the jail: %s%s%s", what, fix[0] ? "; " : "", fix);
}
#else
/* Host probing is for the Linux backend; macOS has sandbox-exec or nothing. */
long probe_sysctl(const char *path) { (void)path; return -1; }
bool probe_userns(char *fix, size_t len) { (void)fix; (void)len; return false; }
void probe_bwrap_version(const char *bwrap, char *out, size_t len)
{
	(void)bwrap;
	if (len)
		out[0] = '\0';
}
void probe_bwrap_too_old(const char *bwrap, char *fix, size_t len)
{
	(void)bwrap;
	if (len)
		fix[0] = '\0';
}
bool probe_proc_masked(char *where, size_t len) { (void)where; (void)len; return false; }
bool probe_fresh_proc(char *fix, size_t len) { (void)fix; (void)len; return false; }
bool probe_in_kjail_jail(void) { return false; }
#endif
