/* SPDX-License-Identifier: MIT */
/* Authority within containment (src/kli/containment/containment.c, drift.c): a table
 * of (grant, jail) pairs, each with the gaps it must show in both
 * directions and where the file tools work; then drift from a baseline. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "unit-skip.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "containment/containment.h"
#include "containment/report.h"
#include "containment/drift.h"
#include "containment/jailpolicy.h"
#include "path.h"
#include "strv.h"
#include "util.h"

/* ------------------------------------------------------------- the jails */

/* Mount lists, "VERDICT PATH RULE|ORIGIN" a line, in the jail's order. */
#define ROOT "read-only / read-only|host root\n" \
	     "private /dev private|minimal /dev\n" \
	     "private /proc private|the jail's own processes\n" \
	     "private /tmp private|empty tmpfs\n"
#define WS "writable /ws workspace|current directory\n" \
	   "read-only /ws/.git/hooks protected: git hooks|built-in protection inside writable /ws\n"
#define MASKS "masked /home/u/.aws masked|built-in credential store\n" \
	      "masked /ws/.env masked|--deny-read\n"
#define EXTRA "writable /var/tmp/x writable|--writable\n"
#define DATA "writable /srv/data writable|--writable\n"

enum net { SHARED, NONE, ALLOWLIST };

/* The policy document for MOUNTS under network NET; ".env" names a file. */
static char *policy_json(const char *mounts, enum net net)
{
	struct strv parts = STRV_INIT;
	_cleanup_free_ char *copy = xstrdup(mounts);
	for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n")) {
		char verdict[32], path[256], rest[256];
		assert_int_equal(sscanf(line, "%31s %255s %255[^\n]", verdict, path, rest), 3);
		char *bar = strchr(rest, '|');
		assert_non_null(bar);
		*bar = '\0';
		strv_pushf(&parts,
			   "{\"path\":\"%s\",\"verdict\":\"%s\",\"rule\":\"%s\",\"origin\":\"%s\","
			   "\"kind\":\"directory\"}",
			   path, verdict, rest, bar + 1);
	}
	_cleanup_free_ char *joined = xstrdup("");
	for (size_t i = 0; i < parts.n; i++) {
		char *t = xasprintf("%s%s%s", joined, i ? "," : "", parts.v[i]);
		free(joined);
		joined = t;
	}
	strv_free(&parts);
	const char *network = net == SHARED ? "{\"enabled\":true,\"origin\":\"built-in default\"}"
			      : net == NONE ? "{\"enabled\":false,\"origin\":\"--no-network\"}"
					    : "{\"enabled\":false,\"origin\":\"--allow-host\","
					      "\"mode\":\"allowlist\",\"hosts\":[{\"host\":"
					      "\"example.org\",\"port\":\"443\"}]}";
	return xasprintf("{\"type\":\"policy\",\"version\":1,\"backend\":\"bwrap\","
			 "\"workspace\":\"/ws\",\"network\":%s,\"mounts\":[%s],"
			 "\"seccomp_enabled\":true,\"landlock_enabled\":true,\"landlock_abi\":6,"
			 "\"landlock_writes\":true,\"kjail_version\":\"0.1.0\"}",
			 network, joined);
}

static bool env_is_file(const char *path)
{
	size_t n = strlen(path);
	return n >= 5 && strcmp(path + n - 5, "/.env") == 0;
}

static struct jail_policy *jail(const char *mounts, enum net net)
{
	_cleanup_free_ char *text = policy_json(mounts, net);
	struct jail_policy *p = jail_policy_parse(text, strlen(text), env_is_file);
	assert_non_null(p);
	return p;
}

/* The jail of MOUNTS under NET with FROM, in its document, replaced by TO. */
static struct jail_policy *jail_edited(const char *mounts, enum net net, const char *from,
				       const char *to)
{
	_cleanup_free_ char *text = policy_json(mounts, net);
	char *at = strstr(text, from);
	assert_non_null(at);
	_cleanup_free_ char *edited = xasprintf("%.*s%s%s", (int)(at - text), text, to,
						at + strlen(from));
	struct jail_policy *p = jail_policy_parse(edited, strlen(edited), env_is_file);
	assert_non_null(p);
	return p;
}

/* ------------------------------------------------------------- the grants */

