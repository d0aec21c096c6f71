/* SPDX-License-Identifier: MIT */
/* Sandbox hints (src/kli/hint/hint.c): kjail's policy as kli reads it, the
 * verdict on a path, and the hint for each denial signature in the words
 * real tools print, and none for failures the jail did not cause. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "unit-skip.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hint/egress.h"
#include "hint/hint.h"
#include "path.h"
#include "util.h"

/* A jail the way kjail describes it: the workspace /w, a protected hooks
 * directory in it, a built-in mask on a directory, a config mask on a file,
 * a flag mask, a mask inside the workspace, no network from the config. */
static const char POLICY[] =
	"{\"type\":\"policy\",\"backend\":\"bwrap\",\"bwrap\":\"/usr/bin/bwrap\","
	"\"sources\":[\"/etc/kjail/config.ini\"],\"workspace\":\"/w\","
	"\"network\":{\"enabled\":false,\"origin\":\"/etc/kjail/config.ini:3\"},"
	"\"nested_userns\":false,\"mounts\":["
	"{\"path\":\"/\",\"verdict\":\"read-only\",\"rule\":\"read-only\",\"origin\":\"host root\"},"
	"{\"path\":\"/proc\",\"verdict\":\"private\",\"rule\":\"private\","
	"\"origin\":\"the jail's own processes\"},"
	"{\"path\":\"/tmp\",\"verdict\":\"private\",\"rule\":\"private\",\"origin\":\"empty tmpfs\"},"
	"{\"path\":\"/w\",\"verdict\":\"writable\",\"rule\":\"workspace\","
	"\"origin\":\"current directory\"},"
	"{\"path\":\"/w/.git/hooks\",\"verdict\":\"read-only\",\"rule\":\"protected: git hooks\","
	"\"origin\":\"built-in protection inside writable /w\"},"
	"{\"path\":\"/w/keys\",\"verdict\":\"masked\",\"rule\":\"masked\",\"origin\":\"--deny-read\"},"
	"{\"path\":\"/home/u/.aws\",\"verdict\":\"masked\",\"rule\":\"masked\","
	"\"origin\":\"built-in credential store\"},"
	"{\"path\":\"/srv/secret.txt\",\"verdict\":\"masked\",\"rule\":\"masked\","
	"\"origin\":\"/etc/kjail/config.ini:7\"},"
	"{\"path\":\"/x\",\"verdict\":\"masked\",\"rule\":\"masked\",\"origin\":\"--deny-read\"},"
	"{\"path\":\"/w/.git/config\",\"verdict\":\"read-only\",\"rule\":\"protected: git config\","
	"\"origin\":\"built-in protection inside writable /w\"}],"
	"\"created\":[],\"unprotected\":[],\"skipped\":[{\"path\":\"/home/u/.ssh\","
	"\"why\":\"missing, nothing to mask (built-in credential store)\"}],"
	"\"env_unset\":[{\"name\":\"GITHUB_TOKEN\",\"rule\":\"built-in secret scrub, pattern *_TOKEN\"}],"
	"\"allow_userns\":false,\"seccomp\":[],\"landlock\":\"not available\"}";

static bool fake_is_file(const char *path)
{
	return strcmp(path, "/srv/secret.txt") == 0;
}

static struct jail_policy *policy(void)
{
	struct jail_policy *p = jail_policy_parse(POLICY, strlen(POLICY), fake_is_file);
	assert_non_null(p);
	return p;
}

static const struct hint_env ENV = { .cwd = "/w", .home = "/home/u" };

/* The hint, or NULL, for COMMAND with OUTPUT (exit 1) under ENV. */
static char *hint(const struct jail_policy *p, const struct hint_env *env, const char *command,
		  const char *output)
{
	return hint_for(p, env, command, 1, output);
}

static void expect_has(const char *text, const char *want)
{
	if (!text)
		fail_msg("no hint; wanted one with \"%s\"", want);
	if (!strstr(text, want))
		fail_msg("\"%s\" is not in:\n%s", want, text);
}

static void expect_none(const struct jail_policy *p, const struct hint_env *env,
			const char *command, const char *output)
{
	char *h = hint(p, env, command, output);
	if (h)
		fail_msg("%s: unexpected hint:\n%s", command, h);
}

/* ------------------------------------------------------------ policy */

static void test_parse(void **state)
{
	(void)state;
	struct jail_policy *p = policy();
	assert_int_equal(p->nmounts, 10);
	assert_string_equal(p->workspace, "/w");
	assert_true(p->network_known);
	assert_false(p->network);
	assert_string_equal(p->network_origin, "/etc/kjail/config.ini:3");
	assert_string_equal(p->mounts[4].rule, "protected: git hooks");
	assert_string_equal(p->mounts[4].origin, "built-in protection inside writable /w");
	assert_false(p->mounts[6].exact);
	assert_true(p->mounts[7].exact);
	jail_policy_free(p);

	/* A minimal policy: rule and origin fall back, no network known. */
	const char *min = "{\"type\":\"policy\",\"mounts\":[{\"path\":\"/\",\"verdict\":\"read-only\"}]}";
	p = jail_policy_parse(min, strlen(min), NULL);
	assert_non_null(p);
	assert_string_equal(p->mounts[0].rule, "read-only");
	assert_string_equal(p->mounts[0].origin, "origin not given");
	assert_false(p->network_known);
	jail_policy_free(p);
	jail_policy_free(NULL);
}

