/* SPDX-License-Identifier: MIT */
/* kjail's policy document, read once for kli: see jailpolicy.h. */
#include "config.h"
#include "containment/jailpolicy.h"
#include "path.h"
#include "util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *opt_string(json_t *o, const char *key, bool *bad)
{
	json_t *v = json_object_get(o, key);
	if (!v)
		return NULL;
	if (!json_is_string(v)) {
		*bad = true;
		return NULL;
	}
	return json_string_value(v);
}

static enum jail_flag opt_flag(json_t *o, const char *key, bool *bad)
{
	json_t *v = json_object_get(o, key);
	if (!v)
		return JAIL_UNKNOWN;
	if (!json_is_boolean(v)) {
		*bad = true;
		return JAIL_UNKNOWN;
	}
	return json_is_true(v) ? JAIL_ON : JAIL_OFF;
}

static long opt_int(json_t *o, const char *key, long absent, bool *bad)
{
	json_t *v = json_object_get(o, key);
	if (!v)
		return absent;
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		*bad = true;
		return absent;
	}
	return (long)json_integer_value(v);
}

static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void jail_policy_free(struct jail_policy *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nmounts; i++) {
		free(p->mounts[i].path);
		free(p->mounts[i].verdict);
		free(p->mounts[i].rule);
		free(p->mounts[i].origin);
	}
	free(p->mounts);
	free(p->workspace);
	free(p->network_origin);
	free(p->network_mode);
	free(p->net_log);
	free_strings(p->hosts, p->nhosts);
	free_strings(p->unprotected, p->nunprotected);
	free_strings(p->degraded, p->ndegraded);
	free(p->backend);
	free(p->kjail_version);
	free(p);
}

/* A path of the document, absolute; "~" and "~/..." (kjail --check-config
 * writes the declared policy so) from home when one is given. NULL else. */
static char *doc_path(const char *path, const char *home)
{
	if (!path)
		return NULL;
	if (path[0] == '/')
		return path_normalize(path, "/");
	if (home && home[0] == '/' && path[0] == '~' && (path[1] == '\0' || path[1] == '/')) {
		_cleanup_free_ char *full = xconcat(home, path + 1, NULL);
		return path_normalize(full, "/");
	}
	return NULL;
}

static bool parse_mounts(struct jail_policy *p, json_t *mounts, bool (*is_file)(const char *),
			 const char *home)
{
	if (!json_is_array(mounts))
		return false;
	size_t n = json_array_size(mounts);
	p->mounts = xcalloc(n ? n : 1, sizeof *p->mounts);
	for (size_t i = 0; i < n; i++) {
		json_t *m = json_array_get(mounts, i);
		if (!json_is_object(m))
			return false;
		bool bad = false;
		const char *path = opt_string(m, "path", &bad);
		const char *verdict = opt_string(m, "verdict", &bad);
		const char *rule = opt_string(m, "rule", &bad);
		const char *origin = opt_string(m, "origin", &bad);
		char *full = bad ? NULL : doc_path(path, home);
		if (!full || !verdict || !*verdict) {
			free(full);
			return false;
		}
		struct jail_mount *jm = &p->mounts[p->nmounts++];
		jm->path = full;
		jm->verdict = xstrdup(verdict);
		jm->rule = xstrdup(rule && *rule ? rule : verdict);
		jm->origin = xstrdup(origin && *origin ? origin : "origin not given");
		jm->exact = is_file && is_file(jm->path);
	}
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* An array of objects, each with string KEY (and, when given, SUFFIX_KEY,
 * appended after a ':'), as sorted strings. False when malformed. */
static bool parse_names(json_t *arr, const char *key, const char *suffix_key, char ***out,
			size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!arr)
		return true;
	if (!json_is_array(arr))
		return false;
	size_t len = json_array_size(arr);
	*out = xcalloc(len ? len : 1, sizeof **out);
	for (size_t i = 0; i < len; i++) {
		json_t *o = json_array_get(arr, i);
		bool bad = false;
		const char *v = json_is_object(o) ? opt_string(o, key, &bad) : NULL;
		const char *sfx = v && suffix_key ? opt_string(o, suffix_key, &bad) : NULL;
		if (!v || bad)
			return false;
		(*out)[(*n)++] = sfx && *sfx ? xasprintf("%s:%s", v, sfx) : xstrdup(v);
	}
	qsort(*out, *n, sizeof **out, cmp_str);
	return true;
}

