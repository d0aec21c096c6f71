/* SPDX-License-Identifier: MIT */
/* A reader for git's config syntax, as git's own parser reads it (see
 * git/reader.h): one pass over the bytes, a character at a time, in the
 * same states as git's, so that what kjail finds is what git finds. */
#include "config.h"
#include "git/reader.h"
#include "git/lexer.h"
#include "ini_reader.h"
#include "path.h"
#include "strbuf.h"
#include "strv.h"
#include "util.h"

#include <pwd.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* git's own character classes: ASCII only, whatever the locale */
static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static bool git_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
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

enum acted { ACT_NONE, ACT_HOOKS, ACT_WORKTREE, ACT_TEMPLATE, ACT_WTC, ACT_INCLUDE, ACT_PROGRAM };

/* What kjail does with a key: its section (lower case), whether it has a
 * subsection, its key (lower case). sub: any subsection (true), none
 * (false); "either": both. */
static const struct keyrow {
	const char *section;
	int sub; /* 0: none, 1: one, 2: either */
	const char *key; /* NULL: any key */
	enum acted act;
	const char *name; /* --explain's name of a program key */
} keyrows[] = {
	{ "core", 0, "hookspath", ACT_HOOKS, NULL },
	{ "core", 0, "worktree", ACT_WORKTREE, NULL },
	{ "init", 0, "templatedir", ACT_TEMPLATE, NULL },
	{ "extensions", 0, "worktreeconfig", ACT_WTC, NULL },
	{ "include", 0, "path", ACT_INCLUDE, NULL },
	/* includeIf.COND.path, whatever the condition: kjail does not judge it */
	{ "includeif", 1, "path", ACT_INCLUDE, NULL },
	{ "core", 0, "fsmonitor", ACT_PROGRAM, "core.fsmonitor" },
	{ "core", 0, "sshcommand", ACT_PROGRAM, "core.sshCommand" },
	{ "core", 0, "askpass", ACT_PROGRAM, "core.askPass" },
	{ "core", 0, "editor", ACT_PROGRAM, "core.editor" },
	{ "core", 0, "pager", ACT_PROGRAM, "core.pager" },
	{ "core", 0, "gitproxy", ACT_PROGRAM, "core.gitProxy" },
	{ "filter", 1, "clean", ACT_PROGRAM, "filter.*.clean" },
	{ "filter", 1, "smudge", ACT_PROGRAM, "filter.*.smudge" },
	{ "filter", 1, "process", ACT_PROGRAM, "filter.*.process" },
	{ "diff", 0, "external", ACT_PROGRAM, "diff.external" },
	{ "diff", 1, "textconv", ACT_PROGRAM, "diff.*.textconv" },
	{ "diff", 1, "command", ACT_PROGRAM, "diff.*.command" },
	{ "merge", 1, "driver", ACT_PROGRAM, "merge.*.driver" },
	/* credential.helper and credential.URL.helper alike */
	{ "credential", 2, "helper", ACT_PROGRAM, "credential.helper" },
	{ "gpg", 0, "program", ACT_PROGRAM, "gpg.program" },
	{ "gpg", 1, "program", ACT_PROGRAM, "gpg.*.program" },
	{ "gpg", 1, "defaultkeycommand", ACT_PROGRAM, "gpg.ssh.defaultKeyCommand" },
	/* run by the local side for a local remote (fetch, push) */
	{ "remote", 1, "uploadpack", ACT_PROGRAM, "remote.*.uploadpack" },
	{ "remote", 1, "receivepack", ACT_PROGRAM, "remote.*.receivepack" },
	{ "interactive", 0, "difffilter", ACT_PROGRAM, "interactive.diffFilter" },
	/* git-lfs's, run through its filter at checkout and add */
	{ "lfs", 1, "path", ACT_PROGRAM, "lfs.customtransfer.*.path" },
	{ "lfs", 1, "clean", ACT_PROGRAM, "lfs.extension.*.clean" },
	{ "lfs", 1, "smudge", ACT_PROGRAM, "lfs.extension.*.smudge" },
	/* "!command" */
	{ "submodule", 1, "update", ACT_PROGRAM, "submodule.*.update" },
	{ "sequence", 0, "editor", ACT_PROGRAM, "sequence.editor" },
	{ "pager", 0, NULL, ACT_PROGRAM, "pager.*" },
};

