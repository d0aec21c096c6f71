/* SPDX-License-Identifier: MIT */
/* Toolchain caches (cache.h): the table, the key, the plan of a mode, and
 * the per-workspace directory made safely, with the record of its use. */
#include "config.h"
#include "policy/cache.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One row a tool. Per workspace: only variables that move the cache and
 * nothing else (never a tool's home holding its config, credentials or
 * programs). --cache=shared: the user's own directories, bound writable
 * in place; never one that holds programs (~/.cargo/bin, ~/.local/bin,
 * ~/go/bin, gradle's init.d and wrapper). */
const struct cache_tool cache_tools[] = {
	{ "npm", { { "npm_config_cache", "npm", NULL } }, { ".npm" }, NULL },
	/* node-gyp's headers, pnpm's metadata and any tool that keeps its
	 * cache at the XDG place: npm 10 warns at every run about a variable
	 * npm_config_* it does not know (npm_config_devdir, _store_dir) */
	{ "xdg", { { "XDG_CACHE_HOME", "xdg-cache", NULL } }, { NULL },
	  "node-gyp's headers (env-paths), pnpm's metadata and other tools that keep a cache "
	  "under $XDG_CACHE_HOME" },
	{ "node-gyp", { { NULL } }, { ".cache/node-gyp" }, "per workspace: through XDG_CACHE_HOME" },
	{ "pnpm", { { NULL } }, { ".local/share/pnpm/store", ".cache/pnpm" },
	  "per workspace: the metadata through XDG_CACHE_HOME; the store none (its variable "
	  "npm_config_store_dir makes npm warn at every run; PNPM_HOME holds programs)" },
	{ "yarn", { { "YARN_CACHE_FOLDER", "yarn", NULL } }, { ".cache/yarn" }, NULL },
	{ "pip", { { "PIP_CACHE_DIR", "pip", NULL } }, { ".cache/pip" }, NULL },
	{ "uv", { { "UV_CACHE_DIR", "uv", NULL } }, { ".cache/uv" }, NULL },
	{ "poetry", { { "POETRY_CACHE_DIR", "poetry", NULL } }, { ".cache/pypoetry" }, NULL },
	{ "go",
	  { { "GOCACHE", "go-build", NULL }, { "GOMODCACHE", "go-mod", NULL } },
	  { ".cache/go-build", "go/pkg/mod" },
	  "GOPATH (and its bin/) is left alone" },
	{ "ccache", { { "CCACHE_DIR", "ccache", NULL } }, { ".cache/ccache", ".ccache" }, NULL },
	{ "sccache", { { "SCCACHE_DIR", "sccache", NULL } }, { ".cache/sccache" }, NULL },
	{ "maven",
	  { { "MAVEN_OPTS", "m2-repository", "-Dmaven.repo.local=" } },
	  { ".m2/repository" },
	  "appended to the caller's MAVEN_OPTS; ~/.m2/settings.xml stays read-only" },
	{ "gradle", { { NULL } }, { ".gradle/caches" },
	  "per workspace: none (GRADLE_USER_HOME would move init.d and gradle.properties too)" },
	{ "cargo", { { NULL } }, { ".cargo/registry", ".cargo/git" },
	  "per workspace: none (CARGO_HOME would move bin/, config and credentials too); "
	  "~/.cargo/bin never" },
	{ NULL, { { NULL } }, { NULL }, NULL },
};

static uint64_t fnv1a64(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

#define KEY_READABLE_MAX 48

char *cache_key(const char *workspace)
{
	const char *s = workspace;
	while (*s == '/')
		s++;
	size_t n = strlen(s);
	if (n > KEY_READABLE_MAX)
		s += n - KEY_READABLE_MAX;
	char readable[KEY_READABLE_MAX + 1];
	size_t i = 0;
	for (; s[i]; i++) {
		char c = s[i];
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
		readable[i] = c == '/' ? '-' : plain ? c : '_';
	}
	readable[i] = '\0';
	/* cut mid-path, it may start with a separator: a name that starts
	 * with '-' reads as an option to every command given it */
	const char *r = readable;
	while (*r == '-' || *r == '.')
		r++;
	return xasprintf("%s%s%016llx", r, *r ? "-" : "", (unsigned long long)fnv1a64(workspace));
}

static void add_var(struct cache_plan *out, const struct cache_var *v, const char *dir,
		    const char *tool, char *const *env_in)
{
	const char *had = NULL;
	size_t n = strlen(v->name);
	for (char *const *e = env_in; e && *e; e++)
		if (strncmp(*e, v->name, n) == 0 && (*e)[n] == '=')
			had = *e + n + 1;
	_cleanup_free_ char *path = xconcat(dir, "/", v->subdir, (char *)NULL);
	_cleanup_free_ char *value =
		v->prefix ? xconcat(had && had[0] ? had : "", had && had[0] ? " " : "", v->prefix,
				    path, (char *)NULL)
			  : xstrdup(path);
	_cleanup_free_ char *line = xconcat(v->name, "=", value, (char *)NULL);
	entry_add(&out->env, line, tool);
	if (had && !v->prefix)
		entry_add(&out->overridden, v->name, had);
}

void cache_plan_build(const struct cache_tool *table, enum cache_mode mode, const char *dir,
		      const char *home, char *const *env_in, struct cache_plan *out)
{
	memset(out, 0, sizeof *out);
	for (const struct cache_tool *t = table; t->tool; t++) {
		if (mode == CACHE_WORKSPACE && dir)
			for (size_t i = 0; i < CACHE_VARS_MAX && t->vars[i].name; i++)
				add_var(out, &t->vars[i], dir, t->tool, env_in);
		if (mode == CACHE_SHARED && home)
			for (size_t i = 0; i < CACHE_SHARED_MAX && t->shared[i]; i++) {
				_cleanup_free_ char *p = xconcat(home, "/", t->shared[i], (char *)NULL);
				entry_add(&out->binds, p, t->tool);
			}
	}
}

void cache_plan_free(struct cache_plan *cp)
{
	entry_list_free(&cp->env);
	entry_list_free(&cp->overridden);
	entry_list_free(&cp->binds);
}

/* One component below parent: made if missing (when create), then opened
 * without following a symlink and checked to be uid's directory. -1 with
 * err set on refusal; -2 when missing and !create; -3 with err set when
 * it cannot be made. */
static int open_component(int parent, const char *name, const char *shown, unsigned uid,
			  bool create, char *err, size_t errlen)
{
	if (create && mkdirat(parent, name, 0700) < 0 && errno != EEXIST) {
		fmt_into(err, errlen, "cannot make %s: %s", shown, strerror(errno));
		return -3;
	}
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT && !create)
			return -2;
		struct stat st;
		bool link = fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode);
		fmt_into(err, errlen, "cache: %s %s; refusing it (kjail makes its cache "
			 "directories itself, never through a link)", shown,
			 link ? "is a symbolic link" : errno == ENOTDIR ? "is not a directory"
								: strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || st.st_uid != uid) {
		fmt_into(err, errlen, "cache: %s is not owned by uid %u; refusing it", shown, uid);
		close(fd);
		return -1;
	}
	return fd;
}

