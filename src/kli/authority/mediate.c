/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "authority/mediate.h"
#include "authority/argv.h"
#include "authority/fsat.h"
#include "authority/exclude.h"
#include "path.h"
#include "strbuf.h"
#include "util.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#define ATOM_READ "file/read"
#define ATOM_WRITE "file/write"
#define ATOM_EDIT "file/edit"
#define ATOM_EXEC "process/exec"
#define ATOM_RESULT "result/read"

/* A refusal stays one readable line however large the grant. */
#define REFUSAL_ENTRY_MAX 120
#define REFUSAL_ALLOWS_MAX 240

/* The atom each tool is checked for (task has none: it is conferred). */
static const char *const tool_atom[TOOL_COUNT] = {
	[TOOL_READ] = ATOM_READ,
	[TOOL_FIND] = ATOM_READ,
	[TOOL_SEARCH] = ATOM_READ,
	[TOOL_WRITE] = ATOM_WRITE,
	[TOOL_EDIT] = ATOM_EDIT,
	[TOOL_BASH] = ATOM_EXEC,
	[TOOL_BASH_OUTPUT] = ATOM_EXEC,
	[TOOL_BASH_KILL] = ATOM_EXEC,
	[TOOL_BASH_JOBS] = ATOM_EXEC,
	[TOOL_RESULT_READ] = ATOM_RESULT,
	[TOOL_TASK] = NULL,
};

static struct mediate_item *add_item(struct mediate_request *r, const char *atom)
{
	r->v = xreallocarray(r->v, r->n + 1, sizeof *r->v);
	struct mediate_item *it = &r->v[r->n++];
	*it = (struct mediate_item){ .atom = atom };
	return it;
}

void mediate_request_clear(struct mediate_request *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].object);
		constraint_clear(&r->v[i].c);
	}
	free(r->v);
	*r = (struct mediate_request){ 0 };
}

/* A command as one printable line of bounded length. */
static char *shown_command(const char *cmd)
{
	size_t n = strlen(cmd), max = 120;
	char *s = xmalloc((n < max ? n : max) + 4), *o = s;
	for (size_t i = 0; i < n && i < max; i++) {
		unsigned char c = (unsigned char)cmd[i];
		*o++ = c == '\n' || c == '\t' ? ' ' : (c < 0x20 || c == 0x7f ? '?' : (char)c);
	}
	if (n > max)
		memcpy(o, "...", 3), o += 3;
	*o = '\0';
	return s;
}

static void add_command(struct mediate_request *r, const char *cmd)
{
	struct mediate_item *it = add_item(r, ATOM_EXEC);
	const char *one[] = { cmd };
	constraint_enum(&it->c, one, 1);
	it->object = shown_command(cmd);
}

/* Resolve *PATH as the lattice does, put the result back, and request ATOM on it. */
static bool add_path(struct mediate_request *r, const char *atom, char **path,
		     const struct auth_ctx *ctx, char *err, size_t errlen)
{
	struct mediate_item *it = add_item(r, atom);
	if (!constraint_path_resolve(&it->c, *path, ctx, err, errlen)) {
		r->n--;
		return false;
	}
	free(*path);
	*path = xstrdup(it->c.paths[0]);
	it->object = xstrdup(it->c.paths[0]);
	return true;
}

/* A write creates the directories its target lacks: the topmost of them is
 * touched too, and may lie outside where the target does. */
static void add_created_dir(struct mediate_request *r, const char *target)
{
	_cleanup_free_ char *top = NULL;
	_cleanup_free_ char *dir = path_dirname(target);
	struct stat st;
	while (strcmp(dir, "/") != 0 && lstat(dir, &st) < 0 && errno == ENOENT) {
		free(top);
		top = steal_pointer(&dir);
		dir = path_dirname(top);
	}
	if (!top)
		return;
	struct mediate_item *it = add_item(r, ATOM_WRITE);
	constraint_path(&it->c, top);
	it->object = steal_pointer(&top);
}

