/* SPDX-License-Identifier: MIT */
/* The ssh-agent relay's judge (agent/msg.c): listing, signing,
 * session-bind@openssh.com and query pass when well formed to their last
 * byte; adding, removing, locking, smartcard keys, other extensions and
 * unknown numbers are refused; a frame is read whole or not at all, and
 * an empty or oversized one ends the connection. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <string.h>

#include "agent/msg.h"

struct msg {
	unsigned char b[1024];
	size_t n;
};

static void put32(struct msg *m, uint32_t v)
{
	m->b[m->n++] = (unsigned char)(v >> 24);
	m->b[m->n++] = (unsigned char)(v >> 16);
	m->b[m->n++] = (unsigned char)(v >> 8);
	m->b[m->n++] = (unsigned char)v;
}

static void put_str(struct msg *m, const char *s)
{
	put32(m, (uint32_t)strlen(s));
	memcpy(m->b + m->n, s, strlen(s));
	m->n += strlen(s);
}

/* A message of type t: the prefix filled in by done(). */
static struct msg begin(unsigned char t)
{
	struct msg m = { .n = 4 };
	m.b[m.n++] = t;
	return m;
}

static void done(struct msg *m)
{
	uint32_t l = (uint32_t)(m->n - 4);
	m->b[0] = (unsigned char)(l >> 24);
	m->b[1] = (unsigned char)(l >> 16);
	m->b[2] = (unsigned char)(l >> 8);
	m->b[3] = (unsigned char)l;
}

static enum agent_verdict judge(const struct msg *m, char *what)
{
	size_t len = 0;
	char w[80];
	enum agent_verdict v = agent_msg_judge(m->b, m->n, &len, w, sizeof w);
	if (v == AGENT_PASS || v == AGENT_REFUSE)
		assert_int_equal(len, m->n);
	if (what)
		strcpy(what, w);
	return v;
}

static struct msg sign_request(void)
{
	struct msg m = begin(13);
	put_str(&m, "key-blob");
	put_str(&m, "data to sign");
	put32(&m, 0);
	done(&m);
	return m;
}

static struct msg session_bind(unsigned char fwd)
{
	struct msg m = begin(27);
	put_str(&m, "session-bind@openssh.com");
	put_str(&m, "hostkey");
	put_str(&m, "session-id");
	put_str(&m, "signature");
	m.b[m.n++] = fwd;
	done(&m);
	return m;
}

static void test_passes(void **state)
{
	(void)state;
	char what[80];
	struct msg m = begin(11);
	done(&m);
	assert_int_equal(judge(&m, what), AGENT_PASS);
	assert_string_equal(what, "REQUEST_IDENTITIES");
	m = sign_request();
	assert_int_equal(judge(&m, what), AGENT_PASS);
	assert_string_equal(what, "SIGN_REQUEST");
	m = session_bind(0);
	assert_int_equal(judge(&m, what), AGENT_PASS);
	assert_string_equal(what, "EXTENSION session-bind@openssh.com");
	m = session_bind(1);
	assert_int_equal(judge(&m, NULL), AGENT_PASS);
	m = begin(27);
	put_str(&m, "query");
	done(&m);
	assert_int_equal(judge(&m, NULL), AGENT_PASS);
}

static void test_refuses_changes(void **state)
{
	(void)state;
	static const struct {
		unsigned char type;
		const char *name;
	} refused[] = {
		{ 17, "ADD_IDENTITY" }, { 18, "REMOVE_IDENTITY" }, { 19, "REMOVE_ALL_IDENTITIES" },
		{ 20, "ADD_SMARTCARD_KEY" }, { 21, "REMOVE_SMARTCARD_KEY" }, { 22, "LOCK" },
		{ 23, "UNLOCK" }, { 25, "ADD_ID_CONSTRAINED" },
		{ 26, "ADD_SMARTCARD_KEY_CONSTRAINED" }, { 9, "SSH1 REMOVE_ALL_RSA_IDENTITIES" },
		{ 0, "type 0" }, { 99, "type 99" }, { 255, "type 255" },
	};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		char what[80];
		struct msg m = begin(refused[i].type);
		put_str(&m, "payload");
		done(&m);
		assert_int_equal(judge(&m, what), AGENT_REFUSE);
		assert_string_equal(what, refused[i].name);
	}
}

