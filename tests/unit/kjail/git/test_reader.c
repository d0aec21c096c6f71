/* SPDX-License-Identifier: MIT */
/* gitconfig_parse: core.hooksPath, the include paths and the program
 * values, as git reads them (each case checked against git config --list);
 * gitconfig_command_paths: the files a program value names. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "unit-skip.h"

#include "git/reader.h"
#include "strv.h"

static void expect(const char *text, const char *want)
{
	struct gitconfig g = GITCONFIG_INIT;
	if (!gitconfig_parse(text, strlen(text), &g))
		fail_msg("from %s: refused (%s)", text, g.err);
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

/* got: the words of v (KEYS=VALUES when keys is given), joined with "|" */
static void joined(const struct strv *keys, const struct strv *v, char *got, size_t size)
{
	got[0] = '\0';
	for (size_t i = 0; i < v->n; i++) {
		size_t n = strlen(got);
		snprintf(got + n, size - n, "%s%s%s%s", i ? "|" : "", keys ? keys->v[i] : "",
			 keys ? "=" : "", v->v[i]);
	}
}

/* want: the include paths, joined with "|"; "" for none */
static void expect_includes(const char *text, const char *want)
{
	struct gitconfig g = GITCONFIG_INIT;
	gitconfig_parse(text, strlen(text), &g);
	char got[512];
	joined(NULL, &g.includes, got, sizeof got);
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
	expect("[core]\r\n\thooksPath = x\r\n", "x");                 /* CRLF */
	expect("\xEF\xBB\xBF[core]\n\thooksPath = bom\n", "bom");          /* git skips a BOM */
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
}

/* git refuses the whole file: so does the reader, naming the line */
static void expect_refused_n(const char *text, size_t len, const char *line)
{
	struct gitconfig g = GITCONFIG_INIT;
	if (gitconfig_parse(text, len, &g))
		fail_msg("from %s: read, though git refuses it", text);
	if (!g.err || strncmp(g.err, line, strlen(line)) != 0)
		fail_msg("from %s: error \"%s\", want it to start \"%s\"", text,
			 g.err ? g.err : "(none)", line);
	gitconfig_free(&g);
	assert_null(g.err);
}
#define expect_refused(text, line) expect_refused_n(text, sizeof text - 1, line)

