/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the capability-entry parser.
 *
 * Input: a capabilities value (comma-separated entries), optionally
 * followed by a newline and an OBJECT for a check. Whatever parses must
 * come out as a well-formed, implication-closed grant on which the lattice
 * laws hold; nothing may crash, leak, or trip a sanitizer. Paths are
 * resolved lexically (path_normalize) so the file system takes no part. */
#include "config.h"
#include "authority/authority.h"
#include "authority/caps.h"
#include "authority/constraint.h"
#include "authority/grant.h"
#include "path.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static char *lexical(const char *p, const char *base)
{
	return path_normalize(p, base);
}

static const struct auth_ctx ctx = {
	.workspace = "/ws/project", .home = "/home/fuzz", .resolve = lexical,
};

#define REQUIRE(x) do { if (!(x)) abort(); } while (0)

static void check_constraint(const struct constraint *c)
{
	char *r = constraint_render(c);
	REQUIRE(r && r[0]);
	free(r);
	struct constraint copy, m;
	constraint_copy(&copy, c);
	REQUIRE(constraint_equal(&copy, c));
	constraint_meet(&m, c, &copy);
	REQUIRE(constraint_equal(&m, c));
	REQUIRE(constraint_covers(c, &copy));
	constraint_clear(&m);
	constraint_clear(&copy);
}

static void check_grant(const struct grant *g, const char *atom, const char *object)
{
	REQUIRE(grant_is_closed(g));
	struct grant *u = grant_universal();
	struct grant *n = grant_none();
	struct grant *m = grant_meet(g, g);
	REQUIRE(grant_equal(m, g));
	REQUIRE(grant_covers(g, g) && grant_covers(u, g) && grant_covers(g, n));
	static const char *const ro[] = { "file/write", "file/edit", "process/exec" };
	struct grant *w = grant_without(g, ro, 3);
	REQUIRE(grant_is_closed(w) && grant_covers(g, w));
	REQUIRE(grant_lookup(w, "tools/standard")->kind == CON_NONE);
	char err[256];
	struct grant *c = grant_confer(g, w, err, sizeof err);
	REQUIRE(c && grant_equal(c, w));
	char *reason = NULL;
	enum check_result res = grant_check(g, atom, object, &ctx, &reason);
	REQUIRE(reason && (res == CHECK_ALLOWED) == (strcmp(reason, "allowed") == 0));
	free(reason);
	grant_free(c);
	grant_free(w);
	grant_free(m);
	grant_free(n);
	grant_free(u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	char *text = xstrndup((const char *)data, size);
	char *object = strchr(text, '\n');
	if (object)
		*object++ = '\0';

	char err[512];
	struct grant_cap one;
	if (cap_parse_entry(text, &ctx, &one, err, sizeof err)) {
		char aerr[128];
		char *again = atom_normalize(one.atom, aerr, sizeof aerr);
		REQUIRE(again && strcmp(again, one.atom) == 0);
		free(again);
		check_constraint(&one.c);
		grant_cap_clear(&one);
	} else {
		REQUIRE(err[0] && !strchr(err, '\n'));
	}

	struct cap_list list = { 0 };
	if (cap_parse_list(text, &ctx, &list, err, sizeof err)) {
		struct grant *g = grant_from_caps(list.v, list.n, NULL, err, sizeof err);
		if (g) {
			check_grant(g, list.n ? list.v[0].atom : "file/read", object);
			grant_free(g);
		}
	}
	cap_list_clear(&list);
	free(text);
	return 0;
}