/* The row of a full key name (section[.subsection].key), or NULL: the
 * section ends at the first dot, the key starts after the last one. */
static const struct keyrow *key_row(const char *name)
{
	const char *dot = strchr(name, '.'), *last = strrchr(name, '.');
	if (!dot)
		return NULL;
	size_t slen = (size_t)(dot - name);
	bool sub = last != dot;
	for (size_t i = 0; i < ARRAY_SIZE(keyrows); i++) {
		const struct keyrow *k = &keyrows[i];
		if (strlen(k->section) != slen || strncmp(name, k->section, slen) != 0)
			continue;
		if (k->sub != 2 && k->sub != (int)sub)
			continue;
		if (!k->key || strcmp(last + 1, k->key) == 0)
			return k;
	}
	return NULL;
}

bool gitconfig_key_acted(const char *name)
{
	return key_row(name) != NULL;
}

static void set_last(char **field, const char *v)
{
	free(*field);
	*field = xstrdup(v);
}

/* One key of the file: kept when kjail acts on it. False when git refuses
 * the file for it. */
static bool take_key(struct gitconfig *out, const char *name, const char *v, unsigned mixed,
		     unsigned line)
{
	const struct keyrow *k = key_row(name);
	if (!k)
		return true;
	strv_take(&out->entries, v ? xconcat(name, "\n", v, (char *)NULL) : xstrdup(name));
	/* a tab between a program's words is a blank to the shell either way */
	if ((mixed & GITLEX_MIXED_CR) || (mixed && k->act != ACT_PROGRAM)) {
		out->err = xasprintf("line %u: %s: a tab or carriage return inside an unquoted "
				     "value, which git versions read differently (quote the value)",
				     line, name);
		return false;
	}
	if (!v) {
		if (k->act == ACT_WTC)
			out->worktree_config = 1; /* a bare key is true */
		if (k->act != ACT_INCLUDE)
			return true; /* git has no path or program from it */
		out->err = xasprintf("line %u: %s has no value (git refuses it)", line, name);
		return false;
	}
	switch (k->act) {
	case ACT_HOOKS: set_last(&out->hooks_path, v); break;
	case ACT_WORKTREE: set_last(&out->worktree, v); break;
	case ACT_TEMPLATE: set_last(&out->template_dir, v); break;
	case ACT_WTC: out->worktree_config = git_bool(v); break;
	case ACT_INCLUDE: strv_push(&out->includes, v); break;
	case ACT_PROGRAM:
		strv_push(&out->programs, v);
		strv_push(&out->program_keys, k->name);
		break;
	case ACT_NONE: break;
	}
	return true;
}

/* The body of gitconfig_parse: false with out->err set at a line git
 * refuses. */
struct parse_ctx {
	struct gitconfig *out;
	bool ok;
};

static bool parse_item(void *ctx, const struct gitlex_item *it)
{
	struct parse_ctx *p = ctx;
	if (it->kind != GITLEX_KEY)
		return true;
	p->ok = take_key(p->out, it->name, it->value, it->mixed, it->line);
	return p->ok;
}

bool gitconfig_parse(const char *text, size_t len, struct gitconfig *out)
{
	struct parse_ctx p = { out, true };
	unsigned at = 1;
	enum gitlex_result r = gitlex_scan(text, len, parse_item, &p, &at);
	if (r == GITLEX_REFUSED && !out->err)
		out->err = xasprintf("line %u: a line git refuses (bad config line)", at);
	return r == GITLEX_OK;
}

