/* SPDX-License-Identifier: MIT */
/* The authority lattice: laws checked exhaustively over generated
 * constraints and grants, the capability syntax, and the path cases on a
 * real directory tree (symlinks included). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "unit-skip.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "authority/authority.h"
#include "authority/caps.h"
#include "authority/constraint.h"
#include "authority/grant.h"
#include "path.h"
#include "util.h"

/* Lexical resolution: the algebra tests must not depend on the disk. */
static char *lexical(const char *p, const char *base)
{
	return path_normalize(p, base);
}

static const struct auth_ctx lex_ctx = { .workspace = "/ws", .home = "/home/u", .resolve = lexical };

/* ------------------------------------------------------------ helpers */

static struct grant *parse_grant(const char *value, const struct auth_ctx *ctx)
{
	struct cap_list l = { 0 };
	char err[512] = "";
	if (!cap_parse_list(value, ctx, &l, err, sizeof err))
		fail_msg("cap_parse_list(%s): %s", value, err);
	struct grant *g = grant_from_caps(l.v, l.n, NULL, err, sizeof err);
	if (!g)
		fail_msg("grant_from_caps(%s): %s", value, err);
	cap_list_clear(&l);
	return g;
}

/* "atom=constraint;..." for bounded, "except:a,b" or "universal". */
static char *describe(const struct grant *g)
{
	if (g->scope == GRANT_UNIVERSAL)
		return xstrdup("universal");
	char *s = xstrdup(g->scope == GRANT_EXCEPT ? "except:" : "");
	for (size_t i = 0; i < g->nexcluded; i++) {
		char *t = xasprintf("%s%s%s", s, i ? "," : "", g->excluded[i]);
		free(s);
		s = t;
	}
	for (size_t i = 0; i < g->ncaps; i++) {
		char *r = constraint_render(&g->caps[i].c);
		char *t = xasprintf("%s%s%s=%s", s, i ? ";" : "", g->caps[i].atom, r);
		free(r);
		free(s);
		s = t;
	}
	return s;
}

static void assert_grant(const struct grant *g, const char *want)
{
	char *d = describe(g);
	assert_string_equal(d, want);
	free(d);
}

static void expect_entry_error(const char *entry, const char *want)
{
	struct grant_cap cap;
	char err[512] = "";
	bool ok = cap_parse_entry(entry, &lex_ctx, &cap, err, sizeof err);
	if (ok) {
		grant_cap_clear(&cap);
		fail_msg("'%s' parsed, expected: %s", entry, want);
	}
	assert_string_equal(err, want);
}

static void expect_entry(const char *entry, const char *atom, const char *rendered)
{
	struct grant_cap cap;
	char err[512] = "";
	if (!cap_parse_entry(entry, &lex_ctx, &cap, err, sizeof err))
		fail_msg("'%s': %s", entry, err);
	assert_string_equal(cap.atom, atom);
	char *r = constraint_render(&cap.c);
	assert_string_equal(r, rendered);
	free(r);
	grant_cap_clear(&cap);
}

/* --------------------------------------------------------------- atoms */

static void test_atom_normalize(void **state)
{
	(void)state;
	static const struct { const char *in, *out; } good[] = {
		{ "file/read", "file/read" },
		{ "FILE/READ", "file/read" },
		{ ":file/read", "file/read" },
		{ ":Tools/Standard", "tools/standard" },
		{ "my-tool/do-it-2", "my-tool/do-it-2" },
	};
	char err[200];
	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		char *a = atom_normalize(good[i].in, err, sizeof err);
		assert_non_null(a);
		assert_string_equal(a, good[i].out);
		free(a);
	}
	static const struct { const char *in, *msg; } bad[] = {
		{ "", "empty atom" },
		{ ":", "empty atom" },
		{ "file", "atom 'file' is not of the form group/verb" },
		{ "/read", "atom '/read' is not of the form group/verb" },
		{ "file/", "atom 'file/' is not of the form group/verb" },
		{ "a/b/c", "atom 'a/b/c' is not of the form group/verb" },
		{ "::file/read", "atom '::file/read' has a character other than a-z, 0-9, '-' and one '/'" },
		{ "file/re_ad", "atom 'file/re_ad' has a character other than a-z, 0-9, '-' and one '/'" },
		{ "file/r\xc3\xa9", "atom 'file/r?" "?' has a character other than a-z, 0-9, '-' and one '/'" },
		{ "x/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		  "atom 'x/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' is "
		  "longer than 64 characters" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		assert_null(atom_normalize(bad[i].in, err, sizeof err));
		assert_string_equal(err, bad[i].msg);
	}
}

/* ------------------------------------------------------------ entries */

static void test_entry_forms(void **state)
{
	(void)state;
	expect_entry("file/read", "file/read", "any");
	expect_entry("  :FILE/Read\t", "file/read", "any");
	expect_entry("file/write under src/", "file/write", "path under /ws/src");
	expect_entry("file/write under  /srv//data/./x/../", "file/write", "path under /srv/data");
	expect_entry("file/read under ~/notes", "file/read", "path under /home/u/notes");
	/* blanks separate a set of prefixes; a path with blanks is quoted */
	expect_entry("file/read under my/ dir/", "file/read", "path under /ws/dir /ws/my");
	expect_entry("file/read under /a /b", "file/read", "path under /a /b");
	expect_entry("file/read under \"my dir\"", "file/read", "path under \"/ws/my dir\"");
	expect_entry("file/read under \"my dir\" src \"a  b/c\"", "file/read",
		     "path under \"/ws/a  b/c\" \"/ws/my dir\" /ws/src");
	expect_entry("file/read under  \"~/x y\"  src/", "file/read",
		     "path under \"/home/u/x y\" /ws/src");
	expect_entry("x/n in 1..5", "x/n", "in [1..5]");
	expect_entry("x/n in -3 .. -1", "x/n", "in [-3..-1]");
	expect_entry("x/n in 7..7", "x/n", "in [7..7]");
	expect_entry("x/n in -9223372036854775808..9223372036854775807", "x/n",
		     "in [-9223372036854775808..9223372036854775807]");
	expect_entry("x/e one of b|a", "x/e", "one of \"a\", \"b\"");
	expect_entry("x/e one of  b | a|b ", "x/e", "one of \"a\", \"b\"");
	expect_entry("x/e one of caf\xc3\xa9", "x/e", "one of \"caf\xc3\xa9\"");
}

