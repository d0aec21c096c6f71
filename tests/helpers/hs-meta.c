/* SPDX-License-Identifier: MIT */
/* hs-meta [-C DIR] record|attack|check|restore [BEFORE]
 *
 * The metadata of a list of paths (one a line on standard input, relative
 * to DIR), for tests that show a jail cannot change a host file's mode,
 * owner, timestamps or extended attributes.
 *
 *   record            one line a path: MODE UID GID MTIME-SEC MTIME-NSEC
 *                     XATTR-NAMES (comma-separated, "-" for none), a tab,
 *                     the path; a path lstat cannot see is left out
 *   attack            try to change each path's metadata in ways harmless
 *                     even if they stick a moment: the mode with o+x (a
 *                     directory: the sticky bit) toggled, not for a symlink;
 *                     the group to another one of ours (or gid+1); mtime
 *                     and atime to 1 (1970); user.kjail and trusted.kjail
 *                     set. Prints one line a path: each change, "ok" or
 *                     the errno name; then "changed N of M" (N: how many
 *                     calls succeeded). Exit 0.
 *   check BEFORE      compares the paths of BEFORE (a record) as they are
 *                     now: prints a line for each that changed (mode,
 *                     owner, an mtime moved back in time, an extended
 *                     attribute added or removed) and exits 1 if any did,
 *                     else 0. An mtime moved forward is not a change the
 *                     attack makes (a terminal's moves when it is written).
 *   restore BEFORE    check, then puts back mode, owner, mtime and the
 *                     attributes "attack" adds; prints what it put back.
 *
 * No getfattr/setfattr needed (the attr package is often missing).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "errname.h"

struct meta {
	unsigned mode;
	long uid, gid;
	long long sec;
	long nsec;
	char xattrs[4096];
};

static const char *const added[] = { "user.kjail", "trusted.kjail" };

/* The names of path's extended attributes, comma-separated and sorted as
 * the kernel lists them, or "-". */
static void xattr_names(const char *path, char *out, size_t len)
{
	char buf[4096];
	ssize_t n = llistxattr(path, buf, sizeof buf);
	out[0] = '\0';
	for (ssize_t i = 0; n > 0 && i < n; i += (ssize_t)strlen(buf + i) + 1) {
		if (out[0])
			strncat(out, ",", len - strlen(out) - 1);
		strncat(out, buf + i, len - strlen(out) - 1);
	}
	if (!out[0])
		snprintf(out, len, "-");
}

static int get(const char *path, struct meta *m)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return -1;
	m->mode = (unsigned)st.st_mode;
	m->uid = (long)st.st_uid;
	m->gid = (long)st.st_gid;
	m->sec = (long long)st.st_mtim.tv_sec;
	m->nsec = st.st_mtim.tv_nsec;
	xattr_names(path, m->xattrs, sizeof m->xattrs);
	return 0;
}

