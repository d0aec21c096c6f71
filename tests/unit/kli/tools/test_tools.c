/* SPDX-License-Identifier: MIT */
/* kli's tools: argument validation, the pure text functions (edit,
 * line ranges, globs, truncation and paging), the tool environment, and
 * the file tools on a scratch directory (edit is all or nothing). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "unit-skip.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/agent.h"
#include "tools/text.h"
#include "tools/tools.h"
#include "tools/bash.h"
#include "tools/edit.h"
#include "tools/files.h"
#include "tools/result.h"
#include "path.h"
#include "util.h"

/* ------------------------------------------------------- validation */

static bool parse(const char *tool, const char *args, struct tool_call *c, char *err)
{
	const struct tool_spec *t = tool_lookup(tool);
	assert_non_null(t);
	return tool_call_parse(t, args, c, err, 300);
}

static void expect_bad(const char *tool, const char *args, const char *want)
{
	struct tool_call c;
	char err[300] = "";
	if (parse(tool, args, &c, err))
		fail_msg("%s %s: accepted", tool, args);
	if (strcmp(err, want) != 0)
		fail_msg("%s %s: got \"%s\", want \"%s\"", tool, args, err, want);
}

static void test_parse_good(void **state)
{
	(void)state;
	struct tool_call c;
	char err[300];
	assert_true(parse("read", "{\"path\":\"a.c\",\"offset\":3,\"limit\":2.0}", &c, err));
	assert_int_equal(c.id, TOOL_READ);
	assert_int_equal(c.npaths, 1);
	assert_string_equal(c.paths[0], "a.c");
	assert_int_equal(c.first, 3);
	assert_int_equal(c.count, 2);
	tool_call_clear(&c);

	assert_true(parse("find", "{\"pattern\":\"*.c\"}", &c, err));
	assert_string_equal(c.paths[0], ".");
	assert_string_equal(c.text, "*.c");
	tool_call_clear(&c);

	/* Several edits of one file share its path: it is checked once. */
	assert_true(parse("edit", "{\"edits\":[{\"path\":\"a\",\"old_text\":\"x\",\"new_text\":\"\"},"
				  "{\"path\":\"b\",\"old_text\":\"y\",\"new_text\":\"z\",\"replace_all\":true},"
				  "{\"path\":\"a\",\"old_text\":\"q\",\"new_text\":\"r\"}]}", &c, err));
	assert_int_equal(c.npaths, 2);
	assert_int_equal(c.nedits, 3);
	assert_int_equal(c.edits[2].file, 0);
	assert_true(c.edits[1].all);
	tool_call_clear(&c);

	assert_true(parse("bash", "{\"command\":\"ls\",\"timeout\":5,\"background\":false}", &c, err));
	assert_string_equal(c.command, "ls");
	assert_int_equal(c.timeout, 5);
	tool_call_clear(&c);

	assert_true(parse("task", "{\"prompt\":\"p\",\"capabilities\":[\"file/read\"]}", &c, err));
	assert_true(c.caps_given);
	assert_int_equal(c.ncaps, 1);
	tool_call_clear(&c);
	assert_true(parse("task", "{\"prompt\":\"p\"}", &c, err));
	assert_false(c.caps_given);
	tool_call_clear(&c);
	assert_true(parse("bash-jobs", "", &c, err));
	tool_call_clear(&c);
}

