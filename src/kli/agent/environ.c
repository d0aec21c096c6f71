/* SPDX-License-Identifier: MIT */
/* The environment a command gets: see agent/environ.h. */
#include "config.h"
#include "agent/environ.h"
#include "model/key.h"
#include "strv.h"
#include "util.h"

#include <string.h>
#include <strings.h>

/* The proxy variables (kjail --allow-host sets them: the jail's only way
 * out) pass any allowlist, as PATH does, unless the value carries
 * credentials ("user:pass@"). */
static bool is_proxy_setting(const char *entry, size_t n)
{
	static const char *const names[] = { "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && strncasecmp(entry, names[i], n) == 0)
			return entry[n] == '=' && !strchr(entry + n, '@');
	return false;
}

static bool allowed_name(const char *entry, char *const *allow, size_t nallow)
{
	size_t n = strcspn(entry, "=");
	if (n == 4 && strncmp(entry, "PATH", 4) == 0)
		return true;
	if (is_proxy_setting(entry, n))
		return true;
	for (size_t i = 0; i < nallow; i++) {
		size_t k = strlen(allow[i]);
		if (k > 0 && allow[i][k - 1] == '*') {
			if (n >= k - 1 && strncmp(entry, allow[i], k - 1) == 0)
				return true;
		} else if (k == n && strncmp(entry, allow[i], n) == 0) {
			return true;
		}
	}
	return false;
}

char **agent_tool_environ(char *const *environ, char *const *allow, size_t nallow,
			  const char *key)
{
	struct strv env = STRV_INIT;
	for (size_t i = 0; environ && environ[i]; i++) {
		const char *e = environ[i];
		const char *eq = strchr(e, '=');
		if (!eq)
			continue;
		if (allow && !allowed_name(e, allow, nallow))
			continue;
		/* Whatever it is called, a variable holding the key stays out. */
		if (key_in_value(eq + 1, key))
			continue;
		strv_push(&env, e);
	}
	strv_argv(&env);
	return env.v;
}