static void test_entry_errors(void **state)
{
	(void)state;
	expect_entry_error("", "empty capability entry");
	/* "under my dir" was one path before path sets: never two now */
	expect_entry_error("file/read under my dir",
			   "bad capability 'file/read under my dir': 'my dir' could be one path "
			   "with a blank or two paths: end each path in '/' (under src/ tests/) "
			   "or quote a path with blanks (under \"my dir\")");
	expect_entry_error("file/read under src/ tests doc/",
			   "bad capability 'file/read under src/ tests doc/': 'tests doc/' could be "
			   "one path with a blank or two paths: end each path in '/' (under src/ "
			   "tests/) or quote a path with blanks (under \"my dir\")");
	expect_entry_error("file/read under \"my dir",
			   "bad capability 'file/read under \"my dir': a path's quote is not closed");
	expect_entry_error("file/read under \"\"",
			   "bad capability 'file/read under \"\"': an empty quoted path");
	expect_entry_error("file/read under \"a\"b",
			   "bad capability 'file/read under \"a\"b': a blank must follow a quoted "
			   "path");
	expect_entry_error("file/read under my\"dir",
			   "bad capability 'file/read under my\"dir': a quote inside a path (quote "
			   "the whole path: \"my dir\")");
	expect_entry_error("   ", "empty capability entry");
	expect_entry_error("file", "bad capability 'file': atom 'file' is not of the form group/verb");
	expect_entry_error("file/read beneath x",
			   "bad capability 'file/read beneath x': after the atom, expected "
			   "'under PATH', 'in LO..HI' or 'one of A|B'");
	expect_entry_error("file/read under", "bad capability 'file/read under': 'under' needs a path");
	expect_entry_error("file/read underx", "bad capability 'file/read underx': after the atom, "
			   "expected 'under PATH', 'in LO..HI' or 'one of A|B'");
	expect_entry_error("file/read under ~bob/x", "bad capability 'file/read under ~bob/x': "
			   "cannot expand '~bob/x' (only ~ and ~/ with HOME set)");
	expect_entry_error("x/n in", "bad capability 'x/n in': 'in' needs LO..HI (two integers)");
	expect_entry_error("x/n in 5", "bad capability 'x/n in 5': 'in' needs LO..HI (two integers)");
	expect_entry_error("x/n in 9..1",
			   "bad capability 'x/n in 9..1': empty range (9 is greater than 1)");
	expect_entry_error("x/n in a..5", "bad capability 'x/n in a..5': 'a' is not an integer");
	expect_entry_error("x/n in 1..5x", "bad capability 'x/n in 1..5x': '5x' is not an integer");
	expect_entry_error("x/n in 1..2..3", "bad capability 'x/n in 1..2..3': '2..3' is not an integer");
	expect_entry_error("x/n in +1..3", "bad capability 'x/n in +1..3': '+1' is not an integer");
	expect_entry_error("x/n in 0x1..3", "bad capability 'x/n in 0x1..3': '0x1' is not an integer");
	expect_entry_error("x/n in ..3", "bad capability 'x/n in ..3': LO is missing in LO..HI");
	expect_entry_error("x/n in 3..", "bad capability 'x/n in 3..': HI is missing in LO..HI");
	expect_entry_error("x/n in -..3", "bad capability 'x/n in -..3': '-' is not an integer");
	expect_entry_error("x/n in 1..99999999999999999999",
			   "bad capability 'x/n in 1..99999999999999999999': 99999999999999999999 is "
			   "out of range (-9223372036854775808..9223372036854775807)");
	expect_entry_error("x/n in 1..9223372036854775808",
			   "bad capability 'x/n in 1..9223372036854775808': 9223372036854775808 is "
			   "out of range (-9223372036854775808..9223372036854775807)");
	expect_entry_error("x/n in -9223372036854775809..0",
			   "bad capability 'x/n in -9223372036854775809..0': -9223372036854775809 is "
			   "out of range (-9223372036854775808..9223372036854775807)");
	expect_entry_error("x/e one of", "bad capability 'x/e one of': 'one of' needs values (A|B)");
	expect_entry_error("x/e one a|b", "bad capability 'x/e one a|b': after the atom, expected "
			   "'under PATH', 'in LO..HI' or 'one of A|B'");
	expect_entry_error("x/e one of a||b",
			   "bad capability 'x/e one of a||b': empty value in the 'one of' list");
	expect_entry_error("x/e one of a|",
			   "bad capability 'x/e one of a|': empty value in the 'one of' list");
	expect_entry_error("x/e one of a\"b",
			   "bad capability 'x/e one of a\"b': a value has a quote or backslash");
	expect_entry_error("x/e one of a\x01", "bad capability 'x/e one of a?': control character");
	expect_entry_error("x/e one of \xff", "bad capability 'x/e one of ?': not valid UTF-8");
	expect_entry_error("x/e one of \xc0\xaf", "bad capability 'x/e one of ?" "?': not valid UTF-8");
	/* Long input is cut in the message, which stays one short line. */
	char big[300];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	big[0] = 'x';
	big[1] = '/';
	char err[512];
	struct grant_cap cap;
	assert_false(cap_parse_entry(big, &lex_ctx, &cap, err, sizeof err));
	assert_true(strlen(err) < 200);
	assert_non_null(strstr(err, "...': atom '"));
}

static void test_list(void **state)
{
	(void)state;
	struct cap_list l = { 0 };
	char err[300] = "";
	assert_true(cap_parse_list("", &lex_ctx, &l, err, sizeof err));
	assert_true(cap_parse_list("   ", &lex_ctx, &l, err, sizeof err));
	assert_int_equal(l.n, 0);
	assert_true(cap_parse_list("file/read, x/n in 1..2 ,x/e one of a|b", &lex_ctx, &l, err,
				   sizeof err));
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[2].atom, "x/e");
	assert_false(cap_parse_list("file/read,,file/write", &lex_ctx, &l, err, sizeof err));
	assert_string_equal(err, "empty capability entry (a stray comma?)");
	assert_false(cap_parse_list("file/read,", &lex_ctx, &l, err, sizeof err));
	assert_string_equal(err, "empty capability entry (a stray comma?)");
	assert_false(cap_parse_list("file/read, nope", &lex_ctx, &l, err, sizeof err));
	assert_string_equal(err, "bad capability 'nope': atom 'nope' is not of the form group/verb");
	/* Entries before a bad one stay (the caller frees them): 3 + 1 + 1 + 1. */
	assert_int_equal(l.n, 6);
	cap_list_clear(&l);
	assert_int_equal(l.n, 0);
}

