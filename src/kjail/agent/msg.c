/* SPDX-License-Identifier: MIT */
/* The ssh-agent requests the relay passes, and the frames it reads
 * (agent/msg.h). */
#include "config.h"
#include "agent/msg.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Message numbers (draft-miller-ssh-agent, OpenSSH's authfd.h). */
enum {
	SSH_AGENT_FAILURE = 5,
	SSH2_AGENTC_REQUEST_IDENTITIES = 11,
	SSH2_AGENTC_SIGN_REQUEST = 13,
	SSH_AGENTC_EXTENSION = 27,
};

const unsigned char agent_msg_failure[5] = { 0, 0, 0, 1, SSH_AGENT_FAILURE };

/* The names of the refused ones a user may meet, for the one line the
 * relay says; any other number is "type N". */
static const char *const names[] = {
	[1] = "SSH1 REQUEST_RSA_IDENTITIES",
	[3] = "SSH1 RSA_CHALLENGE",
	[7] = "SSH1 ADD_RSA_IDENTITY",
	[8] = "SSH1 REMOVE_RSA_IDENTITY",
	[9] = "SSH1 REMOVE_ALL_RSA_IDENTITIES",
	[11] = "REQUEST_IDENTITIES",
	[13] = "SIGN_REQUEST",
	[17] = "ADD_IDENTITY",
	[18] = "REMOVE_IDENTITY",
	[19] = "REMOVE_ALL_IDENTITIES",
	[20] = "ADD_SMARTCARD_KEY",
	[21] = "REMOVE_SMARTCARD_KEY",
	[22] = "LOCK",
	[23] = "UNLOCK",
	[24] = "SSH1 ADD_RSA_ID_CONSTRAINED",
	[25] = "ADD_ID_CONSTRAINED",
	[26] = "ADD_SMARTCARD_KEY_CONSTRAINED",
	[27] = "EXTENSION",
};

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A reader over one message body: each take checks the bytes are there. */
struct rd {
	const unsigned char *p;
	size_t left;
	bool bad;
};

/* An SSH string: *s and *n its bytes (not NUL-terminated). */
static void take_string(struct rd *r, const unsigned char **s, size_t *n)
{
	*s = NULL;
	*n = 0;
	if (r->bad || r->left < 4) {
		r->bad = true;
		return;
	}
	uint32_t l = get32(r->p);
	if (l > r->left - 4) {
		r->bad = true;
		return;
	}
	*s = r->p + 4;
	*n = l;
	r->p += 4 + l;
	r->left -= 4 + (size_t)l;
}

static void take_bytes(struct rd *r, size_t n)
{
	if (r->bad || r->left < n) {
		r->bad = true;
		return;
	}
	r->p += n;
	r->left -= n;
}

static bool at_end(const struct rd *r)
{
	return !r->bad && r->left == 0;
}

static bool is(const unsigned char *s, size_t n, const char *lit)
{
	return n == strlen(lit) && memcmp(s, lit, n) == 0;
}

/* The extension's name, printable bytes only, cut at 48. */
static void name_ext(char *what, size_t whatlen, const unsigned char *s, size_t n)
{
	char clean[49];
	size_t k = 0;
	for (size_t i = 0; i < n && k < sizeof clean - 1; i++)
		clean[k++] = s[i] > 0x20 && s[i] < 0x7f ? (char)s[i] : '?';
	clean[k] = '\0';
	snprintf(what, whatlen, "EXTENSION %s%s", clean, n > k ? "..." : "");
}

/* An extension: session-bind@openssh.com (string host key, string
 * session identifier, string signature, bool forwarding) and query
 * (nothing) pass, whole and exact; every other name is refused. */
static enum agent_verdict extension(struct rd *r, char *what, size_t whatlen)
{
	const unsigned char *name, *s;
	size_t n, sn;
	take_string(r, &name, &n);
	if (r->bad) {
		snprintf(what, whatlen, "EXTENSION (malformed)");
		return AGENT_REFUSE;
	}
	name_ext(what, whatlen, name, n);
	if (is(name, n, "query"))
		return at_end(r) ? AGENT_PASS : AGENT_REFUSE;
	if (!is(name, n, "session-bind@openssh.com"))
		return AGENT_REFUSE;
	for (int i = 0; i < 3; i++)
		take_string(r, &s, &sn);
	const unsigned char *flag = r->p;
	take_bytes(r, 1);
	if (!at_end(r) || flag[0] > 1)
		return AGENT_REFUSE;
	return AGENT_PASS;
}

enum agent_verdict agent_msg_frame(const unsigned char *buf, size_t len, size_t *msglen)
{
	*msglen = 0;
	if (len < 4)
		return AGENT_MORE;
	uint32_t l = get32(buf);
	if (l == 0 || l > AGENT_MSG_MAX)
		return AGENT_BAD;
	if (len - 4 < l)
		return AGENT_MORE;
	*msglen = 4 + (size_t)l;
	return AGENT_PASS;
}

enum agent_verdict agent_msg_judge(const unsigned char *buf, size_t len, size_t *msglen,
				   char *what, size_t whatlen)
{
	if (whatlen)
		what[0] = '\0';
	enum agent_verdict v = agent_msg_frame(buf, len, msglen);
	if (v != AGENT_PASS)
		return v;
	unsigned type = buf[4];
	struct rd r = { buf + 5, *msglen - 5, false };
	if (type < sizeof names / sizeof names[0] && names[type])
		snprintf(what, whatlen, "%s", names[type]);
	else
		snprintf(what, whatlen, "type %u", type);
	const unsigned char *s;
	size_t n;
	switch (type) {
	case SSH2_AGENTC_REQUEST_IDENTITIES:
		return at_end(&r) ? AGENT_PASS : AGENT_REFUSE;
	case SSH2_AGENTC_SIGN_REQUEST:
		take_string(&r, &s, &n); /* the key */
		take_string(&r, &s, &n); /* the data */
		take_bytes(&r, 4);       /* flags */
		return at_end(&r) ? AGENT_PASS : AGENT_REFUSE;
	case SSH_AGENTC_EXTENSION:
		return extension(&r, what, whatlen);
	default:
		return AGENT_REFUSE;
	}
}
