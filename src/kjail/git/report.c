/* SPDX-License-Identifier: MIT */
/* What git left half done because of the jail (git/report.h). */
#include "config.h"
#include "git/report.h"
#include "git/link.h"
#include "git/small-files.h"
#include "path.h"
#include "strv.h"
#include "util.h"

#ifdef KJ_OS_LINUX
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static unsigned states_of(int gitdir)
{
	unsigned s = 0;
	for (size_t i = 0; i < ARRAY_SIZE(states); i++)
		if (exists_at(gitdir, states[i].name))
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

/* dir opened to be read with *at later (O_PATH: the jail may take its
 * modes), or -1 */
static int open_dir(const char *dir)
{
	return open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
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
		struct gitreport_tree *t = &r->v[r->n++];
		*t = (struct gitreport_tree){ .tree = xstrdup(tree), .gitdir = l.gitdir,
					      .common = l.common };
		t->gitdir_fd = open_dir(t->gitdir);
		t->common_fd = open_dir(t->common);
		t->head = head_oid(t->gitdir_fd, t->common_fd);
		t->states = states_of(t->gitdir_fd);
		/* the bytes, to compare after; git reads them only in its jail */
		t->index = read_small_at(t->gitdir_fd, "index", GITREPORT_INDEX_MAX, &t->index_len);
		t->index_big = !t->index && exists_at(t->gitdir_fd, "index");
		t->exclude = read_small_at(t->common_fd, "info/exclude", 1u << 20, &t->exclude_len);
	}
	if (r->n)
		r->git = trusted_git(pl);
}

void gitreport_free(struct gitreport *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct gitreport_tree *t = &r->v[i];
		free(t->tree);
		free(t->gitdir);
		free(t->common);
		free(t->head);
		free(t->index);
		free(t->exclude);
		if (t->gitdir_fd >= 0)
			close(t->gitdir_fd);
		if (t->common_fd >= 0)
			close(t->common_fd);
	}
	free(r->v);
	free(r->git);
	memset(r, 0, sizeof *r);
}

/* git ARGS... in tree, in its own jail (the caller's runner), locked down
 * so that nothing the jail could have planted runs: no system or user
 * config, no hooks or fsmonitor, no pager, prompt, optional locks, lazy
 * fetch or protocol; standard input and error /dev/null. index: the index
 * file git reads instead of its own (file, handed to its jail), or NULL.
 * Its standard output (up to 16 MiB), or NULL when it failed or could not
 * run. */
static char *git_out(const struct gitreport *r, const char *tree, const char *const *args,
		     const struct gitjail_file *index, size_t *len)
{
	*len = 0;
	if (!r->git || !r->run)
		return NULL;
	struct strv argv = STRV_INIT;
	strv_push(&argv, r->git);
	const char *const lock[] = { "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
				     "-c", "core.untrackedCache=false", "-c", "safe.directory=*",
				     "-c", "protocol.allow=never", "-c", "core.sshCommand=false",
				     "-c", "core.askPass=false", "-c", "credential.helper=",
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
				      "GIT_ATTR_NOSYSTEM=1", "GIT_NO_LAZY_FETCH=1",
				      "GIT_PROTOCOL_FROM_USER=0", "GIT_ALLOW_PROTOCOL=none",
				      "HOME=/nonexistent", "LC_ALL=C" };
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		strv_push(&env, fixed[i]);
	if (index)
		strv_take(&env, xconcat("GIT_INDEX_FILE=", index->path, (char *)NULL));
	char *text = r->run(r->run_ctx, tree, env.v, argv.v, index, 16u << 20, len);
	strv_free(&argv);
	strv_free(&env);
	return text;
}

/* "PATH\tOID" for each file of commit under paths (ls-tree -r), in out;
 * false when git could not say */
static bool tree_files(const struct gitreport *r, const char *tree, const char *commit,
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
	_cleanup_free_ char *text = git_out(r, tree, (const char *const *)args.v, NULL, &len);
	strv_free(&args);
	if (!text)
		return false;
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
	return true;
}

/* The object name of the work tree's file, as git would store it without
 * filters; NULL when it is not a regular file. */
