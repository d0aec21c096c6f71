/* SPDX-License-Identifier: MIT */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/conf.h"

static bool load(struct policy *p, const char *text, char *err, size_t errlen)
{
	return config_load_text(p, "cfg.ini", text, strlen(text), "/home/u", err, errlen);
}

static void test_full_file(void **state)
{
	(void)state;
	struct policy p;
	policy_init(&p);
	char err[512] = "";
	const char *text = "# comment\n"
			   "[sandbox]\n"
			   "network = false ; inline comment\n"
			   "nested-userns = yes\n"
			   "defaults = on\n"
			   "backend = container\n"
			   "writable = ~/.cache/kli\n"
			   "writable = /srv/data/\n"
			   "deny-read = ~/.kube\n"
			   "deny-env = AWS_*\n"
			   "keep-env = GITHUB_TOKEN\n";
	assert_true(load(&p, text, err, sizeof err));
	assert_false(p.network.value);
	assert_string_equal(p.network.origin, "cfg.ini:3");
	assert_true(p.nested_userns.value);
	assert_true(p.defaults.value);
	assert_int_equal(p.backend, BACKEND_CONTAINER);
	assert_string_equal(p.backend_origin, "cfg.ini:6");
	assert_int_equal(p.writable.n, 2);
	assert_string_equal(p.writable.v[0].value, "/home/u/.cache/kli");
	assert_string_equal(p.writable.v[1].value, "/srv/data");
	assert_string_equal(p.writable.v[1].origin, "cfg.ini:8");
	assert_string_equal(p.deny_read.v[0].value, "/home/u/.kube");
	assert_string_equal(p.deny_env.v[0].value, "AWS_*");
	assert_string_equal(p.keep_env.v[0].origin, "cfg.ini:11");
	assert_int_equal(p.sources.n, 1);
	policy_free(&p);
}

struct bad { const char *text; const char *err; };