static void expect_bad_policy(const char *text)
{
	struct jail_policy *p = jail_policy_parse(text, strlen(text), NULL);
	if (p)
		fail_msg("accepted: %s", text);
}

static void test_parse_bad(void **state)
{
	(void)state;
	assert_null(jail_policy_parse(NULL, 0, NULL));
	expect_bad_policy("");
	expect_bad_policy("{");
	expect_bad_policy("not json");
	expect_bad_policy("[]");
	expect_bad_policy("{}");
	expect_bad_policy("{\"type\":\"verdicts\",\"mounts\":[]}");
	expect_bad_policy("{\"type\":\"policy\"}");
	expect_bad_policy("{\"type\":\"policy\",\"mounts\":{}}");
	expect_bad_policy("{\"type\":\"policy\",\"mounts\":[1]}");
	expect_bad_policy("{\"type\":\"policy\",\"mounts\":[{\"path\":\"rel\",\"verdict\":\"masked\"}]}");
	expect_bad_policy("{\"type\":\"policy\",\"mounts\":[{\"path\":\"/\"}]}");
	expect_bad_policy("{\"type\":\"policy\",\"mounts\":[{\"path\":\"/\",\"verdict\":7}]}");
	expect_bad_policy("{\"type\":\"policy\",\"mounts\":[{\"path\":\"/\",\"verdict\":\"x\","
			  "\"origin\":[]}]}");
	expect_bad_policy("{\"type\":\"policy\",\"mounts\":[],\"network\":{\"enabled\":\"no\"}}");
	expect_bad_policy("{\"type\":\"policy\",\"mounts\":[],\"network\":false}");
	expect_bad_policy("{\"type\":\"policy\",\"type\":\"policy\",\"mounts\":[]}");
	/* Every cut of a good policy: no crash, and never half a policy. */
	for (size_t n = 0; n < strlen(POLICY); n++) {
		struct jail_policy *p = jail_policy_parse(POLICY, n, NULL);
		assert_null(p);
	}
	/* Bytes that are not text at all. */
	char junk[256];
	for (size_t i = 0; i < sizeof junk; i++)
		junk[i] = (char)(i * 37 + 11);
	assert_null(jail_policy_parse(junk, sizeof junk, NULL));
}

static void test_load(void **state)
{
	(void)state;
	char tmpl[] = "test_kli_hint.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	_cleanup_free_ char *dir = path_resolve(tmpl, getcwd((char[4096]){ 0 }, 4096));
	_cleanup_free_ char *file = path_join(dir, "policy.json");
	_cleanup_free_ char *fifo = path_join(dir, "fifo");
	_cleanup_free_ char *big = path_join(dir, "big.json");
	FILE *f = fopen(file, "w");
	assert_non_null(f);
	fputs(POLICY, f);
	fclose(f);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	f = fopen(big, "w");
	assert_non_null(f);
	for (int i = 0; i < 1100; i++)
		fprintf(f, "%1024s", " ");
	fclose(f);

	struct jail_policy *p = jail_policy_load(file);
	assert_non_null(p);
	assert_int_equal(p->nmounts, 10);
	jail_policy_free(p);
	assert_null(jail_policy_load(fifo));   /* no hang, no policy */
	assert_null(jail_policy_load(big));    /* over 1 MiB */
	assert_null(jail_policy_load(dir));    /* a directory */
	assert_null(jail_policy_load("policy.json")); /* relative */
	assert_null(jail_policy_load(NULL));
	_cleanup_free_ char *missing = path_join(dir, "missing.json");
	assert_null(jail_policy_load(missing));

	unlink(file);
	unlink(fifo);
	unlink(big);
	rmdir(dir);
}

/* ------------------------------------------------------------ verdicts */

static const char *verdict(const struct jail_policy *p, const char *path)
{
	const struct jail_mount *m = jail_verdict_for(p, path);
	return m ? m->rule : "(none)";
}