static char *work_oid(const struct gitreport *r, const char *tree, const char *rel)
{
	_cleanup_free_ char *p = path_join(tree, rel);
	struct stat st;
	if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	const char *const args[] = { "hash-object", "--no-filters", "--", rel, NULL };
	size_t len = 0;
	char *o = git_out(r, tree, args, NULL, &len);
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

static void strv_clear_all(struct strv *a, struct strv *b, struct strv *c)
{
	strv_free(a);
	strv_free(b);
	strv_free(c);
}

/* A name the jail chose (from git's output or a file), for a line on the
 * terminal: shell-quoted, with each control byte and backslash written
 * \xNN, so no name moves the terminal or splits the line. Fresh. */
static char *shown_word(const char *name)
{
	bool plain = true;
	for (const unsigned char *c = (const unsigned char *)name; *c && plain; c++)
		plain = *c >= 0x20 && *c != 0x7f && *c != '\\';
	if (plain)
		return shell_quote(name);
	size_t n = strlen(name);
	char *out = xmalloc(4 * n + 1), *o = out;
	for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
		if (*c < 0x20 || *c == 0x7f || *c == '\\')
			o += sprintf(o, "\\x%02x", *c);
		else
			*o++ = (char)*c;
	}
	*o = '\0';
	return out;
}

/* Protected files (read-only in the jail) not as the new HEAD has them. */
static void report_files(const struct plan *pl, const struct gitreport *r,
			 const struct gitreport_tree *t,
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
	_cleanup_free_ char *q = shell_quote(t->tree);
	if (paths.n && (!tree_files(r, t->tree, t->head, &paths, &old) ||
			!tree_files(r, t->tree, now, &paths, &cur))) {
		notice_warn(n, "git in %s: HEAD moved in the jail, and git, run by kjail in a jail "
			       "of its own, could not compare the protected files with HEAD (objects "
			       "missing, or that jail did not start); check them: git -C %s status",
			    t->tree, q);
		strv_clear_all(&paths, &old, &cur);
		return;
	}
	struct strv *sets[] = { &cur, &old };
	struct strv seen = STRV_INIT;
	for (size_t s = 0; s < ARRAY_SIZE(sets); s++) {
		for (size_t i = 0; i < sets[s]->n; i++) {
			_cleanup_free_ char *rel = xstrndup(sets[s]->v[i], strcspn(sets[s]->v[i], "\t"));
			if (strv_find(&seen, rel) >= 0)
				continue;
			strv_push(&seen, rel);
			const char *want = oid_of(&cur, rel);
			_cleanup_free_ char *have = work_oid(r, t->tree, rel);
			if ((!want && !have) || (want && have && strcmp(want, have) == 0))
				continue;
			_cleanup_free_ char *qr = shown_word(rel);
			if (want)
				notice_warn(n, "git in %s: %s is not as HEAD has it: HEAD moved in the jail, "
					       "where it is protected (read-only); finish outside: git -C %s "
					       "checkout HEAD -- %s", t->tree, qr, q, qr);
			else
				notice_warn(n, "git in %s: %s was left behind: HEAD moved in the jail to a "
					       "commit without it, and it is protected (read-only) there; "
					       "finish outside: git -C %s rm -q --cached --ignore-unmatch -- %s; "
					       "rm -f -- %s", t->tree, qr, q, qr, qr);
		}
	}
	strv_free(&seen);
	strv_clear_all(&paths, &old, &cur);
}

/* "[branch "NAME"]" in the config text */
static bool has_branch_section(const char *config, const char *name)
{
	_cleanup_free_ char *want = xconcat("[branch \"", name, "\"]", (char *)NULL);
	return config && strstr(config, want);
}

/* The branches under rel (logs/refs/heads/...) whose reflog starts in the
 * run with "branch: Created from X", X a remote-tracking branch, and that
 * have no section in the config: git could not write their upstream. The
 * directories are walked with *at and O_NOFOLLOW from the common git
 * directory opened before the run. */
