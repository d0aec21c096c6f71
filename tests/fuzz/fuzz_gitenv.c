/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for git settings in the environment (src/kjail/git/env.h):
 * the input is GIT_CONFIG_PARAMETERS' value. Besides crashes and sanitizer
 * reports, it checks what the parser promises: a refusal leaves nothing;
 * each setting, quoted back as git's sq_quote writes it (in the
 * 'KEY'='VALUE' form, 'KEY'= for a bare one), parses to the same setting; and gitenv_has_secret answers
 * (with the real table's patterns) for whatever was parsed. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfgfilter/cfgfilter.h"
#include "policy/defaults.h"
#include "git/env.h"

#include "fuzz.h"

/* s as git's sq_quote writes it, appended at *p (room enough). */
static void sq(char **p, const char *s)
{
	*(*p)++ = '\'';
	for (; *s; s++) {
		if (*s == '\'' || *s == '!') {
			memcpy(*p, "'\\", 2);
			*p += 2;
			*(*p)++ = *s;
			*(*p)++ = '\'';
		} else {
			*(*p)++ = *s;
		}
	}
	*(*p)++ = '\'';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct gitenv_setting *s;
	size_t n;
	bool ok = gitenv_parse_params(text, &s, &n);
	if (!ok)
		CHECK(!s && n == 0);
	const char *const *secret = NULL;
	for (const struct cred_store *c = cred_stores; c->tool; c++)
		if (c->format == CF_GITCONFIG)
			secret = c->secret;
	CHECK(secret);
	for (size_t i = 0; ok && i < n; i++) {
		/* quoted back, one setting parses to itself */
		size_t kl = strlen(s[i].key), vl = s[i].value ? strlen(s[i].value) : 0;
		char *back = malloc(4 * (kl + vl) + 16), *p = back;
		CHECK(back);
		sq(&p, s[i].key);
		*p++ = '='; /* 'KEY'= is a bare one: a key holding '=' stays whole */
		if (s[i].value)
			sq(&p, s[i].value);
		*p = '\0';
		struct gitenv_setting *t;
		size_t m;
		CHECK(gitenv_parse_params(back, &t, &m));
		CHECK(m == 1 && strcmp(t[0].key, s[i].key) == 0);
		if (s[i].value)
			CHECK(t[0].value && strcmp(t[0].value, s[i].value) == 0);
		else
			CHECK(!t[0].value);
		gitenv_settings_free(t, m);
		free(back);
	}
	if (ok)
		(void)gitenv_has_secret(s, n, secret);
	gitenv_settings_free(s, n);
	free(text);
	return 0;
}