static void test_verdict(void **state)
{
	(void)state;
	struct jail_policy *p = policy();
	/* The last mount equal to or above the path decides it. */
	assert_string_equal(verdict(p, "/"), "read-only");
	assert_string_equal(verdict(p, "/etc/x"), "read-only");
	assert_string_equal(jail_verdict_for(p, "/etc/x")->origin, "host root");
	assert_string_equal(verdict(p, "/w"), "workspace");
	assert_string_equal(verdict(p, "/w/src/a.c"), "workspace");
	assert_string_equal(verdict(p, "/w/.git/hooks"), "protected: git hooks");
	assert_string_equal(verdict(p, "/w/.git/hooks/pre-commit"), "protected: git hooks");
	assert_string_equal(verdict(p, "/w/.git/configx"), "workspace");
	assert_string_equal(verdict(p, "/w/keys/id"), "masked");
	assert_string_equal(verdict(p, "/tmp/x"), "private");
	/* Component-wise: a shared prefix of letters is not an ancestor. */
	assert_string_equal(verdict(p, "/wx"), "read-only");
	assert_string_equal(verdict(p, "/w/.git/hooksy"), "workspace");
	assert_string_equal(verdict(p, "/home/u/.awsx"), "read-only");
	assert_string_equal(verdict(p, "/home/u/.aws"), "masked");
	assert_string_equal(jail_verdict_for(p, "/home/u/.aws/credentials")->origin,
			    "built-in credential store");
	/* A file mask decides its own path only. */
	assert_string_equal(jail_verdict_for(p, "/srv/secret.txt")->origin,
			    "/etc/kjail/config.ini:7");
	assert_string_equal(verdict(p, "/srv/secret.txt/x"), "read-only");
	assert_string_equal(verdict(p, "/srv"), "read-only");
	/* Not a clean absolute path: no verdict. */
	assert_null(jail_verdict_for(p, "etc"));
	assert_null(jail_verdict_for(p, NULL));
	assert_null(jail_verdict_for(NULL, "/etc"));
	jail_policy_free(p);

	/* Later mounts stack over earlier ones, whatever their verdict. */
	const char *stack =
		"{\"type\":\"policy\",\"mounts\":["
		"{\"path\":\"/\",\"verdict\":\"read-only\",\"rule\":\"read-only\",\"origin\":\"host root\"},"
		"{\"path\":\"/a/b\",\"verdict\":\"masked\",\"rule\":\"masked\",\"origin\":\"one\"},"
		"{\"path\":\"/a\",\"verdict\":\"writable\",\"rule\":\"workspace\",\"origin\":\"two\"}]}";
	p = jail_policy_parse(stack, strlen(stack), NULL);
	assert_non_null(p);
	assert_string_equal(jail_verdict_for(p, "/a/b/c")->origin, "two");
	jail_policy_free(p);
	/* No root mount: nothing decides an unrelated path. */
	const char *bare = "{\"type\":\"policy\",\"mounts\":[{\"path\":\"/a\",\"verdict\":\"masked\"}]}";
	p = jail_policy_parse(bare, strlen(bare), NULL);
	assert_null(jail_verdict_for(p, "/b"));
	jail_policy_free(p);
}

/* ------------------------------------------------------------ writes */

static void test_write_exact_text(void **state)
{
	(void)state;
	struct jail_policy *p = policy();
	char *h = hint(p, &ENV, "touch /etc/x", "touch: cannot touch '/etc/x': Read-only file system\n");
	assert_non_null(h);
	assert_string_equal(h, "sandbox denied (likely): command='touch /etc/x'\n"
			       "  exit: 1\n"
			       "  observed: touch: cannot touch '/etc/x': Read-only file system\n"
			       "  likely rule: read-only (host root)\n"
			       "  why: /etc holds what runs later as root or as you (system "
			       "configuration, programs, shell startup files, ~/.ssh): the jail keeps "
			       "it read-only on purpose\n"
			       "  fix: none inside the jail: make this change outside the jail "
			       "yourself, if it is one you want\n");
	free(h);
	jail_policy_free(p);
}

struct variant {
	const char *command, *output, *dir;
};

