/* SPDX-License-Identifier: MIT */
/* Unit tests for the guarded INI reader (src/common/ini_reader).
 *
 * Every refusal is checked by its exact one-line message, "FILE:LINE: what",
 * because that line is all a user sees. Files are made with mkdtemp in the
 * current directory (the build tree), not under /tmp. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <ini.h>

#include "ini_reader.h"
#include "util.h"

/* The schema of kjail's config file, plus a prefixed section. */
static const struct ini_key_spec sandbox_keys[] = {
	{ "network", false },
	{ "nested-userns", false },
	{ "defaults", false },
	{ "backend", false },
	{ "writable", true },
	{ "deny-read", true },
	{ "deny-env", true },
	{ "keep-env", true },
	{ NULL, false },
};
static const struct ini_key_spec profile_keys[] = {
	{ "model", false },
	{ NULL, false },
};
static const struct ini_section_spec schema[] = {
	{ "sandbox", false, sandbox_keys },
	{ "profile ", true, profile_keys },
	{ NULL, false, NULL },
};

#define MAX_ITEMS 64

struct got {
	char *file, *section, *key, *value;
	unsigned line;
	bool list;
	const char *spec_section; /* the schema entry that matched */
};

struct collector {
	struct got items[MAX_ITEMS];
	size_t n;
	unsigned calls;
	bool reject_backend_silently;
};

static bool is_bool_key(const char *key)
{
	return str_eq(key, "network") || str_eq(key, "nested-userns") || str_eq(key, "defaults");
}

static bool collect(void *ctx, const struct ini_item *it, char *err, size_t errlen)
{
	struct collector *c = ctx;
	c->calls++;
	assert_non_null(it->section_spec);
	assert_non_null(it->key_spec);
	assert_string_equal(it->key_spec->name, it->key);
	bool b;
	if (is_bool_key(it->key) && !ini_parse_bool(it->value, &b)) {
		snprintf(err, errlen, "'%s' is not a boolean (true or false)", it->value);
		return false;
	}
	if (c->reject_backend_silently && str_eq(it->key, "backend"))
		return false;
	assert_true(c->n < MAX_ITEMS);
	struct got *g = &c->items[c->n++];
	g->file = xstrdup(it->file);
	g->section = xstrdup(it->section);
	g->key = xstrdup(it->key);
	g->value = xstrdup(it->value);
	g->line = it->line;
	g->list = it->key_spec->list;
	g->spec_section = it->section_spec->name;
	return true;
}

static void collector_free(struct collector *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->items[i].file);
		free(c->items[i].section);
		free(c->items[i].key);
		free(c->items[i].value);
	}
	c->n = 0;
	c->calls = 0;
}

static void expect_item(const struct collector *c, size_t i, unsigned line,
			const char *section, const char *key, const char *value)
{
	assert_true(i < c->n);
	const struct got *g = &c->items[i];
	assert_int_equal(g->line, line);
	assert_string_equal(g->section, section);
	assert_string_equal(g->key, key);
	assert_string_equal(g->value, value);
}

static bool has_key(const struct collector *c, const char *key)
{
	for (size_t i = 0; i < c->n; i++)
		if (str_eq(c->items[i].key, key))
			return true;
	return false;
}

#define ERRLEN 512

static int parse_n(const char *text, size_t len, struct collector *c, char *err)
{
	strcpy(err, "(untouched)");
	return ini_read_text("cfg.ini", text, len, schema, collect, c, err, ERRLEN);
}

static int parse(const char *text, struct collector *c, char *err)
{
	return parse_n(text, strlen(text), c, err);
}

/* text must be refused with exactly this message. */
static void expect_error(const char *text, const char *message)
{
	struct collector c = { 0 };
	char err[ERRLEN];
	int rc = parse(text, &c, err);
	if (rc != INI_ERROR)
		fail_msg("accepted (rc %d), expected \"%s\"", rc, message);
	assert_string_equal(err, message);
	collector_free(&c);
}

static void expect_ok(const char *text, struct collector *c)
{
	char err[ERRLEN];
	int rc = parse(text, c, err);
	if (rc != INI_OK)
		fail_msg("refused (rc %d): %s", rc, err);
}

/* ---- what is accepted ------------------------------------------------- */

