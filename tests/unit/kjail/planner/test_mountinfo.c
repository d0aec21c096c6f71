/* SPDX-License-Identifier: MIT */
/* The mountinfo parser and the alias finder (mountinfo.h): exact answers
 * for tables as containers, toolbox and WSL make them. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <stdlib.h>
#include <string.h>

#include "planner/mountinfo.h"

static void parse_ok(const char *text, struct mount_table *t)
{
	size_t bad = 0;
	assert_true(mountinfo_parse(text, strlen(text), t, &bad));
}

static void test_parse_fields(void **state)
{
	(void)state;
	struct mount_table t;
	parse_ok("26 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
		 "101 26 0:45 /home/u/a\\040b /run/host/with\\011tab rw shared:12 master:3 - ext4 "
		 "/dev/vda rw\n"
		 "102 26 0:4 net:[4026532289] /run/netns/x rw - nsfs nsfs rw\n",
		 &t);
	assert_int_equal(t.n, 3);
	assert_int_equal(t.v[0].id, 26);
	assert_int_equal(t.v[0].parent, 1);
	assert_int_equal(t.v[0].major, 254);
	assert_int_equal(t.v[0].minor, 0);
	assert_string_equal(t.v[0].root, "/");
	assert_string_equal(t.v[0].point, "/");
	assert_string_equal(t.v[0].type, "ext4");
	/* escapes undone, optional fields skipped */
	assert_string_equal(t.v[1].root, "/home/u/a b");
	assert_string_equal(t.v[1].point, "/run/host/with\ttab");
	assert_int_equal(t.v[1].major, 0);
	assert_int_equal(t.v[1].minor, 45);
	/* a root need not be a path */
	assert_string_equal(t.v[2].root, "net:[4026532289]");
	assert_string_equal(t.v[2].type, "nsfs");
	mount_table_free(&t);
	/* no final newline, empty lines */
	parse_ok("\n1 0 8:1 / / rw - ext4 /dev/sda1 rw", &t);
	assert_int_equal(t.n, 1);
	mount_table_free(&t);
	parse_ok("", &t);
	assert_int_equal(t.n, 0);
	mount_table_free(&t);
}

static void test_parse_refuses_malformed(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		size_t line;
	} bad[] = {
		{ "1 0 8:1 / / rw ext4 /dev/sda1 rw\n", 1 },            /* no separator */
		{ "1 0 8:1 / / rw -\n", 1 },                            /* no type */
		{ "1 0 8:1 / /\n", 1 },                                 /* too short */
		{ "1 0 8:1 / rel rw - ext4 x rw\n", 1 },                /* relative point */
		{ "1 0 81 / / rw - ext4 x rw\n", 1 },                   /* no MAJ:MIN */
		{ "1 0 8:x / / rw - ext4 x rw\n", 1 },
		{ "x 0 8:1 / / rw - ext4 x rw\n", 1 },
		{ "1 -1 8:1 / / rw - ext4 x rw\n", 1 },
		{ "1 0 99999999999:1 / / rw - ext4 x rw\n", 1 },
		{ "1 0 8:1 / / rw - ext4 x rw\n2 1 8:1 / /a\n", 2 },   /* second line */
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct mount_table t = { .n = 99 };
		size_t at = 0;
		assert_false(mountinfo_parse(bad[i].text, strlen(bad[i].text), &t, &at));
		assert_int_equal(at, bad[i].line);
		assert_int_equal(t.n, 0);
		assert_null(t.v);
	}
	/* a NUL inside a line */
	static const char nul[] = "1 0 8:1 / /\0a rw - ext4 x rw\n";
	struct mount_table t;
	size_t at = 0;
	assert_false(mountinfo_parse(nul, sizeof nul - 1, &t, &at));
	assert_int_equal(at, 1);
}

static void test_mount_of(void **state)
{
	(void)state;
	struct mount_table t;
	parse_ok("26 1 254:0 / / rw - ext4 /dev/vda rw\n"
		 "24 23 0:22 / /dev/shm rw - tmpfs tmpfs rw\n"
		 "29 24 0:26 / /dev/shm rw - tmpfs tmpfs rw\n"
		 "40 26 0:50 / /home rw - ext4 /dev/vdb rw\n",
		 &t);
	assert_string_equal(mount_of(&t, "/home/u/.ssh")->point, "/home");
	assert_string_equal(mount_of(&t, "/home")->point, "/home");
	assert_string_equal(mount_of(&t, "/homely")->point, "/");
	/* stacked: the one mounted on the other is on top */
	assert_int_equal(mount_of(&t, "/dev/shm/x")->id, 29);
	mount_table_free(&t);
	parse_ok("40 26 0:50 / /home rw - ext4 /dev/vdb rw\n", &t);
	assert_null(mount_of(&t, "/etc/shadow"));
	mount_table_free(&t);
}

