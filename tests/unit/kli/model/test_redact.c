/* SPDX-License-Identifier: MIT */
/* The streaming key masker (model/redact.h) against key_mask of the whole
 * text, its oracle: for texts that echo the key in every form key_mask
 * knows (as is; each byte JSON-escaped or URL-encoded, in any mix; base64
 * of user:key at the three offsets in both alphabets), cut at every
 * place, at every pair of places, a byte at a time and at random places,
 * and for random texts made of pieces of those forms; and what it holds
 * back: nothing that could not become an echo.
 *
 * KLI_REDACT_SEED=N repeats the random part with another seed. */
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

#include "model/key.h"
#include "model/redact.h"
#include "util.h"

/* ------------------------------------------------------------ helpers */

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static size_t below(size_t n)
{
	return n ? (size_t)(next_rand() % n) : 0;
}

struct text {
	char *s;
	size_t n;
};

static void add(struct text *t, const char *s, size_t n)
{
	t->s = xreallocarray(t->s, t->n + n + 1, 1);
	memcpy(t->s + t->n, s, n);
	t->n += n;
	t->s[t->n] = '\0';
}

static void adds(struct text *t, const char *s)
{
	add(t, s, strlen(s));
}

static char *whole(const char *key, const char *s, size_t n)
{
	char *m = xmalloc(n + 1);
	memcpy(m, s, n);
	m[n] = '\0';
	key_mask(m, n, key);
	return m;
}

/* The text fed in the pieces CUTS (ascending offsets) make, then finished. */
static char *streamed(const char *key, const char *s, size_t n, const size_t *cuts,
		      size_t ncuts, size_t *outlen)
{
	struct redact *r = redact_new(key);
	struct text out = { 0 };
	add(&out, "", 0);
	size_t from = 0;
	for (size_t i = 0; i <= ncuts; i++) {
		size_t to = i < ncuts ? cuts[i] : n;
		size_t m;
		char *piece = redact_feed(r, s + from, to - from, &m);
		add(&out, piece, m);
		free(piece);
		from = to;
	}
	size_t m;
	char *rest = redact_finish(r, &m);
	add(&out, rest, m);
	free(rest);
	redact_free(r);
	*outlen = out.n;
	return out.s;
}

static int cut_failures;

static void same(const char *key, const char *s, size_t n, const size_t *cuts, size_t ncuts)
{
	char *want = whole(key, s, n);
	size_t m;
	char *got = streamed(key, s, n, cuts, ncuts, &m);
	if (m != n || memcmp(got, want, n) != 0) {
		if (cut_failures++ < 5) {
			fprintf(stderr, "# key \"%s\", text \"%s\", cut at", key, s);
			for (size_t i = 0; i < ncuts; i++)
				fprintf(stderr, " %zu", cuts[i]);
			fprintf(stderr, "\n#   streamed \"%s\"\n#   key_mask \"%s\"\n", got, want);
		}
	}
	free(want);
	free(got);
}

/* Every way of cutting TEXT in two and in three (PAIRS), a byte at a time,
 * and ROUNDS random ways. */
static void every_cut(const char *key, const char *s, size_t n, bool pairs, int rounds)
{
	same(key, s, n, NULL, 0);
	for (size_t a = 0; a <= n; a++) {
		same(key, s, n, &a, 1);
		for (size_t b = a; pairs && b <= n; b++) {
			size_t c[2] = { a, b };
			same(key, s, n, c, 2);
		}
	}
	size_t *cuts = xcalloc(n + 1, sizeof *cuts);
	for (size_t i = 0; i < n; i++)
		cuts[i] = i + 1;
	same(key, s, n, cuts, n);
	for (int r = 0; r < rounds; r++) {
		size_t k = 0;
		for (size_t i = 1; i < n; i++)
			if (below(4) == 0)
				cuts[k++] = i;
		same(key, s, n, cuts, k);
	}
	free(cuts);
}

