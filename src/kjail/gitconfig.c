/* SPDX-License-Identifier: MIT */
/* A reader for the part of git's config syntax that core.hooksPath, the
 * include directives and the program-valued keys need: section headers ([core], [include],
 * [includeIf "COND"], names in any case; [core "x"] and [core.x] are
 * subsections, not core), extensions.worktreeConfig, a key on the header's own line, comments (# and
 * ;), keys in any case, values with double quotes, backslash escapes and
 * continued lines, and a comment after an unquoted value. */
#include "config.h"
#include "gitconfig.h"
#include "ini_reader.h"
#include "strv.h"
#include "util.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct cursor {
	const char *p, *end;
};

static bool at_end(const struct cursor *c)
{
	return c->p >= c->end;
}

static void skip_blanks(struct cursor *c)
{
	while (!at_end(c) && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
}

static void skip_line(struct cursor *c)
{
	while (!at_end(c) && *c->p != '\n')
		c->p++;
	if (!at_end(c))
		c->p++;
}

enum section {
	SEC_OTHER, SEC_CORE, SEC_INCLUDE, SEC_FILTER_SUB, SEC_DIFF, SEC_DIFF_SUB,
	SEC_MERGE_SUB, SEC_CREDENTIAL, SEC_GPG, SEC_GPG_SUB, SEC_SEQUENCE, SEC_PAGER,
	SEC_EXTENSIONS, SEC_INIT, SEC_REMOTE_SUB, SEC_INTERACTIVE, SEC_LFS_SUB, SEC_SUBMODULE_SUB,
};

static bool named(const char *name, size_t len, const char *want)
{
	return len == strlen(want) && strncasecmp(name, want, len) == 0;
}

/* The section a header opens: [core] (no subsection), [include] (no
 * subsection) and [includeIf "COND"] or [includeIf.COND] (any condition:
 * kjail does not judge them) matter; names in any case. The cursor is left
 * after the ']': git reads a key on the rest of the line. */
static enum section read_section(struct cursor *c)
{
	c->p++; /* '[' */
	skip_blanks(c);
	const char *name = c->p;
	while (!at_end(c) && (isalnum((unsigned char)*c->p) || *c->p == '-' || *c->p == '.'))
		c->p++;
	size_t n = (size_t)(c->p - name);
	const char *dot = memchr(name, '.', n);
	size_t base = dot ? (size_t)(dot - name) : n;
	bool sub = dot != NULL;
	skip_blanks(c);
	if (!at_end(c) && *c->p == '"') {
		sub = true;
		for (c->p++; !at_end(c) && *c->p != '"' && *c->p != '\n'; c->p++)
			if (*c->p == '\\' && c->p + 1 < c->end && c->p[1] != '\n')
				c->p++;
		if (!at_end(c) && *c->p == '"')
			c->p++;
		skip_blanks(c);
	}
	if (at_end(c) || *c->p != ']') {
		skip_line(c); /* git refuses the file; nothing is taken from the line */
		return SEC_OTHER;
	}
	c->p++;
	static const struct {
		const char *name;
		bool sub;
		enum section sec;
	} known[] = {
		{ "core", false, SEC_CORE },	     { "include", false, SEC_INCLUDE },
		{ "includeif", true, SEC_INCLUDE },  { "filter", true, SEC_FILTER_SUB },
		{ "diff", false, SEC_DIFF },	     { "diff", true, SEC_DIFF_SUB },
		{ "merge", true, SEC_MERGE_SUB },    { "gpg", false, SEC_GPG },
		{ "gpg", true, SEC_GPG_SUB },	     { "sequence", false, SEC_SEQUENCE },
		{ "pager", false, SEC_PAGER },	     { "extensions", false, SEC_EXTENSIONS },
		{ "init", false, SEC_INIT },	     { "remote", true, SEC_REMOTE_SUB },
		{ "interactive", false, SEC_INTERACTIVE }, { "lfs", true, SEC_LFS_SUB },
		{ "submodule", true, SEC_SUBMODULE_SUB },
	};
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (known[i].sub == sub && named(name, base, known[i].name))
			return known[i].sec;
	/* credential.helper and credential.URL.helper alike */
	if (named(name, base, "credential"))
		return SEC_CREDENTIAL;
	return SEC_OTHER;
}

/* The value after '=', as git reads it; the cursor is left after it. */
static char *read_value(struct cursor *c)
{
	size_t cap = 64, n = 0, keep = 0; /* keep: length up to the last quoted or non-blank byte */
	char *v = xmalloc(cap);
	bool quoted = false;
	skip_blanks(c);
	while (!at_end(c)) {
		char ch = *c->p++;
		if (ch == '\n')
			break;
		if (!quoted && (ch == '#' || ch == ';')) {
			skip_line(c);
			break;
		}
		if (ch == '"') {
			quoted = !quoted;
			keep = n;
			continue;
		}
		if (ch == '\\') {
			if (at_end(c))
				break;
			char e = *c->p++;
			if (e == '\n')
				continue; /* a continued line */
			if (e == '\r' && !at_end(c) && *c->p == '\n') {
				c->p++;
				continue;
			}
			ch = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'b' ? '\b' : e;
			if (n + 1 >= cap)
				v = xreallocarray(v, cap *= 2, 1);
			v[n++] = ch;
			keep = n;
			continue;
		}
		if (ch == '\r')
			continue;
		if (n + 1 >= cap)
			v = xreallocarray(v, cap *= 2, 1);
		v[n++] = ch;
		if (quoted || (ch != ' ' && ch != '\t'))
			keep = n;
	}
	v[keep] = '\0';
	return v;
}

/* A boolean as git reads one: 0 for false, no, off, 0 and the empty
 * value, 1 for the rest (true, yes, on, a non-zero number; a value git
 * refuses counts as true: it may mean the user's git reads more). */
static int git_bool(const char *v)
{
	bool b;
	if (ini_parse_bool(v, &b))
		return b;
	char *end;
	long n = strtol(v, &end, 0);
	return !v[0] || (end != v && *end == '\0' && n == 0) ? 0 : 1;
}

/* The name of a key whose value is a program git runs on its own, or NULL. */
static const char *program_key(enum section sec, const char *key, size_t klen)
{
	static const struct {
		enum section sec;
		const char *key; /* NULL: any key of the section */
		const char *name;
	} progs[] = {
		{ SEC_CORE, "fsmonitor", "core.fsmonitor" },
		{ SEC_CORE, "sshcommand", "core.sshCommand" },
		{ SEC_CORE, "askpass", "core.askPass" },
		{ SEC_CORE, "editor", "core.editor" },
		{ SEC_CORE, "pager", "core.pager" },
		{ SEC_CORE, "gitproxy", "core.gitProxy" },
		{ SEC_FILTER_SUB, "clean", "filter.*.clean" },
		{ SEC_FILTER_SUB, "smudge", "filter.*.smudge" },
		{ SEC_FILTER_SUB, "process", "filter.*.process" },
		{ SEC_DIFF, "external", "diff.external" },
		{ SEC_DIFF_SUB, "textconv", "diff.*.textconv" },
		{ SEC_DIFF_SUB, "command", "diff.*.command" },
		{ SEC_MERGE_SUB, "driver", "merge.*.driver" },
		{ SEC_CREDENTIAL, "helper", "credential.helper" },
		{ SEC_GPG, "program", "gpg.program" },
		{ SEC_GPG_SUB, "program", "gpg.*.program" },
		{ SEC_GPG_SUB, "defaultkeycommand", "gpg.ssh.defaultKeyCommand" },
		/* run by the local side for a local remote (fetch, push) */
		{ SEC_REMOTE_SUB, "uploadpack", "remote.*.uploadpack" },
		{ SEC_REMOTE_SUB, "receivepack", "remote.*.receivepack" },
		{ SEC_INTERACTIVE, "difffilter", "interactive.diffFilter" },
		/* git-lfs's, run through its filter at checkout and add */
		{ SEC_LFS_SUB, "path", "lfs.customtransfer.*.path" },
		{ SEC_LFS_SUB, "clean", "lfs.extension.*.clean" },
		{ SEC_LFS_SUB, "smudge", "lfs.extension.*.smudge" },
		/* "!command" */
		{ SEC_SUBMODULE_SUB, "update", "submodule.*.update" },
		{ SEC_SEQUENCE, "editor", "sequence.editor" },
		{ SEC_PAGER, NULL, "pager.*" },
	};
	for (size_t i = 0; i < sizeof progs / sizeof *progs; i++)
		if (progs[i].sec == sec && (!progs[i].key || named(key, klen, progs[i].key)))
			return progs[i].name;
	return NULL;
}

void gitconfig_parse(const char *text, size_t len, struct gitconfig *out)
{
	struct cursor c = { text, text + len };
	enum section sec = SEC_OTHER;
	while (!at_end(&c)) {
		skip_blanks(&c);
		if (at_end(&c))
			break;
		char ch = *c.p;
		if (ch == '\n' || ch == '#' || ch == ';') {
			skip_line(&c);
			continue;
		}
		if (ch == '[') {
			sec = read_section(&c);
			continue;
		}
		const char *key = c.p;
		while (!at_end(&c) && (isalnum((unsigned char)*c.p) || *c.p == '-'))
			c.p++;
		size_t klen = (size_t)(c.p - key);
		skip_blanks(&c);
		bool has_value = !at_end(&c) && *c.p == '=';
		if (!has_value) {
			/* a bare key (a boolean true, or a line git refuses) */
			if (sec == SEC_EXTENSIONS && named(key, klen, "worktreeconfig"))
				out->worktree_config = 1;
			skip_line(&c);
			continue;
		}
		c.p++; /* '=' */
		char *v = read_value(&c);
		const char *prog = program_key(sec, key, klen);
		if (sec == SEC_CORE && named(key, klen, "hookspath")) {
			free(out->hooks_path);
			out->hooks_path = v;
		} else if (sec == SEC_INIT && named(key, klen, "templatedir")) {
			free(out->template_dir);
			out->template_dir = v;
		} else if (sec == SEC_CORE && named(key, klen, "worktree")) {
			free(out->worktree);
			out->worktree = v;
		} else if (sec == SEC_EXTENSIONS && named(key, klen, "worktreeconfig")) {
			out->worktree_config = git_bool(v);
			free(v);
		} else if (sec == SEC_INCLUDE && named(key, klen, "path")) {
			strv_take(&out->includes, v);
		} else if (prog) {
			strv_take(&out->programs, v);
			strv_push(&out->program_keys, prog);
		} else {
			free(v);
		}
	}
}

void gitconfig_free(struct gitconfig *g)
{
	free(g->hooks_path);
	g->hooks_path = NULL;
	free(g->worktree);
	g->worktree = NULL;
	free(g->template_dir);
	g->template_dir = NULL;
	strv_free(&g->includes);
	strv_free(&g->programs);
	strv_free(&g->program_keys);
	g->worktree_config = -1;
}

/* The next word as the shell reads it: quotes and backslashes removed;
 * an unquoted ; | & ( ) < > ends a word too. *expands: it holds what the
 * shell would expand ($x, `x`), so what it names is unknown; *redirect: it
 * follows < or > (a file the command reads or writes, not one it runs). */
static bool take_word(const char **pp, char *buf, size_t size, bool *expands, bool *redirect)
{
	const char *p = *pp;
	*redirect = false;
	while (*p && strchr(" \t\n;|&()<>", *p)) {
		if (*p == '<' || *p == '>')
			*redirect = true;
		else if (*p != ' ' && *p != '\t')
			*redirect = false;
		p++;
	}
	if (!*p)
		return false;
	size_t n = 0;
	char quote = 0;
	*expands = false;
	for (; *p && (quote || !strchr(" \t\n;|&()<>", *p)); p++) {
		char ch = *p;
		if (quote == '\'' && ch != '\'') {
			/* literal */
		} else if (ch == '\'' || ch == '"') {
			if (!quote || quote == ch) {
				quote = quote ? 0 : ch;
				continue;
			}
		} else if (ch == '\\' && p[1]) {
			ch = *++p;
		} else if (ch == '$' || ch == '`') {
			*expands = true;
		}
		if (n + 1 < size)
			buf[n++] = ch;
		else
			*expands = true; /* too long to be a path kjail follows */
	}
	buf[n] = '\0';
	*pp = p;
	return true;
}

void gitconfig_command_paths(const char *cmd, struct strv *out)
{
	if (*cmd == '!')
		cmd++;
	char word[4096];
	bool expands, redirect;
	while (take_word(&cmd, word, sizeof word, &expands, &redirect)) {
		const char *slash = strchr(word, '/');
		const char *eq = strchr(word, '=');
		if (expands || redirect || !slash || word[0] == '-' || strchr(word, '%') ||
		    (eq && eq < slash))
			continue;
		strv_push(out, word);
	}
}