static void test_write_variants(void **state)
{
	(void)state;
	struct jail_policy *p = policy();
	static const struct variant v[] = {
		{ "touch /etc/x", "touch: cannot touch '/etc/x': Read-only file system", "/etc" },
		{ "echo > /etc/x", "sh: 1: cannot create /etc/x: Read-only file system", "/etc" },
		{ "echo > /etc/x", "bash: line 1: /etc/x: Read-only file system", "/etc" },
		{ "echo > /etc/x", "bash: /etc/x: Read-only file system", "/etc" },
		{ "mkdir /usr/x",
		  "mkdir: cannot create directory \xe2\x80\x98/usr/x\xe2\x80\x99: Read-only file system",
		  "/usr" },
		{ "mkdir /usr/x", "mkdir: cannot create directory '/usr/x': Read-only file system",
		  "/usr" },
		{ "cp a /opt/b", "cp: cannot create regular file '/opt/b': Read-only file system",
		  "/opt" },
		{ "mv a /opt/b", "mv: cannot move 'a' to '/opt/b': Read-only file system", "/opt" },
		{ "rm /etc/x", "rm: cannot remove '/etc/x': Read-only file system", "/etc" },
		{ "python3 w.py",
		  "OSError: [Errno 30] Read-only file system: '/etc/x'", "/etc" },
		{ "python3 w.py",
		  "PermissionError: [Errno 13] Permission denied: '/var/lib/x'", NULL },
		{ "npm i -g x",
		  "npm ERR! Error: EROFS: read-only file system, mkdir '/usr/lib/node_modules/x'",
		  "/usr/lib/node_modules" },
		{ "npm i -g x",
		  "npm ERR! Error: EACCES: permission denied, mkdir '/usr/lib/node_modules/x'",
		  "/usr/lib/node_modules" },
		{ "tar xf t.tar -C /etc", "tar: /etc/x: Cannot open: Read-only file system", "/etc" },
		{ "touch /etc/x", "touch: /etc/x: Read-only file system", "/etc" },
		{ "touch /etc/x", "touch: cannot touch '/etc/x': Permission denied", "/etc" },
		{ "chmod +x /usr/bin/y",
		  "chmod: changing permissions of '/usr/bin/y': Operation not permitted", "/usr/bin" },
		{ "touch /etc/x", "touch: cannot touch \"/etc/x\": Read-only file system", "/etc" },
		{ "git clone r /srv/r",
		  "fatal: could not create work tree dir '/srv/r': Read-only file system", "/srv" },
		/* After "cd", a relative name is taken from there. */
		{ "cd /etc && touch x", "touch: cannot touch 'x': Read-only file system", "/etc" },
		{ "cd /etc; echo > y", "sh: 1: cannot create y: Read-only file system", "/etc" },
		/* ~ in the message. */
		{ "touch ~/x", "touch: cannot touch '/home/u/x': Read-only file system", "/home/u" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		char *h = hint(p, &ENV, v[i].command, v[i].output);
		if (!v[i].dir) {
			if (h)
				fail_msg("%s: unexpected hint:\n%s", v[i].output, h);
			continue;
		}
		if (!h)
			fail_msg("no hint for: %s", v[i].output);
		_cleanup_free_ char *want_obs = xasprintf("  observed: %s\n", v[i].output);
		/* never --writable onto what runs later as root or as the user */
		bool danger = str_has_prefix(v[i].dir, "/etc") || str_has_prefix(v[i].dir, "/usr") ||
			      strcmp(v[i].dir, "/home/u") == 0;
		_cleanup_free_ char *want_fix =
			danger ? xstrdup("  fix: none inside the jail: make this change outside the "
					 "jail yourself, if it is one you want\n")
			       : xasprintf("  fix: kjail --writable %s, or run it outside the jail "
					   "yourself\n", v[i].dir);
		expect_has(h, want_obs);
		expect_has(h, "  likely rule: read-only (host root)\n");
		expect_has(h, want_fix);
		free(h);
	}
	jail_policy_free(p);
}

static bool only_some_dirs(const char *dir)
{
	return strcmp(dir, "/") == 0 || strcmp(dir, "/srv") == 0;
}

static int erofs(const char *path)
{
	(void)path;
	return EROFS;
}

static int eacces(const char *path)
{
	(void)path;
	return EACCES;
}

static void test_write_fs_questions(void **state)
{
	(void)state;
	struct jail_policy *p = policy();
	/* The fix names the nearest directory that exists. */
	struct hint_env env = ENV;
	env.is_dir = only_some_dirs;
	char *h = hint(p, &env, "mkdir -p /srv/a/b/c",
		       "mkdir: cannot create directory '/srv/a/b': Read-only file system");
	expect_has(h, "  fix: kjail --writable /srv, or run it outside the jail yourself\n");
	free(h);
	/* ...but never onto what runs later as root or as the user */
	h = hint(p, &ENV, "echo x >> ~/.bashrc",
		 "bash: /home/u/.bashrc: Read-only file system");
	expect_has(h, "  fix: none inside the jail");
	free(h);
	h = hint(p, &ENV, "cp k ~/.ssh/authorized_keys",
		 "cp: cannot create regular file '/home/u/.ssh/authorized_keys': Read-only file system");
	expect_has(h, "  fix: none inside the jail");
	free(h);
	h = hint(p, &ENV, "tee /etc/sudoers.d/x", "tee: /etc/sudoers.d/x: Read-only file system");
	expect_has(h, "  fix: none inside the jail");
	free(h);
	/* and no write hint at all for a command that succeeded */
	h = hint_for(p, &ENV, "touch /srv/x", 0, "touch: /srv/x: Read-only file system\n");
	assert_null(h);
	free(h);

	/* EACCES: the jail's when the mount refuses writes there... */
	env = ENV;
	env.write_errno = erofs;
	h = hint(p, &env, "cat /etc/shadow", "cat: /etc/shadow: Permission denied");
	expect_has(h, "likely rule: read-only (host root)");
	free(h);
	/* ...not when the file's own mode does (a read refused, or a write
	 * that would be refused outside the jail too). */
	env.write_errno = eacces;
	expect_none(p, &env, "touch /root/x", "touch: cannot touch '/root/x': Permission denied");
	expect_none(p, &env, "cat /etc/shadow", "cat: /etc/shadow: Permission denied");
	/* EROFS is the mount's by definition. */
	h = hint(p, &env, "touch /etc/x", "touch: cannot touch '/etc/x': Read-only file system");
	expect_has(h, "read-only (host root)");
	free(h);
	/* Without the question, EACCES counts only for a write. */
	expect_none(p, &ENV, "cat /etc/shadow", "cat: /etc/shadow: Permission denied");
	expect_none(p, &ENV, "ls /root", "ls: cannot open directory '/root': Permission denied");
	jail_policy_free(p);
}

static void test_write_protected(void **state)
{
	(void)state;
	struct jail_policy *p = policy();
	char *h = hint(p, &ENV, "echo x > .git/hooks/pre-commit",
		       "bash: line 1: .git/hooks/pre-commit: Read-only file system\n");
	expect_has(h, "  likely rule: protected: git hooks (built-in protection inside writable /w)\n");
	expect_has(h, "protected on purpose");
	expect_has(h, "run later, outside the jail");
	expect_has(h, "  fix: none inside the jail: make this change outside the jail yourself\n");
	free(h);
	/* git renames its lock onto a protected file: EBUSY, which names the
	 * rule, and for git config the way round it */
	h = hint(p, &ENV, "git config user.name X",
		 "error: could not write config file .git/config: Device or resource busy\n");
	expect_has(h, "  likely rule: protected: git config (built-in protection inside writable /w)\n");
	expect_has(h, "git -c NAME=VALUE");
	free(h);
	h = hint(p, &ENV, "git checkout main",
		 "error: unable to unlink old '.git/hooks/pre-commit': Device or resource busy\n");
	expect_has(h, "  likely rule: protected: git hooks (built-in protection inside writable /w)\n");
	free(h);
	/* EBUSY elsewhere (a mount point, a busy device) is no protection */
	expect_none(p, &ENV, "umount /w", "umount: /w: target is busy: Device or resource busy");
	/* A write into a mask. */
	h = hint(p, &ENV, "echo k > ~/.aws/credentials",
		 "bash: /home/u/.aws/credentials: Read-only file system");
	expect_has(h, "  likely rule: masked (built-in credential store)\n");
	expect_has(h, "nothing can be written");
	free(h);
	/* The jail's own /proc. */
	h = hint(p, &ENV, "sysctl -w a.b=1",
		 "sysctl: cannot set /proc/sys/a/b: Read-only file system");
	expect_has(h, "  likely rule: private (the jail's own processes)\n");
	expect_has(h, "  fix: run it outside the jail yourself\n");
	free(h);
	jail_policy_free(p);
}

/* ------------------------------------------------------------ masks */

static void test_mask_reads(void **state)
{
	(void)state;
	struct jail_policy *p = policy();
	/* A built-in mask on a directory: the file is missing inside. */
	char *h = hint(p, &ENV, "cat ~/.aws/credentials",
		       "cat: /home/u/.aws/credentials: No such file or directory\n");
	assert_non_null(h);
	assert_string_equal(
		h, "sandbox denied (likely): command='cat ~/.aws/credentials'\n"
		   "  exit: 1\n"
		   "  observed: cat: /home/u/.aws/credentials: No such file or directory\n"
		   "  likely rule: masked (built-in credential store)\n"
		   "  why: /home/u/.aws is masked in the jail: a file there reads as empty, a "
		   "directory lists nothing\n"
		   "  fix: kjail --no-defaults (it drops every built-in mask and the environment "
		   "scrub, not only this one), or move what you need out of /home/u/.aws, or run "
		   "it outside the jail yourself\n");
	free(h);
	static const char *const home_forms[] = {
		"cat $HOME/.aws/credentials", "cat \"${HOME}/.aws/config\"",
		"grep key ~/.aws/*", "wc -c < ~/.aws/credentials", "x=$(cat ~/.aws/credentials)",
		"ls ~/.aws",
	};
	for (size_t i = 0; i < ARRAY_SIZE(home_forms); i++) {
		h = hint_for(p, &ENV, home_forms[i], 0, "");
		expect_has(h, "  observed: (no output)\n");
		expect_has(h, "  likely rule: masked (built-in credential store)\n");
		free(h);
	}
	/* A config mask on a file: it reads as empty. */
	h = hint_for(p, &ENV, "cat /srv/secret.txt", 0, "");
	expect_has(h, "  exit: 0\n");
	expect_has(h, "  likely rule: masked (/etc/kjail/config.ini:7)\n");
	expect_has(h, "  why: /srv/secret.txt is masked in the jail: it reads as empty\n");
	expect_has(h, "  fix: remove the deny-read for /srv/secret.txt at /etc/kjail/config.ini:7, "
		      "or run it outside the jail yourself\n");
	free(h);
	/* A flag mask. */
	h = hint_for(p, &ENV, "head -c 100 /x/data.bin | xxd", 0, "");
	expect_has(h, "  likely rule: masked (--deny-read)\n");
	expect_has(h, "  fix: kjail without --deny-read /x, or run it outside the jail yourself\n");
	free(h);
	/* Relative to the working directory, and in an option's value. */
	h = hint_for(p, &ENV, "cat keys/id_rsa", 1, "cat: keys/id_rsa: No such file or directory\n");
	expect_has(h, "  observed: cat: keys/id_rsa: No such file or directory\n");
	expect_has(h, "--deny-read /w/keys");
	free(h);
	h = hint_for(p, &ENV, "tool --key-file=/x/k", 1, "tool: empty key\n");
	expect_has(h, "  observed: tool: empty key\n");
	expect_has(h, "masked (--deny-read)");
	free(h);
	/* Named only in the output. */
	h = hint_for(p, &ENV, "python3 read.py", 1,
		     "Traceback (most recent call last):\n"
		     "FileNotFoundError: [Errno 2] No such file or directory: "
		     "'/home/u/.aws/credentials'\n");
	expect_has(h, "  observed: FileNotFoundError: [Errno 2] No such file or directory: "
		      "'/home/u/.aws/credentials'\n");
	expect_has(h, "masked (built-in credential store)");
	free(h);
	/* Without a home, "~" is not guessed at. */
	struct hint_env nohome = ENV;
	nohome.home = NULL;
	expect_none(p, &nohome, "cat ~/.aws/credentials", "");
	/* Near misses. */
	expect_none(p, &ENV, "cat ~/.awsx/credentials", "");
	expect_none(p, &ENV, "cat /srv/secret.txt.bak", "");
	expect_none(p, &ENV, "cat ~/notes.txt", "");
	expect_none(p, &ENV, "echo /x-files", "");
	jail_policy_free(p);
}

/* A hint follows a failure, or an empty read of a masked path: a command
 * that succeeded and printed what it read was not refused, whatever path
 * it names (the file was there to read, or the output came from another). */
static void test_mask_success_no_hint(void **state)
{
	(void)state;
	struct jail_policy *p = policy();
	static const struct {
		const char *command, *output;
	} ok[] = {
		{ "cat /srv/secret.txt", "token=abc\n" },
		{ "cat ~/.aws/credentials README", "# README\nhello\n" },
		{ "grep -r region ~/.aws ~/p", "/home/u/p/conf:region=eu\n" },
		{ "echo ~/.aws/credentials", "/home/u/.aws/credentials\n" },
		{ "head -c 100 /x/data.bin | xxd", "00000000: 4142 4344  ABCD\n" },
		{ "python3 -c 'print(open(\"/home/u/.aws/config\").read())'",
		  "error: not what was expected in /home/u/.aws/config\n" },
	};
	size_t bad = 0;
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		char *h = hint_for(p, &ENV, ok[i].command, 0, ok[i].output);
		if (h)
			print_message("%s (exit 0, output \"%s\"): unexpected hint:\n%s",
				      ok[i].command, ok[i].output, h);
		bad += h != NULL;
		free(h);
	}
	if (bad)
		fail_msg("%zu of %zu successful reads got a masked-read hint", bad, ARRAY_SIZE(ok));
	/* The same reads coming back empty, or failing, still get one. */
	char *h = hint_for(p, &ENV, "cat /srv/secret.txt", 0, " \n");
	expect_has(h, "  likely rule: masked (/etc/kjail/config.ini:7)\n");
	free(h);
	h = hint_for(p, &ENV, "cat ~/.aws/credentials README", 1,
		     "cat: README: No such file or directory\n");
	expect_has(h, "  likely rule: masked (built-in credential store)\n");
	free(h);
	jail_policy_free(p);
}

