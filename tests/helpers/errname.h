/* errname.h: the symbolic name of an errno value, for probe output that a
 * test can match ("EROFS", "ECONNREFUSED") without depending on locale. */
#ifndef KJ_TEST_ERRNAME_H
#define KJ_TEST_ERRNAME_H

#include <errno.h>
#include <stdio.h>

static inline const char *
errname(int e)
{
	static char buf[32];

	switch (e) {
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case ESRCH: return "ESRCH";
	case EINTR: return "EINTR";
	case EIO: return "EIO";
	case EBADF: return "EBADF";
	case EACCES: return "EACCES";
	case EBUSY: return "EBUSY";
	case EEXIST: return "EEXIST";
	case EXDEV: return "EXDEV";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EINVAL: return "EINVAL";
	case ENOSPC: return "ENOSPC";
	case EROFS: return "EROFS";
	case EMLINK: return "EMLINK";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ENOTEMPTY: return "ENOTEMPTY";
	case ELOOP: return "ELOOP";
	case ENOTSOCK: return "ENOTSOCK";
	case EPROTOTYPE: return "EPROTOTYPE";
	case EAFNOSUPPORT: return "EAFNOSUPPORT";
	case EADDRINUSE: return "EADDRINUSE";
	case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
	case ENETDOWN: return "ENETDOWN";
	case ENETUNREACH: return "ENETUNREACH";
	case ECONNRESET: return "ECONNRESET";
	case ETIMEDOUT: return "ETIMEDOUT";
	case ECONNREFUSED: return "ECONNREFUSED";
	case EHOSTUNREACH: return "EHOSTUNREACH";
	case EINPROGRESS: return "EINPROGRESS";
	case ESTALE: return "ESTALE";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default:
		snprintf(buf, sizeof buf, "E#%d", e);
		return buf;
	}
}

#endif