bool mediate_request_build(struct tool_call *call, const struct auth_ctx *ctx,
			   struct mediate_request *out, char *err, size_t errlen)
{
	*out = (struct mediate_request){ 0 };
	const char *atom = call->id < TOOL_COUNT ? tool_atom[call->id] : NULL;
	bool ok = atom != NULL;
	if (!ok)
		fmt_into(err, errlen, "this tool has no request of its own");
	for (size_t i = 0; ok && i < call->npaths; i++)
		ok = add_path(out, atom, &call->paths[i], ctx, err, errlen);
	if (ok && call->id == TOOL_WRITE)
		add_created_dir(out, call->paths[0]);
	if (ok && call->command)
		add_command(out, call->command);
	for (size_t i = 0; ok && i < call->ncommands; i++)
		add_command(out, call->commands[i]);
	/* A job tool naming no job (or none that exists) still needs the atom. */
	if (ok && strcmp(atom, ATOM_EXEC) == 0 && !call->command && call->ncommands == 0)
		add_item(out, ATOM_EXEC)->held_only = true;
	if (ok && call->id == TOOL_RESULT_READ) {
		struct mediate_item *it = add_item(out, ATOM_RESULT);
		constraint_any(&it->c);
	}
	if (!ok)
		mediate_request_clear(out);
	return ok;
}

/* The request grant of one item: exactly {ATOM: its constraint}. */
static bool item_covered(const struct grant *g, const struct mediate_item *it)
{
	if (it->held_only)
		return grant_lookup(g, it->atom)->kind != CON_NONE;
	struct grant_cap cap = { .atom = (char *)it->atom, .c = it->c };
	char err[200];
	size_t bad;
	_cleanup_grant_ struct grant *req = grant_from_caps(&cap, 1, &bad, err, sizeof err);
	return req && grant_covers(g, req);
}

/* One entry of a grant's constraint as a refusal shows it, at most
 * REFUSAL_ENTRY_MAX bytes (a longer one is cut with "..."). */
static void add_entry(struct strbuf *s, const char *sep, const char *entry)
{
	size_t n = strlen(entry);
	sb_adds(s, sep);
	if (n <= REFUSAL_ENTRY_MAX) {
		sb_adds(s, entry);
		return;
	}
	sb_addf(s, "%.*s...", (int)(REFUSAL_ENTRY_MAX - 3), entry);
}

/* "the grant allows ATOM under /a /b", "... prefix \"npm test\"", "... one of
 * \"ls\", \"make\"", "... in [1..5]", or "no ATOM is granted"; entries past
 * REFUSAL_ALLOWS_MAX bytes are left off as "... and N more". */
static char *allows_clause(const char *atom, const struct constraint *c)
{
	if (c->kind == CON_NONE)
		return xasprintf("no %s is granted", atom);
	if (c->kind == CON_ANY)
		return xasprintf("the grant allows %s on anything", atom);
	if (c->kind == CON_RANGE)
		return xasprintf("the grant allows %s in [%lld..%lld]%s", atom, c->lo, c->hi,
				 strcmp(atom, ATOM_EXEC) == 0 ? ", which no command meets" : "");
	struct strbuf s = STRBUF_INIT;
	bool path = c->kind == CON_PATH;
	char **v = path ? c->paths : c->values;
	size_t n = path ? c->npaths : c->nvalues;
	sb_addf(&s, "the grant allows %s %s", atom,
		path ? "under" : c->kind == CON_PREFIX ? "prefix" : "one of");
	size_t start = s.len;
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *entry = path ? constraint_path_word(v[i])
						  : xasprintf("\"%s\"", v[i]);
		if (i > 0 && s.len - start + strlen(entry) > REFUSAL_ALLOWS_MAX) {
			sb_addf(&s, " ... and %zu more", n - i);
			break;
		}
		add_entry(&s, i == 0 ? " " : c->kind == CON_ENUM ? ", " : " ", entry);
	}
	/* as grant_check says: the tools ask for commands as words, for files as paths */
	if (strcmp(atom, ATOM_EXEC) == 0 && path)
		sb_adds(&s, ", which no command meets");
	else if (mediate_on_files(atom) && c->kind == CON_PREFIX)
		sb_adds(&s, ", which no path meets");
	return sb_detach(&s);
}

