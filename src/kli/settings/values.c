/* SPDX-License-Identifier: MIT */
/* The values of [model] and [bash], checked as they are read: see
 * settings/internal.h. */
#include "config.h"
#include "settings/values.h"
#include "ini_reader.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool parse_long(const char *v, long lo, long hi, long *out)
{
	if (!*v || !isdigit((unsigned char)*v))
		return false;
	errno = 0;
	char *end;
	long n = strtol(v, &end, 10);
	if (errno || *end || n < lo || n > hi)
		return false;
	*out = n;
	return true;
}

static bool valid_env_name(const char *s, bool allow_star)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (s++; *s; s++) {
		if (allow_star && s[0] == '*' && s[1] == '\0')
			return true;
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	}
	return true;
}

bool settings_model_item(struct kli_model *m, const struct ini_item *it, char *err,
			 size_t errlen)
{
	const char *k = it->key, *v = it->value;
	if (!*v) {
		fmt_into(err, errlen, "%s needs a value", k);
		return false;
	}
	if (strcmp(k, "base-url") == 0) {
		if (!str_has_prefix(v, "http://") && !str_has_prefix(v, "https://") &&
		    !str_has_prefix(v, "unix:/")) {
			fmt_into(err, errlen, "base-url must start with http://, https:// or unix:/");
			return false;
		}
		settings_replace_str(&m->base_url, v);
	} else if (strcmp(k, "model") == 0) {
		settings_replace_str(&m->model, v);
	} else if (strcmp(k, "api-key-file") == 0) {
		if (v[0] != '/' && !str_has_prefix(v, "~/")) {
			fmt_into(err, errlen, "api-key-file must be absolute or start with ~/");
			return false;
		}
		settings_replace_str(&m->api_key_file, v);
	} else if (strcmp(k, "api-key-env") == 0) {
		if (!valid_env_name(v, false)) {
			fmt_into(err, errlen, "api-key-env must be a variable name");
			return false;
		}
		settings_replace_str(&m->api_key_env, v);
	} else if (strcmp(k, "api-key-secret") == 0) {
		size_t n = strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_-");
		if (v[n] || n > 32) {
			fmt_into(err, errlen, "api-key-secret must be a kjail secret's name: 1 to 32 "
					      "of a-z, 0-9, '_' and '-'");
			return false;
		}
		settings_replace_str(&m->api_key_secret, v);
	} else if (strcmp(k, "timeout") == 0) {
		if (!parse_long(v, 1, 86400, &m->timeout)) {
			fmt_into(err, errlen, "timeout must be whole seconds from 1 to 86400");
			return false;
		}
	} else if (strcmp(k, "idle-timeout") == 0) {
		if (!parse_long(v, 1, 86400, &m->idle_timeout)) {
			fmt_into(err, errlen, "idle-timeout must be whole seconds from 1 to 86400");
			return false;
		}
	} else if (strcmp(k, "connect-timeout") == 0) {
		if (!parse_long(v, 1, 300, &m->connect_timeout)) {
			fmt_into(err, errlen, "connect-timeout must be whole seconds from 1 to 300");
			return false;
		}
	} else if (strcmp(k, "stream") == 0) {
		bool b;
		if (!ini_parse_bool(v, &b)) {
			fmt_into(err, errlen, "stream must be true or false");
			return false;
		}
		m->stream = b;
	} else if (!parse_long(v, 0, 100, &m->retries)) { /* retries */
		fmt_into(err, errlen, "retries must be a whole number from 0 to 100");
		return false;
	}
	return true;
}

bool settings_bash_item(struct strv *env, long *timeout, const struct ini_item *it, char *err,
			size_t errlen)
{
	if (strcmp(it->key, "timeout") == 0) {
		if (!parse_long(it->value, 1, 86400, timeout)) {
			fmt_into(err, errlen, "timeout must be whole seconds from 1 to 86400");
			return false;
		}
		return true;
	}
	const char *v = it->value;
	_cleanup_free_ char *copy = xstrdup(v);
	char *save = NULL;
	for (char *w = strtok_r(copy, ", \t", &save); w; w = strtok_r(NULL, ", \t", &save)) {
		if (!valid_env_name(w, true)) {
			fmt_into(err, errlen, "env-allowlist: '%s' is not a variable name "
					      "(or a NAME* prefix)", w);
			return false;
		}
		if (strv_find(env, w) < 0)
			strv_push(env, w);
	}
	return true;
}

void settings_model_clear(struct kli_model *m)
{
	free(m->base_url);
	free(m->model);
	free(m->api_key_file);
	free(m->api_key_env);
	free(m->api_key_secret);
	*m = (struct kli_model){ .retries = -1, .stream = -1 };
}