/* One line of input, without its newline; NULL at the end. */
static char *next_line(FILE *f, char *buf, size_t len)
{
	if (!fgets(buf, (int)len, f))
		return NULL;
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static int record(void)
{
	char line[4096];
	struct meta m;
	while (next_line(stdin, line, sizeof line))
		if (line[0] && get(line, &m) == 0)
			printf("%o %ld %ld %lld %ld %s\t%s\n", m.mode, m.uid, m.gid, m.sec, m.nsec,
			       m.xattrs, line);
	return 0;
}

/* A group other than gid: one of ours if we are in another, else gid+1. */
static gid_t other_gid(gid_t gid)
{
	gid_t groups[256];
	int n = getgroups(256, groups);
	for (int i = 0; i < n; i++)
		if (groups[i] != gid)
			return groups[i];
	if (getegid() != gid)
		return getegid();
	return gid + 1;
}

static int done(int rc, int *ok, const char *what)
{
	printf(" %s=%s", what, rc == 0 ? "ok" : errname(errno));
	*ok += rc == 0;
	return rc;
}

static int attack(void)
{
	char line[4096];
	int calls = 0, worked = 0;
	while (next_line(stdin, line, sizeof line)) {
		struct stat st;
		if (!line[0] || lstat(line, &st) != 0)
			continue;
		printf("%s:", line);
		if (!S_ISLNK(st.st_mode)) {
			mode_t flip = S_ISDIR(st.st_mode) ? S_ISVTX : S_IXOTH;
			done(chmod(line, (st.st_mode & 07777) ^ flip), &worked, "chmod");
			calls++;
		}
		done(lchown(line, (uid_t)-1, other_gid(st.st_gid)), &worked, "chown");
		struct timespec t[2] = { { 1, 0 }, { 1, 0 } };
		done(utimensat(AT_FDCWD, line, t, AT_SYMLINK_NOFOLLOW), &worked, "touch");
		for (size_t i = 0; i < sizeof added / sizeof *added; i++)
			done(lsetxattr(line, added[i], "1", 1, 0), &worked, added[i]);
		calls += 4;
		printf("\n");
	}
	printf("changed %d of %d\n", worked, calls);
	return 0;
}

static int parse(char *line, struct meta *m, char **path)
{
	char *tab = strchr(line, '\t');
	if (!tab)
		return -1;
	*tab = '\0';
	*path = tab + 1;
	return sscanf(line, "%o %ld %ld %lld %ld %4095s", &m->mode, &m->uid, &m->gid, &m->sec,
		      &m->nsec, m->xattrs) == 6 ? 0 : -1;
}

/* Puts back what differs; prints each thing it put back. */
static void put_back(const char *path, const struct meta *was, const struct meta *now)
{
	if ((now->mode & 07777) != (was->mode & 07777) && !S_ISLNK(was->mode))
		printf("  put back mode: %s\n",
		       chmod(path, was->mode & 07777) == 0 ? "ok" : errname(errno));
	if (now->uid != was->uid || now->gid != was->gid)
		printf("  put back owner: %s\n",
		       lchown(path, (uid_t)was->uid, (gid_t)was->gid) == 0 ? "ok" : errname(errno));
	if (now->sec < was->sec) {
		struct timespec t[2] = { { 0, UTIME_OMIT }, { (time_t)was->sec, was->nsec } };
		printf("  put back mtime: %s\n",
		       utimensat(AT_FDCWD, path, t, AT_SYMLINK_NOFOLLOW) == 0 ? "ok"
									   : errname(errno));
	}
	for (size_t i = 0; i < sizeof added / sizeof *added; i++)
		if (!strstr(was->xattrs, added[i]) && strstr(now->xattrs, added[i]))
			printf("  put back %s: %s\n", added[i],
			       lremovexattr(path, added[i]) == 0 ? "ok" : errname(errno));
}

static int check(const char *before, int restore)
{
	FILE *f = fopen(before, "r");
	if (!f) {
		fprintf(stderr, "hs-meta: %s: %s\n", before, strerror(errno));
		return 2;
	}
	char line[8192];
	int changed = 0;
	while (next_line(f, line, sizeof line)) {
		struct meta was, now;
		char *path;
		if (parse(line, &was, &path) != 0 || get(path, &now) != 0)
			continue;
		if (now.mode == was.mode && now.uid == was.uid && now.gid == was.gid &&
		    now.sec >= was.sec && strcmp(now.xattrs, was.xattrs) == 0)
			continue;
		changed++;
		printf("changed: %s: mode %o -> %o, owner %ld:%ld -> %ld:%ld, mtime %lld -> %lld, "
		       "xattrs %s -> %s\n",
		       path, was.mode, now.mode, was.uid, was.gid, now.uid, now.gid, was.sec, now.sec,
		       was.xattrs, now.xattrs);
		if (restore)
			put_back(path, &was, &now);
	}
	fclose(f);
	return changed ? 1 : 0;
}

int main(int argc, char **argv)
{
	int i = 1;
	if (argc > 2 && strcmp(argv[1], "-C") == 0) {
		if (chdir(argv[2]) != 0) {
			fprintf(stderr, "hs-meta: %s: %s\n", argv[2], strerror(errno));
			return 2;
		}
		i = 3;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (i < argc && strcmp(argv[i], "record") == 0)
		return record();
	if (i < argc && strcmp(argv[i], "attack") == 0)
		return attack();
	if (i + 1 < argc && strcmp(argv[i], "check") == 0)
		return check(argv[i + 1], 0);
	if (i + 1 < argc && strcmp(argv[i], "restore") == 0)
		return check(argv[i + 1], 1);
	fprintf(stderr, "usage: hs-meta [-C DIR] record|attack|check BEFORE|restore BEFORE\n");
	return 2;
}