/* ---------------------------------------------------- building grants */

static void test_closure(void **state)
{
	(void)state;
	struct grant *g = parse_grant("tools/standard", &lex_ctx);
	assert_grant(g, "file/edit=any;file/read=any;file/write=any;process/exec=any;"
			"result/read=any;tools/standard=any");
	assert_true(grant_is_closed(g));
	grant_free(g);

	g = parse_grant("file/read", &lex_ctx);
	assert_grant(g, "file/read=any;result/read=any");
	grant_free(g);

	/* A bundle's constraint reaches what it implies; result/read, which
	 * has no object to check, is implied unconstrained. */
	g = parse_grant("tools/standard under src", &lex_ctx);
	assert_grant(g, "file/edit=path under /ws/src;file/read=path under /ws/src;"
			"file/write=path under /ws/src;process/exec=path under /ws/src;"
			"result/read=any;tools/standard=path under /ws/src");
	grant_free(g);

	/* A list is a union: the wider of two nested entries wins. */
	g = parse_grant("file/read under /srv/data, file/read under /srv, process/exec", &lex_ctx);
	assert_grant(g, "file/read=path under /srv;process/exec=any;result/read=any");
	grant_free(g);
	g = parse_grant("x/n in 1..3, x/n in 4..6, x/n in 5..9, x/e one of a, x/e one of b|a", &lex_ctx);
	assert_grant(g, "x/e=one of \"a\", \"b\";x/n=in [1..9]");
	grant_free(g);
	g = parse_grant("x/n in 9223372036854775800..9223372036854775807, x/n in 0..9223372036854775799",
			&lex_ctx);
	assert_grant(g, "x/n=in [0..9223372036854775807]");
	grant_free(g);
}

static void expect_build_error(const char *value, size_t want_bad, const char *want)
{
	struct cap_list l = { 0 };
	char err[512] = "";
	assert_true(cap_parse_list(value, &lex_ctx, &l, err, sizeof err));
	size_t bad = 99;
	struct grant *g = grant_from_caps(l.v, l.n, &bad, err, sizeof err);
	assert_null(g);
	assert_string_equal(err, want);
	assert_int_equal(bad, want_bad);
	cap_list_clear(&l);
}

static void test_build_conflicts(void **state)
{
	(void)state;
	expect_build_error("file/read, x/n in 1..2, x/n in 4..5", 2,
			   "x/n is listed twice: 'in [1..2]' and 'in [4..5]' do not combine into "
			   "one constraint");
	expect_build_error("x/y under /a, x/y in 1..2", 1,
			   "x/y is listed twice: 'path under /a' and 'in [1..2]' do not combine "
			   "into one constraint");
	expect_build_error("process/exec one of make, tools/standard under /a", 1,
			   "process/exec ('one of \"make\"') and tools/standard, which implies it "
			   "('path under /a'), do not combine into one constraint");
	/* Two path entries of one atom are one set of prefixes (their join). */
	struct grant *s = parse_grant("file/read under /a, file/read under /b /a/x", &lex_ctx);
	assert_grant(s, "file/read=path under /a /b;result/read=any");
	grant_free(s);
	/* result/read is checked against nothing: implied, it is unconstrained,
	 * so differently constrained sources never clash over it. */
	struct grant *g = parse_grant("file/read under /a, process/exec one of make", &lex_ctx);
	assert_grant(g, "file/read=path under /a;process/exec=one of \"make\";result/read=any");
	grant_free(g);
	/* Written explicitly, its constraint stays. */
	g = parse_grant("result/read one of x", &lex_ctx);
	assert_grant(g, "result/read=one of \"x\"");
	grant_free(g);
	g = parse_grant("result/read one of x, file/read under /a", &lex_ctx);
	assert_grant(g, "file/read=path under /a;result/read=any");
	grant_free(g);
}

/* -------------------------------------------- generated constraint set */

#define MAX_CONS 48

static size_t gen_constraints(struct constraint *c)
{
	size_t n = 0;
	constraint_none(&c[n++]);
	constraint_any(&c[n++]);
	static const char *const paths[] = {
		"/", "/srv", "/srv/data", "/srv/database", "/srv/data/x", "/srv/dat", "/home",
	};
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
		constraint_path(&c[n++], paths[i]);
	/* sets of prefixes: disjoint, overlapping, nested (reduced away) */
	static const char *const sets[][3] = {
		{ "/srv/data", "/home", NULL },       { "/srv/dat", "/srv/data/x", NULL },
		{ "/home", "/srv", "/srv/data" },     { "/srv/database", "/srv/data", "/home" },
		{ "/srv/data/x", "/srv/database", NULL }, { "/home", "/srv/dat", NULL },
	};
	for (size_t i = 0; i < ARRAY_SIZE(sets); i++)
		constraint_paths(&c[n++], sets[i], sets[i][2] ? 3 : 2);
	static const long long ranges[][2] = {
		{ 1, 5 }, { 3, 8 }, { 6, 9 }, { 5, 5 }, { 1, 9 }, { LLONG_MIN, 0 }, { 0, LLONG_MAX },
	};
	for (size_t i = 0; i < ARRAY_SIZE(ranges); i++)
		constraint_range(&c[n++], ranges[i][0], ranges[i][1]);
	static const char *const e1[] = { "a" }, *const e2[] = { "a", "b" },
				  *const e3[] = { "b", "c" }, *const e4[] = { "c" },
				  *const e5[] = { "c", "b", "a" };
	constraint_enum(&c[n++], e1, 1);
	constraint_enum(&c[n++], e2, 2);
	constraint_enum(&c[n++], e3, 2);
	constraint_enum(&c[n++], e4, 1);
	constraint_enum(&c[n++], e5, 3);
	/* command word prefixes, and enumerations of commands they meet */
	static const char *const p1[] = { "npm test" }, *const p2[] = { "npm" },
				  *const p3[] = { "git diff", "npm test -- x" },
				  *const p4[] = { "npm test", "git" },
				  *const e6[] = { "npm test -x", "ls -l" },
				  *const e7[] = { "npm test", "git diff; rm x" };
	constraint_prefixes(&c[n++], p1, 1);
	constraint_prefixes(&c[n++], p2, 1);
	constraint_prefixes(&c[n++], p3, 2);
	constraint_prefixes(&c[n++], p4, 2);
	constraint_enum(&c[n++], e6, 2);
	constraint_enum(&c[n++], e7, 2);
	assert_true(n <= MAX_CONS);
	return n;
}

