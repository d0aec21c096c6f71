/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "policy/secret.h"
#include "path.h"
#include "util.h"

#include <string.h>

static bool name_valid(const char *s, size_t n)
{
	if (n == 0 || n > SECRET_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
		      s[i] == '-'))
			return false;
	return true;
}

static bool var_valid(const char *s)
{
	if (!s[0] || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

void secret_split(const char *value, struct secret_ref *out)
{
	const char *eq = strchr(value, '=');
	size_t n = eq ? (size_t)(eq - value) : 0;
	if (n > SECRET_NAME_MAX)
		n = SECRET_NAME_MAX;
	memcpy(out->name, value, n);
	out->name[n] = '\0';
	const char *src = eq ? eq + 1 : "";
	out->kind = str_has_prefix(src, "env:") ? SECRET_ENV : SECRET_FILE;
	out->source = out->kind == SECRET_ENV ? src + 4 : src;
}

bool secret_add(struct entry_list *l, const char *key, const char *value, const char *origin,
		const char *home, const char *cwd, char *err, size_t errlen)
{
	const char *eq = strchr(value, '=');
	if (!eq) {
		fmt_into(err, errlen, "%s: expected NAME=PATH or NAME=env:VAR, got '%s'", key, value);
		return false;
	}
	size_t n = (size_t)(eq - value);
	if (!name_valid(value, n)) {
		fmt_into(err, errlen, "%s: bad name '%.*s': 1 to %d of a-z, 0-9, '_' and '-'", key,
			 (int)(n > 64 ? 64 : n), value, SECRET_NAME_MAX);
		return false;
	}
	for (size_t i = 0; i < l->n; i++)
		if (strncmp(l->v[i].value, value, n + 1) == 0) {
			fmt_into(err, errlen, "%s: secret '%.*s' is named twice (also at %s)", key,
				 (int)n, value, l->v[i].origin);
			return false;
		}
	const char *src = eq + 1;
	if (str_has_prefix(src, "env:")) {
		if (!var_valid(src + 4)) {
			fmt_into(err, errlen, "%s: '%.*s': not a variable name: '%s'", key, (int)n,
				 value, src + 4);
			return false;
		}
		entry_add(l, value, origin);
		return true;
	}
	if (!src[0]) {
		fmt_into(err, errlen, "%s: '%.*s': empty path", key, (int)n, value);
		return false;
	}
	bool home_rel = strcmp(src, "~") == 0 || str_has_prefix(src, "~/");
	if (src[0] != '/' && !home_rel && !cwd) {
		fmt_into(err, errlen, "%s: '%.*s': path must be absolute or start with ~/, got '%s'",
			 key, (int)n, value, src);
		return false;
	}
	_cleanup_free_ char *expanded = path_expand_home(src, home);
	if (!expanded) {
		fmt_into(err, errlen, "%s: cannot expand '%s': no home directory", key, src);
		return false;
	}
	_cleanup_free_ char *clean = path_normalize(expanded, cwd ? cwd : "/");
	_cleanup_free_ char *entry = xasprintf("%.*s=%s", (int)n, value, clean);
	entry_add(l, entry, origin);
	return true;
}

char *secret_fd_var(const char *name)
{
	char *v = xasprintf(SECRET_VAR_PREFIX "%s_FD", name);
	for (char *p = v + strlen(SECRET_VAR_PREFIX); *p; p++)
		*p = *p == '-' ? '_' : *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
	return v;
}

const struct entry *secret_of_env(const struct entry_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++) {
		struct secret_ref r;
		secret_split(l->v[i].value, &r);
		if (r.kind == SECRET_ENV && strcmp(r.source, name) == 0)
			return &l->v[i];
	}
	return NULL;
}

const char *secret_kind_name(enum secret_kind k)
{
	return k == SECRET_ENV ? "env" : "file";
}
