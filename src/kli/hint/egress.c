/* SPDX-License-Identifier: MIT */
/* Refusals by kjail's egress proxy, seen in a command's output or its log
 * (hint/egress.h). */
#include "config.h"
#include "hint/egress.h"
#include "util.h"

#include <jansson.h>
#include <string.h>
#include <strings.h>

static const char *find_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (const char *p = hay; *p; p++)
		if (strncasecmp(p, needle, n) == 0)
			return p;
	return NULL;
}

bool hint_egress_refused(const char *line, char **dest)
{
	*dest = NULL;
	static const char own[] = "kjail: ";
	static const char tail[] = " is not an allowed host";
	const char *k = strstr(line, own), *t = k ? strstr(k, tail) : NULL;
	if (k && t) {
		const char *h = k + strlen(own);
		if (t > h && (size_t)(t - h) < 300 && !memchr(h, ' ', (size_t)(t - h)))
			*dest = xstrndup(h, (size_t)(t - h));
		return true;
	}
	static const char *const others[] = {
		"CONNECT tunnel failed, response 403", "Received HTTP code 403 from proxy",
		"not allowed by ruleset", "connection not allowed by ruleset", NULL,
	};
	for (const char *const *o = others; *o; o++)
		if (find_ci(line, *o))
			return true;
	return false;
}

char *hint_egress_last_refused(const char *log, size_t len)
{
	char *found = NULL;
	for (const char *l = log; l < log + len;) {
		const char *nl = memchr(l, '\n', (size_t)(log + len - l));
		size_t n = nl ? (size_t)(nl - l) : (size_t)(log + len - l);
		json_t *o = json_loadb(l, n, 0, NULL);
		const char *v = json_string_value(json_object_get(o, "verdict"));
		/* the name the proxy read in the tunnel (TLS SNI, HTTP Host) over
		 * the one the client gave CONNECT or SOCKS5: the one refused */
		const char *h = json_string_value(json_object_get(o, "http_host"));
		if (!h || !*h)
			h = json_string_value(json_object_get(o, "sni"));
		if (!h || !*h)
			h = json_string_value(json_object_get(o, "host"));
		json_t *port = json_object_get(o, "port");
		if (v && h && strcmp(v, "refused") == 0 && json_is_integer(port)) {
			free(found);
			bool v6 = strchr(h, ':') != NULL;
			found = xasprintf("%s%s%s:%lld", v6 ? "[" : "", h, v6 ? "]" : "",
					  (long long)json_integer_value(port));
		}
		json_decref(o);
		l += n + 1;
	}
	return found;
}

char *hint_egress_flag_value(const char *dest)
{
	const char *c = strrchr(dest, ':');
	if (c && (strcmp(c, ":443") == 0 || strcmp(c, ":80") == 0) && c > dest && c[-1] != ':')
		return xstrndup(dest, (size_t)(c - dest));
	return xstrdup(dest);
}