static void test_refused(void **state)
{
	(void)state;
	expect_refused("[core hooksPath = no\n", "line 1:");       /* an open header */
	expect_refused("[ core ]\n\thooksPath = x\n", "line 1:");  /* a blank before the name */
	expect_refused("[core \"x\" ]\n", "line 1:");
	expect_refused("[]\n", "line 1:");
	expect_refused("\xEF\xBB[core]\n", "line 1:");              /* part of a BOM */
	expect_refused("[core]\n\thooksPath = \"open\n", "line 2:");
	expect_refused("[core]\n\thooksPath = a\\qb\n", "line 2:"); /* an unknown escape */
	expect_refused("[core]\n\tfsmonitor # c\n", "line 2:");    /* a bare key, then more */
	expect_refused("[core]\n\t1x = y\n", "line 2:");
	expect_refused("[core]\n\n\t= y\n", "line 3:");
	expect_refused("[core]\n\0x = y\n", "line 2:");
	expect_refused("[include]\n\tpath\n", "line 2:");         /* git needs a path */
	/* git versions read a tab or CR inside an unquoted path differently */
	expect_refused("[core]\n\thooksPath = a\tb\n", "line 2:");
	expect_refused("[core]\n\tfsmonitor = a\rb\n", "line 2:");
	/* what came before the bad line was read all the same */
	struct gitconfig g = GITCONFIG_INIT;
	const char *t = "[core]\n\thooksPath = h\n[bad\n";
	assert_false(gitconfig_parse(t, strlen(t), &g));
	assert_string_equal(g.hooks_path, "h");
	gitconfig_free(&g);
	/* a tab between a program's words is a blank to the shell either way */
	expect("[core]\n\tfsmonitor = a\tb\n\thooksPath = \"a\tb\"\n", "a\tb");
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
	expect_includes("[include]\n\tpaths = no\n", "");
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

/* want: "key=value" of each program value, joined with "|"; "" for none */
static void expect_programs(const char *text, const char *want)
{
	struct gitconfig g = GITCONFIG_INIT;
	gitconfig_parse(text, strlen(text), &g);
	char got[1024];
	assert_int_equal(g.programs.n, g.program_keys.n);
	joined(&g.program_keys, &g.programs, got, sizeof got);
	if (strcmp(got, want) != 0)
		fail_msg("from %s: got programs \"%s\", want \"%s\"", text, got, want);
	gitconfig_free(&g);
}

static void test_programs(void **state)
{
	(void)state;
	expect_programs("[core]\n\tfsmonitor = tools/fsmon.sh\n\tpager = less -R\n"
			"\teditor = vim\n\tsshCommand = ssh -F ./ssh_config\n\taskPass = ./ask\n",
			"core.fsmonitor=tools/fsmon.sh|core.pager=less -R|core.editor=vim|"
			"core.sshCommand=ssh -F ./ssh_config|core.askPass=./ask");
	expect_programs("[filter \"fmt\"]\n\tclean = ./clean %f\n\tsmudge = cat\n"
			"\tprocess = ./p\n\trequired = true\n",
			"filter.*.clean=./clean %f|filter.*.smudge=cat|filter.*.process=./p");
	expect_programs("[diff]\n\texternal = ./d\n[diff \"bin\"]\n\ttextconv = sh t.sh\n"
			"\tcommand = ./c\n[merge \"m\"]\n\tdriver = ./m %A\n\tname = x\n",
			"diff.external=./d|diff.*.textconv=sh t.sh|diff.*.command=./c|"
			"merge.*.driver=./m %A");
	expect_programs("[credential]\n\thelper = !./cred\n[credential \"https://x\"]\n"
			"\thelper = store\n[gpg]\n\tprogram = ./g\n[gpg \"ssh\"]\n"
			"\tprogram = ./s\n[sequence]\n\teditor = ./e\n[pager]\n\tlog = ./pl\n",
			"credential.helper=!./cred|credential.helper=store|gpg.program=./g|"
			"gpg.*.program=./s|sequence.editor=./e|pager.*=./pl");
	/* aliases run when the user asks; subsections and sections that only
	 * look alike are not these */
	expect_programs("[alias]\n\trel = !./release.sh\n[core \"x\"]\n\tfsmonitor = ./a\n"
			"[filter]\n\tclean = ./b\n[merge]\n\tdriver = ./c\n[sequence \"x\"]\n"
			"\teditor = ./d\n[corex]\n\tfsmonitor = ./e\n",
			"");
	/* a key on the header's line, any case */
	expect_programs("[FILTER \"x\"] CLEAN = ./a\n", "filter.*.clean=./a");
	/* more that git (or git-lfs through its filter) runs on its own */
	expect_programs("[core]\n\tgitProxy = ./proxy\n[gpg \"ssh\"]\n"
			"\tdefaultKeyCommand = ./key\n[remote \"o\"]\n\turl = ../o\n"
			"\tuploadpack = ./up\n\treceivepack = ./rp\n[interactive]\n"
			"\tdiffFilter = ./df\n[lfs \"customtransfer.t\"]\n\tpath = ./tr\n"
			"[lfs \"extension.e\"]\n\tclean = ./c\n\tsmudge = ./s\n"
			"[submodule \"m\"]\n\tupdate = !./up.sh\n\turl = ../m\n",
			"core.gitProxy=./proxy|gpg.ssh.defaultKeyCommand=./key|"
			"remote.*.uploadpack=./up|remote.*.receivepack=./rp|"
			"interactive.diffFilter=./df|lfs.customtransfer.*.path=./tr|"
			"lfs.extension.*.clean=./c|lfs.extension.*.smudge=./s|"
			"submodule.*.update=!./up.sh");
	/* what runs when the user asks (a merge or diff tool), and lookalikes */
	expect_programs("[mergetool \"t\"]\n\tcmd = ./m\n[difftool \"t\"]\n\tcmd = ./d\n"
			"[remote]\n\tuploadpack = ./a\n[lfs]\n\tpath = ./b\n"
			"[submodule]\n\tupdate = ./c\n",
			"");
}

/* A one-value key (a char * field of struct gitconfig at off): the last
 * one set in text is want; a config without it leaves the field NULL, and
 * gitconfig_free clears it. */
static void expect_last_value(const char *text, size_t off, const char *want)
{
	struct gitconfig g = GITCONFIG_INIT;
	gitconfig_parse(text, strlen(text), &g);
	char **field = (char **)((char *)&g + off);
	assert_non_null(*field);
	assert_string_equal(*field, want);
	gitconfig_free(&g);
	assert_null(*field);
	gitconfig_parse("[core]\n\tbare = false\n", 22, &g);
	assert_null(*field);
	gitconfig_free(&g);
}

static void test_template_dir(void **state)
{
	(void)state;
	expect_last_value("[init]\n\ttemplateDir = ~/.git-templates\n"
			  "[init \"x\"]\n\ttemplateDir = no\n[INIT] TemplateDir = ./t\n",
			  offsetof(struct gitconfig, template_dir), "./t");
}

static void test_worktree(void **state)
{
	(void)state;
	expect_last_value("[core]\n\tworktree = ../../../sub\n\tfsmonitor = t/f.sh\n"
			  "[core \"x\"]\n\tworktree = no\n",
			  offsetof(struct gitconfig, worktree), "../../../sub");
}

/* extensions.worktreeConfig as git config --type=bool reads it (a value git
 * refuses counts as on); the last one set wins; -1 when none is set */
static void expect_wtc(const char *text, int want)
{
	struct gitconfig g = GITCONFIG_INIT;
	gitconfig_parse(text, strlen(text), &g);
	if (g.worktree_config != want)
		fail_msg("from %s: got worktree_config %d, want %d", text, g.worktree_config, want);
	gitconfig_free(&g);
}

static void test_worktree_config(void **state)
{
	(void)state;
	static const char *const on[] = { "true", "yes", "on", "1", "2", "TRUE", "bogus" };
	static const char *const off[] = { "false", "no", "off", "0", "" };
	char text[128];
	for (size_t i = 0; i < sizeof on / sizeof *on; i++) {
		snprintf(text, sizeof text, "[extensions]\n\tworktreeConfig = %s\n", on[i]);
		expect_wtc(text, 1);
	}
	for (size_t i = 0; i < sizeof off / sizeof *off; i++) {
		snprintf(text, sizeof text, "[extensions]\n\tworktreeConfig = %s\n", off[i]);
		expect_wtc(text, 0);
	}
	expect_wtc("[extensions]\n\tworktreeconfig\n", 1);          /* a bare key is true */
	expect_wtc("[Extensions] worktreeConfig = true", 1);          /* on the header's line */
	expect_wtc("[extensions \"x\"]\n\tworktreeConfig = true\n", -1); /* a subsection */
	expect_wtc("[core]\n\tworktreeConfig = true\n", -1);
	expect_wtc("[extensions]\n\tworktreeConfig = true\n\tworktreeConfig = false\n", 0);
	expect_wtc("[core]\n\tbare = false\n", -1);
}

/* want: the paths, joined with "|" */
static void expect_paths(const char *cmd, const char *want)
{
	struct strv v = STRV_INIT;
	gitconfig_command_paths(cmd, &v);
	char got[1024];
	joined(NULL, &v, got, sizeof got);
	if (strcmp(got, want) != 0)
		fail_msg("from %s: got paths \"%s\", want \"%s\"", cmd, got, want);
	strv_free(&v);
}

static void test_command_paths(void **state)
{
	(void)state;
	expect_paths("tools/fsmon.sh", "tools/fsmon.sh");
	expect_paths("sh tools/textconv.sh", "tools/textconv.sh");
	expect_paths("./clean %f", "./clean");          /* the placeholder is no file */
	expect_paths("less -R", "");
	expect_paths("true", "");
	expect_paths("/opt/bin/x --flag=./y -o ./z", "/opt/bin/x|./z");
	expect_paths("'./with space/x' \"./q\"'u'\"ote\"", "./with space/x|./quote");
	expect_paths("a\\ b/c", "a b/c");
	expect_paths("!f() { ./tools/cred.sh \"$@\"; }; f", "./tools/cred.sh");
	expect_paths("./a;./b|./c&&./d", "./a|./b|./c|./d");
	expect_paths("./run >./out.log 2>./err <./in", "./run");
	expect_paths("$HOME/bin/x ./\"$Y\" '$Z/lit'", "$Z/lit"); /* single quotes do not expand */
	expect_paths("FOO=./x ./prog", "./prog");
	expect_paths("~/bin/helper", "~/bin/helper");
	expect_paths("", "");
}

/* settings from the environment: git -c's words and GIT_CONFIG_KEY_n */
static void test_environment(void **state)
{
	(void)state;
	struct gitconfig g = GITCONFIG_INIT;
	assert_true(gitconfig_parse_parameters(
		"'core.hooksPath'='.h' 'Core.FSMonitor=./f' 'include.path'='/i'\\''s' "
		"'filter.Fmt.clean'='./c' 'extensions.worktreeConfig'=", &g));
	assert_string_equal(g.hooks_path, ".h");
	assert_int_equal(g.worktree_config, 1);
	char got[512];
	joined(NULL, &g.entries, got, sizeof got);
	assert_string_equal(got, "core.hookspath\n.h|core.fsmonitor\n./f|include.path\n/i's|"
				 "filter.Fmt.clean\n./c|extensions.worktreeconfig");
	gitconfig_free(&g);
	assert_false(gitconfig_parse_parameters("'core.hooksPath'='open", &g));
	assert_non_null(g.err);
	gitconfig_free(&g);
	assert_false(gitconfig_parse_parameters("core.hooksPath=x", &g));
	gitconfig_free(&g);
	assert_true(gitconfig_add(&g, "CORE.HooksPath", "x"));
	assert_string_equal(g.hooks_path, "x");
	assert_false(gitconfig_add(&g, "nodot", "x"));
	gitconfig_free(&g);
}

static void test_include_path(void **state)
{
	(void)state;
	char *p = gitconfig_include_path("../x.cfg", "/a/b", "/h");
	assert_string_equal(p, "/a/x.cfg");
	free(p);
	p = gitconfig_include_path("~/x.cfg", "/a/b", "/h");
	assert_string_equal(p, "/h/x.cfg");
	free(p);
	p = gitconfig_include_path("/abs.cfg", "/a/b", "/h");
	assert_string_equal(p, "/abs.cfg");
	free(p);
	p = gitconfig_include_path("~root/x.cfg", "/a/b", "/h"); /* root's home, from passwd */
	assert_non_null(p);
	assert_true(strcmp(p + strlen(p) - 6, "/x.cfg") == 0 && p[0] == '/');
	free(p);
	assert_null(gitconfig_include_path("~no-such-user-kj/x", "/a", "/h"));
	assert_null(gitconfig_include_path("~/x", "/a", NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_environment),
		cmocka_unit_test(test_include_path),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_includes),
		cmocka_unit_test(test_programs),
		cmocka_unit_test(test_worktree),
		cmocka_unit_test(test_worktree_config),
		cmocka_unit_test(test_template_dir),
		cmocka_unit_test(test_command_paths),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
