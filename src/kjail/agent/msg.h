/* SPDX-License-Identifier: MIT */
/* The ssh-agent protocol's messages as the relay judges them
 * (draft-miller-ssh-agent): pure, no I/O.
 *
 * Threat model: every byte comes from the jail (a request) or from the
 * user's agent (a reply). A request is passed on only when it is one of
 * the few that use a key without changing what the agent holds (listing,
 * signing, session-bind@openssh.com, query) and is well formed to its
 * last byte; everything else, known or not, is answered
 * SSH_AGENT_FAILURE without reaching the agent. A frame longer than
 * OpenSSH's own limit ends the connection. */
#ifndef KJ_AGENT_MSG_H
#define KJ_AGENT_MSG_H

#include <stdbool.h>
#include <stddef.h>

/* OpenSSH's AGENT_MAX_LEN: the longest message body an agent reads. */
#define AGENT_MSG_MAX (256 * 1024)

enum agent_verdict {
	AGENT_MORE,   /* not a whole message yet */
	AGENT_PASS,   /* pass it to the agent as it is */
	AGENT_REFUSE, /* answer SSH_AGENT_FAILURE, pass nothing */
	AGENT_BAD,    /* an empty or too long frame: end the connection */
};

/* The first message of buf[0..len) from the jail: its verdict, and for
 * PASS and REFUSE its length with the 4-byte prefix in *msglen and its
 * name ("REMOVE_ALL_IDENTITIES", "EXTENSION foo@example.com" cut short,
 * "type 99") in what[0..whatlen). */
enum agent_verdict agent_msg_judge(const unsigned char *buf, size_t len, size_t *msglen,
				   char *what, size_t whatlen);

/* The first whole frame of buf[0..len) from the agent: AGENT_PASS with
 * its length (prefix included) in *msglen, AGENT_MORE, or AGENT_BAD. */
enum agent_verdict agent_msg_frame(const unsigned char *buf, size_t len, size_t *msglen);

/* SSH_AGENT_FAILURE as a whole message (5 bytes). */
extern const unsigned char agent_msg_failure[5];

#endif