static void report_branches_in(const struct gitreport_tree *t, time_t start, const char *rel,
			       const char *config, struct notice *n, int depth)
{
	int fd = -1;
	if (depth < 16) {
		fd = t->common_fd;
		for (const char *c = rel; fd >= 0;) {
			size_t len = strcspn(c, "/");
			_cleanup_free_ char *comp = xstrndup(c, len);
			int next = plain_component(c, len)
					   ? openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
					   : -1;
			if (fd != t->common_fd)
				close(fd);
			fd = next;
			if (c[len] == '\0')
				break;
			c += len + 1;
		}
	}
	DIR *d = fd >= 0 && fd != t->common_fd ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0 && fd != t->common_fd)
			close(fd);
		return;
	}
	for (struct dirent *e = readdir(d); e; e = readdir(d)) {
		if (e->d_name[0] == '.')
			continue;
		_cleanup_free_ char *sub = xconcat(rel, "/", e->d_name, (char *)NULL);
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			report_branches_in(t, start, sub, config, n, depth + 1);
			continue;
		}
		if (st.st_mtime < start)
			continue; /* not written in the run: made before it */
		_cleanup_free_ char *line = first_line_at(dirfd(d), e->d_name);
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
		_cleanup_free_ char *oid = ref_oid(t->common_fd, t->common_fd, remote);
		const char *branch = sub + strlen("logs/refs/heads/");
		if (!oid || has_branch_section(config, branch))
			continue;
		_cleanup_free_ char *q = shell_quote(t->tree);
		_cleanup_free_ char *qs = shown_word(src);
		_cleanup_free_ char *qb = shown_word(branch);
		notice_warn(n, "git in %s: branch %s was made in the jail from %s, but its upstream "
			       "could not be set there (.git/config is read-only in the jail); finish "
			       "outside: git -C %s branch --set-upstream-to=%s %s",
			    t->tree, qb, qs, q, qs, qb);
	}
	closedir(d);
}

/* One entry of git ls-files -v -z: its flags and its name. */
enum { FLAG_ASSUME = 1, FLAG_SKIP = 2 };
struct flagged {
	const char *name;
	unsigned flags;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct flagged *)a)->name, ((const struct flagged *)b)->name);
}

/* The entries of ls-files -v -z output (text, len: git's in its jail),
 * sorted by name; their names point into text. */
static struct flagged *flags_of(char *text, size_t len, size_t *n)
{
	*n = 0;
	struct flagged *v = NULL;
	size_t cap = 0;
	for (size_t off = 0; off < len;) {
		char *rec = text + off;
		off += strlen(rec) + 1;
		if (strlen(rec) < 3 || rec[1] != ' ')
			continue;
		unsigned f = 0;
		if (rec[0] >= 'a' && rec[0] <= 'z')
			f |= FLAG_ASSUME;
		if (rec[0] == 'S' || rec[0] == 's')
			f |= FLAG_SKIP;
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[(*n)++] = (struct flagged){ .name = rec + 2, .flags = f };
	}
	if (*n)
		qsort(v, *n, sizeof *v, by_name);
	return v;
}

/* Index entries the jail marked assume-unchanged or skip-worktree: the
 * index before the run (its bytes, handed to git's jail as a file) and
 * now, each listed by git ls-files -v in a jail of its own. */
static void report_index_flags(const struct gitreport *r, const struct gitreport_tree *t,
			       struct notice *n)
{
	size_t now_len = 0;
	_cleanup_free_ char *now = read_small_at(t->gitdir_fd, "index", GITREPORT_INDEX_MAX, &now_len);
	if (!t->index && !t->index_big && !now)
		return; /* no index before nor after */
	if (t->index && now && now_len == t->index_len && memcmp(now, t->index, now_len) == 0)
		return; /* untouched */
	_cleanup_free_ char *q = shell_quote(t->tree);
	if (t->index_big || (!now && exists_at(t->gitdir_fd, "index"))) {
		notice_warn(n, "git in %s: the index changed in the jail and is too large (over %u "
			       "MiB) for kjail to check for entries marked assume-unchanged or "
			       "skip-worktree; check outside: git -C %s ls-files -v | grep -v '^H'",
			    t->tree, GITREPORT_INDEX_MAX >> 20, q);
		return;
	}
	const char *const args[] = { "ls-files", "-v", "-z", NULL };
	static const char empty[] = "";
	struct gitjail_file before = { .path = "/tmp/.kjail-index-before",
				       .data = t->index ? t->index : empty,
				       .len = t->index ? t->index_len : 0 };
	size_t old_len = 0, cur_len = 0, nc = 0, no = 0;
	_cleanup_free_ char *cur = git_out(r, t->tree, args, NULL, &cur_len);
	_cleanup_free_ struct flagged *vc = cur ? flags_of(cur, cur_len, &nc) : NULL;
	bool any = false;
	for (size_t i = 0; i < nc && !any; i++)
		any = vc[i].flags != 0;
	if (cur && !any)
		return; /* nothing marked now: the common case, one jail */
	_cleanup_free_ char *old = !cur	     ? NULL
				   : t->index ? git_out(r, t->tree, args, &before, &old_len)
					      : xstrdup("");
	if (!old || !cur) {
		notice_warn(n, "git in %s: the index changed in the jail, and git, run by kjail in a "
			       "jail of its own, could not read it for entries marked assume-unchanged "
			       "or skip-worktree (which hide changes from git status); check outside: "
			       "git -C %s ls-files -v | grep -v '^H'", t->tree, q);
		return;
	}
	_cleanup_free_ struct flagged *vo = flags_of(old, old_len, &no);
	size_t told = 0, more = 0;
	for (size_t i = 0, j = 0; i < nc; i++) {
		while (j < no && strcmp(vo[j].name, vc[i].name) < 0)
			j++;
		unsigned had = j < no && strcmp(vo[j].name, vc[i].name) == 0 ? vo[j].flags : 0;
		unsigned added = vc[i].flags & ~had;
		for (unsigned f = FLAG_ASSUME; f <= FLAG_SKIP; f <<= 1) {
			if (!(added & f))
				continue;
			if (told == 20) {
				more++;
				continue;
			}
			told++;
			const char *what = f == FLAG_ASSUME ? "assume-unchanged" : "skip-worktree";
			_cleanup_free_ char *qf = shown_word(vc[i].name);
			notice_warn(n, "git in %s: the jail marked %s %s in the index, so git status "
				       "and git diff do not show its changes; review them, then undo "
				       "outside: git -C %s update-index --no-%s -- %s",
				    t->tree, qf, what, q, what, qf);
		}
	}
	if (more)
		notice_warn(n, "git in %s: and %zu more index entries the jail marked so; list "
			       "them: git -C %s ls-files -v | grep -v '^H'", t->tree, more, q);
}

