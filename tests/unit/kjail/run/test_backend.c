/* SPDX-License-Identifier: MIT */
/* The backend table (run/backend.h): every value of enum backend finds its
 * row, each backend says whether it can run here and, if not, why in one
 * line; one that cannot run dies with that one line and status 125 before
 * anything runs; --version's line is made from the table. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "entry/abi.h"
#include "run/backend.h"
#include "entry/landlock.h"
#include "run/locate.h"
#include "util.h"

static const enum backend every[] = { BACKEND_BWRAP, BACKEND_SEATBELT, BACKEND_CONTAINER,
					BACKEND_LANDLOCK };

static void test_lookup(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(every); i++) {
		const struct backend_ops *b = backend_lookup(every[i]);
		assert_non_null(b);
		assert_int_equal(b->id, every[i]);
		assert_string_equal(b->name, backend_name(every[i]));
		enum backend parsed;
		assert_true(backend_parse(b->name, &parsed));
		assert_int_equal(parsed, every[i]);
	}
	assert_ptr_equal(backend_lookup(BACKEND_BWRAP), &backend_bwrap);
	assert_ptr_equal(backend_lookup(BACKEND_SEATBELT), &backend_seatbelt);
	assert_ptr_equal(backend_lookup(BACKEND_CONTAINER), &backend_container);
	/* auto is this OS's own */
	assert_ptr_equal(backend_lookup(BACKEND_AUTO), backend_lookup(backend_effective(BACKEND_AUTO)));
#ifdef KJ_OS_DARWIN
	assert_ptr_equal(backend_lookup(BACKEND_AUTO), &backend_seatbelt);
#else
	assert_ptr_equal(backend_lookup(BACKEND_AUTO), &backend_bwrap);
#endif
}

/* One row a backend, each whole: a new backend is a file and a row. */
static void test_table(void **state)
{
	(void)state;
	size_t n = 0;
	for (const struct backend_ops *const *r = backends; *r; r++, n++) {
		const struct backend_ops *b = *r;
		assert_non_null(b->name);
		assert_non_null(b->describe);
		assert_non_null(b->available);
		assert_non_null(b->print);
		assert_non_null(b->run);
		assert_int_not_equal(b->id, BACKEND_AUTO);
		for (const struct backend_ops *const *o = backends; o != r; o++)
			assert_int_not_equal((*o)->id, b->id);
	}
	assert_int_equal(n, ARRAY_SIZE(every));
}

/* One line, no newline, and a fix in it. */
static void assert_one_line(const char *why, const char *prefix, const char *fix)
{
	assert_null(strchr(why, '\n'));
	assert_true(str_has_prefix(why, prefix));
	assert_non_null(strstr(why, fix));
}

static void test_container_available(void **state)
{
	(void)state;
	char why[512] = "";
	assert_true(backend_container.available(why, sizeof why));
	assert_true(backend_container.runs_here);
	char buf[64];
	backend_container.describe(buf, sizeof buf);
	assert_string_equal(buf, "container");
}

static void test_seatbelt_available(void **state)
{
	(void)state;
	char why[512] = "", buf[128];
	backend_seatbelt.describe(buf, sizeof buf);
#ifdef KJ_OS_DARWIN
	assert_true(backend_seatbelt.runs_here);
	assert_string_equal(buf, "seatbelt (/usr/bin/sandbox-exec)");
	if (!backend_seatbelt.available(why, sizeof why))
		assert_one_line(why, "/usr/bin/sandbox-exec is missing", "ships with macOS");
#else
	assert_false(backend_seatbelt.runs_here);
	assert_string_equal(buf, "seatbelt (--print only)");
	assert_false(backend_seatbelt.available(why, sizeof why));
	assert_one_line(why, "--backend seatbelt needs macOS (/usr/bin/sandbox-exec)",
			"on Linux use --backend bwrap, or add --print");
#endif
}

static void test_bwrap_available(void **state)
{
	(void)state;
	char why[1024] = "", buf[PATH_MAX + 64];
	backend_bwrap.describe(buf, sizeof buf);
#ifdef KJ_OS_LINUX
	const char *bwrap = bwrap_find();
	assert_true(backend_bwrap.runs_here);
	_cleanup_free_ char *want = bwrap ? xasprintf("bwrap (%s)", bwrap)
					  : xasprintf("bwrap (%s, not installed)", KJ_BWRAP_PATH);
	assert_string_equal(buf, want);
	assert_int_equal(backend_bwrap.available(why, sizeof why), bwrap != NULL);
	if (!bwrap)
		assert_one_line(why, "bubblewrap not found (looked in ", "install it");
#else
	assert_false(backend_bwrap.runs_here);
	assert_string_equal(buf, "");
	assert_false(backend_bwrap.available(why, sizeof why));
	assert_one_line(why, "--backend bwrap needs Linux", "use --backend seatbelt");
#endif
}

static void test_version_line(void **state)
{
	(void)state;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	backends_version(f);
	assert_int_equal(fclose(f), 0);
	char *nl = strchr(out, '\n');
	assert_non_null(nl);
	*nl = '\0';
#ifdef KJ_OS_LINUX
	const char *bwrap = bwrap_find();
	_cleanup_free_ char *want =
		xasprintf("backends: bwrap (%s%s), container, landlock (ABI %d%s); seatbelt (--print only)",
			  bwrap ? bwrap : KJ_BWRAP_PATH, bwrap ? "" : ", not installed",
			  landlock_abi() < 0 ? 0 : landlock_abi(), landlock_abi() >= 3 ? "" : ": too old");
	assert_string_equal(out, want);
	/* then the bwrap backend's own: what it is built with */
	assert_non_null(strstr(nl + 1, "seccomp: "));
	assert_non_null(strstr(nl + 1, "\nlandlock: "));
#else
	assert_string_equal(out, "backends: seatbelt (/usr/bin/sandbox-exec), container");
#endif
	free(out);
}