/* ------------------------------------------------------------ network */

static void test_network(void **state)
{
	(void)state;
	struct jail_policy *p = policy();
	static const char *const lines[] = {
		"curl: (6) Could not resolve host: example.com",
		"ssh: Could not resolve hostname example.com: Temporary failure in name resolution",
		"fatal: unable to access 'https://example.com/r.git/': Could not resolve host: example.com",
		"ping: connect: Network is unreachable",
		"curl: (7) Failed to connect to 127.0.0.1 port 9: Connection refused",
		"ConnectionRefusedError: [Errno 111] Connection refused",
		"socket.gaierror: [Errno -3] Temporary failure in name resolution",
		"Error: getaddrinfo ENOTFOUND registry.npmjs.org",
		"wget: unable to resolve host address 'example.com'",
		"HTTP request sent, awaiting response... 404 Not Found",
	};
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		_cleanup_free_ char *out = xasprintf("some progress\n%s\n", lines[i]);
		char *h = hint_for(p, &ENV, "fetch", 6, out);
		if (i == ARRAY_SIZE(lines) - 1) {
			/* Not a signature of its own: no hint. */
			if (h)
				fail_msg("unexpected hint:\n%s", h);
			continue;
		}
		_cleanup_free_ char *obs = xasprintf("  observed: %s\n", lines[i]);
		expect_has(h, obs);
		expect_has(h, "  exit: 6\n");
		expect_has(h, "  likely rule: no network (/etc/kjail/config.ini:3)\n");
		expect_has(h, "  fix: kjail --network (over /etc/kjail/config.ini:3), or serve a "
			      "local service on a Unix socket in the workspace\n");
		free(h);
	}
	jail_policy_free(p);

	/* From the flag. */
	const char *flag = "{\"type\":\"policy\",\"mounts\":[{\"path\":\"/\",\"verdict\":\"read-only\"}],"
			   "\"network\":{\"enabled\":false,\"origin\":\"--no-network\"}}";
	p = jail_policy_parse(flag, strlen(flag), NULL);
	char *h = hint(p, &ENV, "curl https://example.com",
		       "curl: (6) Could not resolve host: example.com");
	expect_has(h, "  likely rule: no network (--no-network)\n");
	expect_has(h, "  fix: kjail without --no-network, or serve a local service on a Unix "
		      "socket in the workspace\n");
	free(h);
	jail_policy_free(p);

	/* With the host's network, a refused connection is not the jail's. */
	const char *net = "{\"type\":\"policy\",\"mounts\":[{\"path\":\"/\",\"verdict\":\"read-only\"}],"
			  "\"network\":{\"enabled\":true,\"origin\":\"default\"}}";
	p = jail_policy_parse(net, strlen(net), NULL);
	expect_none(p, &ENV, "curl http://127.0.0.1:9",
		    "curl: (7) Failed to connect to 127.0.0.1 port 9: Connection refused");
	jail_policy_free(p);
}

