/* SPDX-License-Identifier: MIT */
/* Golden argv for representative plans. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <string.h>

#include "build/bwrap.h"
#include "../plan-fixture.h"

static void check(struct plan *pl, const struct jail_fds *fds, char *const *cmd,
		  const char *expect)
{
	struct strv a = STRV_INIT;
	bwrap_build(pl, "/usr/bin/bwrap", "/usr/bin/kjail", fds, cmd, &a);
	char *got = strv_shell_join(&a);
	assert_string_equal(got, expect);
	free(got);
	strv_free(&a);
	plan_free(pl);
}

#define HEAD "/usr/bin/bwrap --unshare-user --disable-userns "
#define NS "--unshare-ipc --unshare-uts --unshare-cgroup-try "
#define CAPS "--die-with-parent --cap-drop ALL "
#define MOUNTS "--ro-bind / / --dev /dev --proc /proc --ro-bind /proc/sys /proc/sys --tmpfs /tmp "

static const int mask_fds[] = { 9, 10 };
static const struct jail_fds fds = { .status = 4, .user_err = 5, .seccomp = -1, .policy = 11,
				     .masks = mask_fds, .nmasks = 2, .sig_default = 3 };
#define RW "--rw=/dev --rw=/proc --rw=/tmp "

/* --allow-socket: each socket from its descriptor, after every mask; a
 * masked directory that holds one turns read-only only after its mount
 * point is made (bwrap makes it in the tmpfs); the others at once. */
static void test_sockets(void **state)
{
	(void)state;
	struct plan pl;
	plan_defaults(&pl, BACKEND_BWRAP, "/w", true);
	plan_add(&pl, OP_MASK_DIR, "/home/u/.gnupg", "masked", "x");
	plan_add(&pl, OP_MASK_DIR, "/run/user/1000", "masked", "x");
	plan_add(&pl, OP_MASK_FILE, "/run/x.sock", "masked", "x");
	plan_add(&pl, OP_SOCKET, "/run/user/1000/ssh/agent", "allowed socket: ssh-agent", "x");
	plan_add(&pl, OP_SOCKET, "/w/dev.sock", "allowed socket", "x");
	static const int sock_fds[] = { 12, 13 };
	struct jail_fds f = fds;
	f.sockets = sock_fds;
	f.nsockets = 2;
	char *cmd[] = { "sh", NULL };
	check(&pl, &f, cmd,
	      HEAD "--unshare-pid " NS CAPS MOUNTS "--bind /w /w "
	      "--perms 0555 --tmpfs /home/u/.gnupg --remount-ro /home/u/.gnupg "
	      "--perms 0555 --tmpfs /run/user/1000 "
	      "--perms 0444 --ro-bind-data 9 /run/x.sock "
	      "--ro-bind-fd 12 /run/user/1000/ssh/agent --ro-bind-fd 13 /w/dev.sock "
	      "--remount-ro /run/user/1000 "
	      "--chdir /w -- /usr/bin/kjail --jail-entry=4,5,3 " RW "--rw=/w -- sh");
}

/* The workspace's cache directory inside the one mask on every
 * workspace's: bound after the masks, the mask read-only after it, and
 * a writable path for Landlock. */
static void test_inner_root(void **state)
{
	(void)state;
	struct plan pl;
	plan_defaults(&pl, BACKEND_BWRAP, "/w", true);
	plan_add(&pl, OP_MASK_DIR, "/home/u/.cache/kjail/ws", "masked", "x");
	plan_add(&pl, OP_MASK_DIR, "/home/u/.ssh", "masked", "x");
	plan_add(&pl, OP_BIND, "/home/u/.cache/kjail/ws/w-1", "toolchain caches", "x")->inner =
		true;
	char *cmd[] = { "sh", NULL };
	check(&pl, &fds, cmd,
	      HEAD "--unshare-pid " NS CAPS MOUNTS "--bind /w /w "
	      "--perms 0555 --tmpfs /home/u/.cache/kjail/ws "
	      "--perms 0555 --tmpfs /home/u/.ssh --remount-ro /home/u/.ssh "
	      "--bind /home/u/.cache/kjail/ws/w-1 /home/u/.cache/kjail/ws/w-1 "
	      "--remount-ro /home/u/.cache/kjail/ws "
	      "--chdir /w -- /usr/bin/kjail --jail-entry=4,5,3 " RW
	      "--rw=/w --rw=/home/u/.cache/kjail/ws/w-1 -- sh");
}

