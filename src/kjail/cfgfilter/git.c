/* SPDX-License-Identifier: MIT */
/* git's config syntax, read by the lexer git's own rules are written in
 * (git/lexer.h), so that each key is judged by the name and the value git
 * reads: quotes removed, "" joined, escapes replaced, continued lines
 * joined. A secret key goes with all the lines it spans; a section whose
 * header names a URL with a password goes whole, header and keys. What
 * git refuses, a secret key on its header's line, a header sharing its
 * line, a carriage return inside an unquoted value (git versions read it
 * differently): the file fails, and is masked whole. */
#include "config.h"
#include "cfgfilter/internal.h"
#include "cfgfilter/git.h"
#include "git/lexer.h"

#include <stdlib.h>
#include <string.h>

struct span {
	size_t from, to;
};

struct git_state {
	const char *const *secret;
	const char *in;
	struct span *drop; /* the byte ranges that go, in order */
	size_t ndrop;
	bool in_section;
	bool drop_section;  /* its header names a URL with a password */
	size_t section_at;  /* where its header's line starts */
	size_t last_end;    /* where the previous item ended */
	struct cf_result *res;
};

static void drop(struct git_state *g, size_t from, size_t to)
{
	if (to <= from)
		return;
	g->drop = xreallocarray(g->drop, g->ndrop + 1, sizeof *g->drop);
	g->drop[g->ndrop++] = (struct span){ from, to };
	/* what cf_result.removed counts: the lines with something on them */
	bool text = false;
	for (size_t i = from; i < to; i++) {
		char c = g->in[i];
		if (c == '\n') {
			g->res->removed += text;
			text = false;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			text = true;
		}
	}
	g->res->removed += text;
}

static bool fail(struct git_state *g, unsigned line, const char *why)
{
	return cf_fail(g->res, line, "%s", why);
}

static bool git_item(void *ctx, const struct gitlex_item *it)
{
	struct git_state *g = ctx;
	bool shares_line = it->start < g->last_end;
	g->last_end = it->end;
	if (it->kind == GITLEX_SECTION) {
		if (shares_line)
			return fail(g, it->line, "a section header on another one's line");
		if (g->drop_section)
			drop(g, g->section_at, it->start);
		g->in_section = true;
		g->section_at = it->start;
		g->drop_section = cf_value_url_secret(it->name, it->name_len);
		return true;
	}
	if (!g->in_section)
		return fail(g, it->line, "a setting before the first section");
	if (g->drop_section)
		return true;
	if (it->mixed & GITLEX_MIXED_CR)
		return fail(g, it->line, "a carriage return inside an unquoted value, which git "
					 "versions read differently");
	bool secret = cf_key_secret(g->secret, it->name, it->name_len) ||
		      cf_value_url_secret(it->name, it->name_len) ||
		      (it->value && cf_value_url_secret(it->value, it->value_len));
	if (!secret)
		return true;
	if (it->after_header)
		return fail(g, it->line, "a secret setting on its section header's line");
	drop(g, it->start, it->end);
	return true;
}

bool cf_filter_git(const char *const *secret, const char *in, size_t len,
		   struct cf_result *res)
{
	struct git_state g = { .secret = secret, .in = in, .res = res };
	unsigned line;
	enum gitlex_result r = gitlex_scan(in, len, git_item, &g, &line);
	if (r == GITLEX_REFUSED)
		cf_fail(res, line, "a line git refuses (bad config line)");
	if (r != GITLEX_OK) {
		free(g.drop);
		return false;
	}
	if (g.drop_section)
		drop(&g, g.section_at, len);
	struct strbuf out = STRBUF_INIT;
	size_t at = 0;
	for (size_t i = 0; i < g.ndrop; i++) {
		sb_add(&out, in + at, g.drop[i].from - at);
		at = g.drop[i].to;
	}
	sb_add(&out, in + at, len - at);
	free(g.drop);
	return cf_done(&out, true, res);
}
