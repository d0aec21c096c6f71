/* SPDX-License-Identifier: MIT */
/* sockaddr-un.h: fill a sockaddr_un from a path; a leading '@' names an
 * abstract socket (which lives in the network namespace, not the file system). */
#ifndef KJ_TEST_SOCKADDR_UN_H
#define KJ_TEST_SOCKADDR_UN_H

#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* A path longer than sun_path (a deep build tree): go to its directory and
 * use the last component, so the directory part is still resolved by the
 * kernel, through whatever /proc/self/root or symlink it names. */
static inline const char *
shorten_socket_path(const char *path)
{
	static char dir[4096];
	const char *slash = strrchr(path, '/');
	if (path[0] == '@' || strlen(path) < sizeof ((struct sockaddr_un *)0)->sun_path ||
	    !slash || (size_t)(slash - path) >= sizeof dir)
		return path;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	if (chdir(dir[0] ? dir : "/") < 0)
		return path;
	return slash + 1;
}

static inline int
fill_sockaddr_un(struct sockaddr_un *sa, socklen_t *len, const char *path)
{
	path = shorten_socket_path(path);
	size_t n = strlen(path);

	memset(sa, 0, sizeof *sa);
	sa->sun_family = AF_UNIX;
	if (n == 0 || n >= sizeof sa->sun_path)
		return -1;
	memcpy(sa->sun_path, path, n);
	if (path[0] == '@')
		sa->sun_path[0] = '\0';
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (path[0] == '@' ? 0 : 1));
	return 0;
}

#endif