/* ssh through kjail's proxy (planner/ssh.h): the entry program at its
 * fixed path beside the policy and the log; known_hosts served inside
 * the mask on ~/.ssh, which turns read-only only after it; ssh_config
 * served over the host's. */
static void test_ssh_served(void **state)
{
	(void)state;
	struct plan pl;
	plan_defaults(&pl, BACKEND_BWRAP, "/w", false);
	pl.net = NET_ALLOWLIST;
	pl.proxied = true;
	plan_add(&pl, OP_POLICY, KJ_POLICY_DIR, "policy", "built-in");
	plan_add(&pl, OP_MASK_DIR, "/home/u/.ssh", "masked", "x");
	struct op *o = plan_add(&pl, OP_MASK_FILE, "/home/u/.ssh/known_hosts", "shown", "x");
	o->serves = "shown";
	o->inner = true;
	o->data = xstrdup("h k\n");
	o->len = 4;
	o = plan_add(&pl, OP_MASK_FILE, "/etc/ssh/ssh_config", "ssh", "x");
	o->serves = "generated";
	o->inner = true;
	o->data = xstrdup("ProxyCommand x\n");
	o->len = 15;
	struct jail_fds f = fds;
	f.net_log = 14;
	f.proxy = 15;
	char *cmd[] = { "sh", NULL };
	check(&pl, &f, cmd,
	      HEAD "--unshare-pid " NS "--unshare-net " CAPS MOUNTS "--bind /w /w "
	      "--perms 0555 --tmpfs /tmp/.kjail --perms 0444 --ro-bind-data 11 /tmp/.kjail/policy.json "
	      "--ro-bind-fd 14 /tmp/.kjail/net.log "
	      "--ro-bind /usr/bin/kjail /tmp/.kjail/kjail-entry --remount-ro /tmp/.kjail "
	      "--setenv KJAIL_POLICY /tmp/.kjail/policy.json "
	      "--perms 0555 --tmpfs /home/u/.ssh "
	      "--perms 0444 --ro-bind-data 9 /home/u/.ssh/known_hosts "
	      "--perms 0444 --ro-bind-data 10 /etc/ssh/ssh_config "
	      "--remount-ro /home/u/.ssh "
	      "--chdir /w -- /usr/bin/kjail --jail-entry=4,5,3 --proxy-fd=15 " RW "--rw=/w -- sh");
}

static void test_default(void **state)
{
	(void)state;
	struct plan pl;
	plan_defaults(&pl, BACKEND_BWRAP, "/home/u/proj", true);
	char *cmd[] = { "make", "-j2", NULL };
	check(&pl, &fds, cmd,
	      HEAD "--unshare-pid " NS CAPS MOUNTS
	      "--bind /home/u/proj /home/u/proj --chdir /home/u/proj "
	      "-- /usr/bin/kjail --jail-entry=4,5,3 " RW "--rw=/home/u/proj -- make -j2");
}

/* Under an allowlist the entry program gets the proxy's socket and a
 * --local= word per loopback rule's address and port, each once; name
 * rules get none. */
