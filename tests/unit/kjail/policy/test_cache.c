/* SPDX-License-Identifier: MIT */
/* The cache key and the table -> plan builder (cache.h), by exact
 * comparison; the per-workspace variables pass the secret scrub. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "policy/cache.h"
#include "policy/env.h"

static void test_key(void **state)
{
	(void)state;
	struct { const char *path, *key; } cases[] = {
		{ "/home/u/src/proj", "home-u-src-proj-" },
		{ "/", "" },
		{ "/a b/c:d", "a_b-c_d-" },
		/* the last 48 bytes; no leading '-' where the cut fell on a '/' */
		{ "/very/long/path/that/goes/on/and/on/and/on/until/it/is/cut/here",
		  "that-goes-on-and-on-and-on-until-it-is-cut-here-" },
		{ "/prefix/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *k = cache_key(cases[i].path);
		size_t n = strlen(cases[i].key);
		assert_int_equal(strlen(k), n + 16);
		assert_memory_equal(k, cases[i].key, n);
		assert_null(strchr(k, '/'));
		assert_true(k[0] != '-' && k[0] != '.');
		free(k);
	}
	/* the hash, exactly: FNV-1a 64 of the whole path */
	char *k = cache_key("/");
	assert_string_equal(k, "af63a24c860189fe");
	free(k);
	/* paths that read the same differ by their hash */
	char *a = cache_key("/x/a-b"), *b = cache_key("/x/a/b");
	assert_string_not_equal(a, b);
	free(a);
	free(b);
}

static const struct cache_tool table[] = {
	{ "npm", { { "npm_config_cache", "npm", NULL } }, { ".npm" }, NULL },
	{ "go", { { "GOCACHE", "go-build", NULL }, { "GOMODCACHE", "go-mod", NULL } },
	  { ".cache/go-build", "go/pkg/mod" }, NULL },
	{ "maven", { { "MAVEN_OPTS", "m2", "-Dmaven.repo.local=" } }, { ".m2/repository" }, NULL },
	{ "cargo", { { NULL } }, { ".cargo/registry", ".cargo/git" }, "no variable" },
	{ NULL, { { NULL } }, { NULL }, NULL },
};

static void expect(const struct entry_list *l, const char *const *want)
{
	size_t n = 0;
	for (; want[n]; n += 2) {
		assert_true(n / 2 < l->n);
		assert_string_equal(l->v[n / 2].value, want[n]);
		assert_string_equal(l->v[n / 2].origin, want[n + 1]);
	}
	assert_int_equal(l->n, n / 2);
}

static void test_plan_workspace(void **state)
{
	(void)state;
	char *env[] = { "PATH=/bin", "GOCACHE=/somewhere/ro", "MAVEN_OPTS=-Xmx1g", NULL };
	struct cache_plan cp;
	cache_plan_build(table, CACHE_WORKSPACE, "/h/.cache/kjail/ws/K", "/h", env, &cp);
	expect(&cp.env, (const char *const[]){
		"npm_config_cache=/h/.cache/kjail/ws/K/npm", "npm",
		"GOCACHE=/h/.cache/kjail/ws/K/go-build", "go",
		"GOMODCACHE=/h/.cache/kjail/ws/K/go-mod", "go",
		"MAVEN_OPTS=-Xmx1g -Dmaven.repo.local=/h/.cache/kjail/ws/K/m2", "maven",
		NULL });
	/* kjail's wins, and says whose it replaced; an appended one replaces nothing */
	expect(&cp.overridden, (const char *const[]){ "GOCACHE", "/somewhere/ro", NULL });
	expect(&cp.binds, (const char *const[]){ NULL });
	cache_plan_free(&cp);
}

static void test_plan_shared_and_off(void **state)
{
	(void)state;
	struct cache_plan cp;
	cache_plan_build(table, CACHE_SHARED, "/h/.cache/kjail/ws/K", "/h", NULL, &cp);
	expect(&cp.env, (const char *const[]){ NULL });
	expect(&cp.binds, (const char *const[]){
		"/h/.npm", "npm", "/h/.cache/go-build", "go", "/h/go/pkg/mod", "go",
		"/h/.m2/repository", "maven", "/h/.cargo/registry", "cargo", "/h/.cargo/git", "cargo",
		NULL });
	cache_plan_free(&cp);
	cache_plan_build(table, CACHE_OFF, "/h/.cache/kjail/ws/K", "/h", NULL, &cp);
	expect(&cp.env, (const char *const[]){ NULL });
	expect(&cp.binds, (const char *const[]){ NULL });
	cache_plan_free(&cp);
}

/* The built-in table: nothing executable, and nothing the scrub takes. */
static void test_builtin_table(void **state)
{
	(void)state;
	struct policy p;
	policy_init(&p);
	for (const struct cache_tool *t = cache_tools; t->tool; t++) {
		for (size_t i = 0; i < CACHE_SHARED_MAX && t->shared[i]; i++) {
			const char *s = t->shared[i];
			size_t n = strlen(s);
			assert_false(n >= 4 && strcmp(s + n - 4, "/bin") == 0);
			assert_null(strstr(s, "init.d"));
			assert_true(s[0] != '/');
		}
		for (size_t i = 0; i < CACHE_VARS_MAX && t->vars[i].name; i++) {
			char *line[] = { NULL, NULL };
			line[0] = malloc(strlen(t->vars[i].name) + 3);
			strcpy(line[0], t->vars[i].name);
			strcat(line[0], "=x");
			struct strv kept = STRV_INIT;
			struct entry_list removed = { 0 };
			env_filter(line, &p, &kept, &removed);
			assert_int_equal(kept.n, 1);
			strv_free(&kept);
			entry_list_free(&removed);
			free(line[0]);
		}
	}
	policy_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key),
		cmocka_unit_test(test_plan_workspace),
		cmocka_unit_test(test_plan_shared_and_off),
		cmocka_unit_test(test_builtin_table),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