static void test_good_file(void **state)
{
	struct collector c = { 0 };
	expect_ok("; kjail configuration\n"
		  "# written by hand\n"
		  "\n"
		  "[sandbox]\n"
		  "network = true            ; boolean\n"
		  "nested-userns = false\n"
		  "defaults = true\n"
		  "backend = auto\n"
		  "writable = ~/.cache/kli\n"
		  "deny-read = ~/.kube\n"
		  "deny-env = AWS_*\n"
		  "keep-env = GITHUB_TOKEN\n", &c);
	assert_int_equal(c.n, 8);
	expect_item(&c, 0, 5, "sandbox", "network", "true");
	expect_item(&c, 1, 6, "sandbox", "nested-userns", "false");
	expect_item(&c, 2, 7, "sandbox", "defaults", "true");
	expect_item(&c, 3, 8, "sandbox", "backend", "auto");
	expect_item(&c, 4, 9, "sandbox", "writable", "~/.cache/kli");
	expect_item(&c, 5, 10, "sandbox", "deny-read", "~/.kube");
	expect_item(&c, 6, 11, "sandbox", "deny-env", "AWS_*");
	expect_item(&c, 7, 12, "sandbox", "keep-env", "GITHUB_TOKEN");
	assert_string_equal(c.items[0].file, "cfg.ini");
	assert_false(c.items[0].list);
	assert_true(c.items[4].list);
	assert_string_equal(c.items[0].spec_section, "sandbox");
	collector_free(&c);
}

static void test_empty_and_comment_only(void **state)
{
	struct collector c = { 0 };
	char err[ERRLEN];
	assert_int_equal(parse_n("", 0, &c, err), INI_OK);
	assert_int_equal(c.calls, 0);
	expect_ok("; nothing\n# at all\n\n   \n\t\n", &c);
	assert_int_equal(c.calls, 0);
	expect_ok("[sandbox]\n", &c);
	assert_int_equal(c.calls, 0);
	collector_free(&c);
}

static void test_spacing_and_values(void **state)
{
	struct collector c = { 0 };
	expect_ok("[sandbox]\n"
		  "network=false\n"
		  "backend   =\tbwrap   \n"
		  "deny-env =\n"
		  "deny-read = /srv/a=b\n"
		  "writable = /srv/with space/x\n"
		  "keep-env = X", /* last line without a newline */
		  &c);
	assert_int_equal(c.n, 6);
	expect_item(&c, 0, 2, "sandbox", "network", "false");
	expect_item(&c, 1, 3, "sandbox", "backend", "bwrap");
	expect_item(&c, 2, 4, "sandbox", "deny-env", "");
	expect_item(&c, 3, 5, "sandbox", "deny-read", "/srv/a=b");
	expect_item(&c, 4, 6, "sandbox", "writable", "/srv/with space/x");
	expect_item(&c, 5, 7, "sandbox", "keep-env", "X");
	collector_free(&c);
	expect_ok("[sandbox]\nkeep-env = X", &c);
	expect_item(&c, 0, 2, "sandbox", "keep-env", "X");
	collector_free(&c);
}

static void test_repeated_list_key_delivers_all_in_order(void **state)
{
	struct collector c = { 0 };
	expect_ok("[sandbox]\n"
		  "deny-read = ~/.kube\n"
		  "writable = /srv/cache\n"
		  "deny-read = ~/.aws\n"
		  "deny-read = ~/.kube\n" /* even the same value: each line is one entry */
		  "[sandbox]\n"
		  "deny-read = /srv/secret\n", &c);
	assert_int_equal(c.n, 5);
	expect_item(&c, 0, 2, "sandbox", "deny-read", "~/.kube");
	expect_item(&c, 1, 3, "sandbox", "writable", "/srv/cache");
	expect_item(&c, 2, 4, "sandbox", "deny-read", "~/.aws");
	expect_item(&c, 3, 5, "sandbox", "deny-read", "~/.kube");
	expect_item(&c, 4, 7, "sandbox", "deny-read", "/srv/secret");
	collector_free(&c);
}