/* ------------------------------------------------------ the key's forms */

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char B64URL[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* base64 of S, with padding: written here, not taken from key.c */
static void base64(struct text *t, const char *s, size_t n, const char *abc)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)u[i] << 16 | (i + 1 < n ? (unsigned)u[i + 1] << 8 : 0) |
			     (i + 2 < n ? u[i + 2] : 0);
		char g[4] = { abc[v >> 18 & 63], abc[v >> 12 & 63],
			      i + 1 < n ? abc[v >> 6 & 63] : '=', i + 2 < n ? abc[v & 63] : '=' };
		add(t, g, 4);
	}
}

/* The Basic credentials for USER and KEY, as a server would echo them. */
static void basic(struct text *t, const char *user, const char *key, const char *abc)
{
	struct text plain = { 0 };
	adds(&plain, user);
	adds(&plain, ":");
	adds(&plain, key);
	adds(t, "Basic ");
	base64(t, plain.s, plain.n, abc);
	free(plain.s);
}

/* The key, each byte written the way WAYS[i % strlen(WAYS)] says: r as
 * is, j as \" \\ \/ where that is an escape (else as is), u \u00xx,
 * U \u00XX, p %xx, P %XX. */
static void escaped(struct text *t, const char *key, const char *ways)
{
	size_t w = strlen(ways);
	for (size_t i = 0; key[i]; i++) {
		unsigned char c = (unsigned char)key[i];
		char b[8];
		switch (ways[i % w]) {
		case 'j':
			if (strchr("\"\\/", c))
				snprintf(b, sizeof b, "\\%c", c);
			else
				snprintf(b, sizeof b, "%c", c);
			break;
		case 'u': snprintf(b, sizeof b, "\\u00%02x", c); break;
		case 'U': snprintf(b, sizeof b, "\\u00%02X", c); break;
		case 'p': snprintf(b, sizeof b, "%%%02x", c); break;
		case 'P': snprintf(b, sizeof b, "%%%02X", c); break;
		default: snprintf(b, sizeof b, "%c", c); break;
		}
		adds(t, b);
	}
}

static const char *const WAYS[] = { "r", "j", "u", "U", "p", "P", "ru", "pUj", "jPuru", "uuppr" };
#define NWAYS (sizeof WAYS / sizeof *WAYS)

/* Every form of KEY, one text each: the escaped mixes, then the base64
 * ones (users of 3, 1 and 2 characters put the key at offsets 0, 1, 2). */
static size_t all_forms(const char *key, struct text *forms)
{
	size_t n = 0;
	for (size_t w = 0; w < NWAYS; w++)
		escaped(&forms[n++], key, WAYS[w]);
	static const char *const users[] = { "usr", "u", "us", "user", "" };
	for (size_t u = 0; u < 5; u++) {
		basic(&forms[n++], users[u], key, B64);
		basic(&forms[n++], users[u], key, B64URL);
	}
	return n;
}
#define MAX_FORMS (NWAYS + 10)

static void forms_clear(struct text *forms, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(forms[i].s);
}

/* Keys: an ordinary one, one with every byte an escape can write, one
 * that holds the mask itself, one of backslashes (the widest frontier),
 * and short ones at KEY_SHORT and below it. */
static const char *const KEYS[] = {
	"kli-test-key-9f3c1a7e5b",
	"sk-a\"b\\c/d%u0*",
	"**ab**cd",
	"\\\\\\\\\\\\\\\\\\\\",
	"%25%25%2",
	"abcdefgh",
	"short",
};
#define NKEYS (sizeof KEYS / sizeof *KEYS)

/* --------------------------------------------------------------- tests */

/* Each form alone, inside text, twice in a row, and cut short: at every
 * cut, every pair of cuts, a byte at a time. */