/* /ws/link -> /etc, /ws/srclink -> /ws/src: the grant resolves them. */
static char *fake_resolve(const char *p, const char *base)
{
	char *clean = path_normalize(p, base);
	static const struct { const char *link, *target; } links[] = {
		{ "/ws/link", "/etc" }, { "/ws/srclink", "/ws/src" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(links); i++) {
		size_t n = strlen(links[i].link);
		if (strncmp(clean, links[i].link, n) == 0 && (!clean[n] || clean[n] == '/')) {
			char *t = xasprintf("%s%s", links[i].target, clean + n);
			free(clean);
			return t;
		}
	}
	return clean;
}

static const struct auth_ctx CTX = { "/ws", "/home/u", fake_resolve, NULL };

/* "*": universal; "-A,B": universal except A, B; else a capability list. */
static struct grant *grant_of(const char *spec)
{
	if (strcmp(spec, "*") == 0)
		return grant_universal();
	if (spec[0] == '-') {
		struct strv v = STRV_INIT;
		_cleanup_free_ char *copy = xstrdup(spec + 1);
		for (char *a = strtok(copy, ","); a; a = strtok(NULL, ","))
			strv_push(&v, a);
		struct grant *g = grant_except((const char *const *)v.v, v.n);
		strv_free(&v);
		return g;
	}
	struct cap_list l = { 0 };
	char err[300];
	if (!cap_parse_list(spec, &CTX, &l, err, sizeof err))
		fail_msg("%s: %s", spec, err);
	size_t bad;
	struct grant *g = grant_from_caps(l.v, l.n, &bad, err, sizeof err);
	if (!g)
		fail_msg("%s: %s", spec, err);
	cap_list_clear(&l);
	return g;
}

/* ---------------------------------------------------------------- table */

struct pair {
	const char *name;
	const char *grant;
	const char *mounts;     /* NULL: not under kjail */
	enum net net;
	const char *impossible; /* the gap lines, "\n"-separated, in order ("": none) */
	const char *beyond;     /* the same for the other direction */
	const char *works;      /* "ATOM=PATH,PATH;..." for file atoms to check, or NULL */
};

static const struct pair PAIRS[] = {
	{ "write inside the workspace", "file/write under src/", ROOT WS MASKS, SHARED, "", "",
	  "file/write=/ws/src" },
	{ "write under /etc", "file/write under /etc", ROOT WS MASKS, SHARED,
	  "file/write under /etc: the jail makes /etc read-only (host root)", "",
	  "file/write=" },
	{ "read under a mask", "file/read under ~/.aws", ROOT WS MASKS, SHARED,
	  "file/read under /home/u/.aws: the jail masks /home/u/.aws (built-in credential store): "
	  "a file there reads as empty, a directory lists nothing", "", "file/read=" },
	{ "read above a mask", "file/read under ~", ROOT WS MASKS, SHARED, "", "",
	  "file/read=/home/u" },
	{ "write under a protected path", "file/write under .git/hooks", ROOT WS MASKS, SHARED,
	  "file/write under /ws/.git/hooks: the jail makes /ws/.git/hooks read-only "
	  "(protected: git hooks; built-in protection inside writable /ws)", "",
	  "file/write=" },
	{ "write over a protected path", "file/write under .", ROOT WS MASKS, SHARED, "", "",
	  "file/write=/ws" },
	{ "write under the private /tmp", "file/write under /tmp/x", ROOT WS MASKS, SHARED,
	  "file/write under /tmp/x: the jail gives /tmp/x a private file system of its own "
	  "(empty tmpfs): writes there never reach the host", "", "file/write=" },
	{ "read the private /tmp", "file/read under /tmp", ROOT WS MASKS, SHARED,
	  "file/read under /tmp: the jail gives /tmp a private file system of its own "
	  "(empty tmpfs): the host's files there are not seen", "", NULL },
	{ "a link out of the workspace", "file/write under link", ROOT WS MASKS, SHARED,
	  "file/write under /etc: the jail makes /etc read-only (host root)", "", NULL },
	{ "a link inside the workspace", "file/write under srclink", ROOT WS MASKS, SHARED, "",
	  "", "file/write=/ws/src" },
	{ "exec beyond file/write, network shared", "file/read under src/, file/write under src/, process/exec",
	  ROOT WS MASKS, SHARED, "",
	  "process/exec: a command can write anywhere under /ws, beyond file/write under /ws/src\n"
	  "process/exec: a command can read anything the jail does not mask, beyond file/read "
	  "under /ws/src\n"
	  "process/exec: a command can reach the network (shared, built-in default), which no "
	  "granted atom allows", NULL },
	{ "exec beyond file/write, no network", "file/read, file/write under src/, process/exec",
	  ROOT WS MASKS, NONE, "",
	  "process/exec: a command can write anywhere under /ws, beyond file/write under /ws/src",
	  NULL },
	{ "exec of named commands, no file/write", "file/read, process/exec one of make|ls",
	  ROOT WS MASKS, NONE, "",
	  "process/exec: a command can write anywhere under /ws, beyond file/write, which is "
	  "not granted", NULL },
	{ "exec under a path allows no command", "file/read, process/exec under src/",
	  ROOT WS MASKS, SHARED, "", "", NULL },
	{ "no exec, no gap beyond", "file/read, file/write under .", ROOT WS MASKS, SHARED, "", "",
	  NULL },
	{ "universal in a jail", "*", ROOT WS MASKS, SHARED,
	  "file/edit: the jail makes / read-only (host root); writes work only under /ws\n"
	  "file/write: the jail makes / read-only (host root); writes work only under /ws", "",
	  "file/write=/ws" },
	{ "read-only outside the grant's write", "-file/write,file/edit,process/exec", ROOT WS MASKS,
	  SHARED, "", "", "file/read=/" },
	{ "a second writable path beyond the grant", "file/write under ., process/exec, net/fetch",
	  ROOT WS MASKS EXTRA, SHARED, "",
	  "process/exec: a command can write anywhere under /var/tmp/x, beyond file/write under /ws\n"
	  "process/exec: a command can read anything the jail does not mask, beyond file/read, "
	  "which is not granted", NULL },
	{ "write where the jail has no -w", "file/write under /var/tmp/x", ROOT WS MASKS, SHARED,
	  "file/write under /var/tmp/x: the jail makes /var/tmp/x read-only (host root)", "", NULL },
	{ "write where the jail has -w", "file/write under /var/tmp/x", ROOT WS MASKS EXTRA, SHARED,
	  "", "", "file/write=/var/tmp/x" },
	{ "read what --no-defaults unmasks", "file/read under ~/.aws", ROOT WS, SHARED, "", "",
	  "file/read=/home/u/.aws" },
	{ "edit under /etc", "file/edit under /etc, file/read", ROOT WS MASKS, SHARED,
	  "file/edit under /etc: the jail makes /etc read-only (host root)", "", NULL },
	{ "not under kjail", "file/write under /etc, process/exec", NULL, SHARED, "", "", NULL },
	{ "a network atom covers the network", "file/read, file/write under ., process/exec, net/fetch",
	  ROOT WS MASKS, SHARED, "", "", NULL },
	{ "an allowlist is still a network", "file/read, file/write under ., process/exec",
	  ROOT WS MASKS, ALLOWLIST, "",
	  "process/exec: a command can reach the network (allowlist, --allow-host), which no "
	  "granted atom allows", NULL },
	{ "a masked file", "file/read under .env", ROOT WS MASKS, SHARED,
	  "file/read under /ws/.env: the jail masks /ws/.env (--deny-read): a file there reads "
	  "as empty, a directory lists nothing", "", NULL },
	{ "a file mask decides its own path only", "file/read under .envrc", ROOT WS MASKS, SHARED,
	  "", "", "file/read=/ws/.envrc" },
	{ "paths compare by component", "file/write under /srv/database", ROOT WS DATA, SHARED,
	  "file/write under /srv/database: the jail makes /srv/database read-only (host root)", "",
	  NULL },
	{ "an atom of its own under a path", "x/y under /etc", ROOT WS MASKS, SHARED, "", "", NULL },
	{ "a bundle under a path", "tools/standard under src/", ROOT WS MASKS, SHARED, "", "",
	  "file/write=/ws/src;file/edit=/ws/src;file/read=/ws/src" },
	{ "write masked except within a writable", "file/write under .env", ROOT WS MASKS, SHARED,
	  "file/write under /ws/.env: the jail masks /ws/.env (--deny-read): nothing can be "
	  "written there", "", "file/write=" },
};

static char *gap_lines(const struct containment *c, enum gap_dir dir)
{
	char *s = xstrdup("");
	for (size_t i = 0; i < c->ngaps; i++) {
		if (c->gaps[i].dir != dir)
			continue;
		char *t = xasprintf("%s%s%s", s, *s ? "\n" : "", c->gaps[i].text);
		free(s);
		s = t;
	}
	return s;
}

static const struct cont_atom *atom_of(const struct containment *c, const char *atom)
{
	for (size_t i = 0; i < c->natoms; i++)
		if (strcmp(c->atoms[i].atom, atom) == 0)
			return &c->atoms[i];
	return NULL;
}

/* "file/write=/a,/b;file/read=" against each atom's works list. */
static void check_works(const struct pair *t, const struct containment *c)
{
	_cleanup_free_ char *copy = xstrdup(t->works);
	char *save = NULL;
	for (char *item = strtok_r(copy, ";", &save); item; item = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(item, '=');
		*eq = '\0';
		const struct cont_atom *a = atom_of(c, item);
		if (!a)
			fail_msg("%s: no containment for %s", t->name, item);
		_cleanup_free_ char *got = xstrdup("");
		for (size_t i = 0; i < a->nworks; i++) {
			char *s = xasprintf("%s%s%s", got, i ? "," : "", a->works[i]);
			free(got);
			got = s;
		}
		if (strncmp(got, eq + 1, strlen(eq + 1)) != 0 || (!eq[1] && *got))
			fail_msg("%s: %s works under '%s', want '%s'", t->name, item, got, eq + 1);
	}
}

static void test_pairs(void **state)
{
	(void)state;
	assert_true(ARRAY_SIZE(PAIRS) >= 25);
	for (size_t i = 0; i < ARRAY_SIZE(PAIRS); i++) {
		const struct pair *t = &PAIRS[i];
		struct grant *g = grant_of(t->grant);
		struct jail_policy *p = t->mounts ? jail(t->mounts, t->net) : NULL;
		struct containment *c = containment_compute(g, p);
		assert_int_equal(c->jailed, p != NULL);
		_cleanup_free_ char *imp = gap_lines(c, GAP_IMPOSSIBLE);
		_cleanup_free_ char *bey = gap_lines(c, GAP_BEYOND);
		if (strcmp(imp, t->impossible) != 0)
			fail_msg("%s: impossible:\n%s\nwant:\n%s", t->name, imp, t->impossible);
		if (strcmp(bey, t->beyond) != 0)
			fail_msg("%s: beyond:\n%s\nwant:\n%s", t->name, bey, t->beyond);
		if (t->works)
			check_works(t, c);
		containment_free(c);
		jail_policy_free(p);
		grant_free(g);
	}
}

/* The parts of a granted path: its own verdict first, then what lies under it. */
static void test_parts(void **state)
{
	(void)state;
	struct grant *g = grant_of("file/write under .");
	struct jail_policy *p = jail(ROOT WS MASKS, SHARED);
	struct containment *c = containment_compute(g, p);
	const struct cont_atom *a = atom_of(c, "file/write");
	assert_non_null(a);
	assert_int_equal(a->nparts, 3);
	assert_string_equal(a->parts[0].path, "/ws");
	assert_string_equal(a->parts[0].verdict, "writable");
	assert_string_equal(a->parts[1].path, "/ws/.git/hooks");
	assert_string_equal(a->parts[1].rule, "protected: git hooks");
	assert_string_equal(a->parts[2].path, "/ws/.env");
	assert_string_equal(a->parts[2].verdict, "masked");
	assert_int_equal(a->nexcept, 2);
	assert_int_equal(c->nwritable, 1);
	assert_int_equal(c->nmasked, 2);
	assert_int_equal(c->nprotected, 1);
	containment_free(c);
	jail_policy_free(p);
	grant_free(g);
}

/* Outside any jail: one line, in text and JSON. */
static void test_outside(void **state)
{
	(void)state;
	struct grant *g = grant_universal();
	struct containment *c = containment_compute(g, NULL);
	_cleanup_free_ char *text = containment_text(c, g);
	assert_string_equal(text, "containment: " CONTAINMENT_NONE "\n");
	_cleanup_free_ char *json = containment_json("{\"type\":\"authority\"}", c);
	assert_string_equal(json, "{\"type\":\"authority\",\"containment\":{\"jailed\":false,"
				  "\"summary\":\"" CONTAINMENT_NONE "\"}}\n");
	containment_free(c);
	grant_free(g);
}

/* ------------------------------------------------------------- Landlock */

#define WRITES "\"landlock_writes\":true"

/* A jail of one read-only root whose layers are LAYERS (JSON members). */
static struct jail_policy *layers_jail(const char *layers)
{
	_cleanup_free_ char *text = xasprintf(
		"{\"type\":\"policy\",\"mounts\":[{\"path\":\"/\",\"verdict\":\"read-only\"}],"
		"\"network\":{\"enabled\":false,\"origin\":\"-n\"},%s}",
		layers);
	return jail_policy_parse(text, strlen(text), NULL);
}

/* landlock_writes false (kjail --allow-userns): Landlock's write rules are
 * off and only its scopes apply, which is not "on"; an older document
 * that does not say is "not stated"; scopes need ABI 6. */
static void test_landlock_writes(void **state)
{
	(void)state;
#define LL(abi, w) "\"landlock_enabled\":true,\"landlock_abi\":" #abi ",\"landlock_writes\":" #w
	static const struct {
		const char *layers, *text, *json;
	} cases[] = {
		{ LL(7, true), "; landlock: on (ABI 7)\n",
		  "\"landlock\":true,\"landlock_abi\":7,\"landlock_writes\":true," },
		{ LL(7, false), "; landlock: scopes only (no write rules; ABI 7)\n",
		  "\"landlock\":true,\"landlock_abi\":7,\"landlock_writes\":false," },
		{ "\"landlock_enabled\":true,\"landlock_abi\":7",
		  "; landlock: on (ABI 7; write rules not stated)\n",
		  "\"landlock\":true,\"landlock_abi\":7,\"landlock_writes\":null," },
		{ LL(4, true), "; landlock: on (ABI 4; no scopes)\n",
		  "\"landlock\":true,\"landlock_abi\":4,\"landlock_writes\":true," },
		{ LL(4, false), "; landlock: nothing enforced (no write rules; ABI 4 has no scopes)\n",
		  "\"landlock\":true,\"landlock_abi\":4,\"landlock_writes\":false," },
		{ "\"landlock_enabled\":false,\"landlock_abi\":0,\"landlock_writes\":false",
		  "; landlock: off\n",
		  "\"landlock\":false,\"landlock_abi\":0,\"landlock_writes\":false," },
	};
#undef LL
	struct grant *g = grant_of("file/read");
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct jail_policy *p = layers_jail(cases[i].layers);
		assert_non_null(p);
		struct containment *c = containment_compute(g, p);
		_cleanup_free_ char *text = containment_text(c, g);
		_cleanup_free_ char *json = containment_json("{\"type\":\"authority\"}", c);
		if (!strstr(text, cases[i].text))
			fail_msg("%s: text:\n%s\nwant a line ending:\n%s", cases[i].layers, text,
				 cases[i].text);
		if (!strstr(json, cases[i].json))
			fail_msg("%s: JSON:\n%s\nwant:\n%s", cases[i].layers, json, cases[i].json);
		containment_free(c);
		jail_policy_free(p);
	}
	grant_free(g);
	/* a wrong type is a malformed document, as for the other members */
	static const char *const bad[] = { "\"landlock_writes\":\"yes\"", "\"landlock_writes\":1",
					   "\"landlock_writes\":null" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct jail_policy *p = layers_jail(bad[i]);
		if (p)
			fail_msg("%s: parsed, want refused", bad[i]);
	}
}