static void test_parse_bad(void **state)
{
	(void)state;
	expect_bad("read", "{", "the arguments are not valid JSON (string or '}' expected near end "
				"of file)");
	expect_bad("read", "[1]", "the arguments must be a JSON object");
	expect_bad("read", "{}", "missing argument 'path'");
	expect_bad("read", "{\"path\":\"\"}", "argument 'path' must not be empty");
	expect_bad("read", "{\"path\":7}", "argument 'path' must be a string");
	/* jansson refuses \u0000 itself; get_str() checks again all the same. */
	expect_bad("read", "{\"path\":\"a\\u0000b\"}", "the arguments are not valid JSON (\\u0000 "
		   "is not allowed without JSON_ALLOW_NUL near '\"a\\u0000b\"')");
	expect_bad("read", "{\"path\":\"a\",\"offset\":0}", "argument 'offset' must be from 1 to 100000000");
	expect_bad("read", "{\"path\":\"a\",\"offset\":1.5}", "argument 'offset' must be a whole number");
	expect_bad("read", "{\"path\":\"a\",\"limit\":\"3\"}", "argument 'limit' must be a whole number");
	expect_bad("read", "{\"path\":\"a\",\"paht\":1}", "unknown argument 'paht'");
	expect_bad("read", "{\"path\":\"a\",\"path\":\"b\"}", "the arguments are not valid JSON "
							    "(duplicate object key near '\"path\"')");
	expect_bad("write", "{\"path\":\"a\"}", "missing argument 'content'");
	expect_bad("edit", "{\"path\":\"a\",\"old_text\":\"\",\"new_text\":\"b\"}",
		   "argument 'old_text' must not be empty");
	expect_bad("edit", "{\"edits\":[],\"path\":\"a\"}",
		   "give either 'edits' or path, old_text and new_text, not both");
	expect_bad("edit", "{\"edits\":[]}", "'edits' must be a list of 1 to 100 edits");
	expect_bad("edit", "{\"edits\":[1]}", "each entry of 'edits' must be an object");
	expect_bad("edit", "{\"edits\":[{\"path\":\"a\",\"old_text\":\"x\",\"new_text\":\"y\",\"x\":1}]}",
		   "unknown argument 'x'");
	expect_bad("bash", "{\"command\":\"ls\",\"background\":\"yes\"}",
		   "argument 'background' must be true or false");
	expect_bad("bash", "{\"command\":\"ls\",\"timeout\":0}", "argument 'timeout' must be from 1 to 86400");
	expect_bad("bash-output", "{}", "missing argument 'job'");
	expect_bad("bash-jobs", "{\"job\":1}", "unknown argument 'job'");
	expect_bad("task", "{\"prompt\":\"p\",\"capabilities\":\"file/read\"}",
		   "'capabilities' must be a list of at most 64 entries");
	expect_bad("task", "{\"prompt\":\"p\",\"capabilities\":[\"a, b\"]}",
		   "each capability must be one entry, as text");
	assert_null(tool_lookup("rm"));
}

static void test_schema(void **state)
{
	(void)state;
	bool offer[TOOL_COUNT] = { 0 };
	offer[TOOL_READ] = offer[TOOL_BASH] = true;
	json_t *s = tools_schema(offer);
	assert_int_equal(json_array_size(s), 2);
	json_t *fn = json_object_get(json_array_get(s, 1), "function");
	assert_string_equal(json_string_value(json_object_get(fn, "name")), "bash");
	assert_true(json_is_object(json_object_get(fn, "parameters")));
	json_decref(s);
	/* Every schema is valid JSON, and names are what OpenAI accepts. */
	for (size_t i = 0; i < TOOL_COUNT; i++) {
		json_t *p = json_loads(tool_spec((enum tool_id)i)->parameters, 0, NULL);
		assert_non_null(p);
		json_decref(p);
		for (const char *n = tool_spec((enum tool_id)i)->name; *n; n++)
			assert_true(strchr("abcdefghijklmnopqrstuvwxyz-_", *n) != NULL);
	}
}

/* -------------------------------------------------------------- text */

