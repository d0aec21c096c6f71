/* SPDX-License-Identifier: MIT */
/* The mediation seam: the request built from a call's live arguments
 * (paths resolved as the lattice does, written back into the call), the
 * covers check and its denial text, conferral for sub-agents. */
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

#include "authority/mediate.h"
#include "path.h"
#include "strbuf.h"
#include "util.h"

struct fx {
	char *dir, *ws, *home;
	struct auth_ctx ctx;
	struct grant *g;
};

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static struct grant *grant_of(const struct auth_ctx *ctx, const char *caps)
{
	struct cap_list l = { 0 };
	char err[300];
	assert_true(cap_parse_list(caps, ctx, &l, err, sizeof err));
	struct grant *g = grant_from_caps(l.v, l.n, NULL, err, sizeof err);
	cap_list_clear(&l);
	assert_non_null(g);
	return g;
}

static int fx_setup(void **state)
{
	char tmpl[] = "test_mediate.tmp.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	struct fx *f = xcalloc(1, sizeof *f);
	f->dir = path_resolve(tmpl, getcwd((char[4096]){ 0 }, 4096));
	f->ws = path_join(f->dir, "ws");
	f->home = path_join(f->dir, "home");
	mkdir(f->ws, 0755);
	mkdir(f->home, 0755);
	_cleanup_free_ char *src = path_join(f->ws, "src");
	_cleanup_free_ char *notsrc = path_join(f->ws, "notsrc");
	_cleanup_free_ char *link = path_join(f->ws, "src/link");
	_cleanup_free_ char *loop = path_join(f->ws, "loop");
	mkdir(src, 0755);
	mkdir(notsrc, 0755);
	assert_int_equal(symlink("../notsrc", link), 0);
	assert_int_equal(symlink("loop", loop), 0);
	f->ctx = (struct auth_ctx){ .workspace = f->ws, .home = f->home };
	f->g = grant_of(&f->ctx, "file/read, file/write under src/, file/edit under src/, "
				 "process/exec one of make|ls -l");
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;
	nftw(f->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	grant_free(f->g);
	free(f->dir);
	free(f->ws);
	free(f->home);
	free(f);
	return 0;
}

static void call_of(const char *tool, const char *args, struct tool_call *c)
{
	char err[300];
	if (!tool_call_parse(tool_lookup(tool), args, c, err, sizeof err))
		fail_msg("%s: %s", args, err);
}

/* The verdict on TOOL(ARGS) and its message ("" when allowed). */
static enum mediate_verdict verdict(struct fx *f, const char *tool, const char *args,
				    char *msg, size_t len)
{
	struct tool_call c;
	call_of(tool, args, &c);
	char *m = NULL;
	struct grant *conf = NULL;
	enum mediate_verdict v = mediate(f->g, &c, &f->ctx, &conf, &m);
	fmt_into(msg, len, "%s", m ? m : "");
	free(m);
	grant_free(conf);
	tool_call_clear(&c);
	return v;
}

#define W(f, rel) xasprintf("%s/%s", (f)->ws, rel)

static void test_request_paths(void **state)
{
	struct fx *f = *state;
	struct tool_call c;
	struct mediate_request r;
	char err[300];

	call_of("write", "{\"path\":\"src/link/x.txt\",\"content\":\"\"}", &c);
	assert_true(mediate_request_build(&c, &f->ctx, &r, err, sizeof err));
	_cleanup_free_ char *want = W(f, "notsrc/x.txt");
	assert_int_equal(r.n, 1);
	assert_string_equal(r.v[0].atom, "file/write");
	assert_string_equal(r.v[0].object, want);
	/* The tool will act on the path that was checked. */
	assert_string_equal(c.paths[0], want);
	mediate_request_clear(&r);
	tool_call_clear(&c);

	/* A write making directories touches the topmost one it makes. */
	call_of("write", "{\"path\":\"new/deeper/x.txt\",\"content\":\"\"}", &c);
	assert_true(mediate_request_build(&c, &f->ctx, &r, err, sizeof err));
	_cleanup_free_ char *newdir = W(f, "new");
	assert_int_equal(r.n, 2);
	assert_string_equal(r.v[1].object, newdir);
	mediate_request_clear(&r);
	tool_call_clear(&c);

	/* Every file of an edit, each once. */
	call_of("edit", "{\"edits\":[{\"path\":\"src/a\",\"old_text\":\"x\",\"new_text\":\"y\"},"
			"{\"path\":\"./src/../notsrc/b\",\"old_text\":\"x\",\"new_text\":\"y\"},"
			"{\"path\":\"src/a\",\"old_text\":\"z\",\"new_text\":\"y\"}]}", &c);
	assert_true(mediate_request_build(&c, &f->ctx, &r, err, sizeof err));
	_cleanup_free_ char *b = W(f, "notsrc/b");
	assert_int_equal(r.n, 2);
	assert_string_equal(r.v[0].atom, "file/edit");
	assert_string_equal(r.v[1].object, b);
	mediate_request_clear(&r);
	tool_call_clear(&c);

	/* "~/" as the lattice reads it. */
	call_of("read", "{\"path\":\"~/notes\"}", &c);
	assert_true(mediate_request_build(&c, &f->ctx, &r, err, sizeof err));
	_cleanup_free_ char *notes = path_join(f->home, "notes");
	assert_string_equal(r.v[0].object, notes);
	mediate_request_clear(&r);
	tool_call_clear(&c);

	call_of("read", "{\"path\":\"loop/x\"}", &c);
	assert_false(mediate_request_build(&c, &f->ctx, &r, err, sizeof err));
	assert_true(str_has_prefix(err, "cannot resolve 'loop/x': "));
	tool_call_clear(&c);
}

static void test_request_commands(void **state)
{
	struct fx *f = *state;
	struct tool_call c;
	struct mediate_request r;
	char err[300];
	call_of("bash", "{\"command\":\"ls -l\\nrm\"}", &c);
	assert_true(mediate_request_build(&c, &f->ctx, &r, err, sizeof err));
	assert_int_equal(r.n, 1);
	assert_string_equal(r.v[0].atom, "process/exec");
	assert_int_equal(r.v[0].c.kind, CON_ENUM);
	assert_string_equal(r.v[0].c.values[0], "ls -l\nrm");
	assert_string_equal(r.v[0].object, "ls -l rm"); /* one line in a denial */
	mediate_request_clear(&r);
	tool_call_clear(&c);

	call_of("bash-jobs", "{}", &c);
	assert_true(mediate_request_build(&c, &f->ctx, &r, err, sizeof err));
	assert_int_equal(r.n, 1);
	assert_true(r.v[0].held_only);
	mediate_request_clear(&r);
	tool_call_clear(&c);

	call_of("result-read", "{\"id\":\"r1\"}", &c);
	assert_true(mediate_request_build(&c, &f->ctx, &r, err, sizeof err));
	assert_string_equal(r.v[0].atom, "result/read");
	assert_int_equal(r.v[0].c.kind, CON_ANY);
	mediate_request_clear(&r);
	tool_call_clear(&c);
}

static void test_verdicts(void **state)
{
	struct fx *f = *state;
	char m[600];
	assert_int_equal(verdict(f, "write", "{\"path\":\"src/ok.txt\",\"content\":\"\"}", m,
				 sizeof m), MEDIATE_ALLOWED);
	assert_int_equal(verdict(f, "write", "{\"path\":\"/etc/passwd\",\"content\":\"\"}", m,
				 sizeof m), MEDIATE_DENIED);
	_cleanup_free_ char *pw = xasprintf("denied: lacks file/write for /etc/passwd (the grant "
					    "allows file/write under %s/src)", f->ws);
	assert_string_equal(m, pw);
	assert_int_equal(verdict(f, "write", "{\"path\":\"src/link/x\",\"content\":\"\"}", m,
				 sizeof m), MEDIATE_DENIED);
	_cleanup_free_ char *x = xasprintf("denied: lacks file/write for %s/notsrc/x (the grant "
					   "allows file/write under %s/src)", f->ws, f->ws);
	assert_string_equal(m, x);
	/* src/ itself exists: writing a new file in a new src/sub/ is fine. */
	assert_int_equal(verdict(f, "write", "{\"path\":\"src/sub/y\",\"content\":\"\"}", m,
				 sizeof m), MEDIATE_ALLOWED);
	assert_int_equal(verdict(f, "edit", "{\"edits\":["
				 "{\"path\":\"src/a\",\"old_text\":\"x\",\"new_text\":\"y\"},"
				 "{\"path\":\"notsrc/b\",\"old_text\":\"x\",\"new_text\":\"y\"}]}",
				 m, sizeof m), MEDIATE_DENIED);
	_cleanup_free_ char *b = xasprintf("denied: lacks file/edit for %s/notsrc/b (the grant "
					   "allows file/edit under %s/src)", f->ws, f->ws);
	assert_string_equal(m, b);
	assert_int_equal(verdict(f, "bash", "{\"command\":\"make\"}", m, sizeof m), MEDIATE_ALLOWED);
	assert_int_equal(verdict(f, "bash", "{\"command\":\"ls -l\"}", m, sizeof m), MEDIATE_ALLOWED);
	assert_int_equal(verdict(f, "bash", "{\"command\":\"rm -rf /\"}", m, sizeof m),
			 MEDIATE_DENIED);
	assert_string_equal(m, "denied: lacks process/exec for rm -rf / (the grant allows "
			       "process/exec one of \"ls -l\", \"make\")");
	assert_int_equal(verdict(f, "read", "{\"path\":\"/etc/hostname\"}", m, sizeof m),
			 MEDIATE_ALLOWED);
	assert_int_equal(verdict(f, "read", "{\"path\":\"loop\"}", m, sizeof m), MEDIATE_INVALID);
	assert_int_equal(verdict(f, "bash-jobs", "{}", m, sizeof m), MEDIATE_ALLOWED);

	/* Without process/exec, even a job tool naming no job is refused. */
	static const char *const exec[] = { "process/exec" };
	struct grant *nb = grant_without(f->g, exec, 1);
	grant_free(f->g);
	f->g = nb;
	assert_int_equal(verdict(f, "bash-jobs", "{}", m, sizeof m), MEDIATE_DENIED);
	assert_string_equal(m, "denied: lacks process/exec (no process/exec is granted)");
	assert_int_equal(verdict(f, "bash-output", "{\"job\":3}", m, sizeof m), MEDIATE_DENIED);
	assert_false(mediate_offers(f->g, TOOL_BASH));
	assert_true(mediate_offers(f->g, TOOL_READ));
	assert_true(mediate_offers(f->g, TOOL_RESULT_READ));
	assert_true(mediate_offers(f->g, TOOL_TASK));
}

static void test_task(void **state)
{
	struct fx *f = *state;
	struct tool_call c;
	char *m;
	struct grant *conf;
	call_of("task", "{\"prompt\":\"p\",\"capabilities\":[\"file/read\",\"file/write\"]}", &c);
	assert_int_equal(mediate(f->g, &c, &f->ctx, &conf, &m), MEDIATE_DENIED);
	assert_null(conf);
	assert_true(str_has_prefix(m, "escalation: file/write is asked for with 'any'"));
	free(m);
	tool_call_clear(&c);

	call_of("task", "{\"prompt\":\"p\",\"capabilities\":[\"file/read\","
			"\"file/write under src/link/../\"]}", &c);
	assert_int_equal(mediate(f->g, &c, &f->ctx, &conf, &m), MEDIATE_DENIED);
	free(m);
	tool_call_clear(&c);

	call_of("task", "{\"prompt\":\"p\",\"capabilities\":[\"file/write under src/deep\"]}", &c);
	assert_int_equal(mediate(f->g, &c, &f->ctx, &conf, &m), MEDIATE_ALLOWED);
	assert_non_null(conf);
	assert_true(grant_covers(f->g, conf));
	assert_false(grant_covers(conf, f->g));
	grant_free(conf);
	tool_call_clear(&c);

	call_of("task", "{\"prompt\":\"p\"}", &c);
	assert_int_equal(mediate(f->g, &c, &f->ctx, &conf, &m), MEDIATE_ALLOWED);
	assert_true(grant_equal(conf, f->g));
	grant_free(conf);
	/* Where no sub-agent may start, task is refused outright. */
	assert_int_equal(mediate(f->g, &c, &f->ctx, NULL, &m), MEDIATE_INVALID);
	free(m);
	tool_call_clear(&c);

	call_of("task", "{\"prompt\":\"p\",\"capabilities\":[\"bogus\"]}", &c);
	assert_int_equal(mediate(f->g, &c, &f->ctx, &conf, &m), MEDIATE_INVALID);
	assert_true(str_has_prefix(m, "bad capabilities: "));
	free(m);
	tool_call_clear(&c);
}

/* The refusal names what the grant allows, in every constraint's form,
 * bounded however large the grant, one line whatever it holds. */
static void test_refusal(void **state)
{
	struct fx *f = *state;
	struct grant *g = grant_of(&f->ctx, "process/exec prefix \"npm test\" \"git diff\", "
				   "x/n in 1..5");
	_cleanup_free_ char *p = mediate_refusal(g, "process/exec", "curl x", "curl x");
	assert_string_equal(p, "denied: lacks process/exec for curl x (the grant allows "
			       "process/exec prefix \"git diff\" \"npm test\")");
	_cleanup_free_ char *q = mediate_refusal(g, "process/exec", "npm test touch x",
						 "npm test\ntouch x");
	assert_string_equal(q, "denied: lacks process/exec for npm test touch x (the grant allows "
			       "process/exec prefix \"git diff\" \"npm test\"; this is not a simple "
			       "command: words of letters, digits and _-./=:@%+^ only)");
	_cleanup_free_ char *r = mediate_refusal(g, "x/n", "9", NULL);
	assert_string_equal(r, "denied: lacks x/n for 9 (the grant allows x/n in [1..5])");
	_cleanup_free_ char *w = mediate_refusal(g, "file/write", "/etc/x\033[2J", NULL);
	assert_string_equal(w, "denied: lacks file/write for /etc/x\033[2J (no file/write is "
			       "granted)");
	grant_free(g);

	/* forty prefixes of 20 bytes: cut after 240 bytes, with the count */
	struct strbuf caps = STRBUF_INIT;
	sb_adds(&caps, "file/write under");
	for (int i = 0; i < 40; i++)
		sb_addf(&caps, " /long/directory/d%02d", i);
	g = grant_of(&f->ctx, caps.s);
	sb_release(&caps);
	_cleanup_free_ char *l = mediate_refusal(g, "file/write", "/etc/x", NULL);
	assert_true(str_has_prefix(l, "denied: lacks file/write for /etc/x (the grant allows "
				      "file/write under /long/directory/d00 /long/directory/d01 "));
	assert_true(strlen(l) < 400);
	assert_non_null(strstr(l, "/long/directory/d11 ... and 28 more)"));
	assert_null(strstr(l, "d12"));
	grant_free(g);

	/* one very long prefix: cut itself */
	struct strbuf one = STRBUF_INIT;
	sb_adds(&one, "file/write under /");
	for (int i = 0; i < 60; i++)
		sb_adds(&one, "abcde");
	g = grant_of(&f->ctx, one.s);
	sb_release(&one);
	_cleanup_free_ char *o = mediate_refusal(g, "file/write", "/etc/x", NULL);
	assert_true(strlen(o) < 250);
	assert_non_null(strstr(o, "abcdea...)"));
	grant_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_request_paths, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_request_commands, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_verdicts, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_task, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_refusal, fx_setup, fx_teardown),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
