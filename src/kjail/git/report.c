/* SPDX-License-Identifier: MIT */
/* What git left half done because of the jail (git/report.h). */
#include "config.h"
#include "git/report.h"
#include "git/link.h"
#include "path.h"
#include "strv.h"
#include "util.h"

#ifdef KJ_OS_LINUX
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The operation states git keeps in a git directory, and how to finish
 * each outside. */
static const struct {
	const char *name;
	const char *what;
	const char *finish;
} states[] = {
	{ "MERGE_HEAD", "a merge was left unfinished", "merge --continue (or --abort)" },
	{ "rebase-merge", "a rebase was left stopped", "rebase --continue (or --abort)" },
	{ "rebase-apply", "a rebase or am was left stopped", "rebase --continue (or am --continue, or --abort)" },
	{ "CHERRY_PICK_HEAD", "a cherry-pick was left unfinished", "cherry-pick --continue (or --abort)" },
	{ "REVERT_HEAD", "a revert was left unfinished", "revert --continue (or --abort)" },
	{ "BISECT_LOG", "a bisect was started", "bisect reset (when done)" },
};

static char *first_line(const char *path)
{
	size_t len = 0;
	char *t = read_file_capped(path, 4096, &len);
	if (t)
		t[strcspn(t, "\r\n")] = '\0';
	return t;
}

static bool exists_in(const char *dir, const char *name)
{
	_cleanup_free_ char *p = path_join(dir, name);
	struct stat st;
	return lstat(p, &st) == 0;
}

/* The line of packed-refs (in common) for ref, its object name; or NULL. */
static char *packed_ref(const char *common, const char *ref)
{
	_cleanup_free_ char *p = path_join(common, "packed-refs");
	size_t len = 0;
	_cleanup_free_ char *text = read_file_capped(p, 64u << 20, &len);
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *sp = strchr(line, ' ');
		if (line[0] != '#' && line[0] != '^' && sp && strcmp(sp + 1, ref) == 0)
			return xstrndup(line, (size_t)(sp - line));
		if (!next)
			break;
	}
	return NULL;
}

static char *ref_oid(const char *gitdir, const char *common, const char *ref)
{
	const char *dirs[] = { gitdir, common };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		_cleanup_free_ char *p = path_join(dirs[i], ref);
		char *line = first_line(p);
		if (line && !str_has_prefix(line, "ref: "))
			return line;
		free(line);
	}
	return packed_ref(common, ref);
}

/* The commit HEAD names (one symbolic level, as git keeps it), or NULL. */
static char *head_oid(const char *gitdir, const char *common)
{
	_cleanup_free_ char *p = path_join(gitdir, "HEAD");
	_cleanup_free_ char *line = first_line(p);
	if (!line)
		return NULL;
	if (str_has_prefix(line, "ref: "))
		return ref_oid(gitdir, common, line + strlen("ref: "));
	return xstrdup(line);
}

static unsigned states_of(const char *gitdir)
{
	unsigned s = 0;
	for (size_t i = 0; i < ARRAY_SIZE(states); i++)
		if (exists_in(gitdir, states[i].name))
			s |= 1u << i;
	return s;
}

/* The git the caller's PATH finds, as a real path, where the jail cannot
 * have put one: in an absolute PATH entry, itself and its directory
 * outside every writable root (a relative entry, or a directory the jail
 * writes, could hold a git it planted, which the report would run outside
 * the jail). NULL when there is none. */
static char *trusted_git(const struct plan *pl)
{
	const char *path = getenv("PATH");
	_cleanup_free_ char *copy = xstrdup(path ? path : "/usr/bin:/bin");
	char *save = NULL;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (d[0] != '/')
			continue;
		_cleanup_free_ char *cand = path_join(d, "git");
		char *real = realpath(cand, NULL);
		_cleanup_free_ char *realdir = realpath(d, NULL);
		bool ok = real && realdir && access(real, X_OK) == 0;
		for (size_t i = 0; ok && i < pl->nops; i++)
			if (pl->ops[i].kind == OP_BIND &&
			    (path_is_under(real, pl->ops[i].path) ||
			     path_is_under(realdir, pl->ops[i].path)))
				ok = false;
		if (ok)
			return real;
		free(real);
	}
	return NULL;
}

