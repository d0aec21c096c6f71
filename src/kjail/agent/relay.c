/* SPDX-License-Identifier: MIT */
/* The relay's loop (agent/relay.h). One request at a time a client, as
 * the protocol goes: a request read whole, judged, passed to the agent
 * or answered FAILURE; the agent's reply read whole and written back;
 * only then the next request. So a reply always answers the request it
 * follows, and the jail never talks to the agent directly. */
#include "config.h"
#include "agent/relay.h"
#include "agent/msg.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define CLIENTS_MAX 64
#define FRAME_MAX (4 + AGENT_MSG_MAX)

struct client {
	int jail, agent;       /* -1: a free slot */
	unsigned char *in;     /* the request being read (FRAME_MAX) */
	size_t inlen;
	unsigned char *reply;  /* the agent's reply being read, then written (FRAME_MAX) */
	size_t replylen, sent;
	bool waiting;          /* a request passed: reading the agent's reply */
	bool answering;        /* reply[sent..replylen) goes to the jail */
};

int agent_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof sa.sun_path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static void drop(struct client *c)
{
	if (c->jail >= 0)
		close(c->jail);
	if (c->agent >= 0)
		close(c->agent);
	free(c->in);
	free(c->reply);
	*c = (struct client){ .jail = -1, .agent = -1 };
}

/* Said once a kind of request: a jail that loops on one says it once. */
static void say_refused(const char *what)
{
	static char said[32][80];
	static size_t nsaid;
	/* ssh-add -D asks an SSH1 twin too: one line for the one action */
	if (strncmp(what, "SSH1 ", 5) == 0)
		return;
	for (size_t i = 0; i < nsaid; i++)
		if (strcmp(said[i], what) == 0)
			return;
	if (nsaid < 32)
		snprintf(said[nsaid++], sizeof said[0], "%s", what);
	fprintf(stderr, "kjail: ssh-agent relay: refused %s (the jail may list keys and sign "
			"with them, not change what the agent holds)\n",
		what);
}

static bool write_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

/* The whole requests already read, each in turn, while no reply is
 * pending. False: the client goes. */
static bool judge_pending(struct client *c)
{
	while (!c->waiting && !c->answering) {
		size_t len;
		char what[80];
		enum agent_verdict v = agent_msg_judge(c->in, c->inlen, &len, what, sizeof what);
		if (v == AGENT_MORE)
			return true;
		if (v == AGENT_BAD)
			return false;
		if (v == AGENT_PASS) {
			/* the agent reads a whole request at once; a blocking write */
			if (!write_all(c->agent, c->in, len))
				return false;
			c->waiting = true;
		} else {
			say_refused(what);
			memcpy(c->reply, agent_msg_failure, sizeof agent_msg_failure);
			c->replylen = sizeof agent_msg_failure;
			c->sent = 0;
			c->answering = true;
		}
		memmove(c->in, c->in + len, c->inlen - len);
		c->inlen -= len;
	}
	return true;
}

static bool from_jail(struct client *c)
{
	ssize_t r = recv(c->jail, c->in + c->inlen, FRAME_MAX - c->inlen, MSG_DONTWAIT);
	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (r <= 0)
		return false;
	c->inlen += (size_t)r;
	return judge_pending(c);
}

static bool from_agent(struct client *c)
{
	ssize_t r = recv(c->agent, c->reply + c->replylen, FRAME_MAX - c->replylen, MSG_DONTWAIT);
	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (r <= 0)
		return false;
	c->replylen += (size_t)r;
	size_t len;
	enum agent_verdict v = agent_msg_frame(c->reply, c->replylen, &len);
	if (v == AGENT_MORE)
		return true;
	/* one reply a request: anything after it, or a bad frame, is an
	 * agent out of step */
	if (v == AGENT_BAD || len != c->replylen)
		return false;
	c->waiting = false;
	c->answering = true;
	c->sent = 0;
	return true;
}

static bool to_jail(struct client *c)
{
	ssize_t w = send(c->jail, c->reply + c->sent, c->replylen - c->sent,
			 MSG_DONTWAIT | MSG_NOSIGNAL);
	if (w < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (w <= 0)
		return false;
	c->sent += (size_t)w;
	if (c->sent < c->replylen)
		return true;
	c->answering = false;
	c->replylen = c->sent = 0;
	return judge_pending(c);
}

static void take_client(struct client *cl, int listener, const char *agent_path)
{
	int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0)
		return;
	struct client *c = NULL;
	for (size_t i = 0; i < CLIENTS_MAX && !c; i++)
		if (cl[i].jail < 0)
			c = &cl[i];
	int agent = c ? agent_connect(agent_path) : -1;
	unsigned char *in = agent >= 0 ? malloc(FRAME_MAX) : NULL;
	unsigned char *reply = in ? malloc(FRAME_MAX) : NULL;
	if (!reply) {
		if (agent < 0 && c)
			fprintf(stderr, "kjail: ssh-agent relay: cannot reach the agent at %s: %s\n",
				agent_path, strerror(errno));
		free(in);
		if (agent >= 0)
			close(agent);
		close(fd); /* the client sees the connection end */
		return;
	}
	*c = (struct client){ .jail = fd, .agent = agent, .in = in, .reply = reply };
}

int agent_relay_serve(int listener, int stop_fd, const char *agent_path)
{
	static struct client cl[CLIENTS_MAX];
	for (size_t i = 0; i < CLIENTS_MAX; i++)
		cl[i] = (struct client){ .jail = -1, .agent = -1 };
	for (;;) {
		struct pollfd pf[2 + 2 * CLIENTS_MAX];
		struct client *of[2 + 2 * CLIENTS_MAX];
		nfds_t n = 0;
		pf[n++] = (struct pollfd){ stop_fd, POLLIN, 0 };
		pf[n++] = (struct pollfd){ listener, POLLIN, 0 };
		for (size_t i = 0; i < CLIENTS_MAX; i++) {
			struct client *c = &cl[i];
			if (c->jail < 0)
				continue;
			short ev = c->answering ? POLLOUT : c->waiting ? 0 : POLLIN;
			of[n] = c;
			pf[n++] = (struct pollfd){ c->jail, ev, 0 };
			of[n] = c;
			pf[n++] = (struct pollfd){ c->agent, c->waiting ? POLLIN : 0, 0 };
		}
		if (poll(pf, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "kjail: ssh-agent relay: poll: %s\n", strerror(errno));
			return -1;
		}
		if (pf[0].revents)
			return 0;
		if (pf[1].revents & POLLIN)
			take_client(cl, listener, agent_path);
		for (nfds_t i = 2; i < n; i++) {
			struct client *c = of[i];
			short re = pf[i].revents;
			if (!re || c->jail < 0)
				continue;
			bool ok = true;
			if (pf[i].fd == c->jail)
				ok = (re & POLLOUT) ? to_jail(c)
				     : (re & (POLLIN | POLLHUP | POLLERR)) ? from_jail(c) : true;
			else
				ok = (re & (POLLIN | POLLHUP | POLLERR)) ? from_agent(c) : true;
			if (!ok)
				drop(c);
		}
	}
}
