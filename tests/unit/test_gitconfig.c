/* gitconfig_hooks_path: core.hooksPath as git reads it. */
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
	char *got = gitconfig_hooks_path(text, strlen(text));
	if (!want) {
		if (got)
			fail_msg("from %s: got \"%s\", want none", text, got);
		return;
	}
	if (!got)
		fail_msg("from %s: got none, want \"%s\"", text, want);
	if (strcmp(got, want) != 0)
		fail_msg("from %s: got \"%s\", want \"%s\"", text, got, want);
	free(got);
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