/* ---------------------------------------------------------------- drift */

static void test_constraint_parse(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"any", "path under /ws/src", "in [1..5]", "one of \"ls\", \"make\"",
		"path under /a /b", "path under \"/ws/my dir\" /ws/src", "path under \"/a b\"",
	};
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		struct constraint c;
		assert_true(drift_constraint_parse(texts[i], &c));
		_cleanup_free_ char *back = constraint_render(&c);
		assert_string_equal(back, texts[i]);
		constraint_clear(&c);
	}
	static const char *const bad[] = { "path under src", "in [5..1]", "one of ls", "anything",
					   "path under /a/../b", "path under \"/a b", "path under /b /a",
					   "path under \"/a b\"/c", "path under /a  /b" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct constraint c;
		assert_false(drift_constraint_parse(bad[i], &c));
	}
}

/* The baseline: the report of BASE_GRANT in BASE_JAIL, as kli writes it. */
static char *baseline(const char *grant, const char *mounts, enum net net)
{
	struct grant *g = grant_of(grant);
	struct jail_policy *p = mounts ? jail(mounts, net) : NULL;
	struct containment *c = containment_compute(g, p);
	/* the authority part, as report.c writes it, for these grants */
	struct strv caps = STRV_INIT;
	for (size_t i = 0; i < g->ncaps; i++) {
		_cleanup_free_ char *r = constraint_render(&g->caps[i].c);
		strv_pushf(&caps, "%s{\"atom\":\"%s\",\"constraint\":\"%s\"}", i ? "," : "",
			   g->caps[i].atom, r);
	}
	_cleanup_free_ char *joined = xstrdup("");
	for (size_t i = 0; i < caps.n; i++) {
		char *t = xasprintf("%s%s", joined, caps.v[i]);
		free(joined);
		joined = t;
	}
	_cleanup_free_ char *auth = xasprintf(
		"{\"type\":\"authority\",\"scope\":\"bounded\",\"capabilities\":[%s]}", joined);
	char *out = containment_json(auth, c);
	strv_free(&caps);
	containment_free(c);
	jail_policy_free(p);
	grant_free(g);
	return out;
}