void gitreport_before(const struct plan *pl, struct gitreport *r)
{
	memset(r, 0, sizeof *r);
	r->start = time(NULL);
	for (size_t i = 0; i < pl->nops; i++) {
		const char *tree = pl->ops[i].path;
		if (pl->ops[i].kind != OP_BIND)
			continue;
		struct gitlink l;
		const char *why;
		_cleanup_free_ char *dotgit = path_join(tree, ".git");
		struct stat st;
		if (gitlink_read(tree, &l, &why)) {
			/* l's strings are taken below */
		} else if (lstat(dotgit, &st) == 0 && S_ISDIR(st.st_mode)) {
			l.gitdir = xstrdup(dotgit);
			l.common = xstrdup(dotgit);
		} else {
			continue;
		}
		r->v = xreallocarray(r->v, r->n + 1, sizeof *r->v);
		r->v[r->n++] = (struct gitreport_tree){
			.tree = xstrdup(tree), .gitdir = l.gitdir, .common = l.common,
			.head = head_oid(l.gitdir, l.common), .states = states_of(l.gitdir),
		};
	}
	if (r->n)
		r->git = trusted_git(pl);
}

void gitreport_free(struct gitreport *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].tree);
		free(r->v[i].gitdir);
		free(r->v[i].common);
		free(r->v[i].head);
	}
	free(r->v);
	free(r->git);
	memset(r, 0, sizeof *r);
}

/* git ARGS... in tree, outside the jail after it, locked down so that
 * nothing the jail could have planted runs: no system or user config, no
 * hooks or fsmonitor, no pager, prompt or optional locks; standard input
 * and error /dev/null. Its standard output (up to 16 MiB), or NULL when it
 * failed. */
static char *git_out(const char *git, const char *tree, const char *const *args, size_t *len)
{
	struct strv argv = STRV_INIT;
	strv_push(&argv, "git");
	const char *const lock[] = { "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
				     "-c", "core.untrackedCache=false", "-c", "safe.directory=*",
				     "--no-pager", "--no-replace-objects", "-C", tree };
	for (size_t i = 0; i < ARRAY_SIZE(lock); i++)
		strv_push(&argv, lock[i]);
	for (const char *const *a = args; *a; a++)
		strv_push(&argv, *a);
	struct strv env = STRV_INIT;
	const char *path = getenv("PATH");
	strv_take(&env, xconcat("PATH=", path ? path : "/usr/bin:/bin", (char *)NULL));
	const char *const fixed[] = { "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
				      "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat",
				      "GIT_ATTR_NOSYSTEM=1", "HOME=/nonexistent", "LC_ALL=C" };
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		strv_push(&env, fixed[i]);
	int out[2];
	char *text = NULL;
	if (pipe2(out, O_CLOEXEC) != 0)
		goto done;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int rc = posix_spawn(&pid, git, &fa, NULL, argv.v, env.v);
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	if (rc == 0) {
		text = read_stream_capped(out[0], 16u << 20, len);
		/* what is not read (over the cap) must not hold git in write() */
		close(out[0]);
		out[0] = -1;
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			free(text);
			text = NULL;
		}
	}
	if (out[0] >= 0)
		close(out[0]);
done:
	strv_free(&argv);
	strv_free(&env);
	return text;
}