static void clear_constraints(struct constraint *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		constraint_clear(&c[i]);
}

static bool meet_equals(const struct constraint *a, const struct constraint *b,
			const struct constraint *want)
{
	struct constraint m;
	constraint_meet(&m, a, b);
	bool eq = constraint_equal(&m, want);
	constraint_clear(&m);
	return eq;
}

static void test_constraint_laws(void **state)
{
	(void)state;
	struct constraint c[MAX_CONS];
	size_t n = gen_constraints(c);
	unsigned long checks = 0;
	for (size_t i = 0; i < n; i++) {
		const struct constraint *a = &c[i];
		assert_true(meet_equals(a, a, a));                   /* idempotent */
		assert_true(constraint_covers(&c[1], a));            /* any is top */
		assert_true(constraint_covers(a, &c[0]));            /* none is bottom */
		for (size_t j = 0; j < n; j++) {
			const struct constraint *b = &c[j];
			struct constraint ab, ba;
			constraint_meet(&ab, a, b);
			constraint_meet(&ba, b, a);
			assert_true(constraint_equal(&ab, &ba));     /* commutative */
			assert_true(constraint_covers(a, &ab) && constraint_covers(b, &ab));
			/* covers(a, b) exactly when meet(a, b) == b */
			assert_int_equal(constraint_covers(a, b), constraint_equal(&ab, b));
			if (constraint_covers(a, b) && constraint_covers(b, a))
				assert_true(constraint_equal(a, b)); /* antisymmetric */
			struct constraint u;
			/* two path sets always have a join, their union */
			if (a->kind == CON_PATH && b->kind == CON_PATH)
				assert_true(constraint_union_exact(&u, a, b) && (constraint_clear(&u), 1));
			if (constraint_union_exact(&u, a, b)) {
				/* An exact union is the least bound above both. */
				assert_true(constraint_covers(&u, a) && constraint_covers(&u, b));
				/* absorption: a meet (a join b) = a, a join (a meet b) = a */
				assert_true(meet_equals(a, &u, a));
				struct constraint ua;
				if (constraint_union_exact(&ua, a, &ab)) {
					assert_true(constraint_equal(&ua, a));
					constraint_clear(&ua);
				}
				/* join is commutative and associative where it exists */
				struct constraint ub;
				assert_true(constraint_union_exact(&ub, b, a));
				assert_true(constraint_equal(&u, &ub));
				constraint_clear(&ub);
				for (size_t k = 0; k < n; k++) {
					struct constraint bd, u_d, a_bd;
					if (!constraint_union_exact(&bd, b, &c[k]))
						continue;
					bool l = constraint_union_exact(&u_d, &u, &c[k]);
					bool r = constraint_union_exact(&a_bd, a, &bd);
					if (l && r)
						assert_true(constraint_equal(&u_d, &a_bd));
					if (l)
						constraint_clear(&u_d);
					if (r)
						constraint_clear(&a_bd);
					constraint_clear(&bd);
				}
				for (size_t k = 0; k < n; k++)
					if (constraint_covers(&c[k], a) && constraint_covers(&c[k], b))
						assert_true(constraint_covers(&c[k], &u));
				constraint_clear(&u);
			}
			for (size_t k = 0; k < n; k++) {
				const struct constraint *d = &c[k];
				struct constraint bd, ab_d, a_bd;
				constraint_meet(&bd, b, d);
				constraint_meet(&ab_d, &ab, d);
				constraint_meet(&a_bd, a, &bd);
				assert_true(constraint_equal(&ab_d, &a_bd)); /* associative */
				/* meet is the greatest lower bound */
				if (constraint_covers(a, d) && constraint_covers(b, d))
					assert_true(constraint_covers(&ab, d));
				if (constraint_covers(a, b) && constraint_covers(b, d))
					assert_true(constraint_covers(a, d)); /* transitive */
				constraint_clear(&bd);
				constraint_clear(&ab_d);
				constraint_clear(&a_bd);
				checks++;
			}
			constraint_clear(&ab);
			constraint_clear(&ba);
		}
	}
	assert_true(checks == (unsigned long)n * n * n);
	clear_constraints(c, n);
}