static void test_local_listeners(void **state)
{
	(void)state;
	struct plan pl;
	plan_defaults(&pl, BACKEND_BWRAP, "/w", true);
	pl.network = false;
	pl.net = NET_ALLOWLIST;
	pl.proxied = true;
	static const char *const v[] = { "api.example.org", "localhost:9000", "127.0.0.1:9000",
					 "[::1]:9100",      "localhost:9000", "127.0.0.2:9200",
					 "10.0.0.5:9300" };
	pl.allow = xcalloc(ARRAY_SIZE(v), sizeof *pl.allow);
	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		const char *why = NULL;
		assert_true(allow_parse(v[i], &pl.allow[i], &why));
		pl.allow[i].text = v[i];
	}
	pl.nallow = ARRAY_SIZE(v);
	struct jail_fds f = fds;
	f.proxy = 12;
	f.net_log = 13;
	char *cmd[] = { "sh", NULL };
	struct strv a = STRV_INIT;
	bwrap_build(&pl, "/usr/bin/bwrap", "/usr/bin/kjail", &f, cmd, &a);
	char *got = strv_shell_join(&a);
	const char *want = "-- /usr/bin/kjail --jail-entry=4,5,3 --proxy-fd=12 "
			   "--local=localhost:9000 --local=127.0.0.1:9000 '--local=[::1]:9100' "
			   "--local=127.0.0.2:9200 --rw=";
	if (!strstr(got, want))
		fail_msg("no %s in %s", want, got);
	free(got);
	strv_free(&a);
	plan_free(&pl);
}

static void test_no_network_masks_protected(void **state)
{
	(void)state;
	struct plan pl;
	plan_defaults(&pl, BACKEND_BWRAP, "/w", true);
	pl.network = false;
	plan_add(&pl, OP_PIN, "/w/.git", "pinned", "x");
	plan_add(&pl, OP_PROTECT, "/w/.git/hooks", "protected: git hooks", "x");
	plan_add(&pl, OP_MASK_DIR, "/home/u/.aws", "masked", "built-in credential store");
	plan_add(&pl, OP_MASK_FILE, "/home/u/.netrc", "masked", "x");
	plan_add(&pl, OP_MASK_FILE, "/home/u/.pgpass", "masked", "x");
	char *cmd[] = { "sh", NULL };
	check(&pl, &fds, cmd,
	      HEAD "--unshare-pid " NS "--unshare-net " CAPS MOUNTS
	      "--bind /w /w --bind /w/.git /w/.git --ro-bind /w/.git/hooks /w/.git/hooks "
	      "--perms 0555 --tmpfs /home/u/.aws --remount-ro /home/u/.aws "
	      "--perms 0444 --ro-bind-data 9 /home/u/.netrc "
	      "--perms 0444 --ro-bind-data 10 /home/u/.pgpass "
	      "--chdir /w -- /usr/bin/kjail --jail-entry=4,5,3 " RW "--rw=/w -- sh");
}

/* A sealed directory (a linked worktree's worktrees/): bound onto
 * itself, and read-only only after the pins of its entries, which stay
 * writable (bwrap's --remount-ro changes that one mount alone). */
static void test_seal(void **state)
{
	(void)state;
	struct plan pl;
	plan_defaults(&pl, BACKEND_BWRAP, "/w", true);
	plan_add(&pl, OP_BIND, "/r/.git", "git directory of a linked worktree", "x");
	plan_add(&pl, OP_SEAL, "/r/.git/worktrees", "sealed: x", "x");
	plan_add(&pl, OP_PIN, "/r/.git/worktrees/w", "pinned", "x");
	plan_add(&pl, OP_PROTECT, "/r/.git/worktrees/w/gitdir", "protected: x", "x");
	char *cmd[] = { "sh", NULL };
	check(&pl, &fds, cmd,
	      HEAD "--unshare-pid " NS CAPS MOUNTS
	      "--bind /w /w --bind /r/.git /r/.git --bind /r/.git/worktrees /r/.git/worktrees "
	      "--bind /r/.git/worktrees/w /r/.git/worktrees/w "
	      "--ro-bind /r/.git/worktrees/w/gitdir /r/.git/worktrees/w/gitdir "
	      "--remount-ro /r/.git/worktrees "
	      "--chdir /w -- /usr/bin/kjail --jail-entry=4,5,3 " RW "--rw=/w --rw=/r/.git -- sh");
}

