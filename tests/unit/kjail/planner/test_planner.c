/* SPDX-License-Identifier: MIT */
/* plan_build over a real directory tree (made under the build directory,
 * not /tmp, like the rest of the suite). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/defaults.h"
#include "policy/egress.h"
#include "planner/planner.h"
#include "planner/protected.h"
#include "path.h"

#include "../plan-fixture.h"

static int setup(void **state)
{
	(void)state;
	tree_make("test_host");
	mk("home", true);
	mk("home/.aws", true);
	mk("home/.aws/credentials", false);
	mk("home/.netrc", false);
	mk("home/.config", true);
	mk("ws", true);
	mk("ws/.git", true);
	mk("ws/.git/config", false);
	mk("ws/.envrc", false);
	mk("ws/secret.txt", false);
	mk("other", true);
	_cleanup_free_ char *link = at("ws/link-to-aws");
	_cleanup_free_ char *aws = at("home/.aws");
	assert_int_equal(symlink(aws, link), 0);
	return 0;
}

/* rm -rf root/rel */
static void remove_tree(const char *rel)
{
	_cleanup_free_ char *cmd = xasprintf("rm -rf '%s/%s'", root, rel);
	assert_int_equal(system(cmd), 0);
}

static const struct op *find(const struct plan *pl, enum op_kind k, const char *rel)
{
	_cleanup_free_ char *p = at(rel);
	for (size_t i = 0; i < pl->nops; i++)
		if (pl->ops[i].kind == k && strcmp(pl->ops[i].path, p) == 0)
			return &pl->ops[i];
	return NULL;
}

static size_t index_of(const struct plan *pl, const struct op *o)
{
	return (size_t)(o - pl->ops);
}

static void test_default_plan(void **state)
{
	(void)state;
	struct fixture f;
	fx_init(&f, true);
	char *envp[] = { "A_TOKEN=x", "PATH=/bin", NULL };
	assert_true(fx_build(&f, envp));
	const struct op *ws = find(&f.pl, OP_BIND, "ws");
	const struct op *pin = find(&f.pl, OP_PIN, "ws/.git");
	const struct op *cfg = find(&f.pl, OP_PROTECT, "ws/.git/config");
	const struct op *hooks = find(&f.pl, OP_PROTECT, "ws/.git/hooks");
	const struct op *envrc = find(&f.pl, OP_PROTECT, "ws/.envrc");
	const struct op *aws = find(&f.pl, OP_MASK_DIR, "home/.aws");
	const struct op *netrc = find(&f.pl, OP_MASK_FILE, "home/.netrc");
	assert_non_null(ws);
	assert_non_null(pin);
	assert_non_null(cfg);
	assert_non_null(hooks);
	assert_non_null(envrc);
	assert_non_null(aws);
	assert_non_null(netrc);
	assert_string_equal(aws->origin, "built-in credential store");
	/* binds, then pins, then protections, then masks */
	assert_true(index_of(&f.pl, ws) < index_of(&f.pl, pin));
	assert_true(index_of(&f.pl, pin) < index_of(&f.pl, hooks));
	assert_true(index_of(&f.pl, hooks) < index_of(&f.pl, aws));
	/* dry run: the hooks directory is planned, not made */
	_cleanup_free_ char *hp = at("ws/.git/hooks");
	struct stat st;
	assert_int_equal(lstat(hp, &st), -1);
	assert_int_equal(f.pl.created.n, 1);
	/* a missing mask leaves nothing behind */
	_cleanup_free_ char *ssh = at("home/.ssh");
	assert_int_equal(lstat(ssh, &st), -1);
	assert_int_equal(f.pl.env.n, 1);
	assert_string_equal(f.pl.env_removed.v[0].value, "A_TOKEN");
	/* verdicts follow the mount stack */
	_cleanup_free_ char *cred = at("home/.aws/credentials");
	assert_int_equal(plan_verdict(&f.pl, cred)->kind, OP_MASK_DIR);
	_cleanup_free_ char *src = at("ws/src/main.c");
	assert_int_equal(plan_verdict(&f.pl, src)->kind, OP_BIND);
	assert_int_equal(plan_verdict(&f.pl, "/etc/passwd")->kind, OP_RO_ROOT);
	assert_int_equal(plan_verdict(&f.pl, "/tmp/x")->kind, OP_TMP);
	fx_free(&f);
}

static bool env_has(const struct plan *pl, const char *line)
{
	for (size_t i = 0; i < pl->env.n; i++)
		if (strcmp(pl->env.v[i], line) == 0)
			return true;
	return false;
}

/* -n with bwrap: the jail still gets kjail's proxy, with no rule (every
 * host refused at once, naming --allow-host), and the variables that name
 * it; not where its log would lie in a writable root (then -n is as it
 * always was), not with another backend, not with the host's network. */