static void test_constraint_cases(void **state)
{
	(void)state;
	struct constraint data, database, srv, m;
	constraint_path(&data, "/srv/data");
	constraint_path(&database, "/srv/database");
	constraint_path(&srv, "/srv");
	assert_false(constraint_covers(&data, &database));
	assert_false(constraint_covers(&database, &data));
	assert_true(constraint_covers(&srv, &data));
	constraint_meet(&m, &data, &database);
	assert_int_equal(m.kind, CON_NONE);
	constraint_clear(&m);
	constraint_meet(&m, &srv, &data);
	assert_string_equal(m.paths[0], "/srv/data");
	constraint_clear(&m);

	/* sets: "under src/ tests/" allows both and nothing else; the meet
	 * of two sets is their intersection */
	struct constraint st, sd, pa;
	const char *const st_v[] = { "/w/src", "/w/tests" }, *const sd_v[] = { "/w/src/a", "/w/doc" };
	constraint_paths(&st, st_v, 2);
	constraint_paths(&sd, sd_v, 2);
	constraint_path(&pa, "/w/tests/x");
	assert_true(constraint_covers(&st, &pa));
	constraint_clear(&pa);
	constraint_path(&pa, "/w/doc");
	assert_false(constraint_covers(&st, &pa));
	constraint_clear(&pa);
	constraint_meet(&m, &st, &sd);
	char *rs = constraint_render(&m);
	assert_string_equal(rs, "path under /w/src/a");
	free(rs);
	constraint_clear(&m);
	assert_true(constraint_union_exact(&m, &st, &sd));
	rs = constraint_render(&m);
	assert_string_equal(rs, "path under /w/doc /w/src /w/tests");
	free(rs);
	constraint_clear(&m);
	constraint_clear(&st);
	constraint_clear(&sd);

	/* command prefixes: words, not characters; anything a shell would
	 * read more into matches nothing */
	struct constraint npm;
	const char *const npm_v[] = { "npm test" };
	constraint_prefixes(&npm, npm_v, 1);
	static const char *const yes[] = { "npm test", "npm test -- --grep x", "npm  test\tx" };
	static const char *const no[] = {
		"npm testx", "npm", "npm test; rm -rf /", "npm test && curl x", "npm test\nrm x",
		"npm test $HOME", "npm test `id`", "npm test $(id)", "npm test > f", "npm test | sh",
		"npm test 'a b'", "npm test \"a\"", "npm test *", "npm test ~", "npm test \\x",
		"npm test (x)", "npm test <f", "npm test &", "npm test #x", "npm test {a,b}",
		"npm test \xc3\xa9", "",
	};
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		assert_true(constraint_permits(&npm, yes[i], &lex_ctx, NULL));
	for (size_t i = 0; i < ARRAY_SIZE(no); i++) {
		if (constraint_permits(&npm, no[i], &lex_ctx, NULL))
			fail_msg("prefix \"npm test\" permits '%s'", no[i]);
	}
	rs = constraint_render(&npm);
	assert_string_equal(rs, "prefix \"npm test\"");
	free(rs);
	constraint_clear(&npm);

	struct constraint r1, r2, e;
	constraint_range(&r1, 1, 5);
	constraint_range(&r2, 3, 8);
	constraint_meet(&m, &r1, &r2);
	assert_int_equal(m.kind, CON_RANGE);
	assert_true(m.lo == 3 && m.hi == 5);
	constraint_clear(&m);
	constraint_meet(&m, &r1, &srv); /* kinds are incomparable */
	assert_int_equal(m.kind, CON_NONE);
	constraint_clear(&m);
	static const char *const ab[] = { "b", "a", "b" };
	constraint_enum(&e, ab, 3);
	assert_int_equal(e.nvalues, 2);
	char *r = constraint_render(&e);
	assert_string_equal(r, "one of \"a\", \"b\"");
	free(r);
	constraint_enum(&m, ab, 0);
	assert_int_equal(m.kind, CON_NONE);
	r = constraint_render(&m);
	assert_string_equal(r, "none");
	free(r);
	constraint_range(&m, 2, 1);
	assert_int_equal(m.kind, CON_NONE);
	r = constraint_render(&r1);
	assert_string_equal(r, "in [1..5]");
	free(r);
	r = constraint_render(&data);
	assert_string_equal(r, "path under /srv/data");
	free(r);
	constraint_clear(&data);
	constraint_clear(&database);
	constraint_clear(&srv);
	constraint_clear(&r1);
	constraint_clear(&r2);
	constraint_clear(&e);
}

/* ------------------------------------------------ generated grant set */

#define MAX_GRANTS 64

static size_t gen_grants(struct grant **g)
{
	size_t n = 0;
	g[n++] = grant_universal();
	g[n++] = grant_none();
	static const char *const ex[][3] = {
		{ "file/write" }, { "process/exec" }, { "result/read" }, { "x/n" },
		{ "file/write", "file/edit", "process/exec" }, { "tools/standard" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(ex); i++) {
		size_t k = 0;
		while (k < 3 && ex[i][k])
			k++;
		g[n++] = grant_except(ex[i], k);
	}
	static const char *const lists[] = {
		"file/read", "file/write", "process/exec", "result/read", "tools/standard", "x/n",
		"file/read under /srv", "file/read under /srv/data", "file/read under /srv/database",
		"file/write under /srv/data", "tools/standard under /srv",
		"tools/standard under /srv/data/x", "x/n in 1..5", "x/n in 3..8", "x/n one of a|b",
		"result/read one of b", "file/read, process/exec", "file/read, file/write under /srv",
		"tools/standard, x/n in 1..5", "tools/standard under /srv, file/read",
		"file/write under /srv/data, result/read", "x/n in 1..5, x/e one of a|b",
		"x/n in 3..8, x/e one of b", "process/exec one of make|ls, result/read",
		"file/edit under /home, file/read under /home", "file/read under /, x/e one of c",
		"tools/standard, file/read under /srv",
	};
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++)
		g[n++] = parse_grant(lists[i], &lex_ctx);
	assert_true(n <= MAX_GRANTS);
	return n;
}

static void free_grants(struct grant **g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		grant_free(g[i]);
}

static void test_grant_laws(void **state)
{
	(void)state;
	struct grant *g[MAX_GRANTS];
	size_t n = gen_grants(g);
	struct grant *u = g[0], *none = g[1];
	unsigned long checks = 0;
	for (size_t i = 0; i < n; i++) {
		struct grant *a = g[i];
		assert_true(grant_is_closed(a));
		struct grant *aa = grant_meet(a, a);
		assert_true(grant_equal(aa, a));                       /* idempotent */
		grant_free(aa);
		assert_true(grant_covers(u, a) && grant_covers(a, none)); /* top, bottom */
		for (size_t j = 0; j < n; j++) {
			struct grant *b = g[j];
			struct grant *ab = grant_meet(a, b), *ba = grant_meet(b, a);
			assert_true(grant_is_closed(ab));
			assert_true(grant_equal(ab, ba));                   /* commutative */
			assert_true(grant_covers(a, ab) && grant_covers(b, ab));
			assert_int_equal(grant_covers(a, b), grant_equal(ab, b));
			if (grant_covers(a, b) && grant_covers(b, a))
				assert_true(grant_equal(a, b));             /* antisymmetric */
			/* confer succeeds exactly when the holder covers the request */
			char err[400] = "";
			struct grant *conf = grant_confer(a, b, err, sizeof err);
			assert_int_equal(conf != NULL, grant_covers(a, b));
			if (conf)
				assert_true(grant_equal(conf, b));
			else
				assert_true(str_has_prefix(err, "escalation: "));
			grant_free(conf);
			for (size_t k = 0; k < n; k++) {
				struct grant *c = g[k];
				struct grant *bc = grant_meet(b, c);
				struct grant *ab_c = grant_meet(ab, c), *a_bc = grant_meet(a, bc);
				assert_true(grant_equal(ab_c, a_bc));       /* associative */
				if (grant_covers(a, c) && grant_covers(b, c))
					assert_true(grant_covers(ab, c));   /* greatest lower bound */
				if (grant_covers(a, b) && grant_covers(b, c))
					assert_true(grant_covers(a, c));    /* transitive */
				grant_free(bc);
				grant_free(ab_c);
				grant_free(a_bc);
				checks++;
			}
			grant_free(ab);
			grant_free(ba);
		}
	}
	assert_true(checks == (unsigned long)n * n * n);
	free_grants(g, n);
}