static void test_refuses_other_extensions(void **state)
{
	(void)state;
	char what[80];
	struct msg m = begin(27);
	put_str(&m, "add-hostkey@example.com");
	done(&m);
	assert_int_equal(judge(&m, what), AGENT_REFUSE);
	assert_string_equal(what, "EXTENSION add-hostkey@example.com");
	/* a name that only starts like the one passed */
	m = begin(27);
	put_str(&m, "session-bind@openssh.com.evil");
	done(&m);
	assert_int_equal(judge(&m, NULL), AGENT_REFUSE);
	/* unprintable bytes shown as '?' */
	m = begin(27);
	put_str(&m, "a\nb\033");
	done(&m);
	assert_int_equal(judge(&m, what), AGENT_REFUSE);
	assert_string_equal(what, "EXTENSION a?b?");
	/* no name at all */
	m = begin(27);
	done(&m);
	assert_int_equal(judge(&m, NULL), AGENT_REFUSE);
}

static void test_refuses_malformed(void **state)
{
	(void)state;
	/* listing with a payload */
	struct msg m = begin(11);
	m.b[m.n++] = 0;
	done(&m);
	assert_int_equal(judge(&m, NULL), AGENT_REFUSE);
	/* signing: flags missing, a trailing byte, a string past the end */
	m = begin(13);
	put_str(&m, "key");
	put_str(&m, "data");
	done(&m);
	assert_int_equal(judge(&m, NULL), AGENT_REFUSE);
	m = sign_request();
	m.b[m.n++] = 0;
	done(&m);
	assert_int_equal(judge(&m, NULL), AGENT_REFUSE);
	m = begin(13);
	put32(&m, 1000);
	put32(&m, 0);
	done(&m);
	assert_int_equal(judge(&m, NULL), AGENT_REFUSE);
	m = begin(13);
	put32(&m, 0xffffffffu);
	done(&m);
	assert_int_equal(judge(&m, NULL), AGENT_REFUSE);
	/* session-bind: a bool that is not 0 or 1, a field short, one too many */
	m = session_bind(2);
	assert_int_equal(judge(&m, NULL), AGENT_REFUSE);
	m = session_bind(0);
	m.n--;
	done(&m);
	assert_int_equal(judge(&m, NULL), AGENT_REFUSE);
	m = session_bind(0);
	m.b[m.n++] = 0;
	done(&m);
	assert_int_equal(judge(&m, NULL), AGENT_REFUSE);
	/* query with something after it */
	m = begin(27);
	put_str(&m, "query");
	m.b[m.n++] = 1;
	done(&m);
	assert_int_equal(judge(&m, NULL), AGENT_REFUSE);
}

static void test_frames(void **state)
{
	(void)state;
	struct msg m = sign_request();
	size_t len;
	char what[80];
	/* every prefix of a whole message is not yet one */
	for (size_t k = 0; k < m.n; k++)
		assert_int_equal(agent_msg_judge(m.b, k, &len, what, sizeof what), AGENT_MORE);
	/* a second message behind the first is left for later */
	struct msg two = m;
	memcpy(two.b + two.n, m.b, m.n);
	two.n += m.n;
	assert_int_equal(agent_msg_judge(two.b, two.n, &len, what, sizeof what), AGENT_PASS);
	assert_int_equal(len, m.n);
	/* empty and oversized frames; the largest allowed is waited for */
	unsigned char b[8] = { 0, 0, 0, 0, 11 };
	assert_int_equal(agent_msg_judge(b, 5, &len, what, sizeof what), AGENT_BAD);
	uint32_t over = AGENT_MSG_MAX + 1, max = AGENT_MSG_MAX;
	unsigned char o[5] = { (unsigned char)(over >> 24), (unsigned char)(over >> 16),
			       (unsigned char)(over >> 8), (unsigned char)over, 11 };
	assert_int_equal(agent_msg_judge(o, 5, &len, what, sizeof what), AGENT_BAD);
	assert_int_equal(agent_msg_frame(o, 5, &len), AGENT_BAD);
	unsigned char x[5] = { (unsigned char)(max >> 24), (unsigned char)(max >> 16),
			       (unsigned char)(max >> 8), (unsigned char)max, 11 };
	assert_int_equal(agent_msg_judge(x, 5, &len, what, sizeof what), AGENT_MORE);
	/* the agent's reply: framed, never judged */
	unsigned char reply[] = { 0, 0, 0, 1, 6 };
	assert_int_equal(agent_msg_frame(reply, sizeof reply, &len), AGENT_PASS);
	assert_int_equal(len, 5);
	assert_int_equal(agent_msg_frame(reply, 4, &len), AGENT_MORE);
	assert_memory_equal(agent_msg_failure, ((unsigned char[]){ 0, 0, 0, 1, 5 }), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_passes),
		cmocka_unit_test(test_refuses_changes),
		cmocka_unit_test(test_refuses_other_extensions),
		cmocka_unit_test(test_refuses_malformed),
		cmocka_unit_test(test_frames),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