static void test_prefixed_sections(void **state)
{
	struct collector c = { 0 };
	/* The same scalar key in two different sections is no repetition. */
	expect_ok("[profile fast]\nmodel = a\n[profile slow]\nmodel = b\n", &c);
	assert_int_equal(c.n, 2);
	expect_item(&c, 0, 2, "profile fast", "model", "a");
	expect_item(&c, 1, 4, "profile slow", "model", "b");
	assert_string_equal(c.items[0].spec_section, "profile ");
	collector_free(&c);
	expect_error("[profile ]\nmodel = a\n", "cfg.ini:1: unknown section [profile ]");
	expect_error("[profile]\n", "cfg.ini:1: unknown section [profile]");
	expect_error("[profilex]\n", "cfg.ini:1: unknown section [profilex]");
	expect_error("[profile fast]\nnetwork = true\n",
		     "cfg.ini:2: unknown key 'network' in [profile fast]");
}

static void test_crlf(void **state)
{
	struct collector c = { 0 };
	expect_ok("[sandbox]\r\n"
		  "; comment\r\n"
		  "network = false\r\n"
		  "\r\n"
		  "deny-read = ~/.kube\r\n"
		  "backend = bwrap ; inline\r\n", &c);
	assert_int_equal(c.n, 3);
	expect_item(&c, 0, 3, "sandbox", "network", "false");
	expect_item(&c, 1, 5, "sandbox", "deny-read", "~/.kube");
	expect_item(&c, 2, 6, "sandbox", "backend", "bwrap");
	collector_free(&c);
	expect_error("[sandbox]\r\nnetwork = maybe\r\n",
		     "cfg.ini:2: 'maybe' is not a boolean (true or false)");
}

static void test_comments(void **state)
{
	struct collector c = { 0 };
	expect_ok("; semicolon comment\n"
		  "# hash comment\n"
		  "[sandbox] ; comment after a header\n"
		  "  ; an indented comment\n"
		  "\t# another\n"
		  ";network = false\n"
		  "#network = false\n"
		  "network = true ; inline comment\n"
		  "backend = bwrap\t; after a tab\n"
		  "deny-read = /srv/a;b\n"      /* no space before ';': part of the value */
		  "deny-read = /srv/c#d\n"     /* no space before '#': part of the value */
		  "deny-env = ;only a comment\n",
		  &c);
	assert_int_equal(c.n, 5);
	expect_item(&c, 0, 8, "sandbox", "network", "true");
	expect_item(&c, 1, 9, "sandbox", "backend", "bwrap");
	expect_item(&c, 2, 10, "sandbox", "deny-read", "/srv/a;b");
	expect_item(&c, 3, 11, "sandbox", "deny-read", "/srv/c#d");
	expect_item(&c, 4, 12, "sandbox", "deny-env", "");
	collector_free(&c);
	/* inih would keep " # d" in the value: a mask on a path that does not
	 * exist, silently skipped. Refused instead. */
	expect_error("[sandbox]\ndeny-read = ~/.kube  # k8s\n",
		     "cfg.ini:2: '#' after a value is not a comment (use ';', or put '#' first "
		     "on its own line)");
}

static void test_bom(void **state)
{
	struct collector c = { 0 };
	expect_ok("\xEF\xBB\xBF[sandbox]\nnetwork = false\n", &c);
	assert_int_equal(c.n, 1);
	expect_item(&c, 0, 2, "sandbox", "network", "false");
	collector_free(&c);
	/* A BOM counts only at the very start of the file. */
	expect_error("[sandbox]\n\xEF\xBB\xBFnetwork = false\n",
		     "cfg.ini:2: expected 'key = value' (keys are letters, digits, '-', '_' and '.')");
	/* A BOM then indentation is still a continuation line. */
	expect_error("\xEF\xBB\xBF  [sandbox]\n",
		     "cfg.ini:1: line starts with white space (continuation lines are not accepted)");
}

/* ---- what is refused -------------------------------------------------- */

static void test_unknown_section(void **state)
{
	struct collector c = { 0 };
	char err[ERRLEN];
	assert_int_equal(parse("[sandbox]\nnetwork = true\n\n[bogus]\nx = 1\n", &c, err), INI_ERROR);
	assert_string_equal(err, "cfg.ini:4: unknown section [bogus]");
	/* Items before the bad line were delivered: the caller must drop them
	 * all on INI_ERROR. Nothing after it was. */
	assert_int_equal(c.n, 1);
	collector_free(&c);
	expect_error("[Sandbox]\n", "cfg.ini:1: unknown section [Sandbox]");
	expect_error("[ sandbox ]\n", "cfg.ini:1: unknown section [ sandbox ]");
}

