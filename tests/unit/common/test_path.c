/* SPDX-License-Identifier: MIT */
/* Unit tests for the path helpers (src/common/path).
 *
 * path_resolve is tested on a real directory tree, made with mkdtemp in the
 * current directory (the build tree), not under /tmp: the same tests also
 * run where /tmp is private or a tmpfs with other rules. */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "unit-skip.h"

#include "path.h"
#include "util.h"

/* ---- expand_home ------------------------------------------------------ */

static void expect_expand(const char *p, const char *home, const char *want)
{
	char *got = path_expand_home(p, home);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void expect_expand_fails(const char *p, const char *home)
{
	errno = 0;
	char *got = path_expand_home(p, home);
	assert_null(got);
	assert_int_equal(errno, EINVAL);
}

static void test_expand_tilde(void **state)
{
	expect_expand("~", "/home/u", "/home/u");
	expect_expand("~/", "/home/u", "/home/u/");
	expect_expand("~/.ssh", "/home/u", "/home/u/.ssh");
	expect_expand("~/.config/kjail/config.ini", "/home/u",
		      "/home/u/.config/kjail/config.ini");
}

static void test_expand_leaves_other_paths(void **state)
{
	expect_expand("/etc/passwd", "/home/u", "/etc/passwd");
	expect_expand("relative/x", "/home/u", "relative/x");
	expect_expand("a~/b", "/home/u", "a~/b");
	expect_expand("/~/x", "/home/u", "/~/x");
	expect_expand("", "/home/u", "");
	/* No tilde: HOME is not needed, so a missing one is no error. */
	expect_expand("/srv/x", NULL, "/srv/x");
}

static void test_expand_tilde_user_refused(void **state)
{
	expect_expand_fails("~root", "/home/u");
	expect_expand_fails("~root/.ssh", "/home/u");
	expect_expand_fails("~~", "/home/u");
	expect_expand_fails("~.ssh", "/home/u");
}

static void test_expand_needs_absolute_home(void **state)
{
	expect_expand_fails("~", NULL);
	expect_expand_fails("~/x", NULL);
	expect_expand_fails("~/x", "");
	expect_expand_fails("~/x", "home/u");
	expect_expand_fails("~", "./u");
}

/* ---- normalize -------------------------------------------------------- */

static void expect_norm(const char *p, const char *base, const char *want)
{
	char *got = path_normalize(p, base);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_normalize_absolute(void **state)
{
	expect_norm("/", NULL, "/");
	expect_norm("//", NULL, "/");
	expect_norm("///a//b///", NULL, "/a/b");
	expect_norm("/a/b/", NULL, "/a/b");
	expect_norm("/a/./b/.", NULL, "/a/b");
	expect_norm("/./", NULL, "/");
	expect_norm("/a/b/..", NULL, "/a");
	expect_norm("/a/b/../../..", NULL, "/");
	expect_norm("/..", NULL, "/");
	expect_norm("/../etc", NULL, "/etc");
	expect_norm("/a/../b/../c", NULL, "/c");
	/* Only "." and ".." are special: "...", ".x" and "x." are names. */
	expect_norm("/a/.../.x/x./..y", NULL, "/a/.../.x/x./..y");
	/* An absolute path ignores the base. */
	expect_norm("/etc", "/srv", "/etc");
}

static void test_normalize_relative_with_base(void **state)
{
	expect_norm("x", "/srv/work", "/srv/work/x");
	expect_norm("./x/", "/srv/work", "/srv/work/x");
	expect_norm("../x", "/srv/work", "/srv/x");
	expect_norm("../../../..", "/srv/work", "/");
	expect_norm("", "/srv/work", "/srv/work");
	expect_norm(".", "/srv/work/", "/srv/work");
	expect_norm("a//b", "//srv//work//", "/srv/work/a/b");
	expect_norm("x", "/", "/x");
}

/* Hundreds of components, with "." and ".." among them: one result, built
 * in place. */
static void test_normalize_many_components(void **state)
{
	char *in = NULL, *want = NULL;
	size_t in_len = 0, want_len = 0;
	FILE *fi = open_memstream(&in, &in_len), *fw = open_memstream(&want, &want_len);
	assert_non_null(fi);
	assert_non_null(fw);
	for (int i = 0; i < 400; i++) {
		fprintf(fi, "/c%d/./gone%d/..//", i, i);
		fprintf(fw, "/c%d", i);
	}
	fclose(fi);
	fclose(fw);
	expect_norm(in, NULL, want);
	expect_norm(in + 1, "/", want);
	free(in);
	free(want);
}

static void test_normalize_relative_needs_absolute_base(void **state)
{
	errno = 0;
	assert_null(path_normalize("x", NULL));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(path_normalize("x", "srv"));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(path_normalize("", ""));
	assert_int_equal(errno, EINVAL);
}

/* ---- is_under / relative_to / join / dirname --------------------------- */

static void test_is_under_component_wise(void **state)
{
	assert_true(path_is_under("/srv/data", "/srv"));
	assert_true(path_is_under("/srv/data", "/srv/data"));
	assert_true(path_is_under("/srv/data/x/y", "/srv/data"));
	assert_false(path_is_under("/srv/database", "/srv/data"));
	assert_false(path_is_under("/srv/dat", "/srv/data"));
	assert_false(path_is_under("/srv", "/srv/data"));
	assert_false(path_is_under("/srvdata", "/srv"));
	assert_false(path_is_under("/etc", "/srv"));
}

static void test_join_and_concat(void **state)
{
	(void)state;
	const char *cases[][3] = {
		{ "/home/u", ".ssh", "/home/u/.ssh" },
		{ "/home/u/", ".ssh", "/home/u/.ssh" },
		{ "/home/u", "/.ssh", "/home/u/.ssh" },
		{ "/", "etc", "/etc" },
		{ "", "x", "/x" },
		{ "/a", "", "/a/" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *j = path_join(cases[i][0], cases[i][1]);
		assert_string_equal(j, cases[i][2]);
		free(j);
	}
	char *c = xconcat("a", "", "bc", " (", "d", ")", NULL);
	assert_string_equal(c, "abc (d)");
	free(c);
	c = xconcat("", NULL);
	assert_string_equal(c, "");
	free(c);
	char longer[300];
	memset(longer, 'x', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	c = xconcat(longer, "/", longer, NULL);
	assert_int_equal(strlen(c), 2 * (sizeof longer - 1) + 1);
	assert_int_equal(c[sizeof longer - 1], '/');
	free(c);
}

static void test_is_under_root_covers_all(void **state)
{
	assert_true(path_is_under("/", "/"));
	assert_true(path_is_under("/etc", "/"));
	assert_true(path_is_under("/a/b/c", "/"));
}

static void expect_rel(const char *path, const char *dir, const char *want)
{
	const char *got = path_relative_to(path, dir);
	assert_non_null(got);
	assert_string_equal(got, want);
	/* It points into path: no allocation to free. */
	assert_true(got >= path && got <= path + strlen(path));
}

static void test_relative_to(void **state)
{
	expect_rel("/srv/data/x/y", "/srv/data", "x/y");
	expect_rel("/srv/data", "/srv/data", "");
	expect_rel("/srv/data/", "/srv/data", "");
	expect_rel("/etc/passwd", "/", "etc/passwd");
	expect_rel("/", "/", "");
	assert_null(path_relative_to("/srv/database", "/srv/data"));
	assert_null(path_relative_to("/srv", "/srv/data"));
	assert_null(path_relative_to("/etc", "/srv"));
	assert_null(path_relative_to("relative", "/"));
}

static void expect_join(const char *a, const char *b, const char *want)
{
	char *got = path_join(a, b);
	assert_string_equal(got, want);
	free(got);
}

static void test_join(void **state)
{
	expect_join("/a", "b", "/a/b");
	expect_join("/a/", "b", "/a/b");
	expect_join("/a", "/b", "/a/b");
	expect_join("/a/", "/b", "/a/b");
	expect_join("/", "b", "/b");
	expect_join("/", "/b", "/b");
	expect_join("/home/u", ".ssh/id_ed25519", "/home/u/.ssh/id_ed25519");
	expect_join("rel", "x", "rel/x");
}

static void expect_dirname(const char *p, const char *want)
{
	char *got = path_dirname(p);
	assert_string_equal(got, want);
	free(got);
}

static void test_dirname(void **state)
{
	expect_dirname("/a/b/c", "/a/b");
	expect_dirname("/a/b", "/a");
	expect_dirname("/a", "/");
	expect_dirname("/", "/");
	expect_dirname("/home/u/.ssh", "/home/u");
}

/* ---- resolve, on a real tree ------------------------------------------ */

struct tree {
	char *root; /* real absolute path of the test directory */
};

static char *tp(const struct tree *t, const char *rel)
{
	return rel[0] ? xasprintf("%s/%s", t->root, rel) : xstrdup(t->root);
}

static void mk_dir(const struct tree *t, const char *rel)
{
	_cleanup_free_ char *p = tp(t, rel);
	if (mkdir(p, 0755) < 0)
		fail_msg("mkdir %s: %s", p, strerror(errno));
}

static void mk_file(const struct tree *t, const char *rel)
{
	_cleanup_free_ char *p = tp(t, rel);
	FILE *f = fopen(p, "w");
	if (!f)
		fail_msg("create %s: %s", p, strerror(errno));
	fputs("x\n", f);
	fclose(f);
}

/* target: taken as written when relative, below the tree root when it starts
 * with "@/" (an absolute link into the tree). */
static void mk_link(const struct tree *t, const char *target, const char *rel)
{
	_cleanup_free_ char *p = tp(t, rel);
	_cleanup_free_ char *tgt = str_has_prefix(target, "@/")
		? xasprintf("%s/%s", t->root, target + 2) : xstrdup(target);
	if (symlink(tgt, p) < 0)
		fail_msg("symlink %s -> %s: %s", p, tgt, strerror(errno));
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(p) < 0 ? -1 : 0;
}

static int tree_setup(void **state)
{
	char tmpl[] = "test_path.XXXXXX";
	if (!mkdtemp(tmpl)) {
		fprintf(stderr, "mkdtemp in the current directory: %s\n", strerror(errno));
		return -1;
	}
	struct tree *t = xcalloc(1, sizeof *t);
	t->root = realpath(tmpl, NULL);
	if (!t->root)
		return -1;

	mk_dir(t, "a");
	mk_dir(t, "a/b");
	mk_file(t, "a/b/file");
	mk_dir(t, "c");
	mk_dir(t, "with space");
	mk_link(t, "@/a", "abs");              /* absolute target */
	mk_link(t, "a/b", "rel");              /* relative target */
	mk_link(t, "../c", "a/up");            /* relative, climbing */
	mk_link(t, "../..", "a/b/back");       /* back to the root */
	mk_link(t, "chain2", "chain1");
	mk_link(t, "rel", "chain2");
	mk_link(t, "nowhere/deep", "dang");    /* dangling, relative */
	mk_link(t, "@/gone/x", "dangabs");     /* dangling, absolute */
	mk_link(t, "loop2", "loop1");
	mk_link(t, "loop1", "loop2");
	mk_link(t, "self", "self");
	mk_link(t, "with space", "sp");
	mk_link(t, ".", "dot");

	/* 40 links in a row end in a directory: the kernel's own limit. */
	mk_dir(t, "l40");
	for (int i = 39; i >= 0; i--) {
		char name[16], target[16];
		snprintf(name, sizeof name, "l%02d", i);
		snprintf(target, sizeof target, "l%02d", i + 1);
		mk_link(t, target, name);
	}
	mk_link(t, "l00", "l-1"); /* one more: 41 */
	*state = t;
	return 0;
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;
	if (!t)
		return 0;
	int rc = nftw(t->root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(t->root);
	free(t);
	return rc;
}

static void expect_resolve(const struct tree *t, const char *rel, const char *want_rel)
{
	_cleanup_free_ char *p = tp(t, rel);
	_cleanup_free_ char *want = tp(t, want_rel);
	_cleanup_free_ char *got = path_resolve(p, NULL);
	if (!got)
		fail_msg("path_resolve(%s): NULL, %s", p, strerror(errno));
	assert_string_equal(got, want);
	/* Where the whole path exists, it must agree with the kernel. */
	_cleanup_free_ char *real = realpath(p, NULL);
	if (real)
		assert_string_equal(got, real);
}

static void expect_resolve_fails(const struct tree *t, const char *rel, int err)
{
	_cleanup_free_ char *p = tp(t, rel);
	errno = 0;
	char *got = path_resolve(p, NULL);
	if (got) {
		fail_msg("path_resolve(%s) = %s, expected an error", p, got);
	}
	assert_int_equal(errno, err);
}

/* path_mkdirs: a mkdir -p, each new directory 0700; a file in the way is
 * ENOTDIR */
static void test_mkdirs(void **state)
{
	const struct tree *t = *state;
	char *deep = tp(t, "m/n/o");
	assert_true(path_mkdirs(deep));
	struct stat st;
	assert_int_equal(stat(deep, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777 & ~0700, 0);
	assert_true(path_mkdirs(deep)); /* again: already there */
	char *under_file = tp(t, "a/b/file/x");
	errno = 0;
	assert_false(path_mkdirs(under_file));
	assert_int_equal(errno, ENOTDIR);
	char *file = tp(t, "a/b/file");
	errno = 0;
	assert_false(path_mkdirs(file));
	assert_int_equal(errno, ENOTDIR);
	free(deep);
	free(under_file);
	free(file);
}

static void test_resolve_plain(void **state)
{
	const struct tree *t = *state;
	expect_resolve(t, "", "");
	expect_resolve(t, "a/b/file", "a/b/file");
	expect_resolve(t, "a/./b//file", "a/b/file");
	expect_resolve(t, "a/b/", "a/b");
	expect_resolve(t, "a/b/../../c", "c");
	expect_resolve(t, "with space", "with space");

	char *root = path_resolve("/", NULL);
	assert_string_equal(root, "/");
	free(root);
}

static void test_resolve_symlink_to_dir(void **state)
{
	const struct tree *t = *state;
	expect_resolve(t, "abs", "a");
	expect_resolve(t, "abs/b/file", "a/b/file");
	expect_resolve(t, "rel", "a/b");
	expect_resolve(t, "rel/file", "a/b/file");
	expect_resolve(t, "rel/", "a/b");
	expect_resolve(t, "sp", "with space");
	expect_resolve(t, "dot/dot/a", "a");
}

static void test_resolve_relative_target_climbing(void **state)
{
	const struct tree *t = *state;
	expect_resolve(t, "a/up", "c");
	expect_resolve(t, "a/b/back", "");
	expect_resolve(t, "a/b/back/a/b/file", "a/b/file");
	expect_resolve(t, "rel/back/c", "c");
}

static void test_resolve_chain(void **state)
{
	const struct tree *t = *state;
	expect_resolve(t, "chain1", "a/b");
	expect_resolve(t, "chain1/file", "a/b/file");
	expect_resolve(t, "l00", "l40");
	expect_resolve(t, "l39", "l40");
}

/* ".." after a symlink goes to the real parent, as the kernel does, not to
 * the lexical one: "rel/.." is a, not the tree root. */
static void test_resolve_dotdot_after_symlink(void **state)
{
	const struct tree *t = *state;
	expect_resolve(t, "rel/..", "a");
	expect_resolve(t, "rel/../..", "");
	expect_resolve(t, "abs/..", "");
	expect_resolve(t, "a/up/..", "");
	expect_resolve(t, "rel/../b/file", "a/b/file");
	expect_resolve(t, "chain1/../up", "c");
}

static void test_resolve_missing_tail(void **state)
{
	const struct tree *t = *state;
	expect_resolve(t, "missing", "missing");
	expect_resolve(t, "missing/deeper/x", "missing/deeper/x");
	expect_resolve(t, "rel/new", "a/b/new");
	expect_resolve(t, "a/up/new/file", "c/new/file");
	expect_resolve(t, "rel/new/./x/../y", "a/b/new/y");
	/* Below a regular file nothing can exist; the tail is still lexical. */
	expect_resolve(t, "a/b/file/x", "a/b/file/x");
	/* A ".." still inside the missing part stays lexical... */
	expect_resolve(t, "dang/../rel", "nowhere/rel");
}

/* ...but one that leads back above it, into what exists, looks components
 * up again: a link there leads elsewhere, and a path checked as written
 * would be acted on through it ("new/../link" is "link"). */
static void test_resolve_missing_then_back(void **state)
{
	const struct tree *t = *state;
	expect_resolve(t, "missing/../rel/file", "a/b/file");
	expect_resolve(t, "a/new/../up", "c");
	expect_resolve(t, "a/new/x/../../up/z", "c/z");
	expect_resolve(t, "a/b/file/x/../../back", "");     /* ENOTDIR, then back */
	expect_resolve(t, "a/new/../b/../up/../a/b/back/abs", "a");
	expect_resolve(t, "a/new/../new2/../../dang", "nowhere/deep");
}

/* Creating through a dangling link creates its target, so the target is the
 * path that counts. */
static void test_resolve_dangling_followed(void **state)
{
	const struct tree *t = *state;
	expect_resolve(t, "dang", "nowhere/deep");
	expect_resolve(t, "dang/more", "nowhere/deep/more");
	expect_resolve(t, "dangabs", "gone/x");
	expect_resolve(t, "dangabs/y", "gone/x/y");
}

static void test_resolve_loops(void **state)
{
	const struct tree *t = *state;
	expect_resolve_fails(t, "loop1", ELOOP);
	expect_resolve_fails(t, "loop2/x", ELOOP);
	expect_resolve_fails(t, "self", ELOOP);
	expect_resolve_fails(t, "l-1", ELOOP); /* 41 links */
	expect_resolve_fails(t, "l-1/x", ELOOP);
}

static void test_resolve_relative_with_base(void **state)
{
	const struct tree *t = *state;
	char *got = path_resolve("rel/..", t->root);
	_cleanup_free_ char *want = tp(t, "a");
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);

	_cleanup_free_ char *base = tp(t, "a/b");
	got = path_resolve("../up", base);
	_cleanup_free_ char *want2 = tp(t, "c");
	assert_non_null(got);
	assert_string_equal(got, want2);
	free(got);

	/* An absolute path ignores the base. */
	got = path_resolve(t->root, "/nonexistent");
	assert_string_equal(got, t->root);
	free(got);
}

/* A long missing tail of many components is appended as written; a short
 * link that expands to a long target grows the result past what the path
 * alone needed. */
static void test_resolve_many_components(void **state)
{
	const struct tree *t = *state;
	char *rel = NULL, *want = NULL;
	size_t rel_len = 0, want_len = 0;
	FILE *fr = open_memstream(&rel, &rel_len), *fw = open_memstream(&want, &want_len);
	assert_non_null(fr);
	assert_non_null(fw);
	fputs("a/./b/../b/new", fr);
	fputs("a/b/new", fw);
	for (int i = 0; i < 300; i++) {
		fprintf(fr, "/d%d/./x/..", i);
		fprintf(fw, "/d%d", i);
	}
	fclose(fr);
	fclose(fw);
	expect_resolve(t, rel, want);
	free(rel);
	free(want);

	char target[2048] = "a/b";
	for (int i = 0; i < 150; i++)
		snprintf(target + strlen(target), sizeof target - strlen(target), "/n%d", i);
	mk_link(t, target, "g");
	_cleanup_free_ char *want_g = xasprintf("%s/x", target);
	expect_resolve(t, "g/x", want_g);
	_cleanup_free_ char *abs = xasprintf("@/%s", target);
	mk_link(t, abs, "g2");
	expect_resolve(t, "g2/x", want_g);
	/* past a/b nothing exists: ".." in the tail is lexical */
	expect_resolve(t, "g/x/..", target);
	char climbed[2048];
	snprintf(climbed, sizeof climbed, "%s", target);
	for (int i = 0; i < 3; i++)
		*strrchr(climbed, '/') = '\0';
	strcat(climbed, "/c");
	expect_resolve(t, "g/../../../c", climbed);

	/* a deep tree that exists, walked through ".." at every level */
	char deep[1024] = "deep", walk[4096] = "deep";
	mk_dir(t, deep);
	for (int i = 0; i < 60; i++) {
		snprintf(deep + strlen(deep), sizeof deep - strlen(deep), "/e%d", i);
		mk_dir(t, deep);
		snprintf(walk + strlen(walk), sizeof walk - strlen(walk), "/e%d/../e%d/.", i, i);
	}
	expect_resolve(t, walk, deep);
}

static void test_resolve_relative_needs_absolute_base(void **state)
{
	errno = 0;
	assert_null(path_resolve("x", NULL));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(path_resolve("x", "relative/base"));
	assert_int_equal(errno, EINVAL);
}

/* ---- the memo: the same answers, fewer lookups -------------------------- */

static const char *const memo_paths[] = {
	"", "a", "a/b/file", "abs/b/file", "rel/file", "a/up", "a/b/back/c", "chain1/file",
	"dang", "dangabs", "sp", "dot/a/b", "a/b/missing", "a/missing/deeper", "abs/../c",
	"rel/back/a/up", "missing/../rel/file", "a/new/../up", "a/b/file/x/../../back", NULL,
};

static void test_memo_agrees_with_resolve(void **state)
{
	const struct tree *t = *state;
	struct path_memo memo = { 0 };
	for (int pass = 0; pass < 2; pass++) /* the second with a warm memo */
		for (const char *const *r = memo_paths; *r; r++) {
			_cleanup_free_ char *p = tp(t, *r);
			_cleanup_free_ char *want = path_resolve(p, NULL);
			_cleanup_free_ char *got = path_resolve_memo(p, NULL, &memo);
			assert_non_null(want);
			assert_non_null(got);
			assert_string_equal(got, want);
		}
	path_memo_free(&memo);
	assert_null(memo.dir[0]);
}

/* memo.last is what stat(2) of the answer says, whenever it is not 0; a
 * file's last component is looked up even through links and "..". */
static void test_memo_last_mode(void **state)
{
	const struct tree *t = *state;
	struct path_memo memo = { 0 };
	for (int pass = 0; pass < 2; pass++) /* each path on a cold memo, then a warm one */
		for (const char *const *r = memo_paths; *r; r++) {
			if (pass == 0)
				path_memo_free(&memo);
			_cleanup_free_ char *p = tp(t, *r);
			_cleanup_free_ char *got = path_resolve_memo(p, NULL, &memo);
			assert_non_null(got);
			struct stat st;
			if (memo.last) {
				assert_false(memo.absent);
				assert_int_equal(stat(got, &st), 0);
				assert_int_equal(st.st_mode, memo.last);
				assert_false(S_ISLNK(memo.last));
			}
			if (memo.absent || stat(got, &st) < 0)
				assert_int_equal(memo.last, 0);
		}
	static const char *const files[] = { "a/b/file", "abs/b/file", "rel/file", "chain1/file", NULL };
	for (const char *const *r = files; *r; r++) {
		path_memo_free(&memo);
		_cleanup_free_ char *p = tp(t, *r);
		_cleanup_free_ char *got = path_resolve_memo(p, NULL, &memo);
		assert_true(S_ISREG(memo.last));
	}
	path_memo_free(&memo);
	_cleanup_free_ char *up = tp(t, "a/b/..");
	_cleanup_free_ char *got = path_resolve_memo(up, NULL, &memo);
	assert_int_equal(memo.last, 0); /* ".." looked nothing up */
	path_memo_free(&memo);
}

/* What the memo claims: real directories only, never a link, ancestors of a
 * real path on request; answers through it stay those of path_resolve. */
static void test_memo_known_dirs(void **state)
{
	const struct tree *t = *state;
	struct path_memo memo = { 0 };
	_cleanup_free_ char *a = tp(t, "a"), *ab = tp(t, "a/b"), *abs = tp(t, "abs");
	_cleanup_free_ char *rel = tp(t, "rel"), *file = tp(t, "a/b/file");
	path_memo_add_ancestors(&memo, file);
	assert_true(path_memo_has(&memo, t->root));
	assert_true(path_memo_has(&memo, a));
	assert_true(path_memo_has(&memo, ab));
	assert_false(path_memo_has(&memo, file)); /* the path itself is not claimed */
	path_memo_free(&memo);

	/* a directory met as the last component is known afterwards; a link
	 * to one never is, though it resolves to it */
	_cleanup_free_ char *r1 = path_resolve_memo(ab, NULL, &memo);
	assert_string_equal(r1, ab);
	assert_true(path_memo_has(&memo, ab));
	_cleanup_free_ char *r2 = path_resolve_memo(abs, NULL, &memo);
	assert_string_equal(r2, a);
	assert_false(path_memo_has(&memo, abs));
	_cleanup_free_ char *r3 = path_resolve_memo(rel, NULL, &memo);
	assert_string_equal(r3, ab);
	assert_false(path_memo_has(&memo, rel));
	assert_false(path_memo_has(&memo, file)); /* a file is no directory */
	_cleanup_free_ char *r4 = path_resolve_memo(file, NULL, &memo);
	assert_false(path_memo_has(&memo, file));
	/* the answers with everything known are still path_resolve's */
	path_memo_add_ancestors(&memo, file);
	for (const char *const *r = memo_paths; *r; r++) {
		_cleanup_free_ char *p = tp(t, *r);
		_cleanup_free_ char *want = path_resolve(p, NULL);
		_cleanup_free_ char *got = path_resolve_memo(p, NULL, &memo);
		assert_string_equal(got, want);
	}
	/* path_memo_add keeps one entry per directory */
	path_memo_free(&memo);
	for (int i = 0; i < 40; i++)
		path_memo_add(&memo, a);
	assert_true(path_memo_has(&memo, a));
	assert_int_equal(memo.next, 1);
	path_memo_free(&memo);
}

static void expect_absent(const struct tree *t, struct path_memo *m, const char *rel, bool want)
{
	_cleanup_free_ char *p = tp(t, rel);
	_cleanup_free_ char *got = path_resolve_memo(p, NULL, m);
	assert_non_null(got);
	struct stat st;
	if (m->absent != want)
		fail_msg("%s: absent is %d, expected %d", rel, m->absent, want);
	/* absent means stat would fail: the caller may skip it */
	if (want)
		assert_true(stat(got, &st) < 0);
	else
		assert_int_equal(stat(got, &st), 0);
}

static void test_memo_absent(void **state)
{
	const struct tree *t = *state;
	struct path_memo memo = { 0 };
	expect_absent(t, &memo, "a/b/file", false);
	expect_absent(t, &memo, "a/b/nope", true);
	expect_absent(t, &memo, "a/nope/deeper", true);
	expect_absent(t, &memo, "a/b/file/below", true);   /* ENOTDIR */
	expect_absent(t, &memo, "dang", true);             /* dangling: target missing */
	expect_absent(t, &memo, "abs/b", false);           /* reset after an absent one */
	expect_absent(t, &memo, "a/nope/../b/file", false); /* back in what exists */
	expect_absent(t, &memo, "a/nope/../b/nope2", true);
	expect_absent(t, &memo, "a/nope/../up/nope", true);
	expect_absent(t, &memo, "a/b/file", false);
	path_memo_free(&memo);
}

/* More directories than the memo holds: the oldest are dropped, answers
 * stay right. */
static void test_memo_wraps(void **state)
{
	const struct tree *t = *state;
	struct path_memo memo = { 0 };
	char rel[64];
	mk_dir(t, "many");
	for (int i = 0; i < 40; i++) {
		snprintf(rel, sizeof rel, "many/d%02d", i);
		mk_dir(t, rel);
		snprintf(rel, sizeof rel, "many/d%02d/sub", i);
		mk_dir(t, rel);
	}
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 40; i++) {
			snprintf(rel, sizeof rel, "many/d%02d/sub/leaf", i);
			_cleanup_free_ char *p = tp(t, rel);
			_cleanup_free_ char *got = path_resolve_memo(p, NULL, &memo);
			assert_non_null(got);
			assert_string_equal(got, p);
			assert_true(memo.absent);
		}
	path_memo_free(&memo);
}

/* path_memo_has_n: the first n bytes of dir name a known directory, as a
 * whole entry, never a prefix of one or a longer path (planner/planner.c asks it of
 * each parent of a path, by the length up to a slash). */
static void test_memo_has_n(void **state)
{
	(void)state;
	struct path_memo memo = { 0 };
	assert_false(path_memo_has_n(NULL, "/a", 2));
	assert_false(path_memo_has_n(&memo, "/a", 2));
	assert_false(path_memo_has_n(&memo, "", 0));
	path_memo_add(&memo, "/srv/data");
	assert_true(path_memo_has_n(&memo, "/srv/data", 9));
	assert_true(path_memo_has_n(&memo, "/srv/data/x/y", 9));   /* the parent of x */
	assert_true(path_memo_has_n(&memo, "/srv/database", 9));   /* only the 9 bytes count */
	assert_false(path_memo_has_n(&memo, "/srv/data/x/y", 11)); /* "/srv/data/x" */
	assert_false(path_memo_has_n(&memo, "/srv/data", 8));      /* "/srv/dat" */
	assert_false(path_memo_has_n(&memo, "/srv/data", 4));      /* "/srv": not added */
	assert_false(path_memo_has_n(&memo, "/srv/date", 9));
	assert_false(path_memo_has_n(&memo, "/srv/data", 0));
	path_memo_free(&memo);

	/* the ancestors of a real path: each parent, not the path itself */
	path_memo_add_ancestors(&memo, "/home/u/proj/main.c");
	const char *p = "/home/u/proj/main.c";
	assert_true(path_memo_has_n(&memo, p, 5));   /* "/home" */
	assert_true(path_memo_has_n(&memo, p, 7));   /* "/home/u" */
	assert_true(path_memo_has_n(&memo, p, 12));  /* "/home/u/proj" */
	assert_false(path_memo_has_n(&memo, p, 19)); /* the file itself */
	assert_false(path_memo_has_n(&memo, p, 6));  /* "/home/" */
	assert_false(path_memo_has_n(&memo, "/home/v/proj", 7));
	path_memo_free(&memo);
}

int main(void)
{
	const struct CMUnitTest pure[] = {
		cmocka_unit_test(test_expand_tilde),
		cmocka_unit_test(test_expand_leaves_other_paths),
		cmocka_unit_test(test_expand_tilde_user_refused),
		cmocka_unit_test(test_expand_needs_absolute_home),
		cmocka_unit_test(test_normalize_absolute),
		cmocka_unit_test(test_normalize_relative_with_base),
		cmocka_unit_test(test_normalize_relative_needs_absolute_base),
		cmocka_unit_test(test_normalize_many_components),
		cmocka_unit_test(test_is_under_component_wise),
		cmocka_unit_test(test_is_under_root_covers_all),
		cmocka_unit_test(test_join_and_concat),
		cmocka_unit_test(test_relative_to),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_dirname),
		cmocka_unit_test(test_resolve_relative_needs_absolute_base),
		cmocka_unit_test(test_memo_has_n),
	};
	const struct CMUnitTest on_tree[] = {
		cmocka_unit_test(test_resolve_plain),
		cmocka_unit_test(test_resolve_symlink_to_dir),
		cmocka_unit_test(test_resolve_relative_target_climbing),
		cmocka_unit_test(test_resolve_chain),
		cmocka_unit_test(test_resolve_dotdot_after_symlink),
		cmocka_unit_test(test_resolve_missing_tail),
		cmocka_unit_test(test_resolve_missing_then_back),
		cmocka_unit_test(test_resolve_dangling_followed),
		cmocka_unit_test(test_resolve_loops),
		cmocka_unit_test(test_resolve_relative_with_base),
		cmocka_unit_test(test_resolve_many_components),
		cmocka_unit_test(test_memo_agrees_with_resolve),
		cmocka_unit_test(test_memo_absent),
		cmocka_unit_test(test_memo_known_dirs),
		cmocka_unit_test(test_memo_last_mode),
		cmocka_unit_test(test_memo_wraps),
		cmocka_unit_test(test_mkdirs),
	};
	int failed = cmocka_run_group_tests_name("path (pure)", pure, NULL, NULL);
	failed += cmocka_run_group_tests_name("path_resolve (real tree)", on_tree,
					      tree_setup, tree_teardown);
	return unit_status(failed);
}