static void test_edit_apply(void **state)
{
	(void)state;
	char err[200];
	size_t n;
	char *s = edit_apply("a b a", "b", "BB", false, &n, err, sizeof err);
	assert_string_equal(s, "a BB a");
	assert_int_equal(n, 1);
	free(s);
	assert_null(edit_apply("a b a", "a", "x", false, &n, err, sizeof err));
	assert_string_equal(err, "old_text occurs 2 times; give more context to make it unique, "
				 "or set replace_all");
	s = edit_apply("a b a", "a", "xyz", true, &n, err, sizeof err);
	assert_string_equal(s, "xyz b xyz");
	assert_int_equal(n, 2);
	free(s);
	assert_null(edit_apply("abc", "d", "x", true, &n, err, sizeof err));
	assert_string_equal(err, "old_text was not found");
	assert_null(edit_apply("abc", "", "x", true, &n, err, sizeof err));
	s = edit_apply("aaa", "aa", "b", true, &n, err, sizeof err);
	assert_string_equal(s, "ba"); /* non-overlapping, left to right */
	free(s);
	s = edit_apply("line\n", "line\n", "", false, &n, err, sizeof err);
	assert_string_equal(s, "");
	free(s);
	/* The result is bounded as what edit reads is: a 1 MiB file of "a",
	 * each made 9 bytes long, is refused before anything is allocated
	 * (with a 2 KiB new text, 8 MiB of it would take 16 GiB); growing to
	 * exactly the bound is fine. */
	char *big = xmalloc(EDIT_MAX + 1);
	memset(big, 'a', 1024 * 1024);
	big[1024 * 1024] = '\0';
	assert_null(edit_apply(big, "a", "123456789", true, &n, err, sizeof err));
	assert_string_equal(err, "the file would grow past 8 MiB");
	s = edit_apply(big, "a", "12345678", true, &n, err, sizeof err);
	assert_non_null(s);
	assert_int_equal(strlen(s), EDIT_MAX);
	free(s);
	memset(big, 'a', EDIT_MAX);
	big[EDIT_MAX] = '\0';
	assert_null(edit_apply(big, "aaaaaaaa", "aaaaaaaaa", true, &n, err, sizeof err));
	assert_string_equal(err, "the file would grow past 8 MiB");
	s = edit_apply(big, "aaaaaaaa", "a", true, &n, err, sizeof err);
	assert_int_equal(strlen(s), EDIT_MAX / 8);
	free(s);
	free(big);
}

/* Matches are found a window at a time (text.c, next_at: windows of
 * 4096 + k - 1 bytes, 4096 apart, from where the search resumes): a match
 * that ends on a window's last byte, one that starts on the next window's
 * first byte, one at the very end, an old text longer than a window; each
 * counted and replaced as one search over the whole text would. */
enum { WTEXT = 20000 };
static void check_needles(const size_t *at, size_t count)
{
	char err[200];
	size_t n;
	char *t = xmalloc(WTEXT + 1), *want = xmalloc(WTEXT + 1);
	memset(t, 'x', WTEXT);
	t[WTEXT] = '\0';
	for (size_t i = 0; i < count; i++)
		memcpy(t + at[i], "NEEDLE", 6);
	memcpy(want, t, WTEXT + 1);
	for (size_t i = 0; i < count; i++)
		memcpy(want + at[i], "needle", 6);
	char *s = edit_apply(t, "NEEDLE", "needle", true, &n, err, sizeof err);
	assert_int_equal(n, count);
	assert_string_equal(s, want);
	free(s);
	free(want);
	free(t);
}

static void test_edit_windows(void **state)
{
	(void)state;
	/* the first ends on the first window's last byte (4095 + 6 = 4096 + 5);
	 * the search resumes at 4101, so the next ends on that window's */
	static const size_t last_byte[] = { 4095, 4101 + 4095, WTEXT - 6 };
	/* the first starts on the second window's first byte */
	static const size_t first_byte[] = { 4096, 4102 + 4096, WTEXT - 6 };
	static const size_t mixed[] = { 0, 4093, 9000, 13000 };
	check_needles(last_byte, 3);
	check_needles(first_byte, 3);
	check_needles(mixed, 4);

	/* an old text of 5000 bytes, longer than a window, twice */
	char err[200];
	size_t n;
	char *t = xmalloc(WTEXT + 1), *old = xmalloc(5001);
	memset(old, 'b', 5000);
	old[5000] = '\0';
	memset(t, 'x', WTEXT);
	t[WTEXT] = '\0';
	memcpy(t + 4000, old, 5000);
	memcpy(t + WTEXT - 5000, old, 5000);
	char *s = edit_apply(t, old, "B", true, &n, err, sizeof err);
	assert_int_equal(n, 2);
	assert_int_equal(strlen(s), WTEXT - 2 * 4999);
	assert_int_equal(s[4000], 'B');
	assert_int_equal(s[WTEXT - 2 * 4999 - 1], 'B');
	free(s);
	free(old);
	free(t);
}