/* The drift lines from BASE to GRANT in the jail P (NULL: none), joined;
 * frees P. */
static char *drift_in(const char *base, const char *grant, struct jail_policy *p)
{
	struct grant *g = grant_of(grant);
	struct containment *c = containment_compute(g, p);
	struct strv lines = STRV_INIT;
	char err[300];
	assert_true(drift_lines(base, strlen(base), g, c, p, &lines, err, sizeof err));
	char *s = xstrdup("");
	for (size_t i = 0; i < lines.n; i++) {
		char *t = xasprintf("%s%s%s", s, i ? "\n" : "", lines.v[i]);
		free(s);
		s = t;
	}
	strv_free(&lines);
	containment_free(c);
	jail_policy_free(p);
	grant_free(g);
	return s;
}

static char *drift_of(const char *base, const char *grant, const char *mounts, enum net net)
{
	return drift_in(base, grant, mounts ? jail(mounts, net) : NULL);
}

static void test_drift(void **state)
{
	(void)state;
	const char *gr = "file/read, file/write under src/, process/exec";
	_cleanup_free_ char *base = baseline(gr, ROOT WS MASKS, NONE);
	static const struct {
		const char *name, *grant, *mounts;
		enum net net;
		const char *want;
	} cases[] = {
		{ "the same", "file/read, file/write under src/, process/exec", ROOT WS MASKS, NONE, "" },
		{ "masks dropped", "file/read, file/write under src/, process/exec", ROOT WS, NONE,
		  "drift: mask gone: /home/u/.aws (now read-only)\n"
		  "drift: mask gone: /ws/.env (now writable)" },
		{ "network shared", "file/read, file/write under src/, process/exec", ROOT WS MASKS,
		  SHARED, "drift: network widened: none -> shared (built-in default)" },
		{ "grant widened", "file/read, file/write under ., process/exec", ROOT WS MASKS, NONE,
		  "drift: constraint widened: file/write: [path under /ws/src] -> [path under /ws]" },
		{ "capability added", "file/read, file/write under src/, process/exec, file/edit",
		  ROOT WS MASKS, NONE, "drift: capability added: file/edit [any]" },
		{ "writable added", "file/read, file/write under src/, process/exec",
		  ROOT WS MASKS EXTRA, NONE, "drift: writable path added: /var/tmp/x (--writable)" },
		{ "protection gone", "file/read, file/write under src/, process/exec",
		  ROOT "writable /ws workspace|current directory\n" MASKS, NONE,
		  "drift: protected path gone: /ws/.git/hooks (now writable)" },
		{ "no jail", "file/read, file/write under src/, process/exec", NULL, NONE,
		  "drift: no longer under kjail: nothing contains process/exec" },
		{ "narrowed grant", "file/read under src/", ROOT WS MASKS, NONE, "" },
		{ "narrowed jail", "file/read, file/write under src/, process/exec",
		  ROOT WS MASKS "masked /ws/secret masked|--deny-read\n", NONE, "" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		_cleanup_free_ char *got = drift_of(base, cases[i].grant, cases[i].mounts,
						    cases[i].net);
		if (strcmp(got, cases[i].want) != 0)
			fail_msg("%s:\n%s\nwant:\n%s", cases[i].name, got, cases[i].want);
	}
	/* -n's own mask goes with -n: one drift, the network's */
	_cleanup_free_ char *netbase = baseline(gr, ROOT WS MASKS "masked /sys/class/net masked|"
					     "host interfaces under no network (--no-network)\n", NONE);
	_cleanup_free_ char *netgot = drift_of(netbase, gr, ROOT WS MASKS, SHARED);
	assert_string_equal(netgot, "drift: network widened: none -> shared (built-in default)");
	/* Landlock's write rules gone (kjail --allow-userns), its scopes kept */
	_cleanup_free_ char *ll = drift_in(base, gr, jail_edited(ROOT WS MASKS, NONE, WRITES,
								  "\"landlock_writes\":false"));
	assert_string_equal(ll, "drift: Landlock weakened: write rules on -> off");
	_cleanup_free_ char *llu = drift_in(base, gr, jail_edited(ROOT WS MASKS, NONE, "," WRITES, ""));
	assert_string_equal(llu, "drift: Landlock weakened: write rules on -> not stated");
	/* a baseline that does not state them: nothing to compare */
	_cleanup_free_ char *old = xstrdup(base);
	char *w = strstr(old, WRITES);
	assert_non_null(w);
	memmove(w - 1, w + strlen(WRITES), strlen(w + strlen(WRITES)) + 1);
	_cleanup_free_ char *llo = drift_in(old, gr, jail_edited(ROOT WS MASKS, NONE, WRITES,
								 "\"landlock_writes\":false"));
	assert_string_equal(llo, "");
	/* seccomp and Landlock lost */
	const char *lost = "{\"type\":\"policy\",\"mounts\":[{\"path\":\"/\",\"verdict\":"
			   "\"read-only\",\"rule\":\"read-only\",\"origin\":\"host root\"}],"
			   "\"network\":{\"enabled\":false,\"origin\":\"-n\"},"
			   "\"seccomp_enabled\":false,\"landlock_enabled\":false,\"landlock_abi\":0}";
	struct jail_policy *p = jail_policy_parse(lost, strlen(lost), NULL);
	assert_non_null(p);
	struct grant *g = grant_of("file/read");
	struct containment *c = containment_compute(g, p);
	struct strv lines = STRV_INIT;
	char err[300];
	assert_true(drift_lines(base, strlen(base), g, c, p, &lines, err, sizeof err));
	assert_true(strv_find(&lines, "drift: seccomp lost (the filter is off)") >= 0);
	assert_true(strv_find(&lines, "drift: Landlock lost (it is off)") >= 0);
	assert_false(drift_lines("{\"type\":\"policy\"}", 17, g, c, p, &lines, err, sizeof err));
	strv_free(&lines);
	containment_free(c);
	grant_free(g);
	jail_policy_free(p);
}

/* A declared policy (kjail --check-config --json) writes paths from "~":
 * taken from the home given, and refused without one. */
static void test_declared_home(void **state)
{
	(void)state;
	const char *doc = "{\"type\":\"policy\",\"declared\":true,\"workspace\":\"~/ws\","
			  "\"mounts\":[{\"path\":\"/\",\"verdict\":\"read-only\"},"
			  "{\"path\":\"~\",\"verdict\":\"masked\"},"
			  "{\"path\":\"~/proj\",\"verdict\":\"writable\"}]}";
	struct jail_policy *p = jail_policy_parse_home(doc, strlen(doc), NULL, "/home/u");
	assert_non_null(p);
	assert_string_equal(p->workspace, "/home/u/ws");
	assert_string_equal(p->mounts[1].path, "/home/u");
	assert_string_equal(p->mounts[2].path, "/home/u/proj");
	assert_string_equal(jail_verdict_for(p, "/home/u/x")->verdict, "masked");
	assert_string_equal(jail_verdict_for(p, "/home/u/proj/x")->verdict, "writable");
	jail_policy_free(p);
	/* no home, or a relative one, or "~user": unusable */
	assert_null(jail_policy_parse(doc, strlen(doc), NULL));
	assert_null(jail_policy_parse_home(doc, strlen(doc), NULL, "rel"));
	const char *other = "{\"type\":\"policy\",\"mounts\":[{\"path\":\"~root/x\","
			    "\"verdict\":\"writable\"}]}";
	assert_null(jail_policy_parse_home(other, strlen(other), NULL, "/home/u"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_outside),
		cmocka_unit_test(test_landlock_writes),
		cmocka_unit_test(test_constraint_parse),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_declared_home),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