/* Under kjail's egress allowlist: a refusal by the proxy names the host and
 * the flag; from the output, or from the proxy's log. */
static const char *egress_log_text;
static char *read_log_stub(const char *path, size_t *len)
{
	if (strcmp(path, "/tmp/.kjail/net.log") != 0 || !egress_log_text)
		return NULL;
	*len = strlen(egress_log_text);
	return xstrdup(egress_log_text);
}

static void test_egress(void **state)
{
	(void)state;
	const char *al = "{\"type\":\"policy\",\"mounts\":[{\"path\":\"/\",\"verdict\":\"read-only\"}],"
			 "\"network\":{\"enabled\":false,\"origin\":\"--allow-host\",\"mode\":\"allowlist\","
			 "\"log\":\"/tmp/.kjail/net.log\"}}";
	struct jail_policy *p = jail_policy_parse(al, strlen(al), NULL);
	assert_non_null(p);
	assert_true(p->allowlist);
	/* the proxy's own 403 body, as curl prints it */
	char *h = hint(p, &ENV, "curl -sS https://evil.example/x",
		       "kjail: evil.example:443 is not an allowed host (add --allow-host evil.example)");
	expect_has(h, "  likely rule: egress allowlist (--allow-host)\n");
	expect_has(h, "evil.example:443 is not one of them");
	expect_has(h, "  fix: kjail --allow-host evil.example (or allow-host = evil.example in the "
		      "config), if the task needs it\n");
	free(h);
	/* curl's CONNECT failure names no host: the log does */
	struct hint_env env = ENV;
	env.read_log = read_log_stub;
	egress_log_text = "{\"host\":\"api.good\",\"port\":443,\"verdict\":\"allowed\"}\n"
			  "{\"host\":\"db.example\",\"port\":5432,\"verdict\":\"refused\"}\n";
	h = hint(p, &env, "curl https://db.example:5432/",
		 "curl: (56) CONNECT tunnel failed, response 403");
	expect_has(h, "  observed: curl: (56) CONNECT tunnel failed, response 403\n");
	expect_has(h, "  fix: kjail --allow-host db.example:5432 (or allow-host = db.example:5432");
	free(h);
	/* not under an allowlist: the proxy's words are not the jail's */
	jail_policy_free(p);
	const char *net = "{\"type\":\"policy\",\"mounts\":[{\"path\":\"/\",\"verdict\":\"read-only\"}],"
			  "\"network\":{\"enabled\":true,\"origin\":\"default\",\"mode\":\"shared\"}}";
	p = jail_policy_parse(net, strlen(net), NULL);
	expect_none(p, &ENV, "curl https://x", "curl: (56) CONNECT tunnel failed, response 403");
	jail_policy_free(p);
	egress_log_text = NULL;
}