static void test_every_cut(void **state)
{
	(void)state;
	for (size_t k = 0; k < NKEYS; k++) {
		const char *key = KEYS[k];
		struct text forms[MAX_FORMS] = { 0 };
		size_t nf = all_forms(key, forms);
		for (size_t f = 0; f < nf; f++) {
			struct text t = { 0 };
			adds(&t, "x ");
			add(&t, forms[f].s, forms[f].n);
			adds(&t, " y");
			every_cut(key, t.s, t.n, t.n <= 200, 20);
			free(t.s);
			/* back to back, then cut short: an echo that stops */
			t = (struct text){ 0 };
			add(&t, forms[f].s, forms[f].n);
			add(&t, forms[f].s, forms[f].n);
			add(&t, forms[f].s, forms[f].n - 1);
			every_cut(key, t.s, t.n, false, 20);
			free(t.s);
		}
		forms_clear(forms, nf);
	}
	assert_int_equal(cut_failures, 0);
}

/* A text in every form at once, then each form with a byte changed. */
static void test_all_forms_in_one(void **state)
{
	(void)state;
	for (size_t k = 0; k < NKEYS; k++) {
		const char *key = KEYS[k];
		struct text forms[MAX_FORMS] = { 0 };
		size_t nf = all_forms(key, forms);
		struct text t = { 0 };
		for (size_t f = 0; f < nf; f++) {
			adds(&t, f % 2 ? "\n" : " \\");
			add(&t, forms[f].s, forms[f].n);
			forms[f].s[below(forms[f].n)] ^= 1;
			add(&t, forms[f].s, forms[f].n);
		}
		every_cut(key, t.s, t.n, false, 50);
		free(t.s);
		forms_clear(forms, nf);
	}
	assert_int_equal(cut_failures, 0);
}

/* Random texts of pieces of the forms (whole, cut short, joined, a byte
 * changed), escape starts and plain text, cut at random places. */
static void test_random(void **state)
{
	(void)state;
	static const char *const bits[] = { "\\", "%", "\\u00", "\\u", "%2", "*", "=", " ",
					    "ab", "0", "7", "\\\\", "%%", "u" };
	for (size_t k = 0; k < NKEYS; k++) {
		const char *key = KEYS[k];
		struct text forms[MAX_FORMS] = { 0 };
		size_t nf = all_forms(key, forms);
		for (int round = 0; round < 400; round++) {
			struct text t = { 0 };
			add(&t, "", 0);
			size_t pieces = 1 + below(8);
			for (size_t p = 0; p < pieces; p++) {
				const struct text *f = &forms[below(nf)];
				size_t a = below(3) ? 0 : below(f->n);
				size_t b = below(3) ? f->n : a + below(f->n - a + 1);
				size_t at = t.n;
				switch (below(4)) {
				case 0:
					adds(&t, bits[below(sizeof bits / sizeof *bits)]);
					break;
				case 1: {
					char c = (char)(0x20 + below(95));
					add(&t, &c, 1);
					break;
				}
				default:
					add(&t, f->s + a, b - a);
					if (b > a && below(4) == 0)
						t.s[at + below(b - a)] ^= (char)(1 << below(3));
				}
			}
			every_cut(key, t.s, t.n, false, 10);
			free(t.s);
		}
		forms_clear(forms, nf);
	}
	assert_int_equal(cut_failures, 0);
}

/* What is held back: a suffix that could still become an echo, and
 * nothing else. */
static size_t fed(struct redact *r, const char *s, char *out, size_t cap)
{
	size_t m;
	char *o = redact_feed(r, s, strlen(s), &m);
	assert_true(m < cap);
	memcpy(out, o, m + 1);
	free(o);
	return m;
}

