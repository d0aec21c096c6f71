/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "model/key.h"
#include "path.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void key_free(char *key)
{
	if (!key)
		return;
	explicit_bzero(key, strlen(key));
	free(key);
}

bool key_valid(const char *key)
{
	if (!*key)
		return false;
	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f)
			return false;
	return true;
}

char *key_take_env(const char *name)
{
	char *v = getenv(name);
	if (!v)
		return NULL;
	char *copy = xstrdup(v);
	/* unsetenv() only unlinks the entry; the bytes stay where the kernel
	 * put them, readable as /proc/PID/environ by whoever can read that. */
	explicit_bzero(v, strlen(v));
	unsetenv(name);
	return copy;
}

extern char **environ;

bool key_in_value(const char *value, const char *key)
{
	if (!key || !*key)
		return false;
	return strlen(key) < KEY_SHORT ? strcmp(value, key) == 0 : strstr(value, key) != NULL;
}

void key_scrub_environ(const char *key)
{
	if (!key || !*key)
		return;
	/* Names first: unsetenv() reshuffles environ under a running loop. */
	char **names = NULL;
	size_t n = 0;
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (!eq || !key_in_value(eq + 1, key))
			continue;
		names = xreallocarray(names, n + 1, sizeof *names);
		names[n++] = xstrndup(*e, (size_t)(eq - *e));
	}
	for (size_t i = 0; i < n; i++) {
		key_free(key_take_env(names[i]));
		free(names[i]);
	}
	free(names);
}

/* The key is the file's first line; surrounding blanks are not part of it. */
static char *key_from_text(char *text, size_t len)
{
	size_t b = 0;
	while (b < len && (text[b] == ' ' || text[b] == '\t' || text[b] == '\n' || text[b] == '\r'))
		b++;
	size_t e = b;
	while (e < len && text[e] != '\n' && text[e] != '\r')
		e++;
	while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t'))
		e--;
	return xstrndup(text + b, e - b);
}

static bool key_from_file(const char *file, const char *home, char **key, char *err,
			  size_t errlen)
{
	_cleanup_free_ char *path = path_expand_home(file, home);
	if (!path) {
		fmt_into(err, errlen, "api-key-file %s: cannot expand ~ without a HOME", file);
		return false;
	}
	size_t len = 0;
	char *text = read_file_capped(path, 64 * 1024, &len);
	if (!text) {
		fmt_into(err, errlen, "api-key-file %s: %s", path,
			 errno == EFBIG ? "larger than 64 KiB" : strerror(errno));
		return false;
	}
	*key = key_from_text(text, len);
	explicit_bzero(text, len);
	free(text);
	if (!key_valid(*key)) {
		key_free(steal_pointer(key));
		fmt_into(err, errlen, "api-key-file %s: the first line must be the key, visible "
				      "ASCII characters only", path);
		return false;
	}
	return true;
}

bool key_load(const struct kli_model *m, const char *home, char **key, char *err,
	      size_t errlen)
{
	*key = NULL;
	if (m->api_key_file && m->api_key_env) {
		fmt_into(err, errlen, "sets both api-key-file and api-key-env; keep one");
		return false;
	}
	if (m->api_key_file)
		return key_from_file(m->api_key_file, home, key, err, errlen);
	if (!m->api_key_env)
		return true;
	*key = key_take_env(m->api_key_env);
	if (!*key || !**key) {
		key_free(steal_pointer(key));
		fmt_into(err, errlen, "api-key-env: the variable %s is not set or empty",
			 m->api_key_env);
		return false;
	}
	if (!key_valid(*key)) {
		key_free(steal_pointer(key));
		fmt_into(err, errlen, "api-key-env: %s must hold visible ASCII characters only",
			 m->api_key_env);
		return false;
	}
	return true;
}