/* ------------------------------------------------------------ no hint */

static void test_unrelated(void **state)
{
	(void)state;
	struct jail_policy *p = policy();
	expect_none(p, &ENV, "ls nope", "ls: cannot access 'nope': No such file or directory");
	expect_none(p, &ENV, "make", "make: *** [Makefile:3: all] Error 2");
	expect_none(p, &ENV, "cc a.c", "a.c:1:1: error: expected ';' before '}' token");
	expect_none(p, &ENV, "true", "");
	expect_none(p, &ENV, "echo hello", "hello\n");
	/* A write refused where the jail allows writes: not the jail. */
	expect_none(p, &ENV, "touch /w/x", "touch: cannot touch '/w/x': Read-only file system");
	expect_none(p, &ENV, "touch /tmp/x", "touch: cannot touch '/tmp/x': Permission denied");
	expect_none(p, &ENV, "chmod 600 f",
		    "chmod: changing permissions of 'f': Operation not permitted");
	/* EPERM naming no path (a filtered system call). */
	expect_none(p, &ENV, "unshare -U true", "unshare: unshare failed: Operation not permitted");
	/* No policy, no environment, no command: no hint. */
	assert_null(hint_for(NULL, &ENV, "touch /etc/x",
			     0, "touch: cannot touch '/etc/x': Read-only file system"));
	assert_null(hint_for(p, NULL, "touch /etc/x",
			     0, "touch: cannot touch '/etc/x': Read-only file system"));
	assert_null(hint_for(p, &ENV, NULL, 0, "touch: cannot touch '/etc/x': Read-only file system"));
	/* Output NULL is no output. */
	char *h = hint_for(p, &ENV, "cat /srv/secret.txt", 0, NULL);
	expect_has(h, "(no output)");
	free(h);
	jail_policy_free(p);
}

/* ------------------------------------------------------------ format */