static void test_holds_back_only_a_start(void **state)
{
	(void)state;
	const char *key = "kli-test-key-9f3c1a7e5b";
	struct redact *r = redact_new(key);
	char out[256];
	/* nothing that could start an echo: all of it, now */
	fed(r, "Here is the answer. ", out, sizeof out);
	assert_string_equal(out, "Here is the answer. ");
	/* the key's first bytes wait; what they turn out to be comes then */
	fed(r, "It is kli-te", out, sizeof out);
	assert_string_equal(out, "It is ");
	fed(r, "xt.", out, sizeof out);
	assert_string_equal(out, "kli-text.");
	/* escapes that could still spell it wait, and only they */
	fed(r, " 100%", out, sizeof out);
	assert_string_equal(out, " 100");
	fed(r, "6b", out, sizeof out); /* %6b is 'k': the key's first byte */
	assert_string_equal(out, "");
	fed(r, "!", out, sizeof out);
	assert_string_equal(out, "%6b!");
	fed(r, " a\\u006", out, sizeof out);
	assert_string_equal(out, " a");
	fed(r, "b\\u006c\\u0069-test-key-9f3c1a7e5b.", out, sizeof out);
	assert_string_equal(out, "**************************************.");
	/* a base64 form's first characters wait: in usr:KEY, the key starts
	 * at offset 1 of a group, and its form at "ts" */
	fed(r, "Basic dXNyOmtsaS10ZXN0", out, sizeof out);
	assert_string_equal(out, "Basic dXNyOm");
	fed(r, "LWtleS05ZjNjMWE3ZTViIQ==", out, sizeof out);
	assert_string_equal(out, "******************************IQ==");
	size_t m;
	char *rest = redact_finish(r, &m);
	assert_int_equal(m, 0);
	free(rest);
	redact_free(r);

	/* a key too short to mask, and no key: everything, at once */
	r = redact_new("x");
	fed(r, "x", out, sizeof out);
	assert_string_equal(out, "x");
	redact_free(r);
	r = redact_new(NULL);
	fed(r, "%", out, sizeof out);
	assert_string_equal(out, "%");
	redact_free(r);
}

/* Issue 40's case: a 200-character key and a 670-character answer in 68
 * pieces: each piece comes out when it comes in (the old printer held
 * back 6 x 200 bytes, so nothing before the end). */
static void test_long_key_streams(void **state)
{
	(void)state;
	char key[201];
	for (size_t i = 0; i < 200; i++)
		key[i] = B64URL[(i * 7 + 3) % 64];
	key[200] = '\0';
	struct text answer = { 0 };
	while (answer.n < 670)
		adds(&answer, "The build passes; the tests that failed were the ones for "
			      "the parser. ");
	answer.n = 670;
	answer.s[670] = '\0';
	struct redact *r = redact_new(key);
	size_t per = (670 + 67) / 68, at = 0, shown = 0;
	for (size_t i = 0; i < 68 && at < 670; i++) {
		size_t n = at + per > 670 ? 670 - at : per;
		size_t m;
		char *o = redact_feed(r, answer.s + at, n, &m);
		at += n;
		shown += m;
		free(o);
		if (i == 0)
			assert_int_equal(m, n);
	}
	size_t m;
	char *rest = redact_finish(r, &m);
	free(rest);
	assert_true(shown + m == 670);
	/* no piece ends in a base64 start that long: at most a few bytes wait */
	assert_true(670 - shown < 8);
	redact_free(r);
	free(answer.s);

	/* and the key itself in it, in every form, cut everywhere */
	struct text forms[MAX_FORMS] = { 0 };
	size_t nf = all_forms(key, forms);
	for (size_t f = 0; f < nf; f++) {
		struct text t = { 0 };
		adds(&t, "Your key is ");
		add(&t, forms[f].s, forms[f].n);
		adds(&t, ", isn't it?");
		every_cut(key, t.s, t.n, false, 5);
		free(t.s);
	}
	forms_clear(forms, nf);
	assert_int_equal(cut_failures, 0);
}

int main(void)
{
	const char *seed = getenv("KLI_REDACT_SEED");
	if (seed && *seed)
		rng = strtoull(seed, NULL, 0) | 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_holds_back_only_a_start),
		cmocka_unit_test(test_long_key_streams),
		cmocka_unit_test(test_every_cut),
		cmocka_unit_test(test_all_forms_in_one),
		cmocka_unit_test(test_random),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