static void test_text_lines(void **state)
{
	(void)state;
	char err[200];
	const char *t = "a\nb\nc";
	char *s = text_lines(t, strlen(t), 0, 0, err, sizeof err);
	assert_string_equal(s, "     1\ta\n     2\tb\n     3\tc\n");
	free(s);
	s = text_lines(t, strlen(t), 2, 1, err, sizeof err);
	assert_string_equal(s, "     2\tb\n");
	free(s);
	s = text_lines(t, strlen(t), 3, 100, err, sizeof err);
	assert_string_equal(s, "     3\tc\n");
	free(s);
	assert_null(text_lines(t, strlen(t), 4, 0, err, sizeof err));
	assert_string_equal(err, "offset 4 is past the end: the file has 3 lines");
	s = text_lines("", 0, 1, 0, err, sizeof err);
	assert_string_equal(s, "");
	free(s);
	assert_true(text_is_binary("a\0b", 3));
	assert_false(text_is_binary("ab", 2));
}

static void test_glob(void **state)
{
	(void)state;
	assert_true(glob_match("*.c", "x.c"));
	assert_true(glob_match("*.c", "src/deep/x.c"));
	assert_false(glob_match("*.c", "x.h"));
	assert_false(glob_match("*.c", ".hidden.c"));
	assert_true(glob_match("src/*.c", "src/x.c"));
	assert_true(glob_match("src/**/*.c", "src/a/b/x.c"));
	assert_true(glob_match("src/**/*.c", "src/x.c"));
	assert_false(glob_match("src/*.c", "lib/x.c"));
	assert_true(glob_match("Makefile", "a/Makefile"));
}

static void test_truncate_and_page(void **state)
{
	(void)state;
	char err[200];
	char *p = result_preview("0123456789", 4, "r1");
	assert_string_equal(p, "0123\n[output truncated: 4 of 10 bytes shown; call result-read "
			       "with id \"r1\" and offset 4 for the rest]");
	free(p);
	/* Never cut inside a UTF-8 sequence. */
	assert_int_equal(utf8_cut("ab\xc3\xa9z", 3), 2);
	assert_int_equal(utf8_cut("ab\xc3\xa9z", 4), 4);
	assert_int_equal(utf8_cut("ab", 10), 2);
	p = result_preview("ab\xc3\xa9z", 3, "r2");
	assert_true(str_has_prefix(p, "ab\n[output truncated: 2 of 5"));
	free(p);

	p = result_page("0123456789", "r1", 4, 3, err, sizeof err);
	assert_string_equal(p, "456\n[bytes 4 to 7 of 10; call result-read with id \"r1\" and "
			       "offset 7 for more]");
	free(p);
	p = result_page("0123456789", "r1", 7, 100, err, sizeof err);
	assert_string_equal(p, "789");
	free(p);
	assert_null(result_page("0123456789", "r1", 10, 5, err, sizeof err));
	assert_string_equal(err, "offset 10 is past the end of result r1 (10 bytes)");
	p = result_page("ab\xc3\xa9z", "r1", 3, 10, err, sizeof err); /* mid-sequence */
	assert_string_equal(p, "\xc3\xa9z");
	free(p);
}