/* "PATH\tOID" for each file of commit under paths (ls-tree -r), in out */
static void tree_files(const char *git, const char *tree, const char *commit,
		       const struct strv *paths, struct strv *out)
{
	struct strv args = STRV_INIT;
	strv_push(&args, "ls-tree");
	strv_push(&args, "-r");
	strv_push(&args, "-z");
	strv_push(&args, commit);
	strv_push(&args, "--");
	for (size_t i = 0; i < paths->n; i++)
		strv_push(&args, paths->v[i]);
	size_t len = 0;
	_cleanup_free_ char *text = git_out(git, tree, (const char *const *)args.v, &len);
	strv_free(&args);
	for (size_t off = 0; text && off < len;) {
		char *rec = text + off;
		off += strlen(rec) + 1;
		char *tab = strchr(rec, '\t');
		char *sp = strrchr(rec, ' ');
		if (!tab || !sp || sp > tab || !str_has_prefix(rec, "100"))
			continue; /* a symlink or a submodule: not compared */
		*tab = '\0';
		strv_take(out, xconcat(tab + 1, "\t", sp + 1, (char *)NULL));
	}
}

/* The object name of the work tree's file, as git would store it without
 * filters; NULL when it is not a regular file. */
static char *work_oid(const char *git, const char *tree, const char *rel)
{
	_cleanup_free_ char *p = path_join(tree, rel);
	struct stat st;
	if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	const char *const args[] = { "hash-object", "--no-filters", "--", rel, NULL };
	size_t len = 0;
	char *o = git_out(git, tree, args, &len);
	if (o)
		o[strcspn(o, "\n")] = '\0';
	return o;
}

static const char *oid_of(const struct strv *files, const char *rel)
{
	size_t n = strlen(rel);
	for (size_t i = 0; i < files->n; i++)
		if (strncmp(files->v[i], rel, n) == 0 && files->v[i][n] == '\t')
			return files->v[i] + n + 1;
	return NULL;
}

/* Protected files (read-only in the jail) not as the new HEAD has them. */
static void report_files(const struct plan *pl, const char *git, const struct gitreport_tree *t,
			 const char *now,
			 struct notice *n)
{
	struct strv paths = STRV_INIT, old = STRV_INIT, cur = STRV_INIT;
	for (size_t i = 0; i < pl->nops; i++) {
		const char *rel = path_relative_to(pl->ops[i].path, t->tree);
		if (pl->ops[i].kind == OP_PROTECT && rel && rel[0] && strcmp(rel, ".git") != 0 &&
		    !str_has_prefix(rel, ".git/"))
			strv_push(&paths, rel);
	}
	if (paths.n) {
		tree_files(git, t->tree, t->head, &paths, &old);
		tree_files(git, t->tree, now, &paths, &cur);
	}
	_cleanup_free_ char *q = shell_quote(t->tree);
	struct strv *sets[] = { &cur, &old };
	struct strv seen = STRV_INIT;
	for (size_t s = 0; s < ARRAY_SIZE(sets); s++) {
		for (size_t i = 0; i < sets[s]->n; i++) {
			_cleanup_free_ char *rel = xstrndup(sets[s]->v[i], strcspn(sets[s]->v[i], "\t"));
			if (strv_find(&seen, rel) >= 0)
				continue;
			strv_push(&seen, rel);
			const char *want = oid_of(&cur, rel);
			_cleanup_free_ char *have = work_oid(git, t->tree, rel);
			if ((!want && !have) || (want && have && strcmp(want, have) == 0))
				continue;
			_cleanup_free_ char *qr = shell_quote(rel);
			if (want)
				notice_warn(n, "git in %s: %s is not as HEAD has it: HEAD moved in the jail, "
					       "where it is protected (read-only); finish outside: git -C %s "
					       "checkout HEAD -- %s", t->tree, rel, q, qr);
			else
				notice_warn(n, "git in %s: %s was left behind: HEAD moved in the jail to a "
					       "commit without it, and it is protected (read-only) there; "
					       "finish outside: git -C %s rm -q --cached --ignore-unmatch -- %s; "
					       "rm -f -- %s", t->tree, rel, q, qr, qr);
		}
	}
	strv_free(&seen);
	strv_free(&paths);
	strv_free(&old);
	strv_free(&cur);
}