static void test_nested_userns_and_seccomp(void **state)
{
	(void)state;
	struct plan pl;
	plan_empty(&pl, BACKEND_BWRAP, "/w");
	pl.network = true;
	pl.nested_userns = true;
	pl.allow_userns = true;
	pl.inside_id = 65534;
	plan_add(&pl, OP_RO_ROOT, "/", "read-only", "host root");
	plan_add(&pl, OP_DEV, "/dev", "private", "x");
	plan_add(&pl, OP_PROC_BIND, "/proc", "read-only", "x");
	plan_add(&pl, OP_TMP, "/tmp", "private", "x");
	plan_add(&pl, OP_HELPER, "/tmp/b/kjail", "helper", "x");
	plan_add(&pl, OP_BIND, "/w", "workspace", "x");
	struct jail_fds f = { .status = 3, .user_err = 7, .seccomp = 8, .policy = -1 };
	char *cmd[] = { "true", NULL };
	check(&pl, &f, cmd,
	      "/usr/bin/bwrap --unshare-user --uid 65534 --gid 65534 " NS CAPS
	      "--ro-bind / / --dev /dev --ro-bind /proc /proc --tmpfs /tmp "
	      "--ro-bind /tmp/b/kjail /tmp/b/kjail --bind /w /w --chdir /w --seccomp 8 "
	      "-- /usr/bin/kjail --jail-entry=3,7,0 --userns-mounts --rw=/dev --rw=/tmp --rw=/w -- true");
}

/* A jail inside a kjail jail: the outer /proc/sys is read-only, so no
 * --disable-userns (the seccomp rules refuse user namespaces). */
static void test_inside_kjail(void **state)
{
	(void)state;
	struct plan pl;
	plan_empty(&pl, BACKEND_BWRAP, "/w");
	pl.network = true;
	pl.nested_userns = true;
	pl.in_kjail = true;
	plan_add(&pl, OP_RO_ROOT, "/", "read-only", "host root");
	plan_add(&pl, OP_DEV, "/dev", "private", "x");
	plan_add(&pl, OP_PROC_BIND, "/proc", "read-only", "x");
	plan_add(&pl, OP_TMP, "/tmp", "private", "x");
	plan_add(&pl, OP_HELPER, "/tmp/b/kjail", "helper", "x");
	plan_add(&pl, OP_BIND, "/w", "workspace", "x");
	struct jail_fds f = { .status = 3, .user_err = 7, .seccomp = 8, .policy = -1 };
	char *cmd[] = { "true", NULL };
	check(&pl, &f, cmd,
	      "/usr/bin/bwrap --unshare-user " NS CAPS
	      "--ro-bind / / --dev /dev --ro-bind /proc /proc --tmpfs /tmp "
	      "--ro-bind /tmp/b/kjail /tmp/b/kjail --bind /w /w --chdir /w --seccomp 8 "
	      "-- /usr/bin/kjail --jail-entry=3,7,0 --rw=/dev --rw=/tmp --rw=/w -- true");
}

/* Where bwrap's --disable-userns fails (run/bwrap-probe.h): without it,
 * the seccomp program still given; the cache's "works" changes nothing. */
static void check_userns(const char *no_disable, bool cached, const char *head)
{
	struct plan pl;
	plan_empty(&pl, BACKEND_BWRAP, "/w");
	pl.network = true;
	pl.no_disable_userns = no_disable;
	pl.disable_userns_cached = cached;
	plan_add(&pl, OP_RO_ROOT, "/", "read-only", "host root");
	plan_add(&pl, OP_BIND, "/w", "workspace", "x");
	struct jail_fds f = { .status = 3, .user_err = 7, .seccomp = 8, .policy = -1 };
	char *cmd[] = { "true", NULL };
	_cleanup_free_ char *want = xasprintf("%s--unshare-pid " NS CAPS
					      "--ro-bind / / --bind /w /w --chdir /w --seccomp 8 "
					      "-- /usr/bin/kjail --jail-entry=3,7,0 --rw=/w -- true",
					      head);
	check(&pl, &f, cmd, want);
}