static void test_tool_environ(void **state)
{
	(void)state;
	char *env[] = { (char *)"PATH=/bin", (char *)"HOME=/h", (char *)"LC_ALL=C",
			(char *)"LANG=C", (char *)"SECRET=sk-12345678", (char *)"ALIAS=x-sk-12345678-y",
			(char *)"NOEQUALS", NULL };
	char **e = agent_tool_environ(env, NULL, 0, "sk-12345678");
	assert_string_equal(e[0], "PATH=/bin");
	assert_string_equal(e[1], "HOME=/h");
	assert_string_equal(e[2], "LC_ALL=C");
	assert_string_equal(e[3], "LANG=C");
	assert_null(e[4]);
	for (char **p = e; *p; p++)
		free(*p);
	free(e);
	/* a short placeholder key ("b") leaves out only a variable that
	 * is exactly it, not every value that happens to contain it */
	char *env2[] = { (char *)"PATH=/bin:/usr/bin", (char *)"OPENAI_API_KEY=b",
			 (char *)"HOME=/h", NULL };
	e = agent_tool_environ(env2, NULL, 0, "b");
	assert_string_equal(e[0], "PATH=/bin:/usr/bin");
	assert_string_equal(e[1], "HOME=/h");
	assert_null(e[2]);
	for (char **p = e; *p; p++)
		free(*p);
	free(e);
	char *allow[] = { (char *)"LC_*", (char *)"HOM" };
	e = agent_tool_environ(env, allow, 2, NULL);
	assert_string_equal(e[0], "PATH=/bin");
	assert_string_equal(e[1], "LC_ALL=C");
	assert_null(e[2]);
	for (char **p = e; *p; p++)
		free(*p);
	free(e);
}

/* ------------------------------------------------------- file tools */