char *mediate_refusal(const struct grant *g, const char *atom, const char *object,
		      const char *command)
{
	const struct constraint *c = grant_lookup(g, atom);
	_cleanup_free_ char *allows = allows_clause(atom, c);
	/* the object stays as it is for the model (a tool's line on the
	 * terminal, --check's line neutralise it); the grant's part is one
	 * line whatever a path holds */
	ctrl_scrub(allows);
	_cleanup_free_ char *canon = command && c->kind == CON_PREFIX ? argv_canonical(command) : NULL;
	/* why a prefix cannot match it, so the model does not try variants */
	const char *note = command && c->kind == CON_PREFIX && !canon
		? "; this is not a simple command: words of letters, digits and _-./=:@%+^ only"
		: "";
	return object ? xasprintf("denied: lacks %s for %s (%s%s)", atom, object, allows, note)
		      : xasprintf("denied: lacks %s (%s%s)", atom, allows, note);
}

bool mediate_covers(const struct grant *g, const struct mediate_request *r, char **denial)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct mediate_item *it = &r->v[i];
		if (item_covered(g, it))
			continue;
		bool one_command = strcmp(it->atom, ATOM_EXEC) == 0 && it->c.kind == CON_ENUM &&
				   it->c.nvalues == 1;
		*denial = mediate_refusal(g, it->atom, it->object,
					  one_command ? it->c.values[0] : NULL);
		return false;
	}
	return true;
}

/* task: the sub-agent's grant, conferred from G; an entry G does not
 * cover is an escalation, refused before the sub-agent exists. */
static enum mediate_verdict mediate_task(const struct grant *g, const struct tool_call *call,
					 const struct auth_ctx *ctx, struct grant **conferred,
					 char **message)
{
	if (!call->caps_given) {
		*conferred = grant_copy(g);
		return MEDIATE_ALLOWED;
	}
	char err[400];
	struct cap_list caps = { 0 };
	bool ok = true;
	for (size_t i = 0; ok && i < call->ncaps; i++)
		ok = cap_parse_list(call->caps[i], ctx, &caps, err, sizeof err);
	size_t bad = 0;
	_cleanup_grant_ struct grant *req =
		ok ? grant_from_caps(caps.v, caps.n, &bad, err, sizeof err) : NULL;
	cap_list_clear(&caps);
	if (!req) {
		*message = xasprintf("bad capabilities: %s", err);
		return MEDIATE_INVALID;
	}
	*conferred = grant_confer(g, req, err, sizeof err);
	if (!*conferred) {
		*message = xstrdup(err);
		return MEDIATE_DENIED;
	}
	return MEDIATE_ALLOWED;
}

/* Open what was checked (fsat.h): the tool acts on these descriptors only.
 * A name that changed since the check (a directory swapped for a symlink)
 * fails to open (ELOOP) instead of leading elsewhere; the tool reports
 * that error as it reports a missing file. */
static void open_targets(struct tool_call *call)
{
	if (call->id != TOOL_READ && call->id != TOOL_FIND && call->id != TOOL_SEARCH &&
	    call->id != TOOL_WRITE && call->id != TOOL_EDIT)
		return;
	call->targets = xcalloc(call->npaths, sizeof *call->targets);
	for (size_t i = 0; i < call->npaths; i++)
		fsat_target_open(&call->targets[i], call->paths[i], call->id == TOOL_WRITE);
}

/* Is a path of CALL one of kli's own files (exclude.h), by its checked
 * name or by the object opened? Then *message says which and why. Walks
 * get the (dev, inode) list to skip them below their root. */
static bool excluded(const struct auth_ctx *ctx, struct tool_call *call, char **message)
{
	const struct kli_exclusions *x = ctx->excluded;
	if (!x)
		return false;
	call->excluded = x->ids;
	call->nexcluded = x->nids;
	for (size_t i = 0; i < call->npaths; i++) {
		const struct fs_target *t = call->targets ? &call->targets[i] : NULL;
		const struct kli_exclusion *e =
			exclusions_match(x, call->paths[i], t && t->fd >= 0 ? &t->st : NULL);
		if (!e)
			continue;
		*message = xasprintf("denied: %s is %s, outside every grant", call->paths[i], e->why);
		return true;
	}
	return false;
}