static void test_no_disable_userns(void **state)
{
	(void)state;
	check_userns("cannot open /proc/sys/user/max_user_namespaces: Read-only file system", false,
		     "/usr/bin/bwrap --unshare-user ");
	check_userns(NULL, true, HEAD);
}

static void test_awkward_paths_stay_single_words(void **state)
{
	(void)state;
	struct plan pl;
	plan_defaults(&pl, BACKEND_BWRAP, "/home/u/my proj", true);
	plan_add(&pl, OP_MASK_DIR, "/home/u/it's --bind / /", "masked", "--deny-read");
	char *cmd[] = { "echo", "a b", "--", NULL };
	struct strv a = STRV_INIT;
	bwrap_build(&pl, "/usr/bin/bwrap", "/usr/bin/kjail", &fds, cmd, &a);
	/* The hostile name is one argv element, never split into options. */
	assert_true(strv_find(&a, "/home/u/it's --bind / /") > 0);
	assert_int_equal(strv_find(&a, "/home/u/my proj"), strv_find(&a, "--bind") + 1);
	char *line = strv_shell_join(&a);
	assert_non_null(strstr(line, "--tmpfs '/home/u/it'\\''s --bind / /'"));
	assert_non_null(strstr(line, "-- echo 'a b' --"));
	free(line);
	strv_free(&a);
	plan_free(&pl);
}

/* The command's environment: bwrap starts with none, so every variable
 * the scrub kept is a --setenv, value as it is (an '=' in it too), before
 * the mounts, so that the policy's own variable (set with the policy
 * file's mount) comes last and wins over the caller's. */
static void test_environment_as_setenv(void **state)
{
	(void)state;
	struct plan pl;
	plan_defaults(&pl, BACKEND_BWRAP, "/w", true);
	strv_push(&pl.env, "A=1");
	strv_push(&pl.env, "B=x=y");
	strv_push(&pl.env, "EMPTY=");
	strv_push(&pl.env, "KJAIL_POLICY=/evil");
	plan_add(&pl, OP_POLICY, "/tmp/.kjail", "policy", "x");
	char *cmd[] = { "env", NULL };
	check(&pl, &fds, cmd,
	      HEAD "--unshare-pid " NS CAPS
	      "--setenv A 1 --setenv B x=y --setenv EMPTY '' --setenv KJAIL_POLICY /evil "
	      MOUNTS "--bind /w /w "
	      "--perms 0555 --tmpfs /tmp/.kjail --perms 0444 --ro-bind-data 11 "
	      "/tmp/.kjail/policy.json --remount-ro /tmp/.kjail "
	      "--setenv KJAIL_POLICY /tmp/.kjail/policy.json "
	      "--chdir /w -- /usr/bin/kjail --jail-entry=4,5,3 " RW "--rw=/w -- env");
}

/* Landlock's writable paths, as --rw= words of the entry program: the
 * writable ones (bind, tmpfs, /dev, /proc) in plan order; not pinned,
 * read-only or masked ones. */
static void test_rw_words(void **state)
{
	(void)state;
	struct plan pl;
	plan_defaults(&pl, BACKEND_BWRAP, "/w", true);
	plan_add(&pl, OP_PIN, "/w/.git", "pinned", "x");
	plan_add(&pl, OP_PROTECT, "/w/.git/hooks", "protected: git hooks", "x");
	plan_add(&pl, OP_BIND, "/home/u/.cache", "writable", "--writable");
	plan_add(&pl, OP_MASK_FILE, "/home/u/.netrc", "masked", "x");
	plan_add(&pl, OP_HELPER, "/opt/kjail-entry", "helper", "x");
	char *cmd[] = { "true", NULL };
	check(&pl, &fds, cmd,
	      HEAD "--unshare-pid " NS CAPS MOUNTS
	      "--bind /w /w --bind /w/.git /w/.git --ro-bind /w/.git/hooks /w/.git/hooks "
	      "--bind /home/u/.cache /home/u/.cache --perms 0444 --ro-bind-data 9 /home/u/.netrc "
	      "--ro-bind /opt/kjail-entry /opt/kjail-entry --chdir /w "
	      "-- /usr/bin/kjail --jail-entry=4,5,3 " RW "--rw=/w --rw=/home/u/.cache -- true");
}