/* A child calls fn(l) with stdout and stderr on pipes: its status, and
 * what it wrote (each NUL-terminated, at most 4 KiB). */
static int in_child(int (*fn)(const struct launch *), const struct launch *l, char *out,
		    char *err)
{
	int po[2], pe[2];
	assert_int_equal(pipe(po), 0);
	assert_int_equal(pipe(pe), 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(po[1], STDOUT_FILENO);
		dup2(pe[1], STDERR_FILENO);
		set_fatal_status(KJ_EXIT_FAIL);
		int rc = fn(l);
		fflush(NULL);
		_exit(rc);
	}
	close(po[1]);
	close(pe[1]);
	read_text(po[0], out, 4096);
	read_text(pe[0], err, 4096);
	close(po[0]);
	close(pe[0]);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* stderr holds exactly "PROG: " then a line with want in it. */
static void assert_died_with(const char *err, const char *want)
{
	const char *colon = strstr(err, ": ");
	assert_non_null(colon);
	assert_non_null(strstr(colon, want));
	assert_int_equal(strchr(err, '\n') - err, (ptrdiff_t)strlen(err) - 1);
}

struct fixture {
	struct policy p;
	struct plan pl;
	struct host h;
	char marker[PATH_MAX];
	char *cmd[5];
	struct launch l;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof *f);
	policy_init(&f->p);
	f->pl.backend = BACKEND_BWRAP;
	f->pl.workspace = getcwd(NULL, 0);
	f->h = (struct host){ .cwd = f->pl.workspace, .home = "/", .home_env = "/" };
	snprintf(f->marker, sizeof f->marker, "%s/test_backend.ran", f->pl.workspace);
	unlink(f->marker);
	f->cmd[0] = "/bin/sh";
	f->cmd[1] = "-c";
	f->cmd[2] = ": > \"$0\"";
	f->cmd[3] = f->marker;
	f->l = (struct launch){ .policy = &f->p, .plan = &f->pl, .host = &f->h, .cmd = f->cmd,
				.entry_err = "kjail's entry program is missing: (a test)" };
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	unlink(f->marker);
	free(f->pl.workspace);
	policy_free(&f->p);
	free(f);
	return 0;
}

#ifndef KJ_OS_DARWIN
/* Off macOS seatbelt's run fails closed through the interface: 125, one
 * line naming the backend that runs here, the command never runs; its
 * print does not need macOS. */
static void test_seatbelt_off_macos(void **state)
{
	struct fixture *f = *state;
	char out[4096], err[4096];
	f->pl.backend = BACKEND_SEATBELT;
	assert_int_equal(in_child(backend_seatbelt.run, &f->l, out, err), KJ_EXIT_FAIL);
	assert_died_with(err, "--backend seatbelt needs macOS");
	assert_string_equal(out, "");
	assert_int_equal(access(f->marker, F_OK), -1);

	assert_int_equal(in_child(backend_seatbelt.print, &f->l, out, err), 0);
	assert_true(str_has_prefix(out, "/usr/bin/sandbox-exec -p '(version 1)\n"));
	assert_non_null(strstr(out, "-- /bin/sh -c"));
	assert_string_equal(err, "");
	assert_int_equal(access(f->marker, F_OK), -1);
}
#endif

#ifdef KJ_OS_LINUX
/* bwrap without its entry program (or without bwrap): one line, 125, for
 * a run and for --print alike. */
static void test_bwrap_not_ready(void **state)
{
	struct fixture *f = *state;
	char out[4096], err[4096];
	const char *want = bwrap_find() ? "kjail's entry program is missing: (a test)"
					: "bubblewrap not found";
	int (*fns[])(const struct launch *) = { backend_bwrap.print, backend_bwrap.run };
	for (size_t i = 0; i < ARRAY_SIZE(fns); i++) {
		assert_int_equal(in_child(fns[i], &f->l, out, err), KJ_EXIT_FAIL);
		assert_died_with(err, want);
		assert_string_equal(out, "");
	}
	assert_int_equal(access(f->marker, F_OK), -1);
}
#endif

/* The container backend prints the command as it would run it, and
 * refuses an allowlist it could not hold, whether printing or running. */
static void test_container(void **state)
{
	struct fixture *f = *state;
	char out[4096], err[4096];
	f->pl.backend = BACKEND_CONTAINER;
	assert_int_equal(in_child(backend_container.print, &f->l, out, err), 0);
	_cleanup_free_ char *want = xasprintf("/bin/sh -c ': > \"$0\"' %s\n", f->marker);
	assert_string_equal(out, want);
	assert_string_equal(err, "");

	f->pl.net = NET_ALLOWLIST;
	int (*fns[])(const struct launch *) = { backend_container.print, backend_container.run };
	for (size_t i = 0; i < ARRAY_SIZE(fns); i++) {
		assert_int_equal(in_child(fns[i], &f->l, out, err), KJ_EXIT_FAIL);
		assert_died_with(err, "--allow-host needs a jail (--backend bwrap or seatbelt)");
		assert_string_equal(out, "");
	}
	assert_int_equal(access(f->marker, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_container_available),
		cmocka_unit_test(test_seatbelt_available),
		cmocka_unit_test(test_bwrap_available),
		cmocka_unit_test(test_version_line),
#ifndef KJ_OS_DARWIN
		cmocka_unit_test_setup_teardown(test_seatbelt_off_macos, setup, teardown),
#endif
#ifdef KJ_OS_LINUX
		cmocka_unit_test_setup_teardown(test_bwrap_not_ready, setup, teardown),
#endif
		cmocka_unit_test_setup_teardown(test_container, setup, teardown),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