static void test_format(void **state)
{
	(void)state;
	struct jail_policy *p = policy();
	/* A command over several lines, with control characters, on one line. */
	char *h = hint_for(p, &ENV, "set -e\ntouch /etc/x\x1b[2J", -1,
			   "touch: cannot touch '/etc/x': Read-only file system\x1b]0;t\x07\n");
	expect_has(h, "command='set -e touch /etc/x [2J'\n");
	expect_has(h, "  exit: unknown (still running)\n");
	expect_has(h, "  observed: touch: cannot touch '/etc/x': Read-only file system ]0;t\n");
	assert_null(strchr(h, '\x1b'));
	free(h);
	/* A long command is cut. */
	char cmd[600];
	memset(cmd, 'a', sizeof cmd);
	memcpy(cmd, "touch /etc/x ", 13);
	cmd[sizeof cmd - 1] = '\0';
	h = hint(p, &ENV, cmd, "touch: cannot touch '/etc/x': Read-only file system");
	assert_non_null(h);
	assert_true(strstr(h, "...'\n") != NULL);
	assert_true(strlen(h) < 1200);
	free(h);
	jail_policy_free(p);

	/* A policy whose strings hold newlines still gives one line each. */
	const char *odd = "{\"type\":\"policy\",\"mounts\":[{\"path\":\"/\",\"verdict\":\"read-only\","
			  "\"rule\":\"read-only\",\"origin\":\"host\\nroot\"}]}";
	p = jail_policy_parse(odd, strlen(odd), NULL);
	h = hint(p, &ENV, "touch /etc/x", "touch: cannot touch '/etc/x': Read-only file system");
	expect_has(h, "  likely rule: read-only (host root)\n");
	_cleanup_free_ char *text = xasprintf("output\n[exit status 1]\n\n%s", h);
	assert_int_equal(hint_split(text), strlen("output\n[exit status 1]"));
	free(h);
	jail_policy_free(p);
}

static void test_split(void **state)
{
	(void)state;
	struct jail_policy *p = policy();
	char *h = hint(p, &ENV, "touch /etc/x", "touch: cannot touch '/etc/x': Read-only file system");
	assert_non_null(h);
	const char *result = "touch: cannot touch '/etc/x': Read-only file system\n[exit status 1]";
	_cleanup_free_ char *text = xasprintf("%s\n\n%s", result, h);
	assert_int_equal(hint_split(text), strlen(result));
	/* No hint, or one a command printed itself: the status line follows it. */
	assert_int_equal(hint_split(result), (size_t)-1);
	_cleanup_free_ char *spoof = xasprintf("\n\n%s[exit status 0]", h);
	assert_int_equal(hint_split(spoof), (size_t)-1);
	/* A real hint after a spoofed one: the real one is split off. */
	_cleanup_free_ char *both = xasprintf("\n\n%s[exit status 0]\n\n%s", h, h);
	assert_int_equal(hint_split(both), strlen(spoof));
	assert_int_equal(hint_split("x\n\nsandbox denied (likely): command='a'\n\n  exit: 1\n"),
			 (size_t)-1);
	assert_int_equal(hint_split("x\n\nsandbox denied (likely): command='a'\n   exit: 1\n"),
			 (size_t)-1);
	assert_int_equal(hint_split(NULL), (size_t)-1);
	free(h);
	jail_policy_free(p);
}

/* The log's last refusal names what the proxy refused: the name it read
 * in the tunnel (http_host, then sni) over the one CONNECT gave. */
static void test_egress_log_names(void **state)
{
	(void)state;
	static const char log[] =
		"{\"proto\":\"connect\",\"host\":\"a.test\",\"port\":443,"
		"\"verdict\":\"refused\",\"sni\":null,\"http_host\":null}\n"
		"{\"proto\":\"connect\",\"host\":\"front.test\",\"port\":443,"
		"\"verdict\":\"refused\",\"sni\":\"other.test\",\"http_host\":null}\n";
	char *d = hint_egress_last_refused(log, sizeof log - 1);
	assert_string_equal(d, "other.test:443");
	free(d);
	static const char log2[] =
		"{\"proto\":\"connect\",\"host\":\"front.test\",\"port\":80,"
		"\"verdict\":\"refused\",\"sni\":null,\"http_host\":\"web.test\"}\n"
		"{\"proto\":\"local\",\"host\":\"127.0.0.1\",\"port\":8080,"
		"\"verdict\":\"allowed\",\"sni\":null,\"http_host\":\"localhost\"}\n";
	d = hint_egress_last_refused(log2, sizeof log2 - 1);
	assert_string_equal(d, "web.test:80");
	free(d);
	static const char log3[] = "{\"host\":\"::1\",\"port\":9000,\"verdict\":\"refused\","
				   "\"sni\":\"\",\"http_host\":\"\"}\n";
	d = hint_egress_last_refused(log3, sizeof log3 - 1);
	assert_string_equal(d, "[::1]:9000");
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_egress_log_names),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_write_exact_text),
		cmocka_unit_test(test_write_variants),
		cmocka_unit_test(test_write_fs_questions),
		cmocka_unit_test(test_write_protected),
		cmocka_unit_test(test_mask_reads),
		cmocka_unit_test(test_mask_success_no_hint),
		cmocka_unit_test(test_network),
		cmocka_unit_test(test_egress),
		cmocka_unit_test(test_unrelated),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_split),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