static void test_unknown_key(void **state)
{
	expect_error("[sandbox]\nnetwrok = true\n", "cfg.ini:2: unknown key 'netwrok' in [sandbox]");
	expect_error("[sandbox]\nNetwork = true\n", "cfg.ini:2: unknown key 'Network' in [sandbox]");
	expect_error("[sandbox]\n= true\n", "cfg.ini:2: unknown key '' in [sandbox]");
	expect_error("[sandbox]\nnetwork.x = true\n", "cfg.ini:2: unknown key 'network.x' in [sandbox]");
}

static void test_key_outside_section(void **state)
{
	expect_error("network = false\n", "cfg.ini:1: key 'network' outside a section");
	expect_error("; top\n\nnetwork = false\n[sandbox]\n", "cfg.ini:3: key 'network' outside a section");
}

static void test_repeated_scalar_key(void **state)
{
	expect_error("[sandbox]\nnetwork = true\nnetwork = false\n",
		     "cfg.ini:3: key 'network' repeated in [sandbox]");
	expect_error("[sandbox]\nbackend = bwrap\nbackend = bwrap\n",
		     "cfg.ini:3: key 'backend' repeated in [sandbox]");
	/* Reopening the section does not reset what was seen. */
	expect_error("[sandbox]\nnetwork = false\n[profile a]\nmodel = x\n[sandbox]\nnetwork = true\n",
		     "cfg.ini:6: key 'network' repeated in [sandbox]");
	expect_error("[profile a]\nmodel = x\nmodel = y\n",
		     "cfg.ini:3: key 'model' repeated in [profile a]");
}

static void test_syntax_errors(void **state)
{
	expect_error("[sandbox\n", "cfg.ini:1: section header without ']'");
	expect_error("[sandbox] network = true\n", "cfg.ini:1: text after section header");
	expect_error("[]\n", "cfg.ini:1: section name must be 1 to 49 characters");
	expect_error("[sandbox]\nnetwork\n",
		     "cfg.ini:2: expected 'key = value' (keys are letters, digits, '-', '_' and '.')");
	expect_error("[sandbox]\nnetwork true\n",
		     "cfg.ini:2: expected 'key = value' (keys are letters, digits, '-', '_' and '.')");
	/* inih would take ':' as '=': the guarded reader does not. */
	expect_error("[sandbox]\nnetwork: true\n",
		     "cfg.ini:2: expected 'key = value' (keys are letters, digits, '-', '_' and '.')");
	expect_error("[sandbox]\ndeny read = x\n",
		     "cfg.ini:2: expected 'key = value' (keys are letters, digits, '-', '_' and '.')");
}

/* inih copies names into 50-byte buffers and silently truncates: a long
 * name could be cut down to a known one. */