/* "[branch "NAME"]" in the config text */
static bool has_branch_section(const char *config, const char *name)
{
	_cleanup_free_ char *want = xconcat("[branch \"", name, "\"]", (char *)NULL);
	return config && strstr(config, want);
}

/* The branches under rel (logs/refs/heads/...) whose reflog starts in the
 * run with "branch: Created from X", X a remote-tracking branch, and that
 * have no section in the config: git could not write their upstream. */
static void report_branches_in(const struct gitreport_tree *t, time_t start, const char *rel,
			       const char *config, struct notice *n, int depth)
{
	_cleanup_free_ char *dir = path_join(t->common, rel);
	DIR *d = depth < 16 ? opendir(dir) : NULL;
	if (!d)
		return;
	for (struct dirent *e = readdir(d); e; e = readdir(d)) {
		if (e->d_name[0] == '.')
			continue;
		_cleanup_free_ char *sub = xconcat(rel, "/", e->d_name, (char *)NULL);
		_cleanup_free_ char *p = path_join(t->common, sub);
		struct stat st;
		if (lstat(p, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			report_branches_in(t, start, sub, config, n, depth + 1);
			continue;
		}
		if (st.st_mtime < start)
			continue; /* not written in the run: made before it */
		_cleanup_free_ char *line = first_line(p);
		char *tab = line ? strchr(line, '\t') : NULL;
		static const char from[] = "branch: Created from ";
		if (!tab || !str_has_prefix(tab + 1, from))
			continue;
		*tab = '\0';
		char *tz = strrchr(line, ' ');
		if (!tz)
			continue;
		*tz = '\0';
		char *ts = strrchr(line, ' ');
		if (!ts || strtoll(ts + 1, NULL, 10) < (long long)start)
			continue;
		const char *src = tab + 1 + strlen(from);
		_cleanup_free_ char *remote = str_has_prefix(src, "refs/remotes/")
						      ? xstrdup(src)
						      : xconcat("refs/remotes/", src, (char *)NULL);
		_cleanup_free_ char *oid = ref_oid(t->common, t->common, remote);
		const char *branch = sub + strlen("logs/refs/heads/");
		if (!oid || has_branch_section(config, branch))
			continue;
		_cleanup_free_ char *q = shell_quote(t->tree);
		_cleanup_free_ char *qs = shell_quote(src);
		_cleanup_free_ char *qb = shell_quote(branch);
		notice_warn(n, "git in %s: branch %s was made in the jail from %s, but its upstream "
			       "could not be set there (.git/config is read-only in the jail); finish "
			       "outside: git -C %s branch --set-upstream-to=%s %s",
			    t->tree, branch, src, q, qs, qb);
	}
	closedir(d);
}

void gitreport_after(const struct plan *pl, const struct gitreport *r, struct notice *n)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct gitreport_tree *t = &r->v[i];
		_cleanup_free_ char *now = head_oid(t->gitdir, t->common);
		if (t->head && now && strcmp(t->head, now) != 0) {
			if (r->git)
				report_files(pl, r->git, t, now, n);
			else
				notice_warn(n, "git in %s: HEAD moved in the jail, and kjail found no "
					       "git on PATH outside the writable paths to compare the "
					       "protected files with; check them: git -C %s status",
					    t->tree, t->tree);
		}
		unsigned s = states_of(t->gitdir) & ~t->states;
		_cleanup_free_ char *q = shell_quote(t->tree);
		for (size_t k = 0; k < ARRAY_SIZE(states); k++)
			if (s & (1u << k))
				notice_warn(n, "git in %s: %s in the jail; finish outside: git -C %s %s",
					    t->tree, states[k].what, q, states[k].finish);
		_cleanup_free_ char *cfg = path_join(t->common, "config");
		size_t len = 0;
		_cleanup_free_ char *config = read_file_capped(cfg, 1024 * 1024, &len);
		report_branches_in(t, r->start, "logs/refs/heads", config, n, 0);
	}
}
#endif
