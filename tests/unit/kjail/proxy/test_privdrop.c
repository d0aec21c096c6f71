/* SPDX-License-Identifier: MIT */
/* Who kjail's proxy becomes (proxy/privdrop.c, proxy_identity_choose):
 * nothing changes when no uid is 0; root becomes the caller's real uid
 * when that is not 0 (a set-user-ID start), else nobody; a saved uid of 0
 * counts as root (it could be taken back); the group is the caller's or,
 * when that is 0, nobody's; and with no usable nobody (none, or one whose
 * uid or gid is 0) there is no identity to take, so the proxy does not
 * start. Then proxy_privdrop() itself, as root and as a user. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <linux/capability.h>
#include <pwd.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proxy/privdrop.h"

static const struct passwd nobody = { .pw_name = (char *)"nobody", .pw_uid = 65534,
				      .pw_gid = 65533 };
static const struct passwd rootish = { .pw_name = (char *)"nobody", .pw_uid = 0, .pw_gid = 65534 };
static const struct passwd rootgroup = { .pw_name = (char *)"nobody", .pw_uid = 65534,
					 .pw_gid = 0 };

static const struct {
	uid_t r, e, s;
	gid_t g;
	const struct passwd *nobody;
	bool ok, change;
	uid_t uid;
	gid_t gid;
} table[] = {
	/* already unprivileged: stays as it is, nobody or not */
	{ 1000, 1000, 1000, 1000, &nobody, true, false, 1000, 1000 },
	{ 1000, 1000, 1000, 1000, NULL, true, false, 1000, 1000 },
	{ 1000, 1001, 1002, 0, NULL, true, false, 1000, 0 },
	/* root: nobody */
	{ 0, 0, 0, 0, &nobody, true, true, 65534, 65533 },
	/* set-user-ID root started by a user: that user, with its group */
	{ 1000, 0, 0, 1000, &nobody, true, true, 1000, 1000 },
	{ 1000, 0, 0, 1000, NULL, true, true, 1000, 1000 },
	/* a user whose group is 0: nobody's group */
	{ 1000, 0, 0, 0, &nobody, true, true, 1000, 65533 },
	/* a saved uid of 0 is root too */
	{ 1000, 1000, 0, 1000, &nobody, true, true, 1000, 1000 },
	{ 0, 1000, 1000, 1000, &nobody, true, true, 65534, 65533 },
	/* no nobody to become, or one that is root */
	{ 0, 0, 0, 0, NULL, false, false, 0, 0 },
	{ 0, 0, 0, 0, &rootish, false, false, 0, 0 },
	{ 0, 0, 0, 0, &rootgroup, false, false, 0, 0 },
	{ 1000, 0, 0, 0, NULL, false, false, 0, 0 },
	{ 1000, 0, 0, 0, &rootgroup, false, false, 0, 0 },
};

static void test_choose(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		struct proxy_identity id;
		const char *why = NULL;
		bool ok = proxy_identity_choose(table[i].r, table[i].e, table[i].s, table[i].g,
						table[i].nobody, &id, &why);
		if (ok != table[i].ok)
			fail_msg("row %zu: %s", i, ok ? "accepted" : why);
		if (!ok) {
			assert_non_null(why);
			continue;
		}
		if (id.change != table[i].change || id.uid != table[i].uid || id.gid != table[i].gid)
			fail_msg("row %zu: change %d uid %u gid %u", i, id.change, (unsigned)id.uid,
				 (unsigned)id.gid);
		/* whatever it chose, never root */
		if (id.change)
			assert_true(id.uid != 0 && id.gid != 0);
	}
}

/* The drop itself, in a child: run by root it becomes nobody with no
 * groups, unprivileged it stays who it is; either way no capability is
 * left (none in the bounding set either, for root), no_new_privs is set,
 * the parent-death signal is SIGKILL again, uid 0 cannot be taken back,
 * and a parent that is not kjail stops it. */
static int drop_child(void)
{
	uid_t before = getuid();
	const struct passwd *pw = getpwnam("nobody");
	uid_t want = before == 0 ? (pw ? pw->pw_uid : 0) : before;
	if (before == 0 && !pw)
		return 9;
	char err[256];
	if (!proxy_privdrop(getppid(), err, sizeof err))
		return 10;
	if (getuid() != want || geteuid() != want || (before == 0 && getgroups(0, NULL) != 0))
		return 11;
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	if (syscall(SYS_capget, &hdr, data) != 0 || data[0].effective || data[0].permitted ||
	    data[0].inheritable || data[1].effective || data[1].permitted || data[1].inheritable)
		return 12;
	if (before == 0 && prctl(PR_CAPBSET_READ, CAP_SYS_ADMIN, 0, 0, 0) != 0)
		return 13;
	int sig = 0;
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1 ||
	    prctl(PR_GET_PDEATHSIG, &sig, 0, 0, 0) != 0 || sig != SIGKILL)
		return 14;
	if (setuid(0) == 0)
		return 15;
	/* a parent that is not ours: the proxy does not go on */
	if (proxy_privdrop(1, err, sizeof err))
		return 16;
	return 0;
}

static void test_drop(void **state)
{
	(void)state;
	pid_t p = fork();
	assert_true(p >= 0);
	if (p == 0)
		_exit(drop_child());
	int st;
	assert_int_equal(waitpid(p, &st, 0), p);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_choose),
		cmocka_unit_test(test_drop),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
