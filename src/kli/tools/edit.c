/* SPDX-License-Identifier: MIT */
/* edit: exact replacements across one or more files, all or nothing.
 * mediate() has checked every file before this runs; here every
 * replacement is worked out in memory first, so an absent or ambiguous
 * old_text in the last file leaves the first untouched too. */
#include "config.h"
#include "tools/text.h"
#include "tools/tools.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct staged {
	char *text;      /* the new content */
	char *tmp;       /* written, not yet renamed into place */
	size_t replaced;
};

static void staged_free(struct staged *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].text);
		if (s[i].tmp)
			unlink(s[i].tmp);
		free(s[i].tmp);
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

/* The new content of file F: its ops applied in order. */
static bool stage_file(const struct tool_call *c, size_t f, const struct tool_env *env,
		       struct staged *st, struct barrier_out *out)
{
	const char *shown = tool_shown_path(c->paths[f], env->workspace);
	size_t len = 0;
	char *text = read_file_capped(c->paths[f], EDIT_MAX, &len);
	if (!text) {
		tool_fail(out, "cannot edit %s: %s", shown,
			  errno == EINVAL ? "not a regular file" : strerror(errno));
		return false;
	}
	if (strlen(text) != len) {
		free(text);
		tool_fail(out, "cannot edit %s: it holds NUL bytes", shown);
		return false;
	}
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

/* Write each new content beside its file, keeping the file's mode. */
static bool write_temps(const struct tool_call *c, struct staged *st,
			const struct tool_env *env, struct barrier_out *out)
{
	for (size_t f = 0; f < c->npaths; f++) {
		if (same_file(c, f) != f)
			continue;
		struct stat sb;
		const char *shown = tool_shown_path(c->paths[f], env->workspace);
		st[f].tmp = xasprintf("%s.kli-XXXXXX", c->paths[f]);
		int fd = mkstemp(st[f].tmp);
		if (fd < 0) {
			free(steal_pointer(&st[f].tmp));
			tool_fail(out, "cannot edit %s: %s; no file was changed", shown,
				  strerror(errno));
			return false;
		}
		size_t n = strlen(st[f].text);
		bool ok = stat(c->paths[f], &sb) == 0 && fchmod(fd, sb.st_mode & 07777) == 0 &&
			  write(fd, st[f].text, n) == (ssize_t)n && fsync(fd) == 0;
		ok = close(fd) == 0 && ok;
		if (!ok) {
			tool_fail(out, "cannot edit %s: %s; no file was changed", shown,
				  strerror(errno));
			return false;
		}
	}
	return true;
}

void tool_edit(const struct tool_call *c, const struct tool_env *env, struct barrier_out *out)
{
	struct staged *st = xcalloc(c->npaths, sizeof *st);
	bool ok = true;
	size_t nfiles = 0;
	for (size_t f = 0; ok && f < c->npaths; f++)
		if (same_file(c, f) == f) {
			ok = stage_file(c, f, env, &st[f], out);
			nfiles++;
		}
	ok = ok && write_temps(c, st, env, out);
	/* Nothing has changed up to here; rename(2) is the step that cannot
	 * half-fail on one file. */
	size_t total = 0;
	for (size_t f = 0; ok && f < c->npaths; f++) {
		if (same_file(c, f) != f)
			continue;
		if (rename(st[f].tmp, c->paths[f]) < 0) {
			tool_fail(out, "cannot edit %s: %s", tool_shown_path(c->paths[f],
									     env->workspace),
				  strerror(errno));
			ok = false;
			break;
		}
		free(steal_pointer(&st[f].tmp));
		total += st[f].replaced;
	}
	if (ok)
		tool_ok(out, xasprintf("replaced %zu occurrence%s in %zu file%s", total,
				       total == 1 ? "" : "s", nfiles, nfiles == 1 ? "" : "s"));
	staged_free(st, c->npaths);
}