static void test_no_network_proxied(void **state)
{
	(void)state;
	struct fixture f;
	char *envp[] = { "PATH=/bin", "HTTPS_PROXY=http://corp:8080", NULL };
	fx_init(&f, true);
	bool_set(&f.p.network, false, "--no-network");
	f.p.backend = BACKEND_BWRAP;
	assert_true(plan_build(&f.p, &f.h, envp, &f.pl, f.err, sizeof f.err));
	assert_int_equal(f.pl.net, NET_NONE);
	assert_false(f.pl.network);
	assert_true(f.pl.proxied);
	assert_int_equal(f.pl.nallow, 0);
	assert_true(env_has(&f.pl, "HTTPS_PROXY=http://127.0.0.1:3128"));
	assert_true(env_has(&f.pl, "ALL_PROXY=socks5h://127.0.0.1:1080"));
	assert_true(env_has(&f.pl, "NO_PROXY=localhost,127.0.0.1,::1"));
	fx_free(&f);

	fx_init(&f, true);
	bool_set(&f.p.network, false, "--no-network");
	f.p.backend = BACKEND_BWRAP;
	entry_add(&f.p.writable, "/tmp", "--writable");
	assert_true(plan_build(&f.p, &f.h, envp, &f.pl, f.err, sizeof f.err));
	assert_int_equal(f.pl.net, NET_NONE);
	assert_false(f.pl.proxied);
	assert_true(env_has(&f.pl, "HTTPS_PROXY=http://corp:8080"));
	fx_free(&f);

	fx_init(&f, true);
	bool_set(&f.p.network, false, "--no-network");
	f.p.backend = BACKEND_CONTAINER;
	assert_true(plan_build(&f.p, &f.h, envp, &f.pl, f.err, sizeof f.err));
	assert_false(f.pl.proxied);
	fx_free(&f);

	fx_init(&f, true);
	f.p.backend = BACKEND_BWRAP;
	assert_true(plan_build(&f.p, &f.h, envp, &f.pl, f.err, sizeof f.err));
	assert_int_equal(f.pl.net, NET_SHARED);
	assert_false(f.pl.proxied);
	assert_true(env_has(&f.pl, "HTTPS_PROXY=http://corp:8080"));
	fx_free(&f);
}