enum mediate_verdict mediate(const struct grant *g, struct tool_call *call,
			     const struct auth_ctx *ctx, struct grant **conferred, char **message)
{
	*message = NULL;
	if (conferred)
		*conferred = NULL;
	if (call->id == TOOL_TASK) {
		if (!conferred) {
			*message = xstrdup("a sub-agent cannot be started here");
			return MEDIATE_INVALID;
		}
		return mediate_task(g, call, ctx, conferred, message);
	}
	char err[300];
	struct mediate_request r;
	if (!mediate_request_build(call, ctx, &r, err, sizeof err)) {
		*message = xstrdup(err);
		return MEDIATE_INVALID;
	}
	bool ok = mediate_covers(g, &r, message);
	mediate_request_clear(&r);
	if (!ok)
		return MEDIATE_DENIED;
	open_targets(call);
	enum constraint_kind exec = grant_lookup(g, ATOM_EXEC)->kind;
	call->lockdown = call->id == TOOL_BASH && (exec == CON_ENUM || exec == CON_PREFIX);
	/* allowed by a prefix of its words: it runs as those words, with
	 * execve, so no shell reads more into it than was checked */
	call->argv_exec = call->id == TOOL_BASH && exec == CON_PREFIX;
	return excluded(ctx, call, message) ? MEDIATE_DENIED : MEDIATE_ALLOWED;
}

bool mediate_may_read(const struct grant *g, const char *path, const struct stat *st,
		      const struct auth_ctx *ctx)
{
	_cleanup_free_ char *reason = NULL;
	if (grant_check(g, ATOM_READ, path, ctx, &reason) != CHECK_ALLOWED)
		return false;
	_cleanup_free_ char *real = path_resolve(path, ctx->workspace);
	return real && !(ctx->excluded && exclusions_match(ctx->excluded, real, st));
}

bool mediate_offers(const struct grant *g, enum tool_id id)
{
	if (id >= TOOL_COUNT)
		return false;
	if (!tool_atom[id])
		return true;
	return grant_lookup(g, tool_atom[id])->kind != CON_NONE;
}

/* The tool --check asks for ATOM (normalised): the first in the table
 * checked for it that takes a path, or bash for process/exec. */
static bool check_tool(const char *atom, enum tool_id *id)
{
	static const enum tool_id order[] = { TOOL_READ, TOOL_WRITE, TOOL_EDIT, TOOL_BASH };
	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if (strcmp(tool_atom[order[i]], atom) == 0) {
			*id = order[i];
			return true;
		}
	return false;
}

/* kli --check asks mediate() itself, with the call the tool would get:
 * one function decides both (parent directories a write creates, kli's
 * own files, the object opened). The reason keeps the lattice's words
 * where the lattice denies too. */
bool mediate_on_files(const char *atom)
{
	char err[200];
	_cleanup_free_ char *norm = atom_normalize(atom, err, sizeof err);
	return norm && (strcmp(norm, ATOM_READ) == 0 || strcmp(norm, ATOM_WRITE) == 0 ||
			strcmp(norm, ATOM_EDIT) == 0);
}

enum check_result mediate_check(const struct grant *g, const char *atom, const char *object,
				const struct auth_ctx *ctx, char **reason)
{
	enum check_result r = grant_check(g, atom, object, ctx, reason);
	char err[200];
	_cleanup_free_ char *norm = atom_normalize(atom, err, sizeof err);
	enum tool_id id;
	if (r == CHECK_BAD_ATOM || !object || !norm || !check_tool(norm, &id))
		return r;
	struct tool_call call = { .id = id };
	if (id == TOOL_BASH) {
		call.command = xstrdup(object);
	} else {
		call.paths = xcalloc(1, sizeof *call.paths);
		call.paths[0] = xstrdup(object);
		call.npaths = 1;
	}
	_cleanup_free_ char *message = NULL;
	enum mediate_verdict v = mediate(g, &call, ctx, NULL, &message);
	tool_call_clear(&call);
	if (v == MEDIATE_ALLOWED) {
		free(*reason);
		*reason = xstrdup("allowed");
		return CHECK_ALLOWED;
	}
	/* the tools' own refusal, word for word; the lattice's reason only
	 * where mediate() has none (an object that does not resolve) */
	if (r == CHECK_DENIED && v != MEDIATE_DENIED)
		return r;
	free(*reason);
	const char *m = message ? message : "denied";
	*reason = xstrdup(strncmp(m, "denied: ", 8) == 0 ? m + 8 : m);
	return CHECK_DENIED;
}