static void test_bad_files(void **state)
{
	(void)state;
	static const struct bad cases[] = {
		{ "[sandbox]\nnetwork = maybe\n", "cfg.ini:2: network: expected true or false, got 'maybe'" },
		{ "[sandbox]\nnetwork = true\nnetwork = false\n", "cfg.ini:3: key 'network' repeated in [sandbox]" },
		{ "[sandbox]\nnetwrok = true\n", "cfg.ini:2: unknown key 'netwrok' in [sandbox]" },
		{ "[jail]\n", "cfg.ini:1: unknown section [jail]" },
		{ "[sandbox]\nwritable = relative/dir\n", "cfg.ini:2: writable: path must be absolute or start with ~/, got 'relative/dir'" },
		{ "[sandbox]\ndeny-read =\n", "cfg.ini:2: deny-read: empty path" },
		{ "[sandbox]\ndeny-env = A B\n", "cfg.ini:2: deny-env: not a variable name or pattern: 'A B'" },
		{ "[sandbox]\nbackend = docker\n", "cfg.ini:2: backend: expected auto, bwrap, seatbelt, container or landlock, got 'docker'" },
		{ "[sandbox]\nfallback = container\n", "cfg.ini:2: fallback: expected none or landlock, got 'container'" },
		{ "[sandbox]\nwritable = ~bob/x\n", "cfg.ini:2: writable: path must be absolute or start with ~/, got '~bob/x'" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct policy p;
		policy_init(&p);
		char err[512] = "";
		assert_false(load(&p, cases[i].text, err, sizeof err));
		assert_string_equal(err, cases[i].err);
		policy_free(&p);
	}
}

static void test_long_line_is_not_split_into_a_key(void **state)
{
	(void)state;
	char text[600];
	char pad[400];
	memset(pad, 'a', sizeof pad - 1);
	pad[sizeof pad - 1] = '\0';
	/* inih would read the tail as "network = false" if the line were split */
	snprintf(text, sizeof text, "[sandbox]\ndeny-read = /x/%.*snetwork = false\n", 186, pad);
	struct policy p;
	policy_init(&p);
	char err[512] = "";
	assert_false(load(&p, text, err, sizeof err));
	assert_non_null(strstr(err, "cfg.ini:2: line longer than"));
	assert_true(p.network.value);
	policy_free(&p);
}

static void test_user_path(void **state)
{
	(void)state;
	char *a = config_user_path("/home/u", NULL);
	char *b = config_user_path("/home/u", "/x/cfg");
	char *c = config_user_path("/home/u", "relative");
	assert_string_equal(a, "/home/u/.config/kjail/config.ini");
	assert_string_equal(b, "/x/cfg/kjail/config.ini");
	assert_string_equal(c, "/home/u/.config/kjail/config.ini");
	assert_null(config_user_path(NULL, NULL));
	free(a);
	free(b);
	free(c);
}

static void test_entry_list_has(void **state)
{
	(void)state;
	struct entry_list l = { 0 };
	assert_false(entry_list_has(&l, "/a"));
	entry_add(&l, "/a/b", "x");
	entry_add(&l, "/a", "y");
	assert_true(entry_list_has(&l, "/a"));
	assert_true(entry_list_has(&l, "/a/b"));
	assert_false(entry_list_has(&l, "/a/"));   /* whole values only */
	assert_false(entry_list_has(&l, "/a/b/c"));
	assert_false(entry_list_has(&l, ""));
	entry_list_free(&l);
}

/* kjail.ini(5): a variable name or a shell glob pattern of letters,
 * digits, _, -, *, ?, [, ] and !; anything else (a space, '=', a path, a
 * shell expansion, non-ASCII) could match what it does not say, or nothing. */
static void test_env_pattern_valid(void **state)
{
	(void)state;
	static const char *const valid[] = {
		"AWS_*", "*_TOKEN", "GITHUB_TOKEN", "a", "Z", "0", "_", "path", "X-Y", "?", "*",
		"[A-Z]*", "[!A]*_KEY", "OP_SESSION_*", "A1b2_C3", "!", "-", "[", "]", NULL,
	};
	static const char *const invalid[] = {
		"", " ", "A B", "A=B", "=", "A/B", "$HOME", "A.B", "A\tB", "A\nB", "A\\B",
		"{A,B}", "A;B", "~", "'A'", "\"A\"", "A$", "A@B", "(A)", "A|B", "A+", "A%",
		"A^", "A&", "A,B", "A:B", "A#", "`A`", "A<B", "A>B", "\xc3\xa4", "A\x7f",
		"A\x01", NULL,
	};
	for (const char *const *v = valid; *v; v++)
		if (!env_pattern_valid(*v))
			fail_msg("refused: \"%s\"", *v);
	for (const char *const *v = invalid; *v; v++)
		if (env_pattern_valid(*v))
			fail_msg("accepted: \"%s\"", *v);
	/* the whole string counts, not a valid head */
	assert_false(env_pattern_valid("AWS_* "));
	assert_false(env_pattern_valid("GITHUB_TOKEN=x"));
	/* each of the 128 ASCII characters alone: exactly the documented set */
	for (int c = 1; c < 128; c++) {
		char s[2] = { (char)c, '\0' };
		bool want = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '*' ||
			    c == '?' || c == '[' || c == ']' || c == '!';
		if (env_pattern_valid(s) != want)
			fail_msg("character %d: %s", c, want ? "refused" : "accepted");
	}
}

/* kjail(1) --backend and kjail.ini(5) backend: auto, bwrap, seatbelt or
 * container, exactly as written. */
static void test_backend_names(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		enum backend b;
	} names[] = {
		{ "auto", BACKEND_AUTO },
		{ "bwrap", BACKEND_BWRAP },
		{ "seatbelt", BACKEND_SEATBELT },
		{ "container", BACKEND_CONTAINER },
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		enum backend b = (enum backend)-1;
		assert_true(backend_parse(names[i].name, &b));
		assert_int_equal(b, names[i].b);
		assert_string_equal(backend_name(names[i].b), names[i].name);
	}
	static const char *const bad[] = { "", "docker", "Bwrap", "BWRAP", "bwrap ", " bwrap",
					   "bwra", "bwrapx", "bubblewrap", "sandbox-exec", "none",
					   "auto\n", NULL };
	for (const char *const *n = bad; *n; n++) {
		enum backend b = BACKEND_CONTAINER;
		if (backend_parse(*n, &b))
			fail_msg("accepted backend \"%s\"", *n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_file),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_long_line_is_not_split_into_a_key),
		cmocka_unit_test(test_user_path),
		cmocka_unit_test(test_entry_list_has),
		cmocka_unit_test(test_env_pattern_valid),
		cmocka_unit_test(test_backend_names),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