static void write_file(const char *rel, const char *text)
{
	_cleanup_free_ char *p = at(rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static const struct op *served(const struct plan *pl, const char *path)
{
	for (size_t i = 0; i < pl->nops; i++)
		if (pl->ops[i].serves && strcmp(pl->ops[i].path, path) == 0)
			return &pl->ops[i];
	return NULL;
}

/* ~/.ssh masked whole but known_hosts, shown as a read-only copy after
 * the mask; ssh_config generated with the ProxyCommand only with the
 * proxy; a mask of known_hosts itself wins. */
static void test_ssh_known_hosts_and_config(void **state)
{
	(void)state;
	mk("home/.ssh", true);
	write_file("home/.ssh/known_hosts", "git.test ssh-ed25519 AAAA\n");
	write_file("home/.ssh/id_ed25519", "PRIVATE\n");
	_cleanup_free_ char *kh = at("home/.ssh/known_hosts");
	_cleanup_free_ char *key = at("home/.ssh/id_ed25519");
	struct fixture f;
	fx_init(&f, true);
	assert_true(egress_add(&f.p.allow_host, "--allow-host", "git.test:22", "--allow-host", f.err,
			       sizeof f.err));
	assert_true(fx_build(&f, NULL));
	const struct op *mask = find(&f.pl, OP_MASK_DIR, "home/.ssh");
	const struct op *o = served(&f.pl, kh);
	assert_non_null(mask);
	assert_non_null(o);
	assert_int_equal(o->kind, OP_MASK_FILE);
	assert_string_equal(o->serves, "shown");
	assert_true(o->inner);
	assert_true(index_of(&f.pl, mask) < index_of(&f.pl, o));
	assert_int_equal(o->len, strlen("git.test ssh-ed25519 AAAA\n"));
	assert_memory_equal(o->data, "git.test ssh-ed25519 AAAA\n", o->len);
	/* the key stays under the mask */
	assert_ptr_equal(plan_verdict(&f.pl, key), mask);
	struct stat st;
	if (stat(KJ_SSH_CONFIG, &st) == 0 && S_ISREG(st.st_mode)) {
		_cleanup_free_ char *real = path_resolve(KJ_SSH_CONFIG, "/");
		const struct op *c = served(&f.pl, real);
		assert_non_null(c);
		assert_string_equal(c->serves, "generated");
		assert_true(c->len > 0 && strstr(c->data, "\nProxyCommand " KJ_SSH_PROXY_COMMAND "\n"));
	}
	fx_free(&f);

	/* the host's network: known_hosts still shown, no ProxyCommand */
	fx_init(&f, true);
	assert_true(fx_build(&f, NULL));
	assert_non_null(served(&f.pl, kh));
	_cleanup_free_ char *real = path_resolve(KJ_SSH_CONFIG, "/");
	assert_null(real ? served(&f.pl, real) : NULL);
	fx_free(&f);

	/* --deny-read of known_hosts itself: masked */
	fx_init(&f, true);
	entry_add(&f.p.deny_read, kh, "--deny-read");
	assert_true(fx_build(&f, NULL));
	assert_null(served(&f.pl, kh));
	fx_free(&f);
	/* --deny-read of ~/.ssh itself: all of it */
	fx_init(&f, true);
	_cleanup_free_ char *dir = at("home/.ssh");
	entry_add(&f.p.deny_read, dir, "--deny-read");
	assert_true(fx_build(&f, NULL));
	assert_null(served(&f.pl, kh));
	fx_free(&f);
	remove_tree("home/.ssh");
}

/* --net-log: kept only where the jail cannot write, and only with the
 * proxy. */
static void test_net_log(void **state)
{
	(void)state;
	struct fixture f;
	fx_init(&f, true);
	assert_true(egress_add(&f.p.allow_host, "--allow-host", "git.test:22", "--allow-host", f.err,
			       sizeof f.err));
	_cleanup_free_ char *out = at("other/net.log");
	str_set(&f.p.net_log, out);
	str_set(&f.p.net_log_origin, "--net-log");
	assert_true(fx_build(&f, NULL));
	assert_string_equal(f.pl.net_log, out);
	fx_free(&f);

	fx_init(&f, true);
	assert_true(egress_add(&f.p.allow_host, "--allow-host", "git.test:22", "--allow-host", f.err,
			       sizeof f.err));
	str_set(&f.p.net_log, "net.log"); /* relative: the workspace */
	str_set(&f.p.net_log_origin, "--net-log");
	assert_false(fx_build(&f, NULL));
	assert_non_null(strstr(f.err, "--net-log net.log: "));
	assert_non_null(strstr(f.err, " is writable in the jail (workspace "));
	fx_free(&f);

	fx_init(&f, true);
	str_set(&f.p.net_log, out);
	str_set(&f.p.net_log_origin, "config.ini:3");
	assert_false(fx_build(&f, NULL));
	assert_non_null(strstr(f.err, "config.ini:3: net-log "));
	assert_non_null(strstr(f.err, "there is no log to keep"));
	fx_free(&f);

	fx_init(&f, true);
	bool_set(&f.p.network, false, "--no-network");
	_cleanup_free_ char *missing = at("nowhere/net.log");
	str_set(&f.p.net_log, missing);
	str_set(&f.p.net_log_origin, "--net-log");
	assert_false(fx_build(&f, NULL));
	assert_non_null(strstr(f.err, "No such file or directory"));
	fx_free(&f);
}

static void test_hooks_created_when_running(void **state)
{
	(void)state;
	struct fixture f;
	fx_init(&f, false);
	char *envp[] = { NULL };
	assert_true(fx_build(&f, envp));
	_cleanup_free_ char *hp = at("ws/.git/hooks");
	struct stat st;
	assert_int_equal(stat(hp, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0755);
	assert_int_equal(rmdir(hp), 0);
	fx_free(&f);

	/* as root in another user's repository: theirs, as if git had made it */
	if (geteuid() != 0)
		return;
	_cleanup_free_ char *git = at("ws/.git");
	assert_int_equal(chown(git, 4242, 4343), 0);
	fx_init(&f, false);
	assert_true(fx_build(&f, envp));
	assert_int_equal(stat(hp, &st), 0);
	assert_int_equal(st.st_uid, 4242);
	assert_int_equal(st.st_gid, 4343);
	assert_int_equal(rmdir(hp), 0);
	assert_int_equal(chown(git, 0, 0), 0);
	fx_free(&f);
}

static void test_masks_resolved_nested_and_inside_workspace(void **state)
{
	(void)state;
	struct fixture f;
	fx_init(&f, true);
	entry_add(&f.p.deny_read, "link-to-aws", "--deny-read");   /* relative, a symlink */
	entry_add(&f.p.deny_read, "secret.txt", "--deny-read");
	_cleanup_free_ char *inner = at("home/.aws/credentials");
	entry_add(&f.p.deny_read, inner, "cfg:4");
	char *envp[] = { NULL };
	assert_true(fx_build(&f, envp));
	/* the link resolved onto the built-in mask: one mask, first origin */
	const struct op *aws = find(&f.pl, OP_MASK_DIR, "home/.aws");
	assert_non_null(aws);
	assert_null(find(&f.pl, OP_MASK_DIR, "ws/link-to-aws"));
	/* the nested one is dropped (it could not be mounted in a read-only tmpfs) */
	assert_null(find(&f.pl, OP_MASK_FILE, "home/.aws/credentials"));
	bool noted = false;
	for (size_t i = 0; i < f.pl.skipped.n; i++)
		noted |= strcmp(f.pl.skipped.v[i].value, inner) == 0 &&
			 strstr(f.pl.skipped.v[i].origin, "already hidden") != NULL;
	assert_true(noted);
	/* a mask inside the workspace comes after the workspace bind */
	const struct op *sec = find(&f.pl, OP_MASK_FILE, "ws/secret.txt");
	assert_non_null(sec);
	assert_true(index_of(&f.pl, find(&f.pl, OP_BIND, "ws")) < index_of(&f.pl, sec));
	fx_free(&f);
}

/* Only --explain lists what was skipped; the mounts are the same either
 * way. */
static void test_skips_only_for_explain(void **state)
{
	(void)state;
	struct fixture f, g;
	char *envp[] = { NULL };
	fx_init(&f, true);
	fx_init(&g, true);
	g.h.explain = false;
	/* names the one read of the home directory must tell apart: a prefix
	 * of a store's name, a store behind a link, a store one level down,
	 * and many other entries */
	mk("home/.sshx", false);
	mk("home/.config/gh", true);
	mk("home/.mozill", false);
	_cleanup_free_ char *moz = at("home/.mozilla"), *other = at("other");
	assert_int_equal(symlink(other, moz), 0);
	for (int i = 0; i < 300; i++) {
		char rel[64];
		snprintf(rel, sizeof rel, "home/.entry-with-a-long-name-%03d", i);
		mk(rel, false);
	}
	entry_add(&f.p.deny_read, "/nonexistent-kjail-test", "--deny-read");
	entry_add(&g.p.deny_read, "/nonexistent-kjail-test", "--deny-read");
	assert_true(fx_build(&f, envp));
	assert_true(fx_build(&g, envp));
	assert_true(f.pl.skipped.n > 0);
	assert_int_equal(g.pl.skipped.n, 0);
	assert_int_equal(f.pl.nops, g.pl.nops);
	for (size_t i = 0; i < f.pl.nops; i++) {
		assert_int_equal(f.pl.ops[i].kind, g.pl.ops[i].kind);
		assert_string_equal(f.pl.ops[i].path, g.pl.ops[i].path);
		assert_string_equal(f.pl.ops[i].rule, g.pl.ops[i].rule);
		assert_string_equal(f.pl.ops[i].origin, g.pl.ops[i].origin);
	}
	assert_non_null(find(&g.pl, OP_MASK_DIR, "home/.config/gh"));
	assert_non_null(find(&g.pl, OP_MASK_DIR, "other")); /* ~/.mozilla, at its real path */
	assert_null(find(&g.pl, OP_MASK_FILE, "home/.sshx"));
	assert_null(find(&g.pl, OP_MASK_FILE, "home/.mozill"));
	fx_free(&f);
	fx_free(&g);
}

static void test_refusals(void **state)
{
	(void)state;
	struct fixture f;
	char *envp[] = { NULL };

	fx_init(&f, true);
	entry_add(&f.p.deny_read, f.ws, "--deny-read");
	assert_false(fx_build(&f, envp));
	assert_non_null(strstr(f.err, "would hide the writable workspace"));
	fx_free(&f);

	fx_init(&f, true);
	entry_add(&f.p.writable, "/nonexistent-kjail-test", "--writable");
	assert_false(fx_build(&f, envp));
	assert_string_equal(f.err, "--writable /nonexistent-kjail-test: no such directory (create it "
				   "first: mkdir -p /nonexistent-kjail-test)");
	fx_free(&f);

	fx_init(&f, true);
	entry_add(&f.p.writable, "/nonexistent-kjail-test", "cfg:2");
	assert_true(fx_build(&f, envp));
	assert_string_equal(f.pl.skipped.v[0].value, "/nonexistent-kjail-test");
	fx_free(&f);

	fx_init(&f, true);
	f.p.workspace = xstrdup("/");
	assert_false(fx_build(&f, envp));
	assert_non_null(strstr(f.err, "refusing to make / writable"));
	fx_free(&f);

	/* run as root: no writable root holding /etc, /usr, cron's spool... */
	static const char *const refused[][2] = {
		{ "/etc", "/etc" }, { "/usr", "/usr" }, { "/var", "/var/spool/cron" },
		{ "/boot", "/boot" },
	};
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		fx_init(&f, true);
		f.h.uid = 0;
		f.p.workspace = xstrdup(refused[i][0]);
		assert_false(fx_build(&f, envp));
		_cleanup_free_ char *want = xasprintf("refusing to make %s writable to a jail run "
						      "as root: the machine runs programs from %s",
						      refused[i][0], refused[i][1]);
		if (!strstr(f.err, want))
			fail_msg("workspace %s: %s", refused[i][0], f.err);
		fx_free(&f);
		/* the same for --writable */
		fx_init(&f, true);
		f.h.uid = 0;
		entry_add(&f.p.writable, refused[i][0], "--writable");
		assert_false(fx_build(&f, envp));
		assert_non_null(strstr(f.err, "--writable: refusing to make"));
		fx_free(&f);
		/* not as a user: what root owns stays read-only to them anyway */
		fx_init(&f, true);
		entry_add(&f.p.writable, refused[i][0], "--writable");
		assert_true(fx_build(&f, envp));
		fx_free(&f);
	}
	/* a directory inside one is the user's narrow choice */
	fx_init(&f, true);
	f.h.uid = 0;
	entry_add(&f.p.writable, "/etc/ssl", "--writable");
	assert_true(fx_build(&f, envp));
	fx_free(&f);
}

/* Run as root, the jail owns what root owns: /proc is remounted read-only
 * and the host's nodes behind its /dev (the console too, when there is
 * one) are listed for spawn.c to bind read-only; not as a user, and not
 * /proc with --nested-userns, which binds the host's read-only already,
 * or with --allow-userns, whose nested namespaces write their uid_map. */
static void test_root_read_only_devices_and_proc(void **state)
{
	(void)state;
	struct fixture f;
	char *envp[] = { NULL };
	fx_init(&f, true);
	assert_true(fx_build(&f, envp));
	assert_false(f.pl.proc_read_only);
	assert_int_equal(f.pl.host_devices.n, 0);
	fx_free(&f);

	fx_init(&f, true);
	f.h.uid = 0;
	f.h.console = "/dev/pts/7";
	assert_true(fx_build(&f, envp));
	if (f.pl.backend != BACKEND_BWRAP) {
		fx_free(&f);
		skip();
	}
	assert_true(f.pl.proc_read_only);
	static const char *const want[] = { "/dev/null",    "/dev/zero", "/dev/full", "/dev/random",
					    "/dev/urandom", "/dev/tty",  "/dev/pts/7" };
	assert_int_equal(f.pl.host_devices.n, sizeof want / sizeof *want);
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		assert_string_equal(f.pl.host_devices.v[i], want[i]);
	fx_free(&f);

	fx_init(&f, true);
	f.h.uid = 0;
	f.p.nested_userns.value = true;
	assert_true(fx_build(&f, envp));
	assert_false(f.pl.proc_read_only);
	assert_int_equal(f.pl.host_devices.n, 6);
	fx_free(&f);

	fx_init(&f, true);
	f.h.uid = 0;
	f.p.allow_userns.value = true;
	assert_true(fx_build(&f, envp));
	assert_false(f.pl.proc_read_only);
	assert_int_equal(f.pl.host_devices.n, 6);
	fx_free(&f);
}

static void test_home_as_workspace(void **state)
{
	(void)state;
	struct fixture f;
	fx_init(&f, true);
	f.p.workspace = at("home");
	mk("home/.bashrc", false);
	char *envp[] = { NULL };
	assert_true(fx_build(&f, envp));
	assert_non_null(find(&f.pl, OP_PROTECT, "home/.bashrc"));
	/* kjail's config directory is pinned even though it does not exist yet */
	assert_non_null(find(&f.pl, OP_PROTECT, "home/.config/kjail"));
	assert_non_null(find(&f.pl, OP_PROTECT, "home/.config/kli"));
	assert_non_null(find(&f.pl, OP_PIN, "home/.config"));
	_cleanup_free_ char *rc = at("home/.bashrc");
	assert_int_equal(unlink(rc), 0);
	fx_free(&f);

	/* a writable directory inside HOME: the names inside it stay
	 * protected, and one the jail makes is reported once, though both the
	 * account's home and $HOME name it */
	mk("home/.config/systemd", true);
	fx_init(&f, true);
	_cleanup_free_ char *home = at("home");
	f.h.home_env = home;
	_cleanup_free_ char *cfg = at("home/.config");
	entry_add(&f.p.writable, cfg, "--writable");
	assert_true(fx_build(&f, envp));
	assert_non_null(find(&f.pl, OP_BIND, "home/.config"));
	assert_non_null(find(&f.pl, OP_PROTECT, "home/.config/systemd"));
	assert_null(find(&f.pl, OP_PROTECT, "home/.bashrc")); /* not writable here */
	_cleanup_free_ char *autostart = at("home/.config/autostart");
	size_t times = 0;
	for (size_t i = 0; i < f.pl.unguarded.n; i++)
		times += strcmp(f.pl.unguarded.v[i].value, autostart) == 0;
	assert_int_equal(times, 1);
	fx_free(&f);
	_cleanup_free_ char *sd = at("home/.config/systemd");
	assert_int_equal(rmdir(sd), 0);
}

/* XDG_CONFIG_HOME inside the workspace (HOME elsewhere): the ~/.config
 * names are protected under it; outside every writable root, nothing is
 * added for it. */
static void test_xdg_config_home_in_workspace(void **state)
{
	(void)state;
	struct fixture f;
	char *envp[] = { NULL };
	static const char *const made[] = { "ws/.xdg", "ws/.xdg/git", "ws/.xdg/systemd",
					    "home/xdg", "home/xdg/git" };
	for (size_t i = 0; i < ARRAY_SIZE(made); i++)
		mk(made[i], true);
	mk("ws/.xdg/git/config", false);
	mk("home/xdg/git/config", false);
	fx_init(&f, true);
	_cleanup_free_ char *xdg = at("ws/.xdg");
	f.h.xdg_config_home = xdg;
	assert_true(fx_build(&f, envp));
	assert_non_null(find(&f.pl, OP_PROTECT, "ws/.xdg/git"));
	assert_non_null(find(&f.pl, OP_PROTECT, "ws/.xdg/systemd"));
	/* an absent one is reported after the run, like ~/.config's */
	assert_null(find(&f.pl, OP_PROTECT, "ws/.xdg/autostart"));
	assert_non_null(find(&f.pl, OP_PIN, "ws/.xdg"));
	/* the workspace's own top level is no config directory */
	assert_null(find(&f.pl, OP_PROTECT, "ws/git"));
	fx_free(&f);

	fx_init(&f, true);
	_cleanup_free_ char *outside = at("home/xdg");
	f.h.xdg_config_home = outside;
	assert_true(fx_build(&f, envp));
	assert_null(find(&f.pl, OP_PROTECT, "home/xdg/git"));
	fx_free(&f);

	static const char *const files[] = { "ws/.xdg/git/config", "home/xdg/git/config" };
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		_cleanup_free_ char *p = at(files[i]);
		assert_int_equal(unlink(p), 0);
	}
	for (size_t i = ARRAY_SIZE(made); i-- > 0;) {
		_cleanup_free_ char *p = at(made[i]);
		assert_int_equal(rmdir(p), 0);
	}
}

static bool unguarded(const struct plan *pl, const char *rel)
{
	_cleanup_free_ char *p = at(rel);
	return entry_list_has(&pl->unguarded, p);
}

/* A tool manager's and a hook manager's nested configs are protected when
 * there and left alone when not (an absent one would pin its directory on
 * macOS); the top-level names are reported when absent. One read of the
 * root answers for all of them. */
static void test_nested_configs_only_when_present(void **state)
{
	(void)state;
	/* one read answers for each writable root's rows, and for the home
	 * directory's (symlinks) */
	size_t roots = 0, homes = 0;
	for (const struct protected_rule *r = protected_rules; r->pattern; r++) {
		roots += !!(r->where & WHERE_EVERY_ROOT);
		homes += !!(r->where & WHERE_HOME);
		/* $XDG_CONFIG_HOME stands for ~/.config: its rows are those names */
		bool config = strncmp(r->pattern, ".config/", 8) == 0 && (r->where & WHERE_HOME);
		assert_int_equal(config, !!(r->where & WHERE_XDG_CONFIG));
		/* and $XDG_DATA_HOME for ~/.local/share */
		bool data = strncmp(r->pattern, ".local/share/", 13) == 0 && (r->where & WHERE_HOME);
		assert_int_equal(data, !!(r->where & WHERE_XDG_DATA));
	}
	assert_true(roots <= KJ_SCAN_MAX);
	assert_true(homes <= KJ_SCAN_MAX);

	static const char *const dirs[] = { "tm", "tm/.config", "tm/mise" };
	static const char *const files[] = { "tm/mise.toml", "tm/.config/mise.toml",
					     "tm/mise/config.toml", "tm/.config/lefthook.yml" };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		mk(dirs[i], true);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		mk(files[i], false);
	struct fixture f;
	char *envp[] = { NULL };
	fx_init_in(&f, true, "tm");
	assert_true(fx_build(&f, envp));
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		assert_non_null(find(&f.pl, OP_PROTECT, files[i]));
	assert_string_equal(find(&f.pl, OP_PROTECT, "tm/mise.toml")->rule,
			    "protected: tool manager config");
	assert_non_null(find(&f.pl, OP_PIN, "tm/.config"));
	assert_non_null(find(&f.pl, OP_PIN, "tm/mise"));
	/* absent nested ones: nothing, neither a rule nor a report */
	assert_null(find(&f.pl, OP_PROTECT, "tm/.config/mise"));
	assert_false(unguarded(&f.pl, "tm/.config/mise"));
	assert_false(unguarded(&f.pl, "tm/.config/lefthook-local.toml"));
	assert_false(unguarded(&f.pl, "tm/mise/config.local.toml"));
	/* absent top-level ones: reported if the jail makes them */
	assert_true(unguarded(&f.pl, "tm/.mise.toml"));
	assert_true(unguarded(&f.pl, "tm/.mise"));
	assert_true(unguarded(&f.pl, "tm/.helix"));
	assert_true(unguarded(&f.pl, "tm/.vimrc"));
	assert_true(unguarded(&f.pl, "tm/.exrc"));
	/* one rule for every absent name (protected.h): each one reported is
	 * renamed aside after the run, .envrc and .vscode as .git/commondir */
	assert_true(unguarded(&f.pl, "tm/.envrc"));
	assert_true(unguarded(&f.pl, "tm/.vscode"));
	fx_free(&f);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		_cleanup_free_ char *p = at(files[i]);
		assert_int_equal(unlink(p), 0);
	}
	for (size_t i = ARRAY_SIZE(dirs); i-- > 0;) {
		_cleanup_free_ char *p = at(dirs[i]);
		assert_int_equal(rmdir(p), 0);
	}
}

