/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "policy/policy.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void str_set(char **dst, const char *value)
{
	free(*dst);
	*dst = value ? xstrdup(value) : NULL;
}

void bool_set(struct bool_setting *s, bool value, const char *origin)
{
	s->value = value;
	str_set(&s->origin, origin);
}

void policy_init(struct policy *p)
{
	memset(p, 0, sizeof *p);
	bool_set(&p->network, true, "built-in default");
	bool_set(&p->nested_userns, false, "built-in default");
	bool_set(&p->defaults, true, "built-in default");
	bool_set(&p->allow_userns, false, "built-in default");
	p->backend = BACKEND_AUTO;
	str_set(&p->backend_origin, "built-in default");
	p->fallback = BACKEND_AUTO;
	str_set(&p->fallback_origin, "built-in default");
	p->cache = CACHE_WORKSPACE;
	str_set(&p->cache_origin, "built-in default");
	str_set(&p->workspace_origin, "current directory");
}

void entry_add(struct entry_list *l, const char *value, const char *origin)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n].len = strlen(value);
	l->v[l->n].value = xstrndup(value, l->v[l->n].len);
	l->v[l->n].origin = strpool_intern(&l->origins, origin);
	l->n++;
}

bool entry_list_has(const struct entry_list *l, const char *value)
{
	size_t n = strlen(value);
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].len == n && memcmp(l->v[i].value, value, n) == 0)
			return true;
	return false;
}

void entry_list_free(struct entry_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].value);
	free(l->v);
	strpool_free(&l->origins);
	memset(l, 0, sizeof *l);
}

void policy_free(struct policy *p)
{
	free(p->workspace);
	free(p->workspace_origin);
	free(p->network.origin);
	free(p->nested_userns.origin);
	free(p->defaults.origin);
	free(p->allow_userns.origin);
	free(p->backend_origin);
	free(p->fallback_origin);
	free(p->net_log);
	free(p->net_log_origin);
	free(p->cache_origin);
	entry_list_free(&p->writable);
	entry_list_free(&p->deny_read);
	entry_list_free(&p->deny_env);
	entry_list_free(&p->keep_env);
	entry_list_free(&p->allow_host);
	entry_list_free(&p->devices);
	entry_list_free(&p->allow_socket);
	entry_list_free(&p->secrets);
	entry_list_free(&p->sources);
}

static const char *const backend_names[] = {
	[BACKEND_AUTO] = "auto",
	[BACKEND_BWRAP] = "bwrap",
	[BACKEND_SEATBELT] = "seatbelt",
	[BACKEND_CONTAINER] = "container",
	[BACKEND_LANDLOCK] = "landlock",
};

bool backend_parse(const char *name, enum backend *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(backend_names); i++)
		if (strcmp(name, backend_names[i]) == 0) {
			*out = (enum backend)i;
			return true;
		}
	return false;
}

const char *backend_name(enum backend b)
{
	return backend_names[b];
}

bool fallback_parse(const char *name, enum backend *out)
{
	if (strcmp(name, "none") == 0)
		*out = BACKEND_AUTO;
	else if (strcmp(name, "landlock") == 0)
		*out = BACKEND_LANDLOCK;
	else
		return false;
	return true;
}

bool cache_mode_parse(const char *name, enum cache_mode *out)
{
	if (strcmp(name, "true") == 0)
		*out = CACHE_WORKSPACE;
	else if (strcmp(name, "false") == 0)
		*out = CACHE_OFF;
	else if (strcmp(name, "shared") == 0)
		*out = CACHE_SHARED;
	else
		return false;
	return true;
}

const char *cache_mode_name(enum cache_mode m)
{
	return m == CACHE_OFF ? "off" : m == CACHE_SHARED ? "shared" : "per workspace";
}