static void test_long_names(void **state)
{
	char text[256];
	char name[64];
	memset(name, 'n', 50);
	name[50] = '\0';
	snprintf(text, sizeof text, "[sandbox]\n%s = true\n", name);
	expect_error(text, "cfg.ini:2: key name longer than 49 characters");
	name[49] = '\0';
	snprintf(text, sizeof text, "[sandbox]\n%s = true\n", name);
	char want[128];
	snprintf(want, sizeof want, "cfg.ini:2: unknown key '%s' in [sandbox]", name);
	expect_error(text, want);

	memset(name, 's', 50);
	name[50] = '\0';
	snprintf(text, sizeof text, "[%s]\n", name);
	expect_error(text, "cfg.ini:1: section name must be 1 to 49 characters");
	/* "[profile " + 42 characters + "]": a 50-character name, refused,
	 * though its first 49 would match the prefix. */
	memset(name, 'p', 42);
	name[42] = '\0';
	snprintf(text, sizeof text, "[profile %s]\nmodel = x\n", name);
	expect_error(text, "cfg.ini:1: section name must be 1 to 49 characters");
	/* 49 characters is the longest accepted. */
	name[41] = '\0';
	snprintf(text, sizeof text, "[profile %s]\nmodel = x\n", name);
	struct collector c = { 0 };
	expect_ok(text, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(strlen(c.items[0].section), 49);
	collector_free(&c);
}

static void test_continuation_line_refused(void **state)
{
	expect_error("[sandbox]\ndeny-read = ~/.kube\n    ~/.aws\n",
		     "cfg.ini:3: line starts with white space (continuation lines are not accepted)");
	expect_error("[sandbox]\ndeny-read = ~/.kube\n\tnetwork = false\n",
		     "cfg.ini:3: line starts with white space (continuation lines are not accepted)");
	expect_error("  [sandbox]\n",
		     "cfg.ini:1: line starts with white space (continuation lines are not accepted)");
	/* The continuation must not have been delivered as a second value. */
	struct collector c = { 0 };
	char err[ERRLEN];
	assert_int_equal(parse("[sandbox]\ndeny-read = ~/.kube\n  ~/.aws\n", &c, err), INI_ERROR);
	assert_int_equal(c.n, 1);
	expect_item(&c, 0, 2, "sandbox", "deny-read", "~/.kube");
	collector_free(&c);
}

static void test_nul_byte(void **state)
{
	static const char text[] = "[sandbox]\nnetwork = true\0network = false\n";
	struct collector c = { 0 };
	char err[ERRLEN];
	assert_int_equal(parse_n(text, sizeof text - 1, &c, err), INI_ERROR);
	assert_string_equal(err, "cfg.ini:2: NUL byte in line");
	assert_int_equal(c.n, 0);
	collector_free(&c);

	static const char text2[] = "[sandbox]\nnetwork = true\n\0";
	assert_int_equal(parse_n(text2, sizeof text2 - 1, &c, err), INI_ERROR);
	assert_string_equal(err, "cfg.ini:3: NUL byte in line");
	collector_free(&c);
}

static void test_callback_rejection(void **state)
{
	expect_error("[sandbox]\nnetwork = maybe\n",
		     "cfg.ini:2: 'maybe' is not a boolean (true or false)");
	expect_error("[sandbox]\ndeny-read = x\n\nnested-userns = \n",
		     "cfg.ini:4: '' is not a boolean (true or false)");
	/* A callback that gives no reason still yields a located line. */
	struct collector c = { .reject_backend_silently = true };
	char err[ERRLEN];
	assert_int_equal(parse("[sandbox]\n\nbackend = weird\n", &c, err), INI_ERROR);
	assert_string_equal(err, "cfg.ini:3: invalid value");
	collector_free(&c);
}

/* ---- over-long lines: the injection ----------------------------------- */

/* inih hands its reader a 200-byte buffer: room for 198 characters, the
 * newline and the NUL. */
#define LONGEST 198

static char *line_of(const char *prefix, char fill, size_t len, const char *suffix)
{
	size_t p = strlen(prefix), s = strlen(suffix);
	assert_true(p + s <= len);
	char *out = xmalloc(len + 1);
	memcpy(out, prefix, p);
	memset(out + p, fill, len - p - s);
	memcpy(out + len - s, suffix, s);
	out[len] = '\0';
	return out;
}

static void test_longest_line_accepted(void **state)
{
	_cleanup_free_ char *line = line_of("deny-read = ", 'A', LONGEST, "");
	_cleanup_free_ char *text = xasprintf("[sandbox]\n%s\n", line);
	struct collector c = { 0 };
	expect_ok(text, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(strlen(c.items[0].value), LONGEST - strlen("deny-read = "));
	collector_free(&c);
}

static void test_over_long_line_refused(void **state)
{
	_cleanup_free_ char *line = line_of("deny-read = ", 'A', LONGEST + 1, "");
	_cleanup_free_ char *text = xasprintf("[sandbox]\n%s\n", line);
	expect_error(text, "cfg.ini:2: line longer than 198 characters");

	/* Also as the last line without a newline, and on a later line. */
	_cleanup_free_ char *text2 = xasprintf("[sandbox]\nnetwork = true\n\n%s", line);
	expect_error(text2, "cfg.ini:4: line longer than 198 characters");

	/* Every kind of line counts: a comment too. */
	_cleanup_free_ char *comment = line_of("; ", 'c', 1000, "");
	_cleanup_free_ char *text3 = xasprintf("%s\n[sandbox]\n", comment);
	expect_error(text3, "cfg.ini:1: line longer than 198 characters");
}

/* The attack: a list value long enough that inih cuts the line at its buffer
 * size and parses the tail as a line of its own. The tail starts right after
 * the first 199 characters. */
static char *injection_text(const char *head)
{
	_cleanup_free_ char *line = line_of(head, 'A', 199, "");
	return xasprintf("[sandbox]\n%snetwork = true\n", line);
}

static int raw_handler(void *user, const char *section, const char *name, const char *value)
{
	if (str_eq(name, "network"))
		*(bool *)user = true;
	return 1;
}

/* Whether inih on its own turns the tail of text into a "network" key. */
static bool raw_inih_injects(const char *text)
{
	bool injected = false;
	ini_parse_string(text, raw_handler, &injected);
	if (!injected)
		print_message("note: this inih does not split long lines; the guard is still tested\n");
	return injected;
}

static void test_long_line_injection(void **state)
{
	/* First show that the attack works on inih alone (on Debian 12's inih
	 * it does), so that the checks below could fail. */
	_cleanup_free_ char *text = injection_text("deny-read = ");
	(void)raw_inih_injects(text);

	struct collector c = { 0 };
	char err[ERRLEN];
	assert_int_equal(parse(text, &c, err), INI_ERROR);
	assert_string_equal(err, "cfg.ini:2: line longer than 198 characters");
	assert_false(has_key(&c, "network"));
	assert_int_equal(c.calls, 0);
	collector_free(&c);

	/* The same through a comment line: nothing of it may become a key. */
	_cleanup_free_ char *text2 = injection_text("; ");
	(void)raw_inih_injects(text2);
	assert_int_equal(parse(text2, &c, err), INI_ERROR);
	assert_string_equal(err, "cfg.ini:2: line longer than 198 characters");
	assert_int_equal(c.calls, 0);
	collector_free(&c);
}

/* ---- ini_parse_bool --------------------------------------------------- */

static void test_parse_bool(void **state)
{
	static const struct {
		const char *in;
		bool ok, value;
	} table[] = {
		{ "true", true, true }, { "TRUE", true, true }, { "True", true, true },
		{ "yes", true, true }, { "YES", true, true }, { "on", true, true },
		{ "On", true, true }, { "1", true, true },
		{ "false", true, false }, { "FALSE", true, false }, { "no", true, false },
		{ "No", true, false }, { "off", true, false }, { "OFF", true, false },
		{ "0", true, false },
		{ "", false, false }, { "2", false, false }, { "-1", false, false },
		{ "00", false, false }, { "01", false, false }, { "y", false, false },
		{ "n", false, false }, { "t", false, false }, { "f", false, false },
		{ "truee", false, false }, { "tru", false, false }, { " true", false, false },
		{ "true ", false, false }, { "enabled", false, false }, { "nope", false, false },
		{ "true;", false, false },
	};
	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		bool out = !table[i].value;
		bool ok = ini_parse_bool(table[i].in, &out);
		if (ok != table[i].ok)
			fail_msg("ini_parse_bool(\"%s\") returned %d", table[i].in, ok);
		if (ok && out != table[i].value)
			fail_msg("ini_parse_bool(\"%s\") gave %d", table[i].in, out);
		/* A refused value leaves the output alone. */
		bool untouched = true;
		if (!ok) {
			assert_false(ini_parse_bool(table[i].in, &untouched));
			assert_true(untouched);
		}
	}
}

/* ---- files ------------------------------------------------------------ */

static char *test_dir;

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(p) < 0 ? -1 : 0;
}