bool gitconfig_add(struct gitconfig *out, const char *key, const char *value)
{
	const char *dot = strchr(key, '.'), *last = strrchr(key, '.');
	if (!dot || dot == key || !last[1]) {
		out->err = xasprintf("%s: not a section.key name (git refuses it)", key);
		return false;
	}
	/* the section and the key in lower case, a subsection as written */
	char *name = xstrdup(key);
	for (char *p = name; p < name + (dot - key); p++)
		*p = (char)lower(*p);
	for (char *p = name + (last - key); *p; p++)
		*p = (char)lower(*p);
	bool ok = take_key(out, name, value, 0, 0);
	free(name);
	return ok;
}

/* One 'quoted' word of GIT_CONFIG_PARAMETERS ('\'' and '\!' inside stand
 * for ' and !), *p moved past it; NULL where git refuses it. */
static char *sq_word(const char **p)
{
	const char *s = *p;
	if (*s != '\'')
		return NULL;
	struct strbuf b = STRBUF_INIT;
	for (s++;;) {
		if (!*s) {
			sb_release(&b);
			return NULL;
		}
		if (*s != '\'') {
			sb_addc(&b, *s++);
		} else if (s[1] == '\\' && (s[2] == '\'' || s[2] == '!') && s[3] == '\'') {
			sb_addc(&b, s[2]);
			s += 4;
		} else {
			s++;
			break;
		}
	}
	*p = s;
	return sb_detach(&b);
}

bool gitconfig_each_parameter(const char *text,
			      bool (*fn)(void *ctx, const char *key, const char *value),
			      void *ctx, bool *bogus)
{
	*bogus = false;
	const char *p = text;
	for (;;) {
		while (git_space((unsigned char)*p))
			p++;
		if (!*p)
			return true;
		char *key = sq_word(&p), *value = NULL;
		bool ok = key != NULL;
		if (ok && *p == '=') {
			/* 'key'='value', or 'key'= for a bare one */
			p++;
			if (*p == '\'')
				ok = (value = sq_word(&p)) != NULL;
			ok = ok && (!*p || git_space((unsigned char)*p));
		} else if (ok && (!*p || git_space((unsigned char)*p))) {
			/* 'key=value', or 'key' for a bare one */
			char *eq = strchr(key, '=');
			if (eq) {
				*eq = '\0';
				value = xstrdup(eq + 1);
			}
		} else {
			ok = false;
		}
		*bogus = !ok;
		ok = ok && fn(ctx, key, value);
		free(key);
		free(value);
		if (!ok)
			return false;
	}
}

static bool add_parameter(void *out, const char *key, const char *value)
{
	return gitconfig_add(out, key, value);
}

bool gitconfig_parse_parameters(const char *text, struct gitconfig *out)
{
	bool bogus;
	bool ok = gitconfig_each_parameter(text, add_parameter, out, &bogus);
	if (bogus && !out->err)
		out->err = xasprintf("GIT_CONFIG_PARAMETERS: bogus format (git refuses it)");
	return ok;
}

char *gitconfig_include_path(const char *inc, const char *dir, const char *home)
{
	if (inc[0] == '~' && inc[1] != '\0' && inc[1] != '/') {
		size_t n = strcspn(inc + 1, "/");
		_cleanup_free_ char *user = xstrndup(inc + 1, n);
		struct passwd *pw = getpwnam(user);
		if (!pw || pw->pw_dir[0] != '/')
			return NULL;
		const char *rest = inc + 1 + n;
		return path_normalize(rest + strspn(rest, "/"), pw->pw_dir);
	}
	if (inc[0] == '~') {
		if (!home || home[0] != '/')
			return NULL;
		return path_normalize(inc + 1 + strspn(inc + 1, "/"), home);
	}
	return path_normalize(inc, dir);
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
	strv_free(&g->entries);
	free(g->err);
	g->err = NULL;
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
