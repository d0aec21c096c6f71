/* SPDX-License-Identifier: MIT */
/* SCM_RIGHTS with tags: the payload is n tags of FDPASS_TAG_MAX bytes
 * each (NUL-padded), the descriptors ride in one control message. */
#include "config.h"

#include "fdpass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <fcntl.h>
#include <unistd.h>

#ifdef MSG_CMSG_CLOEXEC
#define RECV_FLAGS MSG_CMSG_CLOEXEC
#else
#define RECV_FLAGS 0
#endif

int fdpass_send(int sock, const int *fds, const char *const *tags, size_t n)
{
	char payload[FDPASS_MAX * FDPASS_TAG_MAX];
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int) * FDPASS_MAX)];
	} ctl;
	if (n == 0 || n > FDPASS_MAX) {
		errno = EINVAL;
		return -1;
	}
	memset(payload, 0, sizeof payload);
	memset(&ctl, 0, sizeof ctl);
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(tags[i]);
		if (l >= FDPASS_TAG_MAX) {
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(payload + i * FDPASS_TAG_MAX, tags[i], l);
	}
	struct iovec iov = { payload, n * FDPASS_TAG_MAX };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			    .msg_controllen = CMSG_SPACE(sizeof(int) * n) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int) * n);
	memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
	ssize_t w;
	do
		w = sendmsg(sock, &m, MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -1;
	if ((size_t)w != iov.iov_len) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

static void close_all(const int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		close(fds[i]);
}

int fdpass_recv(int sock, int *fds, char (*tags)[FDPASS_TAG_MAX], size_t max)
{
	char payload[FDPASS_MAX * FDPASS_TAG_MAX + 1];
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int) * FDPASS_MAX)];
	} ctl;
	struct iovec iov = { payload, sizeof payload };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			    .msg_controllen = sizeof ctl.buf };
	ssize_t r;
	do
		r = recvmsg(sock, &m, RECV_FLAGS);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -1;

	int got[FDPASS_MAX];
	size_t ngot = 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k && ngot < FDPASS_MAX; i++)
			memcpy(&got[ngot++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
	}
	if (r == 0 && ngot == 0)
		return 0;
	int bad = (m.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) || ngot == 0 || ngot > max ||
		  (size_t)r != ngot * FDPASS_TAG_MAX;
	for (size_t i = 0; !bad && i < ngot; i++) {
		const char *t = payload + i * FDPASS_TAG_MAX;
		if (memchr(t, '\0', FDPASS_TAG_MAX) == NULL)
			bad = 1;
	}
	if (bad) {
		close_all(got, ngot);
		errno = EPROTO;
		return -1;
	}
	for (size_t i = 0; i < ngot; i++) {
		if (RECV_FLAGS == 0)
			fcntl(got[i], F_SETFD, FD_CLOEXEC);
		fds[i] = got[i];
		memcpy(tags[i], payload + i * FDPASS_TAG_MAX, FDPASS_TAG_MAX);
	}
	return (int)ngot;
}