static int files_setup(void **state)
{
	char tmpl[] = "test_ini_reader.XXXXXX";
	if (!mkdtemp(tmpl)) {
		fprintf(stderr, "mkdtemp in the current directory: %s\n", strerror(errno));
		return -1;
	}
	test_dir = realpath(tmpl, NULL);
	return test_dir ? 0 : -1;
}

static int files_teardown(void **state)
{
	int rc = test_dir ? nftw(test_dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS) : 0;
	free(test_dir);
	test_dir = NULL;
	return rc;
}

static char *tfile(const char *name)
{
	return xasprintf("%s/%s", test_dir, name);
}

static char *write_file(const char *name, const char *text, size_t len)
{
	char *p = tfile(name);
	FILE *f = fopen(p, "w");
	if (!f)
		fail_msg("create %s: %s", p, strerror(errno));
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return p;
}

static int read_file_(const char *path, bool optional, struct collector *c, char *err)
{
	strcpy(err, "(untouched)");
	return ini_read_file(path, optional, schema, collect, c, err, ERRLEN);
}

static void test_file_good(void **state)
{
	static const char text[] = "[sandbox]\nnetwork = false\ndeny-read = ~/.kube\n";
	_cleanup_free_ char *p = write_file("good.ini", text, sizeof text - 1);
	struct collector c = { 0 };
	char err[ERRLEN];
	assert_int_equal(read_file_(p, false, &c, err), INI_OK);
	assert_int_equal(c.n, 2);
	expect_item(&c, 0, 2, "sandbox", "network", "false");
	expect_item(&c, 1, 3, "sandbox", "deny-read", "~/.kube");
	assert_string_equal(c.items[0].file, p);
	collector_free(&c);

	/* Through a symlink: read like the file itself. */
	_cleanup_free_ char *l = tfile("link.ini");
	assert_int_equal(symlink(p, l), 0);
	assert_int_equal(read_file_(l, false, &c, err), INI_OK);
	assert_int_equal(c.n, 2);
	collector_free(&c);
}

