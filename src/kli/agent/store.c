/* SPDX-License-Identifier: MIT */
/* Saved sessions on disk: see agent/store.h. */
#include "config.h"
#include "agent/store.h"
#include "model/key.h"
#include "path.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* BASE/kli/sessions when BASE is absolute, else HOME/SUB/kli/sessions. */
static char *under(const char *base, const char *home, const char *sub)
{
	if (base && base[0] == '/')
		return path_join(base, "kli/sessions");
	if (home && home[0] == '/')
		return xasprintf("%s/%s/kli/sessions", strcmp(home, "/") ? home : "", sub);
	return NULL;
}

char *store_state_dir(const char *xdg_state_home, const char *home)
{
	return under(xdg_state_home, home, ".local/state");
}

static bool inside(const char *dir, const char *workspace)
{
	char real[PATH_MAX];
	return path_is_under(dir, workspace) ||
	       (realpath(dir, real) && path_is_under(real, workspace));
}

char *store_dir(const char *workspace, bool make, char *err, size_t errlen)
{
	/* In kjail the state directory is the host's, read-only or not the
	 * user's to keep; the cache is the per-workspace one kjail gives. */
	bool jailed = getenv("KJAIL_POLICY") != NULL;
	const char *home = getenv("HOME");
	char *cand[2] = { jailed ? NULL : store_state_dir(getenv("XDG_STATE_HOME"), home),
			  under(getenv("XDG_CACHE_HOME"), home, ".cache") };
	char *found = NULL;
	const char *why = "neither HOME nor XDG_STATE_HOME/XDG_CACHE_HOME is an absolute path";
	for (int i = 0; i < 2 && !found; i++) {
		if (!cand[i])
			continue;
		if (inside(cand[i], workspace)) {
			why = "the session directory would be inside the workspace";
			continue;
		}
		struct stat st;
		if (make ? path_mkdirs(cand[i]) && access(cand[i], W_OK) == 0
			 : stat(cand[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			if (!inside(cand[i], workspace))
				found = steal_pointer(&cand[i]);
		} else if (make) {
			why = "the session directory cannot be made";
		}
	}
	if (!found && !make)
		for (int i = 0; i < 2 && !found; i++)
			if (cand[i] && !inside(cand[i], workspace))
				found = steal_pointer(&cand[i]); /* none yet: an empty list */
	if (!found)
		snprintf(err, errlen, "%s (%s)", why,
			 cand[0] ? cand[0] : cand[1] ? cand[1] : "no HOME");
	free(cand[0]);
	free(cand[1]);
	return found;
}

static char *new_id(void)
{
	char when[32] = "0";
	time_t t = time(NULL);
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(when, sizeof when, "%Y%m%d-%H%M%S", &tm);
	unsigned char r[3] = { 0 };
	if (getrandom(r, sizeof r, 0) != sizeof r) {
		long p = (long)getpid();
		r[0] = (unsigned char)p, r[1] = (unsigned char)(p >> 8), r[2] = (unsigned char)t;
	}
	return xasprintf("%s-%02x%02x%02x", when, r[0], r[1], r[2]);
}

static bool write_file(const char *dir, const char *id, const char *text)
{
	_cleanup_free_ char *tmp = xasprintf("%s/.%s.XXXXXX", dir, id);
	int fd = mkstemp(tmp); /* 0600 */
	if (fd < 0)
		return false;
	size_t len = strlen(text), off = 0;
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	bool ok = off == len && fchmod(fd, 0600) == 0 && fsync(fd) == 0;
	int saved = errno;
	ok = close(fd) == 0 && ok;
	_cleanup_free_ char *path = xasprintf("%s/%s.json", dir, id);
	if (ok && rename(tmp, path) == 0)
		return true;
	saved = errno ? errno : saved;
	unlink(tmp);
	errno = saved;
	return false;
}

void store_save(struct store *st, json_t *history)
{
	if (!st || !st->dir)
		return;
	json_t *msgs = transcript_messages(history);
	if (json_array_size(msgs) == 0) {
		json_decref(msgs);
		return;
	}
	if (!st->id) {
		st->id = new_id();
		st->created = (long long)time(NULL);
		const char *first = json_string_value(json_object_get(json_array_get(msgs, 0),
								      "content"));
		free(st->first_prompt);
		st->first_prompt = transcript_first_line(first ? first : "");
	}
	struct transcript t = { st->id, st->created, (long long)time(NULL),
				(char *)st->workspace, st->first_prompt, msgs };
	char *text = transcript_dump(&t);
	json_decref(msgs);
	if (st->key)
		key_mask(text, strlen(text), st->key); /* the same length: still JSON */
	if (!write_file(st->dir, st->id, text) && !st->failed) {
		st->failed = true;
		warn_msg("cannot save the session in %s: %s", st->dir, strerror(errno));
	}
	explicit_bzero(text, strlen(text));
	free(text);
}

void store_restart(struct store *st)
{
	free(st->id);
	st->id = NULL;
}

void store_clear(struct store *st)
{
	free(st->dir);
	free(st->id);
	free(st->first_prompt);
	*st = (struct store){ 0 };
}

/* ------------------------------------------------------------- reading */

/* DIR/NAME, a regular file (no link followed), parsed. */
static bool read_one(int dirfd, const char *name, struct transcript *out, char *err,
		     size_t errlen)
{
	_cleanup_close_ int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file");
		return false;
	}
	if (st.st_size > (off_t)TRANSCRIPT_MAX_BYTES) {
		snprintf(err, errlen, "larger than %u MiB", TRANSCRIPT_MAX_BYTES >> 20);
		return false;
	}
	char *buf = xmalloc((size_t)st.st_size + 1);
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	bool ok = transcript_parse(buf, got, out, err, errlen);
	free(buf);
	/* the name is the id: a file renamed to pose as another is not it */
	if (ok && !(strlen(name) == strlen(out->id) + 5 && str_has_prefix(name, out->id))) {
		snprintf(err, errlen, "its \"id\" is not its name");
		transcript_clear(out);
		ok = false;
	}
	return ok;
}

/* ID from a directory entry "ID.json", or NULL. */
static char *entry_id(const char *name)
{
	size_t n = strlen(name);
	if (n <= 5 || strcmp(name + n - 5, ".json") != 0)
		return NULL;
	char *id = xstrndup(name, n - 5);
	if (!transcript_id_valid(id)) {
		free(id);
		return NULL;
	}
	return id;
}

static int newest_first(const void *a, const void *b)
{
	const struct transcript *x = a, *y = b;
	if (x->updated != y->updated)
		return x->updated < y->updated ? 1 : -1;
	return strcmp(y->id, x->id);
}

/* Every session in DIR, newest first; *BAD: files that did not read (each
 * said on stderr when SAY, else the first in ERR). */
static struct transcript *read_all(const char *dir, size_t *n, size_t *bad, bool say,
				   char *err, size_t errlen)
{
	*n = *bad = 0;
	struct transcript *v = NULL;
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	for (struct dirent *e = readdir(d); e; e = readdir(d)) {
		_cleanup_free_ char *id = entry_id(e->d_name);
		if (!id)
			continue;
		struct transcript t;
		char why[300];
		if (!read_one(dirfd(d), e->d_name, &t, why, sizeof why)) {
			if (say)
				warn_msg("session %s/%s: %s", dir, e->d_name, why);
			else if (!*bad)
				snprintf(err, errlen, "session %s/%s: %s", dir, e->d_name, why);
			(*bad)++;
			continue;
		}
		v = xreallocarray(v, *n + 1, sizeof *v);
		v[(*n)++] = t;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof *v, newest_first);
	return v;
}

static void free_all(struct transcript *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		transcript_clear(&v[i]);
	free(v);
}

int store_list(const char *dir, FILE *out)
{
	size_t n, bad;
	char err[1];
	struct transcript *v = read_all(dir, &n, &bad, true, err, sizeof err);
	for (size_t i = 0; i < n; i++) {
		char when[32] = "?";
		time_t t = (time_t)v[i].updated;
		struct tm tm;
		if (gmtime_r(&t, &tm))
			strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
		fprintf(out, "%s  %s  %s  %s\n", v[i].id, when, v[i].workspace, v[i].first_prompt);
	}
	free_all(v, n);
	return bad ? 1 : 0;
}

bool store_load(const char *dir, const char *id, const char *workspace,
		struct transcript *out, char *err, size_t errlen)
{
	*out = (struct transcript){ 0 };
	if (id) {
		if (!transcript_id_valid(id)) {
			snprintf(err, errlen, "--resume: '%.64s' is not a session id (see kli "
				 "--sessions)", id);
			ctrl_scrub(err);
			return false;
		}
		_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		_cleanup_free_ char *name = xasprintf("%s.json", id);
		char why[300];
		if (dfd < 0 || (faccessat(dfd, name, F_OK, AT_SYMLINK_NOFOLLOW) < 0 &&
				errno == ENOENT)) {
			snprintf(err, errlen, "--resume: there is no session %s in %s", id, dir);
			return false;
		}
		if (!read_one(dfd, name, out, why, sizeof why)) {
			snprintf(err, errlen, "--resume: session %s/%s: %s", dir, name, why);
			return false;
		}
	} else {
		size_t n, bad;
		struct transcript *v = read_all(dir, &n, &bad, false, err, errlen);
		if (bad) { /* it may have been the newest: none is taken */
			free_all(v, n);
			return false;
		}
		size_t i = 0;
		while (i < n && strcmp(v[i].workspace, workspace) != 0)
			i++;
		if (i < n) {
			*out = v[i];
			v[i] = (struct transcript){ 0 };
		}
		free_all(v, n);
		if (!out->id) {
			snprintf(err, errlen, "--resume: no saved session for this workspace in %s "
				 "(see kli --sessions)", dir);
			return false;
		}
	}
	if (strcmp(out->workspace, workspace) != 0) {
		snprintf(err, errlen, "--resume: session %s belongs to the workspace %s; resume it "
			 "from there", out->id, out->workspace);
		transcript_clear(out);
		return false;
	}
	return true;
}

int store_cli_list(const char *workspace)
{
	char err[600];
	_cleanup_free_ char *dir = store_dir(workspace, false, err, sizeof err);
	if (!dir)
		die("--sessions: %s", err);
	int status = store_list(dir, stdout);
	finish_stdout();
	return status;
}