struct fx {
	char *dir;
	struct tool_env env;
	struct job_table jobs;
	struct result_store results;
};

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static int fx_setup(void **state)
{
	char tmpl[] = "test_kli_tools.tmp.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	struct fx *f = xcalloc(1, sizeof *f);
	f->dir = path_resolve(tmpl, getcwd((char[4096]){ 0 }, 4096));
	f->env = (struct tool_env){ .workspace = f->dir, .jobs = &f->jobs, .results = &f->results };
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;
	nftw(f->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(f->dir);
	free(f);
	return 0;
}

static char *in(struct fx *f, const char *rel)
{
	return path_join(f->dir, rel);
}

static void put(struct fx *f, const char *rel, const char *text)
{
	_cleanup_free_ char *p = in(f, rel);
	FILE *fp = fopen(p, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static char *get(struct fx *f, const char *rel)
{
	_cleanup_free_ char *p = in(f, rel);
	return read_file_capped(p, 1 << 20, NULL);
}

/* Open C's paths as mediate() does (fsat.h), replacing what was open. */
static void open_targets(struct tool_call *c)
{
	if (c->targets)
		for (size_t i = 0; i < c->npaths; i++)
			fsat_target_close(&c->targets[i]);
	free(c->targets);
	c->targets = xcalloc(c->npaths, sizeof *c->targets);
	for (size_t i = 0; i < c->npaths; i++)
		fsat_target_open(&c->targets[i], c->paths[i], c->id == TOOL_WRITE);
}

/* An edit call on DIR's files, as mediate() leaves it: resolved paths. */
static void run_edit(struct fx *f, const char *args, struct barrier_out *out)
{
	struct tool_call c;
	char err[300];
	assert_true(parse("edit", args, &c, err));
	for (size_t i = 0; i < c.npaths; i++) {
		char *abs = path_resolve(c.paths[i], f->dir);
		free(c.paths[i]);
		c.paths[i] = abs;
	}
	open_targets(&c);
	*out = (struct barrier_out){ 0 };
	tool_edit(&c, &f->env, out);
	tool_call_clear(&c);
}

static void test_edit_all_or_nothing(void **state)
{
	struct fx *f = *state;
	put(f, "a.txt", "alpha\n");
	put(f, "b.txt", "beta beta\n");
	struct barrier_out out;
	run_edit(f, "{\"edits\":[{\"path\":\"a.txt\",\"old_text\":\"alpha\",\"new_text\":\"A\"},"
		    "{\"path\":\"b.txt\",\"old_text\":\"beta\",\"new_text\":\"B\"}]}", &out);
	assert_false(out.ok);
	assert_string_equal(out.text, "edit 2 (b.txt): old_text occurs 2 times; give more context "
				      "to make it unique, or set replace_all; no file was changed");
	free(out.text);
	free(out.show);
	out.show = NULL;
	char *a = get(f, "a.txt"), *b = get(f, "b.txt");
	assert_string_equal(a, "alpha\n");
	assert_string_equal(b, "beta beta\n");
	free(a);
	free(b);

	run_edit(f, "{\"edits\":[{\"path\":\"a.txt\",\"old_text\":\"alpha\",\"new_text\":\"A\"},"
		    "{\"path\":\"missing.txt\",\"old_text\":\"x\",\"new_text\":\"y\"}]}", &out);
	assert_false(out.ok);
	assert_string_equal(out.text, "cannot edit missing.txt: No such file or directory");
	free(out.text);
	free(out.show);
	out.show = NULL;
	a = get(f, "a.txt");
	assert_string_equal(a, "alpha\n");
	free(a);

	_cleanup_free_ char *pa = in(f, "a.txt");
	chmod(pa, 0751);
	run_edit(f, "{\"edits\":[{\"path\":\"a.txt\",\"old_text\":\"alpha\",\"new_text\":\"A\"},"
		    "{\"path\":\"b.txt\",\"old_text\":\"beta\",\"new_text\":\"B\",\"replace_all\":true},"
		    "{\"path\":\"a.txt\",\"old_text\":\"A\",\"new_text\":\"AA\"}]}", &out);
	assert_true(out.ok);
	assert_string_equal(out.text, "replaced 4 occurrences in 2 files");
	free(out.text);
	free(out.show);
	out.show = NULL;
	a = get(f, "a.txt");
	b = get(f, "b.txt");
	assert_string_equal(a, "AA\n");
	assert_string_equal(b, "B B\n");
	free(a);
	free(b);
	struct stat st;
	assert_int_equal(stat(pa, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0751); /* the mode survives the rename */
	/* No temporary file is left behind. */
	_cleanup_free_ char *glob = in(f, "a.txt.kli-*");
	_cleanup_free_ char *cmd = xasprintf("test -z \"$(ls %s 2>/dev/null)\"", glob);
	assert_int_equal(system(cmd), 0);
}

/* One file named twice ("a.txt", "./a.txt", a link to it) is one file:
 * every edit lands, none is lost to the other spelling's rename. */
static void test_edit_same_file_twice(void **state)
{
	struct fx *f = *state;
	put(f, "a.txt", "one\ntwo\nthree\n");
	_cleanup_free_ char *pl = in(f, "link");
	assert_int_equal(symlink("a.txt", pl), 0);
	struct barrier_out out;
	run_edit(f, "{\"edits\":[{\"path\":\"a.txt\",\"old_text\":\"one\",\"new_text\":\"1\"},"
		    "{\"path\":\"./a.txt\",\"old_text\":\"two\",\"new_text\":\"2\"},"
		    "{\"path\":\"link\",\"old_text\":\"three\",\"new_text\":\"3\"}]}", &out);
	assert_true(out.ok);
	assert_string_equal(out.text, "replaced 3 occurrences in 1 file");
	free(out.text);
	free(out.show);
	out.show = NULL;
	char *a = get(f, "a.txt");
	assert_string_equal(a, "1\n2\n3\n");
	free(a);
	/* in order: the second spelling sees the first one's edit */
	run_edit(f, "{\"edits\":[{\"path\":\"a.txt\",\"old_text\":\"1\",\"new_text\":\"x\"},"
		    "{\"path\":\"./a.txt\",\"old_text\":\"1\",\"new_text\":\"y\"}]}", &out);
	assert_false(out.ok);
	assert_string_equal(out.text, "edit 2 (a.txt): old_text was not found; no file was changed");
	free(out.text);
	free(out.show);
	out.show = NULL;
	a = get(f, "a.txt");
	assert_string_equal(a, "1\n2\n3\n");
	free(a);
}

static void test_write_read(void **state)
{
	struct fx *f = *state;
	struct tool_call c;
	char err[300];
	struct barrier_out out = { 0 };
	assert_true(parse("write", "{\"path\":\"x\",\"content\":\"1\\n2\\n3\\n\"}", &c, err));
	free(c.paths[0]);
	c.paths[0] = in(f, "new/dir/w.txt");
	open_targets(&c);
	tool_write(&c, &f->env, &out);
	assert_true(out.ok);
	assert_string_equal(out.text, "wrote 6 bytes to new/dir/w.txt");
	free(out.text);
	free(out.show);
	out.show = NULL;
	tool_call_clear(&c);

	assert_true(parse("read", "{\"path\":\"x\",\"offset\":2}", &c, err));
	free(c.paths[0]);
	c.paths[0] = in(f, "new/dir/w.txt");
	open_targets(&c);
	out = (struct barrier_out){ 0 };
	tool_read(&c, &f->env, &out);
	assert_true(out.ok);
	assert_string_equal(out.text, "     2\t2\n     3\t3\n");
	free(out.text);
	free(out.show);
	out.show = NULL;
	free(c.paths[0]);
	c.paths[0] = in(f, "new");
	open_targets(&c);
	out = (struct barrier_out){ 0 };
	tool_read(&c, &f->env, &out);
	assert_false(out.ok);
	assert_string_equal(out.text, "cannot read new: Is a directory");
	free(out.text);
	free(out.show);
	out.show = NULL;
	tool_call_clear(&c);
}

static char *result_read(struct fx *f, unsigned owner, const char *args, bool *ok)
{
	struct tool_call c;
	char err[300];
	assert_true(parse("result-read", args, &c, err));
	struct barrier_out out = { 0 };
	f->env.owner = owner;
	tool_result_read(&c, &f->env, &out);
	tool_call_clear(&c);
	*ok = out.ok;
	return out.text;
}

/* result-read pages only through what the same owner stored: a sub-agent
 * (or a narrower /profile) does not read what was stored under another
 * grant. */
static void test_result_read_owner(void **state)
{
	struct fx *f = *state;
	char *texts[] = { "first stored text", "second, by another" };
	unsigned owners[] = { 1, 2 };
	f->results = (struct result_store){ .v = texts, .owner = owners, .n = 2 };
	bool ok;
	char *t = result_read(f, 1, "{\"id\":\"r1\",\"offset\":6}", &ok);
	assert_true(ok);
	assert_non_null(strstr(t, "stored text"));
	free(t);
	t = result_read(f, 1, "{\"id\":\"r2\"}", &ok);
	assert_false(ok);
	assert_string_equal(t, "result \"r2\" was stored by another agent or under another "
			       "grant; this one cannot read it");
	free(t);
	t = result_read(f, 2, "{\"id\":\"r1\"}", &ok);
	assert_false(ok);
	free(t);
	t = result_read(f, 2, "{\"id\":\"r2\"}", &ok);
	assert_true(ok);
	free(t);
	t = result_read(f, 1, "{\"id\":\"r3\"}", &ok);
	assert_false(ok);
	assert_string_equal(t, "there is no result \"r3\"");
	free(t);
	f->results = (struct result_store){ 0 };
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_schema),
		cmocka_unit_test(test_edit_apply),
		cmocka_unit_test(test_edit_windows),
		cmocka_unit_test(test_text_lines),
		cmocka_unit_test(test_glob),
		cmocka_unit_test(test_truncate_and_page),
		cmocka_unit_test(test_tool_environ),
		cmocka_unit_test_setup_teardown(test_edit_all_or_nothing, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_edit_same_file_twice, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_write_read, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_result_read_owner, fx_setup, fx_teardown),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
