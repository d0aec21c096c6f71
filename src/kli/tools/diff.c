/* SPDX-License-Identifier: MIT */
/* A unified diff of two texts: see tools/diff.h. */
#include "config.h"
#include "tools/diff.h"
#include "strbuf.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct line {
	const char *p;
	size_t n;       /* without the newline */
};

struct lines {
	struct line *v;
	size_t n;
};

static void split(const char *s, size_t len, struct lines *out)
{
	out->v = NULL;
	out->n = 0;
	size_t cap = 0;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - s) : len;
		if (out->n == cap) {
			cap = cap ? cap * 2 : 64;
			out->v = xreallocarray(out->v, cap, sizeof *out->v);
		}
		out->v[out->n++] = (struct line){ s + i, end - i };
		i = end + 1;
	}
}

static bool same(const struct line *a, const struct line *b)
{
	return a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
}

/* One line of the edit script: ' ', '-' or '+', and its line. */
struct op {
	char kind;
	const struct line *l;
	size_t ai, bi; /* where it stands in each text (0-based) */
};

struct script {
	struct op *v;
	size_t n, cap;
};

static void push(struct script *s, char kind, const struct line *l, size_t ai, size_t bi)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->v = xreallocarray(s->v, s->cap, sizeof *s->v);
	}
	s->v[s->n++] = (struct op){ kind, l, ai, bi };
}

/* The middle A[a0,a1) against B[b0,b1) by longest common subsequence,
 * or all removed then all added when it is too large. */
static void middle(const struct lines *a, size_t a0, size_t a1, const struct lines *b,
		   size_t b0, size_t b1, struct script *s)
{
	size_t m = a1 - a0, n = b1 - b0;
	if (m == 0 || n == 0 || (m + 1) > DIFF_MAX_CELLS / (n + 1)) {
		for (size_t i = a0; i < a1; i++)
			push(s, '-', &a->v[i], i, b0);
		for (size_t j = b0; j < b1; j++)
			push(s, '+', &b->v[j], a1, j);
		return;
	}
	/* L[i][j]: the LCS length of A[a0+i..] and B[b0+j..] */
	uint32_t *L = xcalloc((m + 1) * (n + 1), sizeof *L);
#define AT(i, j) L[(i) * (n + 1) + (j)]
	for (size_t i = m; i-- > 0;)
		for (size_t j = n; j-- > 0;)
			AT(i, j) = same(&a->v[a0 + i], &b->v[b0 + j])
					   ? AT(i + 1, j + 1) + 1
					   : (AT(i + 1, j) >= AT(i, j + 1) ? AT(i + 1, j) : AT(i, j + 1));
	size_t i = 0, j = 0;
	while (i < m || j < n) {
		if (i < m && j < n && same(&a->v[a0 + i], &b->v[b0 + j])) {
			push(s, ' ', &a->v[a0 + i], a0 + i, b0 + j);
			i++, j++;
		} else if (j == n || (i < m && AT(i + 1, j) >= AT(i, j + 1))) {
			push(s, '-', &a->v[a0 + i], a0 + i, b0 + j);
			i++;
		} else {
			push(s, '+', &b->v[b0 + j], a0 + i, b0 + j);
			j++;
		}
	}
#undef AT
	free(L);
}

#define CONTEXT 3

/* The hunk header of script ops [from, to). */
static void header(struct strbuf *out, const struct script *s, size_t from, size_t to)
{
	size_t na = 0, nb = 0;
	for (size_t k = from; k < to; k++) {
		na += s->v[k].kind != '+';
		nb += s->v[k].kind != '-';
	}
	size_t a = s->v[from].ai + (na ? 1 : 0), b = s->v[from].bi + (nb ? 1 : 0);
	sb_addf(out, "@@ -%zu,%zu +%zu,%zu @@\n", a, na, b, nb);
}

char *diff_unified(const char *name, const char *old, size_t oldlen, const char *new_text,
		   size_t newlen, size_t max_lines, struct diff_count *count)
{
	*count = (struct diff_count){ 0 };
	struct lines a, b;
	split(old, oldlen, &a);
	split(new_text, newlen, &b);
	size_t pre = 0, suf = 0;
	while (pre < a.n && pre < b.n && same(&a.v[pre], &b.v[pre]))
		pre++;
	while (suf < a.n - pre && suf < b.n - pre && same(&a.v[a.n - 1 - suf], &b.v[b.n - 1 - suf]))
		suf++;
	struct script s = { 0 };
	for (size_t i = 0; i < pre; i++)
		push(&s, ' ', &a.v[i], i, i);
	middle(&a, pre, a.n - suf, &b, pre, b.n - suf, &s);
	for (size_t k = suf; k > 0; k--)
		push(&s, ' ', &a.v[a.n - k], a.n - k, b.n - k);

	struct strbuf out = STRBUF_INIT;
	size_t shown = 0, more = 0;
	bool any = false;
	for (size_t k = 0; k < s.n;) {
		if (s.v[k].kind == ' ') {
			k++;
			continue;
		}
		/* a hunk: back CONTEXT lines, then on while changes come within
		 * 2 * CONTEXT lines of each other */
		size_t from = k > CONTEXT ? k - CONTEXT : 0, last = k;
		for (size_t q = k; q < s.n && q <= last + 2 * CONTEXT; q++)
			if (s.v[q].kind != ' ')
				last = q;
		size_t to = last + CONTEXT + 1 < s.n ? last + CONTEXT + 1 : s.n;
		if (!any)
			sb_addf(&out, "--- a/%s\n+++ b/%s\n", name, name);
		any = true;
		for (size_t q = from; q < to; q++) {
			if (s.v[q].kind == '+')
				count->added++;
			else if (s.v[q].kind == '-')
				count->removed++;
		}
		for (size_t q = from; q < to; q++) {
			if (q == from && shown < max_lines)
				header(&out, &s, from, to);
			if (shown++ < max_lines) {
				sb_addf(&out, "%c", s.v[q].kind);
				sb_add(&out, s.v[q].l->p, s.v[q].l->n);
				sb_add(&out, "\n", 1);
			} else {
				more++;
			}
		}
		k = to;
	}
	if (more)
		sb_addf(&out, "... %zu more diff line%s\n", more, more == 1 ? "" : "s");
	free(s.v);
	free(a.v);
	free(b.v);
	return sb_detach(&out);
}
