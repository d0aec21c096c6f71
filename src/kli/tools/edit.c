/* SPDX-License-Identifier: MIT */
/* edit: exact replacements across one or more files, all or nothing.
 * mediate() has checked and opened every file (call->targets) before this
 * runs. Every replacement is worked out in memory and every new file
 * written beside its target first, so an absent or ambiguous old_text, a
 * full disk or a read-only directory leaves every file untouched; then the
 * new files are renamed in, and when a later rename fails (EBUSY on a file
 * the jail protects, EROFS, EPERM on an immutable file) the files already
 * renamed get their old content back. */
#include "config.h"
#include "tools/text.h"
#include "tools/call.h"
#include "tools/edit.h"
#include "tools/diff.h"
#include "tools/result.h"
#include "strbuf.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct staged {
	char *old;       /* the content before */
	size_t oldlen;
	char *text;      /* the new content */
	char tmp[16];    /* written in the target's directory, not yet renamed in */
	size_t replaced;
};

static void staged_free(const struct tool_call *c, struct staged *s)
{
	for (size_t i = 0; i < c->npaths; i++) {
		free(s[i].old);
		free(s[i].text);
		if (s[i].tmp[0])
			unlinkat(c->targets[i].dir, s[i].tmp, 0);
	}
	free(s);
}

/* The first of the call's files with F's path. Two spellings of one file
 * ("src/a", "./src/a", a link to it) resolve to the same path: they are
 * one file, whose edits apply in order, or the rename of the second would
 * drop the edits of the first. */
static size_t same_file(const struct tool_call *c, size_t f)
{
	for (size_t g = 0; g < f; g++)
		if (strcmp(c->paths[g], c->paths[f]) == 0)
			return g;
	return f;
}

static char *read_old(const struct fs_target *t, size_t *len)
{
	_cleanup_close_ int fd = fsat_reopen_read(t);
	return fd < 0 ? NULL : read_fd_capped(fd, EDIT_MAX, len);
}

/* The new content of file F: its ops applied in order. */
static bool stage_file(const struct tool_call *c, size_t f, const struct tool_env *env,
		       struct staged *st, struct barrier_out *out)
{
	const char *shown = tool_shown_path(c->paths[f], env->workspace);
	st->old = read_old(&c->targets[f], &st->oldlen);
	if (!st->old) {
		tool_fail(out, "cannot edit %s: %s", shown,
			  errno == EINVAL ? "not a regular file" : strerror(errno));
		return false;
	}
	if (strlen(st->old) != st->oldlen) {
		tool_fail(out, "cannot edit %s: it holds NUL bytes; no file was changed", shown);
		return false;
	}
	char *text = xstrdup(st->old);
	for (size_t i = 0; i < c->nedits; i++) {
		const struct edit_op *op = &c->edits[i];
		if (same_file(c, op->file) != f)
			continue;
		char err[200];
		size_t n = 0;
		char *next = edit_apply(text, op->old_text, op->new_text, op->all, &n, err,
					sizeof err);
		free(text);
		if (!next) {
			tool_fail(out, "edit %zu (%s): %s; no file was changed", i + 1, shown, err);
			return false;
		}
		text = next;
		st->replaced += n;
	}
	st->text = text;
	return true;
}

/* Write each new content beside its file (in the checked directory),
 * keeping the file's mode. */
static bool write_temps(const struct tool_call *c, struct staged *st,
			const struct tool_env *env, struct barrier_out *out)
{
	for (size_t f = 0; f < c->npaths; f++) {
		if (same_file(c, f) != f)
			continue;
		const struct fs_target *t = &c->targets[f];
		if (fsat_write_temp(t->dir, st[f].text, strlen(st[f].text), t->st.st_mode,
				    st[f].tmp) < 0) {
			st[f].tmp[0] = '\0';
			tool_fail(out, "cannot edit %s: %s; no file was changed",
				  tool_shown_path(c->paths[f], env->workspace), strerror(errno));
			return false;
		}
	}
	return true;
}

/* Put back the old content of the files before LAST that were renamed in.
 * Returns how many could not be. */
static size_t roll_back(const struct tool_call *c, struct staged *st, size_t last)
{
	size_t failed = 0;
	for (size_t f = 0; f < last; f++) {
		if (same_file(c, f) != f)
			continue;
		const struct fs_target *t = &c->targets[f];
		if (!fsat_replace(t->dir, t->rest, st[f].old, st[f].oldlen, t->st.st_mode))
			failed++;
	}
	return failed;
}

/* Rename every new file in; on a failure, roll back. */
static bool rename_all(const struct tool_call *c, struct staged *st,
		       const struct tool_env *env, struct barrier_out *out)
{
	for (size_t f = 0; f < c->npaths; f++) {
		if (same_file(c, f) != f)
			continue;
		const struct fs_target *t = &c->targets[f];
		if (renameat(t->dir, st[f].tmp, t->dir, t->rest) == 0) {
			st[f].tmp[0] = '\0';
			continue;
		}
		int e = errno;
		size_t failed = roll_back(c, st, f);
		const char *shown = tool_shown_path(c->paths[f], env->workspace);
		if (failed)
			tool_fail(out, "cannot edit %s: %s; %zu file%s edited before it could not "
				       "be put back", shown, strerror(e), failed, failed == 1 ? "" : "s");
		else
			tool_fail(out, "cannot edit %s: %s; no file was changed", shown,
				  strerror(e));
		return false;
	}
	return true;
}

/* For the person watching: "(+A -R)", then each file's diff. */
static char *edit_show(const struct tool_call *c, const struct staged *st,
		       const struct tool_env *env)
{
	struct strbuf body = STRBUF_INIT;
	struct diff_count all = { 0 };
	for (size_t f = 0; f < c->npaths; f++) {
		if (same_file(c, f) != f)
			continue;
		struct diff_count n;
		_cleanup_free_ char *d = diff_unified(tool_shown_path(c->paths[f], env->workspace),
						      st[f].old, st[f].oldlen, st[f].text,
						      strlen(st[f].text), SHOW_DIFF_LINES, &n);
		sb_adds(&body, d);
		all.added += n.added;
		all.removed += n.removed;
	}
	_cleanup_free_ char *b = sb_detach(&body);
	return xasprintf("(+%zu \u2212%zu)\n%s", all.added, all.removed, b);
}

void tool_edit(const struct tool_call *c, const struct tool_env *env, struct barrier_out *out)
{
	struct staged *st = xcalloc(c->npaths, sizeof *st);
	bool ok = true;
	size_t nfiles = 0, total = 0;
	for (size_t f = 0; ok && f < c->npaths; f++)
		if (same_file(c, f) == f) {
			ok = stage_file(c, f, env, &st[f], out);
			nfiles++;
			total += st[f].replaced;
		}
	ok = ok && write_temps(c, st, env, out) && rename_all(c, st, env, out);
	if (ok) {
		tool_ok(out, xasprintf("replaced %zu occurrence%s in %zu file%s", total,
				       total == 1 ? "" : "s", nfiles, nfiles == 1 ? "" : "s"));
		out->show = edit_show(c, st, env);
	}
	staged_free(c, st);
}