static void test_file_error_names_file_and_line(void **state)
{
	static const char text[] = "[sandbox]\nnetwork = false\nnetwork = true\n";
	_cleanup_free_ char *p = write_file("repeat.ini", text, sizeof text - 1);
	struct collector c = { 0 };
	char err[ERRLEN];
	assert_int_equal(read_file_(p, false, &c, err), INI_ERROR);
	_cleanup_free_ char *want = xasprintf("%s:3: key 'network' repeated in [sandbox]", p);
	assert_string_equal(err, want);
	collector_free(&c);

	static const char nul[] = "[sandbox]\nnetwork = false\0\n";
	_cleanup_free_ char *q = write_file("nul.ini", nul, sizeof nul - 1);
	assert_int_equal(read_file_(q, false, &c, err), INI_ERROR);
	_cleanup_free_ char *want2 = xasprintf("%s:2: NUL byte in line", q);
	assert_string_equal(err, want2);
	collector_free(&c);

	_cleanup_free_ char *text3 = injection_text("deny-read = ");
	_cleanup_free_ char *r = write_file("long.ini", text3, strlen(text3));
	assert_int_equal(read_file_(r, false, &c, err), INI_ERROR);
	_cleanup_free_ char *want3 = xasprintf("%s:2: line longer than 198 characters", r);
	assert_string_equal(err, want3);
	assert_int_equal(c.calls, 0);
	collector_free(&c);
}

static void test_file_missing(void **state)
{
	_cleanup_free_ char *p = tfile("absent.ini");
	struct collector c = { 0 };
	char err[ERRLEN];
	assert_int_equal(read_file_(p, true, &c, err), INI_MISSING);
	assert_int_equal(c.calls, 0);

	assert_int_equal(read_file_(p, false, &c, err), INI_ERROR);
	_cleanup_free_ char *want = xasprintf("%s: cannot read: No such file or directory", p);
	assert_string_equal(err, want);

	/* A missing parent directory is a missing file too. */
	_cleanup_free_ char *deep = tfile("no/such/dir/config.ini");
	assert_int_equal(read_file_(deep, true, &c, err), INI_MISSING);

	/* A dangling symlink: missing. */
	_cleanup_free_ char *l = tfile("dangling.ini");
	assert_int_equal(symlink("nowhere.ini", l), 0);
	assert_int_equal(read_file_(l, true, &c, err), INI_MISSING);
	assert_int_equal(c.calls, 0);
}

static void test_file_optional_only_covers_absence(void **state)
{
	/* Below a regular file: ENOTDIR is an error even when optional. */
	static const char text[] = "[sandbox]\n";
	free(write_file("plain", text, sizeof text - 1));
	_cleanup_free_ char *p = tfile("plain/config.ini");
	struct collector c = { 0 };
	char err[ERRLEN];
	assert_int_equal(read_file_(p, true, &c, err), INI_ERROR);
	_cleanup_free_ char *want = xasprintf("%s: cannot read: Not a directory", p);
	assert_string_equal(err, want);
}

