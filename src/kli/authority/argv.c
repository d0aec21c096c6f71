/* SPDX-License-Identifier: MIT */
/* A simple command as words: see authority/argv.h. */
#include "config.h"
#include "authority/argv.h"
#include "strbuf.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

bool argv_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("_-./=:@%+^", c));
}

char **argv_words(const char *cmd, size_t *n)
{
	*n = 0;
	char **v = xcalloc(ARGV_MAX_WORDS + 1, sizeof *v);
	for (const char *p = cmd; *p;) {
		if (*p == ' ' || *p == '\t') {
			p++;
			continue;
		}
		const char *s = p;
		while (argv_word_char(*p))
			p++;
		if (p == s || (*p && *p != ' ' && *p != '\t') || *n == ARGV_MAX_WORDS) {
			argv_free(v);
			*n = 0;
			return NULL;
		}
		v[(*n)++] = xstrndup(s, (size_t)(p - s));
	}
	if (*n == 0) {
		free(v);
		return NULL;
	}
	return v;
}

void argv_free(char **v)
{
	if (!v)
		return;
	for (char **w = v; *w; w++)
		free(*w);
	free(v);
}

char *argv_canonical(const char *cmd)
{
	size_t n;
	char **v = argv_words(cmd, &n);
	if (!v)
		return NULL;
	struct strbuf s = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		sb_addf(&s, "%s%s", i ? " " : "", v[i]);
	argv_free(v);
	return sb_detach(&s);
}

bool argv_is_prefix(const char *prefix, const char *cmd)
{
	size_t n = strlen(prefix);
	return strncmp(prefix, cmd, n) == 0 && (cmd[n] == '\0' || cmd[n] == ' ');
}
