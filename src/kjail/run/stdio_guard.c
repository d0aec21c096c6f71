/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "run/stdio_guard.h"
#include "path.h"
#include "util.h"
#include "entry/abi.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#ifdef KJ_OS_LINUX
#include <sys/statvfs.h>
#endif
#include <unistd.h>

void open_closed_stdio(void)
{
	for (int fd = 0; fd < 3; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		if (n != fd) /* nothing to say it on, perhaps: the status says it */
			_exit(KJ_EXIT_FAIL);
	}
}

/* A descriptor the caller leaked (a directory, a file on the host) reaches
 * around every mount of the jail: through /proc/self/fd/N, or openat, the
 * command could read a masked file or write outside the workspace. So none
 * above 2 outlives kjail's exec of the backend; kjail's own are opened
 * close-on-exec and handed over one by one. */
void seal_inherited_fds(void)
{
	if (!cloexec_above_2())
		die_errno("cannot mark the inherited descriptors close-on-exec");
}

static const char *const stdio_names[] = { "standard input", "standard output",
					   "standard error" };

/* What standard input, output and error were before the run: the jail
 * can change the mode and group of the caller's own files and terminal
 * through them (chmod 666 /dev/stdin needs no capability, and neither the
 * mounts nor Landlock hold it), and kjail puts them back afterwards. */
static struct {
	bool known;
	dev_t dev;
	ino_t ino;
	mode_t mode;
	gid_t gid;
} stdio_was[3];

void refuse_directory_stdio(void)
{
	for (int fd = 0; fd < 3; fd++) {
		struct stat st;
		stdio_was[fd].known = fstat(fd, &st) == 0;
		if (!stdio_was[fd].known)
			continue;
		if (S_ISDIR(st.st_mode))
			die("descriptor %d (%s) is a directory: through it the command could "
			    "reach around the jail; refusing",
			    fd, stdio_names[fd]);
		stdio_was[fd].dev = st.st_dev;
		stdio_was[fd].ino = st.st_ino;
		stdio_was[fd].mode = st.st_mode & 07777;
		stdio_was[fd].gid = st.st_gid;
	}
}

void restore_stdio(struct notice *note)
{
	for (int fd = 0; fd < 3; fd++) {
		struct stat st;
		if (!stdio_was[fd].known || fstat(fd, &st) != 0 || st.st_dev != stdio_was[fd].dev ||
		    st.st_ino != stdio_was[fd].ino)
			continue;
		mode_t mode = st.st_mode & 07777, was = stdio_was[fd].mode;
		gid_t gid = st.st_gid, gwas = stdio_was[fd].gid;
		if (mode == was && gid == gwas)
			continue;
		bool back = (gid == gwas || fchown(fd, (uid_t)-1, gwas) == 0) &&
			    (mode == was || fchmod(fd, was) == 0);
		int err = errno;
		char link[32], path[PATH_MAX];
		snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
		ssize_t n = readlink(link, path, sizeof path - 1);
		if (n > 0)
			path[n] = '\0';
		else
			snprintf(path, sizeof path, "its file");
		if (back)
			notice_warn(note, "warning: the jail changed %s (%s) from mode %04o group %ld to "
					"mode %04o group %ld; put back",
				    path, stdio_names[fd], (unsigned)was, (long)gwas, (unsigned)mode,
				    (long)gid);
		else
			notice_warn(note, "warning: the jail changed %s (%s) from mode %04o group %ld to "
					"mode %04o group %ld, and it could not be put back (%s): change "
					"it back yourself",
				    path, stdio_names[fd], (unsigned)was, (long)gwas, (unsigned)mode,
				    (long)gid, strerror(err));
	}
}

#ifdef KJ_OS_LINUX
/* Whether the jail (the caller's uid and groups, no capability) may open
 * the file for writing: its mode bits, as a process without
 * CAP_DAC_OVERRIDE sees them; access(2) through link (/proc/self/fd/N)
 * too, for ACLs, when not root (for root it answers yes to everything).
 * The owner may: chmod needs no capability, so a file of the caller's
 * without a write bit is made writable first (chmod u+w /dev/stdin). */
static bool jail_may_write(int fd, const struct stat *st, const char *link)
{
	struct statvfs vfs;
	if (fstatvfs(fd, &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
		return false;
	uid_t uid = geteuid();
	bool w;
	if (st->st_uid == uid)
		w = true;
	else if (getegid() == st->st_gid || group_member(st->st_gid))
		w = st->st_mode & S_IWGRP;
	else
		w = st->st_mode & S_IWOTH;
	return w || (uid != 0 && access(link, W_OK) == 0);
}

void refuse_reopenable_stdio(const struct plan *pl)
{
	for (int fd = 0; fd < 3; fd++) {
		struct stat st;
		char link[32], path[PATH_MAX];
		snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
		int fl = fcntl(fd, F_GETFL);
		if (fl < 0 || (fl & O_ACCMODE) != O_RDONLY || fstat(fd, &st) != 0 ||
		    !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) || !jail_may_write(fd, &st, link))
			continue;
		ssize_t n = readlink(link, path, sizeof path - 1);
		if (n <= 0)
			die_errno("cannot tell which file descriptor %d (%s) is", fd, stdio_names[fd]);
		path[n] = '\0';
		bool inside = false;
		for (size_t i = 0; i < pl->nops && !inside; i++)
			inside = pl->ops[i].kind == OP_BIND && path_is_under(path, pl->ops[i].path);
		if (!inside)
			die("descriptor %d (%s) is %s, which the jail could reopen for writing through "
			    "%s (you gave it to read); pass it through a pipe instead "
			    "(cat FILE | kjail ...)",
			    fd, stdio_names[fd], path, link);
	}
}

#else
/* No /proc/self/fd to reopen, and no bwrap backend that would call it. */
void refuse_reopenable_stdio(const struct plan *pl)
{
	(void)pl;
}
#endif
