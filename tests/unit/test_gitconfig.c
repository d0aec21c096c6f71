/* gitconfig_parse: core.hooksPath and the include paths, as git reads them
 * (each case checked against git config --list). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kjail/gitconfig.h"

static void expect(const char *text, const char *want)
{
	struct gitconfig g = GITCONFIG_INIT;
	gitconfig_parse(text, strlen(text), &g);
	const char *got = g.hooks_path;
	if (!want) {
		if (got)
			fail_msg("from %s: got \"%s\", want none", text, got);
	} else if (!got) {
		fail_msg("from %s: got none, want \"%s\"", text, want);
	} else if (strcmp(got, want) != 0) {
		fail_msg("from %s: got \"%s\", want \"%s\"", text, got, want);
	}
	gitconfig_free(&g);
}

/* want: the include paths, joined with "|"; "" for none */
static void expect_includes(const char *text, const char *want)
{
	struct gitconfig g = GITCONFIG_INIT;
	gitconfig_parse(text, strlen(text), &g);
	char got[512] = "";
	for (size_t i = 0; i < g.includes.n; i++) {
		if (i)
			strcat(got, "|");
		strcat(got, g.includes.v[i]);
	}
	if (strcmp(got, want) != 0)
		fail_msg("from %s: got includes \"%s\", want \"%s\"", text, got, want);
	gitconfig_free(&g);
}

static void test_plain(void **state)
{
	(void)state;
	expect("[core]\n\thooksPath = .githooks\n", ".githooks");
	expect("[core]\nhookspath=.githooks", ".githooks");          /* no newline at the end */
	expect("[CORE]\n\tHOOKSPATH = x\n", "x");                     /* any case */
	expect("[ core ]\n\thooksPath = x\n", "x");
	expect("[core]\r\n\thooksPath = x\r\n", "x");                 /* CRLF */
	expect("[core]\n\trepositoryformatversion = 0\n\tbare = false\n", NULL);
	expect("", NULL);
}

static void test_sections(void **state)
{
	(void)state;
	/* a subsection is not core */
	expect("[core \"x\"]\n\thooksPath = no\n", NULL);
	expect("[core.x]\n\thooksPath = no\n", NULL);
	expect("[corex]\n\thooksPath = no\n", NULL);
	expect("[remote \"origin\"]\n\thooksPath = no\n[core]\n\tbare = false\n", NULL);
	/* the last one wins, across sections */
	expect("[core]\n\thooksPath = a\n[user]\n\tname = x\n[core]\n\thooksPath = b\n", "b");
	/* a key that only starts like it */
	expect("[core]\n\thooksPathX = no\n\txhooksPath = no\n", NULL);
	/* a bare key (a boolean) before it */
	expect("[core]\n\tbare\n\thooksPath = y\n", "y");
	/* a key on the header's own line is read (git does) */
	expect("[core] hooksPath = oneline\n", "oneline");
	expect("[user] name = x\n[core]hooksPath=y\n", "y");
	expect("[core \"x\"] hooksPath = no\n", NULL);
	/* a header git refuses: nothing from its line */
	expect("[core hooksPath = no\n", NULL);
}

static void test_includes(void **state)
{
	(void)state;
	expect_includes("[include]\n\tpath = ../shared.gitconfig\n", "../shared.gitconfig");
	expect_includes("[INCLUDE]\n\tPATH = a\n\tpath = b\n", "a|b");
	expect_includes("[includeIf \"gitdir:~/work/\"]\n\tpath = ~/work.gitconfig\n",
			"~/work.gitconfig");
	expect_includes("[includeIf \"onbranch:main\"] path = \"with space\"\n", "with space");
	expect_includes("[includeif.x]\npath=dotted\n", "dotted");
	expect_includes("[includeIf \"hasconfig:remote.*.url:a\\\"b\"]\n\tpath = q\n", "q");
	/* not includes: a subsection of include, includeIf without a condition,
	 * another key, another section, a bare key */
	expect_includes("[include \"x\"]\n\tpath = no\n", "");
	expect_includes("[includeIf]\n\tpath = no\n", "");
	expect_includes("[include]\n\tpaths = no\n\tpath\n", "");
	expect_includes("[core]\n\tpath = no\n", "");
	expect_includes("[include]\n\tpath = a\n[core]\n\tpath = no\n", "a");
	/* hooksPath and includes from one file */
	struct gitconfig g = GITCONFIG_INIT;
	const char *t = "[core]\n\thooksPath = h\n[include]\n\tpath = i\n";
	gitconfig_parse(t, strlen(t), &g);
	assert_non_null(g.hooks_path);
	assert_string_equal(g.hooks_path, "h");
	assert_int_equal(g.includes.n, 1);
	gitconfig_free(&g);
	assert_null(g.hooks_path);
	assert_int_equal(g.includes.n, 0);
}

static void test_values(void **state)
{
	(void)state;
	expect("[core]\n\thooksPath = \"with space\"\n", "with space");
	expect("[core]\n\thooksPath = a\" b \"c\n", "a b c");
	expect("[core]\n\thooksPath = x # comment\n", "x");
	expect("[core]\n\thooksPath = x ; comment\n", "x");
	expect("[core]\n\thooksPath = \"x # not a comment\"\n", "x # not a comment");
	expect("[core]\n\thooksPath = a\\\\b\n", "a\\b");
	expect("[core]\n\thooksPath = a\\\"b\n", "a\"b");
	expect("[core]\n\thooksPath = long\\\n-name\n", "long-name");   /* continued line */
	expect("[core]\n\thooksPath = \"  kept  \"\n", "  kept  ");
	expect("[core]\n\thooksPath = trailing   \n", "trailing");
	expect("[core]\n\thooksPath =\n", "");
	/* a continued value of another key is not read as a key */
	expect("[core]\n\tpager = less \\\n hooksPath = no\n", NULL);
	/* comments and blank lines */
	expect("# [core]\n; hooksPath = no\n\n[core]\n  # hooksPath = no\n\thooksPath = yes\n", "yes");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_includes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