/* "ALIAS<ORIG" per alias, sorted in the table's order, joined by spaces */
static char *aliases_str(const char *text, const char *path)
{
	struct mount_table t;
	parse_ok(text, &t);
	const struct mount_entry *m = mount_of(&t, path);
	assert_non_null(m);
	struct mount_aliases a;
	mount_aliases_of(&t, m, path, &a);
	size_t len = 1;
	for (size_t i = 0; i < a.n; i++)
		len += strlen(a.v[i].path) + strlen(a.v[i].orig) + 2;
	char *s = calloc(1, len);
	for (size_t i = 0; i < a.n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, a.v[i].path);
		strcat(s, "<");
		strcat(s, a.v[i].orig);
	}
	mount_aliases_free(&a);
	mount_table_free(&t);
	return s;
}

#define ROOT "26 1 254:0 / / rw - ext4 /dev/vda rw\n"

static void test_aliases(void **state)
{
	(void)state;
	char *s;
	/* toolbox/distrobox: the host's root at /run/host */
	s = aliases_str(ROOT "90 26 254:0 / /run/host rw - ext4 /dev/vda rw\n", "/home/u/.ssh");
	assert_string_equal(s, "/run/host/home/u/.ssh</home/u/.ssh");
	free(s);
	/* a bind of the home, of its parent, of the masked directory itself,
	 * of a directory inside it; another device and a path beside it are
	 * no alias */
	s = aliases_str(ROOT "91 26 254:0 /home/u /srv/h rw - ext4 /dev/vda rw\n"
			     "92 26 254:0 /home /mnt/homes rw - ext4 /dev/vda rw\n"
			     "93 26 254:0 /home/u/.ssh /mnt/ssh rw - ext4 /dev/vda rw\n"
			     "94 26 254:0 /home/u/.ssh/keys /mnt/keys rw - ext4 /dev/vda rw\n"
			     "95 26 254:1 /home/u /mnt/other rw - ext4 /dev/vdb rw\n"
			     "96 26 254:0 /home/u/.sshx /mnt/beside rw - ext4 /dev/vda rw\n",
			"/home/u/.ssh");
	assert_string_equal(s, "/srv/h/.ssh</home/u/.ssh /mnt/homes/u/.ssh</home/u/.ssh "
			       "/mnt/ssh</home/u/.ssh /mnt/keys</home/u/.ssh/keys");
	free(s);
	/* a masked file through the bind of its directory, and bound itself */
	s = aliases_str(ROOT "91 26 254:0 /home/u /srv/h rw - ext4 /dev/vda rw\n"
			     "93 26 254:0 /home/u/.netrc /mnt/netrc rw - ext4 /dev/vda rw\n",
			"/home/u/.netrc");
	assert_string_equal(s, "/srv/h/.netrc</home/u/.netrc /mnt/netrc</home/u/.netrc");
	free(s);
	/* a path on a mount that is itself a bind: its place in the file
	 * system is the mount's root plus the rest, and the file system's
	 * own root mount shows it too */
	s = aliases_str(ROOT "40 26 0:50 /@home /home rw - btrfs /dev/vdb rw\n"
			     "41 26 0:50 / /mnt/pool rw - btrfs /dev/vdb rw\n",
			"/home/u/.aws");
	assert_string_equal(s, "/mnt/pool/@home/u/.aws</home/u/.aws");
	free(s);
	/* the same device mounted twice */
	s = aliases_str(ROOT "50 26 7:0 / /a rw - ext2 /dev/loop0 rw\n"
			     "51 26 7:0 / /b rw - ext2 /dev/loop0 rw\n",
			"/a/vault");
	assert_string_equal(s, "/b/vault</a/vault");
	free(s);
	/* escaped names */
	s = aliases_str(ROOT "90 26 254:0 /home/u /run/with\\040space rw - ext4 /dev/vda rw\n",
			"/home/u/.ssh");
	assert_string_equal(s, "/run/with space/.ssh</home/u/.ssh");
	free(s);
	/* nothing else of the device: no alias; a root that is no path is
	 * never one */
	s = aliases_str(ROOT "90 26 0:4 net:[1] /run/netns/x rw - nsfs nsfs rw\n", "/home/u/.ssh");
	assert_string_equal(s, "");
	free(s);
	/* the masked path's own mount listed twice (propagation): no alias of
	 * itself */
	s = aliases_str(ROOT "60 26 254:0 /home /home rw - ext4 /dev/vda rw\n"
			     "61 60 254:0 /home /home rw - ext4 /dev/vda rw\n",
			"/home/u/.ssh");
	assert_string_equal(s, "");
	free(s);
	/* a mask on a mount point at / of its file system */
	s = aliases_str(ROOT "70 26 0:60 / /run/user/1000 rw - tmpfs tmpfs rw\n"
			     "71 26 0:60 / /srv/rt rw - tmpfs tmpfs rw\n",
			"/run/user/1000");
	assert_string_equal(s, "/srv/rt</run/user/1000");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_fields),
		cmocka_unit_test(test_parse_refuses_malformed),
		cmocka_unit_test(test_mount_of),
		cmocka_unit_test(test_aliases),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