/* Lines the jail added to info/exclude (compared as lines of bytes): the
 * files they name no longer show in git status. */
static void report_exclude(const struct gitreport_tree *t, struct notice *n)
{
	size_t len = 0;
	_cleanup_free_ char *now = read_small_at(t->common_fd, "info/exclude", 1u << 20, &len);
	if (!now || (t->exclude && len == t->exclude_len && memcmp(now, t->exclude, len) == 0))
		return;
	_cleanup_free_ char *ex = path_join(t->common, "info/exclude");
	size_t told = 0;
	for (char *line = now, *next; line && *line && told < 20; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		bool had = false;
		size_t l = strlen(line);
		for (const char *o = t->exclude; o && !had && o < t->exclude + t->exclude_len;) {
			const char *e = memchr(o, '\n', (size_t)(t->exclude + t->exclude_len - o));
			size_t ol = e ? (size_t)(e - o) : (size_t)(t->exclude + t->exclude_len - o);
			had = ol == l && memcmp(o, line, l) == 0;
			o = e ? e + 1 : t->exclude + t->exclude_len;
		}
		if (had || line[0] == '\0' || line[0] == '#')
			continue;
		told++;
		_cleanup_free_ char *ql = shown_word(line);
		notice_warn(n, "git in %s: the jail added %s to %s, so git status does not show the "
			       "files it names; review them, then remove the line", t->tree, ql, ex);
		if (!next)
			break;
	}
}

void gitreport_after(const struct plan *pl, const struct gitreport *r, struct notice *n)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct gitreport_tree *t = &r->v[i];
		_cleanup_free_ char *now = head_oid(t->gitdir_fd, t->common_fd);
		if (t->head && now && strcmp(t->head, now) != 0) {
			if (r->git)
				report_files(pl, r, t, now, n);
			else
				notice_warn(n, "git in %s: HEAD moved in the jail, and kjail found no "
					       "git on PATH outside the writable paths to compare the "
					       "protected files with; check them: git -C %s status",
					    t->tree, t->tree);
		}
		unsigned s = states_of(t->gitdir_fd) & ~t->states;
		_cleanup_free_ char *q = shell_quote(t->tree);
		for (size_t k = 0; k < ARRAY_SIZE(states); k++)
			if (s & (1u << k))
				notice_warn(n, "git in %s: %s in the jail; finish outside: git -C %s %s",
					    t->tree, states[k].what, q, states[k].finish);
		size_t len = 0;
		_cleanup_free_ char *config = read_small_at(t->common_fd, "config", 1u << 20, &len);
		report_branches_in(t, r->start, "logs/refs/heads", config, n, 0);
		report_index_flags(r, t, n);
		report_exclude(t, n);
	}
}
#endif