static void test_without_laws(void **state)
{
	(void)state;
	struct grant *g[MAX_GRANTS];
	size_t n = gen_grants(g);
	static const char *const sets[][3] = {
		{ "file/write", "file/edit", "process/exec" }, { "process/exec" }, { "result/read" },
		{ "file/read" }, { "x/n" }, { "tools/standard" },
	};
	for (size_t i = 0; i < n; i++) {
		for (size_t s = 0; s < ARRAY_SIZE(sets); s++) {
			size_t k = 0;
			while (k < 3 && sets[s][k])
				k++;
			struct grant *w = grant_without(g[i], sets[s], k);
			assert_true(grant_is_closed(w));
			assert_true(grant_covers(g[i], w));
			for (size_t j = 0; j < k; j++)
				assert_int_equal(grant_lookup(w, sets[s][j])->kind, CON_NONE);
			/* No bundle keeps what was removed. */
			if (strcmp(sets[s][0], "x/n") != 0)
				assert_int_equal(grant_lookup(w, "tools/standard")->kind, CON_NONE);
			struct grant *ex = grant_except(sets[s], k), *m = grant_meet(g[i], ex);
			assert_true(grant_equal(w, m));
			struct grant *ww = grant_without(w, sets[s], k);
			assert_true(grant_equal(w, ww));
			grant_free(ww);
			grant_free(m);
			grant_free(ex);
			grant_free(w);
		}
	}
	free_grants(g, n);
}

static void test_grant_cases(void **state)
{
	(void)state;
	/* Excluding an implied atom excludes every bundle that implies it. */
	static const char *const w[] = { "file/write" }, *const rr[] = { "result/read" };
	struct grant *e1 = grant_except(w, 1), *e2 = grant_except(rr, 1);
	assert_grant(e1, "except:file/write,tools/standard");
	assert_grant(e2, "except:file/read,process/exec,result/read,tools/standard");
	struct grant *e12 = grant_meet(e1, e2);
	assert_grant(e12, "except:file/read,file/write,process/exec,result/read,tools/standard");
	struct grant *u = grant_universal(), *none = grant_none();
	struct grant *e0 = grant_except(NULL, 0);
	assert_true(grant_equal(e0, u));

	/* --read-only on universal: the spec's four. */
	static const char *const ro[] = { "file/write", "file/edit", "process/exec" };
	struct grant *r = grant_without(u, ro, 3);
	assert_grant(r, "except:file/edit,file/write,process/exec,tools/standard");
	/* ... and on the standard bundle: reading is what is left. */
	struct grant *std = parse_grant("tools/standard", &lex_ctx);
	struct grant *rs = grant_without(std, ro, 3);
	assert_grant(rs, "file/read=any;result/read=any");

	/* Bounded meet: atoms absent from either side are not granted. */
	struct grant *a = parse_grant("file/read under /srv, x/n in 1..5", &lex_ctx);
	struct grant *b = parse_grant("file/read under /srv/data, process/exec, x/n in 3..8",
				      &lex_ctx);
	struct grant *ab = grant_meet(a, b);
	assert_grant(ab, "file/read=path under /srv/data;result/read=any;x/n=in [3..5]");
	/* except ∧ bounded drops the excluded atoms. */
	struct grant *eb = grant_meet(e2, b);
	assert_grant(eb, "x/n=in [3..8]");
	struct grant *nn = grant_meet(none, e1);
	assert_true(grant_is_none(nn));

	/* covers across scopes */
	assert_false(grant_covers(std, e1));   /* bounded never covers universal-except */
	assert_false(grant_covers(e1, std));   /* std holds file/write */
	assert_true(grant_covers(e1, rs));
	assert_false(grant_covers(e1, u));
	assert_true(grant_covers(e1, e12));
	assert_false(grant_covers(e12, e1));

	char err[300];
	assert_null(grant_confer(e1, std, err, sizeof err));
	assert_string_equal(err, "escalation: file/write is asked for and not held");
	assert_null(grant_confer(a, b, err, sizeof err));
	assert_string_equal(err, "escalation: process/exec is asked for and not held");
	assert_null(grant_confer(b, a, err, sizeof err));
	assert_string_equal(err, "escalation: file/read is asked for with 'path under /srv' and "
				 "held only with 'path under /srv/data'");
	assert_null(grant_confer(std, u, err, sizeof err));
	assert_string_equal(err, "escalation: every capability is asked for, and not every one "
				 "is held");
	assert_null(grant_confer(std, e1, err, sizeof err));
	assert_string_equal(err, "escalation: all but a few capabilities are asked for, and the "
				 "holder's are bounded");
	assert_null(grant_confer(e12, e1, err, sizeof err));
	assert_string_equal(err, "escalation: file/read is asked for and not held");
	struct grant *c = grant_confer(u, a, err, sizeof err);
	assert_true(c && grant_equal(c, a));

	struct grant *all[] = { e1, e2, e12, u, none, e0, r, std, rs, a, b, ab, eb, nn, c };
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		grant_free(all[i]);
}

