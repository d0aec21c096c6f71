/* SPDX-License-Identifier: MIT */
/* docker's endpoints (docker-endpoint.h). */
#include "config.h"
#include "planner/docker-endpoint.h"
#include "util.h"

#include <fcntl.h>
#include <glob.h>
#include <jansson.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *docker_unix_path(const char *host)
{
	if (!host || !str_has_prefix(host, "unix://") || host[7] != '/')
		return NULL;
	return xstrdup(host + 7);
}

/* A small regular file, not followed if a link, as JSON; NULL if not. */
static json_t *load(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	if (fd < 0)
		return NULL;
	json_t *j = NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= DOCKER_META_MAX) {
		FILE *f = fdopen(fd, "r");
		if (f) {
			j = json_loadf(f, JSON_REJECT_DUPLICATES, NULL);
			fclose(f);
			return j;
		}
	}
	close(fd);
	return NULL;
}

static char *current_context(const struct host *h, const char *dir)
{
	const char *env = host_getenv(h, "DOCKER_CONTEXT");
	if (env && env[0])
		return xstrdup(env);
	_cleanup_free_ char *cfg = xconcat(dir, "/config.json", (char *)NULL);
	json_t *j = load(cfg);
	const char *name = json_string_value(json_object_get(j, "currentContext"));
	char *r = name && name[0] ? xstrdup(name) : NULL;
	json_decref(j);
	return r;
}

void docker_endpoints(const struct host *h, const char *home, struct strv *out)
{
	char *p = docker_unix_path(host_getenv(h, "DOCKER_HOST"));
	if (p) {
		strv_push(out, p);
		free(p);
	}
	const char *conf = host_getenv(h, "DOCKER_CONFIG");
	_cleanup_free_ char *dir = conf && conf[0] == '/' ? xstrdup(conf)
				   : home ? xconcat(home, "/.docker", (char *)NULL) : NULL;
	if (!dir)
		return;
	_cleanup_free_ char *ctx = current_context(h, dir);
	if (!ctx || strcmp(ctx, "default") == 0)
		return;
	_cleanup_free_ char *pat = xconcat(dir, "/contexts/meta/*/meta.json", (char *)NULL);
	glob_t g;
	if (glob(pat, GLOB_NOSORT, NULL, &g) != 0)
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		json_t *j = load(g.gl_pathv[i]);
		const char *name = json_string_value(json_object_get(j, "Name"));
		json_t *ep = json_object_get(json_object_get(j, "Endpoints"), "docker");
		char *sock = name && strcmp(name, ctx) == 0
				     ? docker_unix_path(json_string_value(json_object_get(ep, "Host")))
				     : NULL;
		if (sock)
			strv_push(out, sock);
		free(sock);
		json_decref(j);
	}
	globfree(&g);
}