/* cache_dir_open's walk; *fd: the last directory's, or -1 when one on the
 * way is missing (*exists false). */
static enum cache_dir_status walk(const char *home, const char *rel, unsigned uid, bool create,
				  char **out, bool *exists, int *fd_out, char *err, size_t errlen)
{
	*out = NULL;
	*exists = true;
	*fd_out = -1;
	/* the account's home itself may be a link (/home -> /usr/home): it is
	 * the system's word, not the jail's */
	int fd = open(home, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fmt_into(err, errlen, "home directory %s: %s", home, strerror(errno));
		return CACHE_DIR_UNAVAILABLE;
	}
	_cleanup_free_ char *path = xstrdup(home);
	_cleanup_free_ char *copy = xstrdup(rel);
	char *save = NULL;
	for (char *name = strtok_r(copy, "/", &save); name; name = strtok_r(NULL, "/", &save)) {
		char *next = xconcat(path, "/", name, (char *)NULL);
		free(path);
		path = next;
		if (!*exists)
			continue;
		int sub = open_component(fd, name, path, uid, create, err, errlen);
		close(fd);
		fd = -1;
		if (sub == -1)
			return CACHE_DIR_REFUSED;
		if (sub == -3)
			return CACHE_DIR_UNAVAILABLE;
		if (sub == -2) {
			*exists = false;
			continue;
		}
		fd = sub;
	}
	*fd_out = fd;
	*out = steal_pointer(&path);
	return CACHE_DIR_OK;
}

enum cache_dir_status cache_dir_open(const char *home, const char *rel, unsigned uid,
				     bool create, char **out, bool *exists, char *err,
				     size_t errlen)
{
	int fd;
	enum cache_dir_status s = walk(home, rel, uid, create, out, exists, &fd, err, errlen);
	if (fd >= 0)
		close(fd);
	return s;
}

enum cache_dir_status cache_dir_fd(const char *home, const char *rel, unsigned uid, int *fd,
				   char *err, size_t errlen)
{
	_cleanup_free_ char *path = NULL;
	bool exists;
	return walk(home, rel, uid, false, &path, &exists, fd, err, errlen);
}

bool cache_record_use(const char *home, const char *key, const char *workspace, unsigned uid,
		      char *err, size_t errlen)
{
	_cleanup_free_ char *path = NULL;
	bool exists;
	int fd;
	/* made with the workspace's directory, just before */
	switch (walk(home, CACHE_WS_ROOT "/" CACHE_USED, uid, true, &path, &exists, &fd, err,
		     errlen)) {
	case CACHE_DIR_REFUSED:
		return false;
	case CACHE_DIR_UNAVAILABLE: /* a read-only home: no record, the cache works */
		return true;
	case CACHE_DIR_OK:
		break;
	}
	_cleanup_close_ int dir = fd;
	_cleanup_free_ char *tmp = xasprintf("%s.tmp.%ld", key, (long)getpid());
	int f = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (f < 0)
		return true; /* a full disk, a quota: the next start records it */
	size_t n = strlen(workspace);
	_cleanup_free_ char *line = xconcat(workspace, "\n", (char *)NULL);
	bool written = write(f, line, n + 1) == (ssize_t)(n + 1);
	close(f);
	/* a new file each time: its time is this start's */
	if (!written || renameat(dir, tmp, dir, key) < 0) {
		int e = errno;
		(void)unlinkat(dir, tmp, 0);
		if (written && (e == EISDIR || e == ENOTEMPTY || e == EEXIST))
			fmt_into(err, errlen, "cache: %s/%s is not a file kjail made; refusing it "
				 "(remove it, or run with --no-cache)", path, key);
		return !(written && (e == EISDIR || e == ENOTEMPTY || e == EEXIST));
	}
	return true;
}