static void test_check(void **state)
{
	(void)state;
	struct grant *g = parse_grant("file/read, file/write under src, x/n in 1..5, "
				      "process/exec one of make|ls", &lex_ctx);
	static const struct {
		const char *atom, *object;
		enum check_result want;
		const char *reason;
	} cases[] = {
		{ "file/read", NULL, CHECK_ALLOWED, "allowed" },
		{ ":FILE/READ", "/anything", CHECK_ALLOWED, "allowed" },
		{ "result/read", NULL, CHECK_ALLOWED, "allowed" },
		{ "file/write", "src/a.c", CHECK_ALLOWED, "allowed" },
		{ "file/write", "/ws/src", CHECK_ALLOWED, "allowed" },
		{ "file/write", "src/../secrets", CHECK_DENIED,
		  "file/write is granted only for path under /ws/src, and /ws/secrets is outside it" },
		{ "file/write", "/ws/srcx", CHECK_DENIED,
		  "file/write is granted only for path under /ws/src, and /ws/srcx is outside it" },
		{ "file/write", NULL, CHECK_DENIED,
		  "file/write is granted only for path under /ws/src; name an OBJECT to check "
		  "against it" },
		{ "file/write", "~bob", CHECK_DENIED,
		  "file/write is granted only for path under /ws/src, and cannot expand '~bob' "
		  "(only ~ and ~/ with HOME set)" },
		{ "file/edit", "src/a.c", CHECK_DENIED, "file/edit is not granted" },
		{ "tools/standard", NULL, CHECK_DENIED, "tools/standard is not granted" },
		{ "x/n", "5", CHECK_ALLOWED, "allowed" },
		{ "x/n", "6", CHECK_DENIED, "x/n is granted only for in [1..5], and 6 is outside it" },
		{ "x/n", "five", CHECK_DENIED,
		  "x/n is granted only for in [1..5], and 'five' is not an integer" },
		{ "process/exec", "make", CHECK_ALLOWED, "allowed" },
		{ "process/exec", "rm", CHECK_DENIED,
		  "process/exec is granted only for one of \"ls\", \"make\", and 'rm' is not one of "
		  "them" },
		{ "bad atom", NULL, CHECK_BAD_ATOM,
		  "atom 'bad atom' has a character other than a-z, 0-9, '-' and one '/'" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *reason = NULL;
		enum check_result r = grant_check(g, cases[i].atom, cases[i].object, &lex_ctx, &reason);
		if (r != cases[i].want || strcmp(reason, cases[i].reason) != 0)
			fail_msg("check %s %s: got %d '%s'", cases[i].atom,
				 cases[i].object ? cases[i].object : "(none)", r, reason);
		free(reason);
	}
	grant_free(g);

	/* A bundle needs everything it implies. */
	static const char *const nb[] = { "process/exec" };
	struct grant *u = grant_universal(), *w = grant_without(u, nb, 1);
	char *reason = NULL;
	assert_int_equal(grant_check(w, "tools/standard", NULL, &lex_ctx, &reason), CHECK_DENIED);
	assert_string_equal(reason, "tools/standard is not granted");
	free(reason);
	assert_int_equal(grant_check(w, "file/write", "/x", &lex_ctx, &reason), CHECK_ALLOWED);
	free(reason);
	grant_free(w);
	grant_free(u);

	/* Implied atoms are checked too, and named as such: the bundle's path
	 * handed to process/exec is met by no command (the shell tools ask
	 * for words), so the bundle as a whole is not held for anything. */
	g = parse_grant("tools/standard under /a, file/read under /", &lex_ctx);
	assert_int_equal(grant_check(g, "file/write", "/a/x", &lex_ctx, &reason), CHECK_ALLOWED);
	free(reason);
	assert_int_equal(grant_check(g, "tools/standard", "/a/x", &lex_ctx, &reason), CHECK_DENIED);
	assert_string_equal(reason, "process/exec is granted only for path under /a, which no "
				    "command meets");
	free(reason);
	assert_int_equal(grant_check(g, "process/exec", "ls", &lex_ctx, &reason), CHECK_DENIED);
	free(reason);
	grant_free(g);
}

/* ------------------------------------------- paths on a real directory */

struct tree {
	char *dir;   /* the temporary directory, resolved */
	char *ws;    /* DIR/ws, the workspace */
};

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static void mk(const char *base, const char *rel)
{
	char *p = path_join(base, rel);
	if (mkdir(p, 0755) != 0)
		fail_msg("mkdir %s: %s", p, strerror(errno));
	free(p);
}

static void ln(const char *target, const char *base, const char *rel)
{
	char *p = path_join(base, rel);
	if (symlink(target, p) != 0)
		fail_msg("symlink %s: %s", p, strerror(errno));
	free(p);
}

static int tree_setup(void **state)
{
	/* Under the build directory (the test's cwd), not /tmp. */
	char tmpl[] = "test_authority.tmp.XXXXXX";
	if (!mkdtemp(tmpl))
		return -1;
	char *cwd = getcwd(NULL, 0);
	struct tree *t = xcalloc(1, sizeof *t);
	t->dir = path_resolve(tmpl, cwd);
	free(cwd);
	t->ws = path_join(t->dir, "ws");
	mk(t->dir, "ws");
	mk(t->ws, "src");
	mk(t->ws, "src/inner");
	mk(t->ws, "secrets");
	mk(t->ws, "data");
	mk(t->ws, "database");
	ln("/etc", t->ws, "src/link");
	ln("inner", t->ws, "src/alias");
	ln("..", t->ws, "src/up");
	ln("/nonexistent-kli-test/x", t->ws, "src/dangle");
	ln("src", t->ws, "srclink");
	ln("../secrets", t->ws, "src/leak");
	*state = t;
	return 0;
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;
	int rc = nftw(t->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(t->dir);
	free(t->ws);
	free(t);
	return rc;
}

static bool permits(const struct constraint *c, const char *obj, const struct auth_ctx *ctx,
		    char **why)
{
	*why = NULL;
	return constraint_permits(c, obj, ctx, why);
}

static void test_paths_on_disk(void **state)
{
	struct tree *t = *state;
	const struct auth_ctx ctx = { .workspace = t->ws, .home = t->dir, .resolve = NULL };
	struct grant_cap cap;
	char err[400];
	assert_true(cap_parse_entry("file/write under src/", &ctx, &cap, err, sizeof err));
	char *src = path_join(t->ws, "src");
	assert_string_equal(cap.c.paths[0], src);

	static const struct { const char *obj; bool ok; } cases[] = {
		{ "src/a.c", true },
		{ "src", true },
		{ "src/", true },
		{ "./src/inner/b", true },
		{ "src/alias/c", true },          /* alias -> inner, still inside */
		{ "srclink/x", true },            /* a link into src/ is src/ */
		{ "src/link/passwd", false },     /* link -> /etc */
		{ "src/link", false },
		{ "src/../secrets", false },
		{ "src/inner/../../secrets/k", false },
		{ "src/up/secrets", false },      /* up -> .., so up/secrets is ws/secrets */
		{ "src/leak/k", false },          /* leak -> ../secrets */
		{ "src/dangle", false },          /* creating through it lands in /nonexistent... */
		{ "srcx", false },
		{ "/etc/passwd", false },
		{ "src/new/dir/file", true },     /* missing tail: taken lexically */
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *why;
		if (permits(&cap.c, cases[i].obj, &ctx, &why) != cases[i].ok)
			fail_msg("under src/: %s should be %s (%s)", cases[i].obj,
				 cases[i].ok ? "allowed" : "denied", why ? why : "");
		free(why);
	}
	/* The denial names where the path really goes. */
	char *why;
	assert_false(permits(&cap.c, "src/link/passwd", &ctx, &why));
	assert_string_equal(why, "and /etc/passwd is outside it");
	free(why);
	assert_false(permits(&cap.c, "src/leak/k", &ctx, &why));
	char *want = xasprintf("and %s/secrets/k is outside it", t->ws);
	assert_string_equal(why, want);
	free(want);
	free(why);
	grant_cap_clear(&cap);

	/* /x/data never covers /x/database, on disk either. */
	assert_true(cap_parse_entry("file/read under data", &ctx, &cap, err, sizeof err));
	assert_false(permits(&cap.c, "database/f", &ctx, &why));
	free(why);
	assert_true(permits(&cap.c, "data/f", &ctx, &why));
	struct constraint db;
	assert_true(constraint_path_resolve(&db, "database", &ctx, err, sizeof err));
	assert_false(constraint_covers(&cap.c, &db));
	assert_false(constraint_covers(&db, &cap.c));
	constraint_clear(&db);
	grant_cap_clear(&cap);

	/* A constraint written through a link means where the link goes. */
	assert_true(cap_parse_entry("file/read under srclink", &ctx, &cap, err, sizeof err));
	assert_string_equal(cap.c.paths[0], src);
	grant_cap_clear(&cap);
	assert_true(cap_parse_entry("file/read under src/link", &ctx, &cap, err, sizeof err));
	assert_string_equal(cap.c.paths[0], "/etc");
	grant_cap_clear(&cap);
	assert_true(cap_parse_entry("file/read under ~/ws/src/../data", &ctx, &cap, err, sizeof err));
	char *data = path_join(t->ws, "data");
	assert_string_equal(cap.c.paths[0], data);
	free(data);
	grant_cap_clear(&cap);

	/* grant_check goes through the same resolution. */
	struct grant *g = parse_grant("file/write under src", &ctx);
	char *reason;
	assert_int_equal(grant_check(g, "file/write", "src/alias/x", &ctx, &reason), CHECK_ALLOWED);
	free(reason);
	assert_int_equal(grant_check(g, "file/write", "src/link/x", &ctx, &reason), CHECK_DENIED);
	want = xasprintf("file/write is granted only for path under %s, and /etc/x is outside it",
			 src);
	assert_string_equal(reason, want);
	free(want);
	free(reason);
	grant_free(g);
	free(src);
}

/* The one seam for I/O: a test can feed resolution. */
struct fake_calls {
	unsigned n;
	char base[64];
};

static struct fake_calls *fake_log(void)
{
	static struct fake_calls log; /* test-only recorder */
	return &log;
}

static char *fake_resolve(const char *p, const char *base)
{
	struct fake_calls *log = fake_log();
	log->n++;
	snprintf(log->base, sizeof log->base, "%s", base);
	if (strcmp(p, "loop") == 0) {
		errno = ELOOP;
		return NULL;
	}
	return str_has_prefix(p, "evil") ? xstrdup("/etc") : path_normalize(p, base);
}

static void test_resolver_seam(void **state)
{
	(void)state;
	const struct auth_ctx ctx = { .workspace = "/seam", .home = NULL, .resolve = fake_resolve };
	struct grant_cap cap;
	char err[300];
	*fake_log() = (struct fake_calls){ 0 };
	assert_true(cap_parse_entry("file/write under work", &ctx, &cap, err, sizeof err));
	assert_string_equal(cap.c.paths[0], "/seam/work");
	assert_int_equal(fake_log()->n, 1);
	assert_string_equal(fake_log()->base, "/seam");
	char *why = NULL;
	assert_false(constraint_permits(&cap.c, "evil/x", &ctx, &why));
	assert_string_equal(why, "and /etc is outside it");
	free(why);
	assert_int_equal(fake_log()->n, 2);
	assert_false(constraint_permits(&cap.c, "loop", &ctx, &why));
	assert_string_equal(why, "and cannot resolve 'loop': Too many levels of symbolic links");
	free(why);
	grant_cap_clear(&cap);
	assert_false(cap_parse_entry("file/write under loop", &ctx, &cap, err, sizeof err));
	assert_string_equal(err, "bad capability 'file/write under loop': cannot resolve 'loop': "
				 "Too many levels of symbolic links");
	assert_false(cap_parse_entry("file/write under ~/x", &ctx, &cap, err, sizeof err));
	assert_string_equal(err, "bad capability 'file/write under ~/x': cannot expand '~/x' (only "
				 "~ and ~/ with HOME set)");
	/* Meet and covers never resolve: they compare what was resolved. */
	struct grant *a = parse_grant("file/read under /a", &ctx);
	struct grant *b = parse_grant("file/read under /a/b", &ctx);
	unsigned before = fake_log()->n;
	struct grant *m = grant_meet(a, b);
	assert_true(grant_covers(a, m) && grant_equal(m, b));
	assert_int_equal(fake_log()->n, before);
	grant_free(a);
	grant_free(b);
	grant_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_atom_normalize),
		cmocka_unit_test(test_entry_forms),
		cmocka_unit_test(test_entry_errors),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_closure),
		cmocka_unit_test(test_build_conflicts),
		cmocka_unit_test(test_constraint_laws),
		cmocka_unit_test(test_constraint_cases),
		cmocka_unit_test(test_grant_laws),
		cmocka_unit_test(test_without_laws),
		cmocka_unit_test(test_grant_cases),
		cmocka_unit_test(test_check),
		cmocka_unit_test_setup_teardown(test_paths_on_disk, tree_setup, tree_teardown),
		cmocka_unit_test(test_resolver_seam),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