static bool parse_network(struct jail_policy *p, json_t *net)
{
	if (!net)
		return true;
	json_t *enabled = json_is_object(net) ? json_object_get(net, "enabled") : NULL;
	if (!json_is_boolean(enabled))
		return false;
	bool bad = false;
	p->network_known = true;
	p->network = json_is_true(enabled);
	const char *origin = opt_string(net, "origin", &bad);
	if (origin && *origin)
		p->network_origin = xstrdup(origin);
	const char *mode = opt_string(net, "mode", &bad);
	if (mode && *mode)
		p->network_mode = xstrdup(mode);
	const char *log = opt_string(net, "log", &bad);
	p->allowlist = mode && strcmp(mode, "allowlist") == 0;
	if (p->allowlist && log && log[0] == '/')
		p->net_log = xstrdup(log);
	return !bad && parse_names(json_object_get(net, "hosts"), "host", "port", &p->hosts,
				   &p->nhosts);
}

struct jail_policy *jail_policy_parse(const char *text, size_t len,
				      bool (*is_file)(const char *path))
{
	return jail_policy_parse_home(text, len, is_file, NULL);
}

struct jail_policy *jail_policy_parse_home(const char *text, size_t len,
					   bool (*is_file)(const char *path), const char *home)
{
	if (!text)
		return NULL;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
	if (!root)
		return NULL;
	struct jail_policy *p = xcalloc(1, sizeof *p);
	bool bad = false;
	const char *type = json_is_object(root) ? opt_string(root, "type", &bad) : NULL;
	if (!type || strcmp(type, "policy") != 0 ||
	    !parse_mounts(p, json_object_get(root, "mounts"), is_file, home))
		goto fail;
	const char *ws = opt_string(root, "workspace", &bad);
	p->workspace = doc_path(ws, home);
	if (!parse_network(p, json_object_get(root, "network")) ||
	    !parse_names(json_object_get(root, "unprotected"), "path", NULL, &p->unprotected,
			 &p->nunprotected) ||
	    !parse_names(json_object_get(root, "degraded"), "id", "what", &p->degraded,
			 &p->ndegraded))
		goto fail;
	p->version = opt_int(root, "version", 0, &bad);
	p->landlock_abi = opt_int(root, "landlock_abi", -1, &bad);
	p->seccomp = opt_flag(root, "seccomp_enabled", &bad);
	p->landlock = opt_flag(root, "landlock_enabled", &bad);
	p->landlock_writes = opt_flag(root, "landlock_writes", &bad);
	p->allow_userns = opt_flag(root, "allow_userns", &bad);
	const char *backend = opt_string(root, "backend", &bad);
	const char *version = opt_string(root, "kjail_version", &bad);
	p->backend = backend ? xstrdup(backend) : NULL;
	p->kjail_version = version ? xstrdup(version) : NULL;
	if (bad)
		goto fail;
	json_decref(root);
	return p;
fail:
	json_decref(root);
	jail_policy_free(p);
	return NULL;
}

static bool stat_is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

struct jail_policy *jail_policy_load(const char *path)
{
	if (!path || path[0] != '/')
		return NULL;
	size_t len;
	_cleanup_free_ char *text = read_file_capped(path, 1024 * 1024, &len);
	return text ? jail_policy_parse_home(text, len, stat_is_file, getenv("HOME")) : NULL;
}

const struct jail_mount *jail_verdict_for(const struct jail_policy *p, const char *path)
{
	if (!p || !path || path[0] != '/')
		return NULL;
	const struct jail_mount *found = NULL;
	for (size_t i = 0; i < p->nmounts; i++) {
		const struct jail_mount *m = &p->mounts[i];
		if (m->exact ? strcmp(path, m->path) == 0 : path_is_under(path, m->path))
			found = m;
	}
	return found;
}

const char *jail_network_mode(const struct jail_policy *p)
{
	if (p->network_mode)
		return p->network_mode;
	if (!p->network_known)
		return "unknown";
	return p->network ? "shared" : "none";
}
