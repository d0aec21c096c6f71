/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for kjail's git config reader (src/kjail/git/reader.h).
 *
 * Besides crashes and sanitizer reports, it checks what the reader
 * promises: a refusal says which line ("line N: ..."), one line of text; a
 * file is read whole or refused, never half-taken without saying so; every
 * entry it keeps is a key kjail acts on; and it reads bytes as git does,
 * so the same file with a UTF-8 BOM in front, or with CR LF for each LF,
 * reads the same (git treats both as nothing). The lexer under it
 * (git/lexer.h) hands each item the bytes of whole lines: a span starts
 * where a line starts, ends past a newline (or at the end), and spans come
 * in order, a key's never overlapping the next item's. A broken promise
 * aborts. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "git/lexer.h"
#include "git/reader.h"
#include "strv.h"
#include "util.h"

#include "fuzz.h"

static bool same_strv(const struct strv *a, const struct strv *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]) != 0)
			return false;
	return true;
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* What one read found, checked for its own promises. */
static bool read_one(const uint8_t *data, size_t size, struct gitconfig *g)
{
	bool ok = gitconfig_parse((const char *)data, size, g);
	if (ok) {
		CHECK(g->err == NULL);
	} else {
		CHECK(g->err && strncmp(g->err, "line ", 5) == 0);
		CHECK(!strchr(g->err, '\n'));
	}
	CHECK(g->programs.n == g->program_keys.n);
	CHECK(g->worktree_config >= -1 && g->worktree_config <= 1);
	for (size_t i = 0; i < g->entries.n; i++) {
		char *name = xstrndup(g->entries.v[i], strcspn(g->entries.v[i], "\n"));
		CHECK(gitconfig_key_acted(name));
		free(name);
	}
	return ok;
}

static void same_read(const struct gitconfig *a, bool a_ok, const struct gitconfig *b, bool b_ok)
{
	CHECK(a_ok == b_ok);
	CHECK(same_str(a->err, b->err));
	CHECK(same_str(a->hooks_path, b->hooks_path));
	CHECK(same_str(a->template_dir, b->template_dir));
	CHECK(same_str(a->worktree, b->worktree));
	CHECK(a->worktree_config == b->worktree_config);
	CHECK(same_strv(&a->entries, &b->entries));
	CHECK(same_strv(&a->includes, &b->includes));
	CHECK(same_strv(&a->programs, &b->programs));
}

struct spans {
	const uint8_t *data;
	size_t size, last_start, last_end;
	bool last_key;
};

static bool check_item(void *ctx, const struct gitlex_item *it)
{
	struct spans *sp = ctx;
	CHECK(it->start <= it->end && it->end <= sp->size);
	CHECK(it->start == 0 || sp->data[it->start - 1] == '\n' ||
	      (it->start == 3 && memcmp(sp->data, "\xEF\xBB\xBF", 3) == 0));
	CHECK(it->start >= sp->last_start);
	CHECK(!sp->last_key || it->start >= sp->last_end);
	CHECK(it->name && it->name_len > 0 && it->name[it->name_len] == '\0'); /* a NUL may be inside */
	if (it->kind == GITLEX_KEY) {
		CHECK(it->end == sp->size || sp->data[it->end - 1] == '\n');
		CHECK(!it->value || it->value_len >= strlen(it->value));
	} else {
		CHECK(sp->data[it->end - 1] == ']');
	}
	sp->last_start = it->start;
	sp->last_end = it->end;
	sp->last_key = it->kind == GITLEX_KEY;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spans sp = { data, size, 0, 0, false };
	unsigned line;
	if (size <= 256 * 1024)
		gitlex_scan((const char *)data, size, check_item, &sp, &line);
	if (size > 256 * 1024)
		return 0;
	struct gitconfig g = GITCONFIG_INIT;
	bool ok = read_one(data, size, &g);

	/* a BOM in front changes nothing (where there is none already) */
	if (!(size && data[0] == 0xEF)) {
		uint8_t *bom = xmalloc(size + 3);
		memcpy(bom, "\xEF\xBB\xBF", 3);
		memcpy(bom + 3, data, size);
		struct gitconfig b = GITCONFIG_INIT;
		bool b_ok = read_one(bom, size + 3, &b);
		same_read(&g, ok, &b, b_ok);
		gitconfig_free(&b);
		free(bom);
	}
	/* nor does CR LF for every LF, in a text with no CR of its own */
	if (!memchr(data, '\r', size)) {
		uint8_t *crlf = xmalloc(2 * size + 1);
		size_t n = 0;
		for (size_t i = 0; i < size; i++) {
			if (data[i] == '\n')
				crlf[n++] = '\r';
			crlf[n++] = data[i];
		}
		struct gitconfig c = GITCONFIG_INIT;
		bool c_ok = read_one(crlf, n, &c);
		same_read(&g, ok, &c, c_ok);
		gitconfig_free(&c);
		free(crlf);
	}
	gitconfig_free(&g);
	return 0;
}