static void test_file_directory(void **state)
{
	_cleanup_free_ char *p = tfile("config.d");
	assert_int_equal(mkdir(p, 0755), 0);
	struct collector c = { 0 };
	char err[ERRLEN];
	assert_int_equal(read_file_(p, false, &c, err), INI_ERROR);
	_cleanup_free_ char *want = xasprintf("%s: cannot read: Is a directory", p);
	assert_string_equal(err, want);
	assert_int_equal(read_file_(p, true, &c, err), INI_ERROR);
	assert_string_equal(err, want);
}

static void on_alarm(int sig)
{
	static const char msg[] = "reading a FIFO hung\n";
	(void)!write(STDERR_FILENO, msg, sizeof msg - 1);
	_exit(1);
}

/* A FIFO planted in place of a config must not block the reader. */
static void test_file_fifo_does_not_hang(void **state)
{
	_cleanup_free_ char *p = tfile("fifo.ini");
	assert_int_equal(mkfifo(p, 0644), 0);
	struct collector c = { 0 };
	char err[ERRLEN];
	signal(SIGALRM, on_alarm);
	alarm(10);
	int rc = read_file_(p, true, &c, err);
	alarm(0);
	signal(SIGALRM, SIG_DFL);
	assert_int_equal(rc, INI_ERROR);
	_cleanup_free_ char *want = xasprintf("%s: not a regular file", p);
	assert_string_equal(err, want);
	assert_int_equal(c.calls, 0);
}

static void test_file_too_large(void **state)
{
	_cleanup_free_ char *p = tfile("huge.ini");
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, INI_MAX_FILE_SIZE + 1), 0);
	close(fd);
	struct collector c = { 0 };
	char err[ERRLEN];
	assert_int_equal(read_file_(p, false, &c, err), INI_ERROR);
	_cleanup_free_ char *want = xasprintf("%s: larger than %d bytes", p, INI_MAX_FILE_SIZE);
	assert_string_equal(err, want);
	assert_int_equal(c.calls, 0);
}

static void test_file_unreadable(void **state)
{
	if (geteuid() == 0) {
		print_message("root reads any file: nothing to test\n");
		skip();
	}
	static const char text[] = "[sandbox]\n";
	_cleanup_free_ char *p = write_file("secret.ini", text, sizeof text - 1);
	assert_int_equal(chmod(p, 0), 0);
	struct collector c = { 0 };
	char err[ERRLEN];
	assert_int_equal(read_file_(p, true, &c, err), INI_ERROR);
	_cleanup_free_ char *want = xasprintf("%s: cannot read: Permission denied", p);
	assert_string_equal(err, want);
}

int main(void)
{
	const struct CMUnitTest text[] = {
		cmocka_unit_test(test_good_file),
		cmocka_unit_test(test_empty_and_comment_only),
		cmocka_unit_test(test_spacing_and_values),
		cmocka_unit_test(test_repeated_list_key_delivers_all_in_order),
		cmocka_unit_test(test_prefixed_sections),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_comments),
		cmocka_unit_test(test_bom),
		cmocka_unit_test(test_unknown_section),
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_key_outside_section),
		cmocka_unit_test(test_repeated_scalar_key),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_long_names),
		cmocka_unit_test(test_continuation_line_refused),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_callback_rejection),
		cmocka_unit_test(test_longest_line_accepted),
		cmocka_unit_test(test_over_long_line_refused),
		cmocka_unit_test(test_long_line_injection),
		cmocka_unit_test(test_parse_bool),
	};
	const struct CMUnitTest files[] = {
		cmocka_unit_test(test_file_good),
		cmocka_unit_test(test_file_error_names_file_and_line),
		cmocka_unit_test(test_file_missing),
		cmocka_unit_test(test_file_optional_only_covers_absence),
		cmocka_unit_test(test_file_directory),
		cmocka_unit_test(test_file_fifo_does_not_hang),
		cmocka_unit_test(test_file_too_large),
		cmocka_unit_test(test_file_unreadable),
	};
	int failed = cmocka_run_group_tests_name("ini_read_text", text, NULL, NULL);
	failed += cmocka_run_group_tests_name("ini_read_file", files, files_setup, files_teardown);
	return unit_status(failed);
}