/* Run as root: the jail's own /proc is remounted read-only after its
 * /proc/sys bind (a chmod there would change the kernel's shared entry).
 * The host's device nodes are not in bwrap's options (spawn.c binds them
 * read-only before bwrap starts): --dev stays as it is. */
static void test_root_proc_read_only(void **state)
{
	(void)state;
	struct plan pl;
	plan_defaults(&pl, BACKEND_BWRAP, "/w", true);
	pl.proc_read_only = true;
	strv_pushv(&pl.host_devices, bwrap_dev_nodes);
	char *cmd[] = { "true", NULL };
	check(&pl, &fds, cmd,
	      HEAD "--unshare-pid " NS CAPS
	      "--ro-bind / / --dev /dev --proc /proc --ro-bind /proc/sys /proc/sys "
	      "--remount-ro /proc --tmpfs /tmp --bind /w /w --chdir /w "
	      "-- /usr/bin/kjail --jail-entry=4,5,3 " RW "--rw=/w -- true");
}

/* --device: the nodes right after --dev, writable (--dev-bind), then their
 * links; /dev stays the one writable root Landlock is told of. */
static void test_devices(void **state)
{
	(void)state;
	struct plan pl;
	plan_defaults(&pl, BACKEND_BWRAP, "/w", true);
	static const struct dev_entry e[] = {
		{ "/dev/nvidia0", DEV_CHAR, NULL },
		{ "/dev/dri/card0", DEV_CHAR, NULL },
		{ "/dev/dri/by-path/pci-0000:00:02.0-card", DEV_LINK, "../card0" },
	};
	assert_int_equal(device_binds("gpu", e, 3, "--device=gpu", &pl.devices, &pl.ndevices), 2);
	char *cmd[] = { "true", NULL };
	check(&pl, &fds, cmd,
	      HEAD "--unshare-pid " NS CAPS
	      "--ro-bind / / --dev /dev --dev-bind /dev/nvidia0 /dev/nvidia0 "
	      "--dev-bind /dev/dri/card0 /dev/dri/card0 "
	      "--symlink ../card0 /dev/dri/by-path/pci-0000:00:02.0-card "
	      "--proc /proc --ro-bind /proc/sys /proc/sys --tmpfs /tmp --bind /w /w --chdir /w "
	      "-- /usr/bin/kjail --jail-entry=4,5,3 " RW "--rw=/w -- true");
}

/* What --dev binds from the host, as bwrap's SETUP_MOUNT_DEV lists it. */
static void test_dev_nodes(void **state)
{
	(void)state;
	struct strv a = STRV_INIT;
	strv_pushv(&a, bwrap_dev_nodes);
	char *got = strv_shell_join(&a);
	assert_string_equal(got, "/dev/null /dev/zero /dev/full /dev/random /dev/urandom /dev/tty");
	free(got);
	strv_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_local_listeners),
		cmocka_unit_test(test_ssh_served),
		cmocka_unit_test(test_no_network_masks_protected),
		cmocka_unit_test(test_nested_userns_and_seccomp),
		cmocka_unit_test(test_inside_kjail),
		cmocka_unit_test(test_no_disable_userns),
		cmocka_unit_test(test_awkward_paths_stay_single_words),
		cmocka_unit_test(test_environment_as_setenv),
		cmocka_unit_test(test_rw_words),
		cmocka_unit_test(test_root_proc_read_only),
		cmocka_unit_test(test_dev_nodes),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_sockets),
		cmocka_unit_test(test_inner_root),
		cmocka_unit_test(test_seal),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