static void write_at(const char *rel, const char *text)
{
	_cleanup_free_ char *p = at(rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* config.worktree (the repository's, a linked worktree's, a submodule's):
 * under extensions.worktreeConfig git reads it, while the jail runs too,
 * so an absent one is made empty and pinned; without it, one the jail
 * makes is moved aside after the run. */
static void test_worktree_config(void **state)
{
	(void)state;
	static const char *const dirs[] = { "wr", "wr/.git", "wr/.git/worktrees", "wr/.git/worktrees/x",
					    "wr/.git/modules", "wr/.git/modules/m" };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		mk(dirs[i], true);
	mk("wr/.git/modules/m/HEAD", false);
	write_at("wr/.git/modules/m/config", "[core]\n\tbare = false\n");
	static const char *const wconfigs[] = { "wr/.git/config.worktree",
						"wr/.git/worktrees/x/config.worktree",
						"wr/.git/modules/m/config.worktree" };
	char *envp[] = { NULL };
	/* as root in another user's repository, what is made there is theirs */
	bool root_run = geteuid() == 0;
	if (root_run)
		for (size_t i = 1; i < ARRAY_SIZE(dirs); i++) {
			_cleanup_free_ char *p = at(dirs[i]);
			assert_int_equal(chown(p, 4242, 4343), 0);
		}
	for (int on = 0; on < 2; on++) {
		write_at("wr/.git/config", on ? "[core]\n\tbare = false\n[extensions]\n\tworktreeConfig\n"
					      : "[core]\n\tbare = false\n");
		if (on)
			write_at("wr/.git/modules/m/config",
				 "[extensions]\n\tworktreeConfig = true\n");
		for (int dry = 1; dry >= 0; dry--) {
			struct fixture f;
			fx_init_in(&f, dry, "wr");
			assert_true(fx_build(&f, envp));
			for (size_t i = 0; i < ARRAY_SIZE(wconfigs); i++) {
				_cleanup_free_ char *p = at(wconfigs[i]);
				struct stat st;
				bool made = lstat(p, &st) == 0;
				if (on) {
					assert_non_null(find(&f.pl, OP_PROTECT, wconfigs[i]));
					assert_true(entry_list_has(&f.pl.created, p));
					assert_false(entry_list_has(&f.pl.unguarded, p));
					/* made only for a real run, empty */
					assert_int_equal(made, !dry);
					if (made)
						assert_int_equal(st.st_size, 0);
					if (made && root_run) {
						assert_int_equal(st.st_uid, 4242);
						assert_int_equal(st.st_gid, 4343);
					}
				} else {
					assert_null(find(&f.pl, OP_PROTECT, wconfigs[i]));
					assert_true(entry_list_has(&f.pl.unguarded, p));
					assert_true(unguarded(&f.pl, wconfigs[i]));
					assert_false(made);
				}
				if (made)
					assert_int_equal(unlink(p), 0);
			}
			/* a linked worktree's link to the common directory: git
			 * always makes it, so one the jail makes is moved aside */
			_cleanup_free_ char *common = at("wr/.git/worktrees/x/commondir");
			assert_true(entry_list_has(&f.pl.unguarded, common));
			fx_free(&f);
		}
	}
	remove_tree("wr");
}

/* A linked worktree as the workspace: its common directory's worktrees/
 * is sealed (no new entry: git worktree add fails at its first step),
 * the worktrees under it pinned writable; a seal wins over the pin an
 * entry's protection makes of it. kjail -- git worktree add is refused
 * in one line; any other git command, or git worktree add from the main
 * repository, is planned. */
static void test_linked_worktree_sealed(void **state)
{
	(void)state;
	static const char *const dirs[] = { "lr", "lr/.git", "lr/.git/worktrees",
					    "lr/.git/worktrees/lw", "lr/.git/worktrees/o", "lw" };
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
		mk(dirs[i], true);
	write_at("lr/.git/HEAD", "ref: refs/heads/main\n");
	write_at("lr/.git/config", "[core]\n\tbare = false\n");
	write_at("lr/.git/worktrees/lw/HEAD", "ref: refs/heads/lw\n");
	write_at("lr/.git/worktrees/lw/commondir", "../..\n");
	write_at("lr/.git/worktrees/o/HEAD", "ref: refs/heads/o\n");
	_cleanup_free_ char *back = xasprintf("%s/lw/.git\n", root);
	write_at("lr/.git/worktrees/lw/gitdir", back);
	_cleanup_free_ char *link = xasprintf("gitdir: %s/lr/.git/worktrees/lw\n", root);
	write_at("lw/.git", link);
	char *envp[] = { NULL };
	struct fixture f;
	fx_init_in(&f, true, "lw");
	assert_true(plan_build(&f.p, &f.h, envp, &f.pl, f.err, sizeof f.err));
	const struct op *seal = find(&f.pl, OP_SEAL, "lr/.git/worktrees");
	assert_non_null(seal);
	assert_true(str_has_prefix(seal->rule, "sealed: "));
	assert_null(find(&f.pl, OP_PIN, "lr/.git/worktrees"));
	assert_non_null(find(&f.pl, OP_PIN, "lr/.git/worktrees/lw"));
	assert_non_null(find(&f.pl, OP_PIN, "lr/.git/worktrees/o"));
	_cleanup_free_ char *wts = at("lr/.git/worktrees");
	assert_false(entry_list_has(&f.pl.watched, wts));
	fx_free(&f);

	char *add[] = { "git", "worktree", "add", "../w2", NULL };
	fx_init_in(&f, true, "lw");
	f.h.command = add;
	assert_false(plan_build(&f.p, &f.h, envp, &f.pl, f.err, sizeof f.err));
	assert_null(strchr(f.err, '\n'));
	assert_non_null(strstr(f.err, wts));
	assert_non_null(strstr(f.err, "run git worktree add outside kjail"));
	fx_free(&f);

	char *status[] = { "git", "status", NULL };
	fx_init_in(&f, true, "lw");
	f.h.command = status;
	assert_true(plan_build(&f.p, &f.h, envp, &f.pl, f.err, sizeof f.err));
	fx_free(&f);

	fx_init_in(&f, true, "lr");
	f.h.command = add;
	assert_true(plan_build(&f.p, &f.h, envp, &f.pl, f.err, sizeof f.err));
	assert_null(find(&f.pl, OP_SEAL, "lr/.git/worktrees"));
	fx_free(&f);
	remove_tree("lr");
	remove_tree("lw");
}

/* The user's git config where a writable root holds it, repository or
 * not, and what it names by an absolute path; absent, moved aside. */
static void test_global_git_config_in_workspace(void **state)
{
	(void)state;
	mk("nr", true);
	mk("nr/bin", true);
	mk("nr/bin/fsmon.sh", false);
	_cleanup_free_ char *fsmon = at("nr/bin/fsmon.sh");
	_cleanup_free_ char *text = xasprintf("[core]\n\tfsmonitor = %s --fast\n", fsmon);
	write_at("nr/gc", text);
	char *envp[] = { NULL };
	struct fixture f;
	fx_init_in(&f, true, "nr");
	_cleanup_free_ char *gc = at("nr/gc");
	f.h.git_config_global = gc;
	assert_true(fx_build(&f, envp));
	const struct op *o = find(&f.pl, OP_PROTECT, "nr/gc");
	assert_non_null(o);
	assert_string_equal(o->rule, "protected: git config read in every repository");
	assert_non_null(find(&f.pl, OP_PROTECT, "nr/bin/fsmon.sh"));
	fx_free(&f);

	fx_init_in(&f, true, "nr");
	_cleanup_free_ char *absent = at("nr/absent.gitconfig");
	f.h.git_config_global = absent;
	assert_true(fx_build(&f, envp));
	assert_true(entry_list_has(&f.pl.unguarded, absent));
	fx_free(&f);
	remove_tree("nr");
}

/* A name of the home directory that is a symlink into a writable root
 * (dotfiles kept in the workspace): what it leads to is protected there,
 * for ~/.config's names too; a symlink leading elsewhere adds nothing. */
static void test_home_links_into_workspace(void **state)
{
	(void)state;
	static const char *const dirs[] = { "lh", "lh/.config", "dots", "dots/nvim" };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		mk(dirs[i], true);
	mk("dots/bashrc", false);
	static const char *const links[][2] = { { "dots/bashrc", "lh/.bashrc" },
						{ "dots/nvim", "lh/.config/nvim" },
						{ "other", "lh/.zshrc" } };
	for (size_t i = 0; i < ARRAY_SIZE(links); i++) {
		_cleanup_free_ char *to = at(links[i][0]);
		_cleanup_free_ char *from = at(links[i][1]);
		assert_int_equal(symlink(to, from), 0);
	}
	char *envp[] = { NULL };
	struct fixture f;
	fx_init_in(&f, true, "dots");
	free(f.home);
	f.home = at("lh");
	f.h.home = f.home;
	assert_true(fx_build(&f, envp));
	const struct op *o = find(&f.pl, OP_PROTECT, "dots/bashrc");
	assert_non_null(o);
	assert_string_equal(o->rule, "protected: shell startup file");
	assert_non_null(find(&f.pl, OP_PROTECT, "dots/nvim"));
	assert_null(find(&f.pl, OP_PROTECT, "other"));
	fx_free(&f);
	remove_tree("lh");
	remove_tree("dots");
}

/* Config files git includes, named from .git/config: present ones are
 * protected, absent ones moved aside if made; too many, or one too big to
 * read, fail the plan. */
static void test_git_includes(void **state)
{
	(void)state;
	struct fixture f;
	char *envp[] = { NULL };
	_cleanup_free_ char *cfg = at("ws/.git/config");
	FILE *c = fopen(cfg, "w");
	assert_non_null(c);
	fputs("[include]\n\tpath = ../shared.gitconfig\n[includeIf \"gitdir:/\"] path = ../absent.gitconfig\n", c);
	fclose(c);
	mk("ws/shared.gitconfig", false);
	fx_init(&f, true);
	assert_true(fx_build(&f, envp));
	assert_non_null(find(&f.pl, OP_PROTECT, "ws/shared.gitconfig"));
	_cleanup_free_ char *absent = at("ws/absent.gitconfig");
	assert_true(entry_list_has(&f.pl.unguarded, absent));
	assert_true(entry_list_has(&f.pl.unguarded, absent));
	fx_free(&f);

	/* more included files than kjail reads: no plan, and the file named */
	c = fopen(cfg, "w");
	assert_non_null(c);
	fputs("[include]\n", c);
	for (int i = 0; i < 300; i++)
		fprintf(c, "\tpath = ../inc%d\n", i);
	fclose(c);
	fx_init(&f, true);
	assert_false(fx_build(&f, envp));
	_cleanup_free_ char *want = xasprintf("%s: git config includes more than 256 files", cfg);
	if (strncmp(f.err, want, strlen(want)) != 0)
		fail_msg("got: %s", f.err);
	fx_free(&f);

	/* a config file too big to read: no plan either (git reads it all) */
	_cleanup_free_ char *big = at("ws/shared.gitconfig");
	c = fopen(big, "w");
	assert_non_null(c);
	for (int i = 0; i < 40000; i++)
		fputs("[alias]\n\tx = status --short\n", c);
	fclose(c);
	c = fopen(cfg, "w");
	assert_non_null(c);
	fputs("[include]\n\tpath = ../shared.gitconfig\n", c);
	fclose(c);
	fx_init(&f, true);
	assert_false(fx_build(&f, envp));
	_cleanup_free_ char *want_big = xasprintf("%s: git config file over 1 MiB", big);
	if (strncmp(f.err, want_big, strlen(want_big)) != 0)
		fail_msg("got: %s", f.err);
	fx_free(&f);

	/* put back the fixture's empty config */
	c = fopen(cfg, "w");
	assert_non_null(c);
	fclose(c);
	_cleanup_free_ char *shared = at("ws/shared.gitconfig");
	assert_int_equal(unlink(shared), 0);
}

/* The credential stores a variable moves are masked where it says, and
 * at the default too: $GH_CONFIG_DIR, each absolute entry of $KUBECONFIG,
 * $DOCKER_CONFIG/config.json, $XDG_DATA_HOME's keyrings, and ~/.config's
 * glab-cli although $XDG_CONFIG_HOME is elsewhere. */
static void test_masks_follow_variables(void **state)
{
	(void)state;
	static const char *const dirs[] = { "vars", "vars/gh", "vars/docker", "vars/xd",
					    "vars/xd/keyrings", "vars/xc", "home/.config/glab-cli" };
	static const char *const files[] = { "vars/kube-a", "vars/kube-b", "vars/docker/config.json" };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		mk(dirs[i], true);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		mk(files[i], false);
	_cleanup_free_ char *gh = xasprintf("GH_CONFIG_DIR=%s/vars/gh", root);
	_cleanup_free_ char *kube = xasprintf("KUBECONFIG=%s/vars/kube-a:kube-rel::%s/vars/kube-b",
					      root, root);
	_cleanup_free_ char *docker = xasprintf("DOCKER_CONFIG=%s/vars/docker", root);
	_cleanup_free_ char *xd = at("vars/xd"), *xc = at("vars/xc");
	char *envp[] = { gh, kube, docker, NULL };
	struct fixture f;
	fx_init(&f, false);
	f.h.env = envp;
	f.h.xdg_data_home = xd;
	f.h.xdg_config_home = xc;
	char *none[] = { NULL };
	assert_true(fx_build(&f, none));
	static const struct {
		enum op_kind k;
		const char *rel, *origin;
	} want[] = {
		{ OP_MASK_DIR, "vars/gh", "built-in credential store ($GH_CONFIG_DIR)" },
		{ OP_MASK_FILE, "vars/kube-a", "built-in credential store ($KUBECONFIG)" },
		{ OP_MASK_FILE, "vars/kube-b", "built-in credential store ($KUBECONFIG)" },
		{ OP_MASK_FILE, "vars/docker/config.json", "built-in credential store ($DOCKER_CONFIG)" },
		{ OP_MASK_DIR, "vars/xd/keyrings", "built-in credential store ($XDG_DATA_HOME)" },
		{ OP_MASK_DIR, "home/.config/glab-cli", "built-in credential store" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const struct op *o = find(&f.pl, want[i].k, want[i].rel);
		assert_non_null(o);
		assert_string_equal(o->origin, want[i].origin);
	}
	fx_free(&f);
	remove_tree("vars");
	remove_tree("home/.config/glab-cli");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_plan),
		cmocka_unit_test(test_hooks_created_when_running),
		cmocka_unit_test(test_masks_resolved_nested_and_inside_workspace),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_skips_only_for_explain),
		cmocka_unit_test(test_masks_follow_variables),
		cmocka_unit_test(test_home_as_workspace),
		cmocka_unit_test(test_root_read_only_devices_and_proc),
		cmocka_unit_test(test_xdg_config_home_in_workspace),
		cmocka_unit_test(test_git_includes),
		cmocka_unit_test(test_nested_configs_only_when_present),
		cmocka_unit_test(test_worktree_config),
		cmocka_unit_test(test_linked_worktree_sealed),
		cmocka_unit_test(test_global_git_config_in_workspace),
		cmocka_unit_test(test_home_links_into_workspace),
		cmocka_unit_test(test_no_network_proxied),
		cmocka_unit_test(test_ssh_known_hosts_and_config),
		cmocka_unit_test(test_net_log),
	};
	return unit_status(cmocka_run_group_tests(tests, setup, teardown));
}
