/* SPDX-License-Identifier: MIT */
/* The checks every file passes first, then its format's filter. */
#include "config.h"
#include "cfgfilter/internal.h"
#include "cfgfilter/git.h"
#include "cfgfilter/ini.h"
#include "cfgfilter/json.h"
#include "cfgfilter/npmrc.h"
#include "cfgfilter/yaml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cf_format_name(enum cf_format f)
{
	switch (f) {
	case CF_NONE: return "none";
	case CF_NPMRC: return "npmrc";
	case CF_INI: return "ini";
	case CF_YAML: return "yaml";
	case CF_JSON: return "json";
	case CF_GITCONFIG: return "gitconfig";
	}
	return "?";
}

const char *cf_unit(enum cf_format f)
{
	return f == CF_JSON ? "member" : "line";
}

/* Well-formed UTF-8 (no overlongs, no surrogates); at *bad the first
 * byte that is not. */
static bool utf8_ok(const unsigned char *s, size_t n, size_t *bad)
{
	for (size_t i = 0; i < n;) {
		unsigned c = s[i];
		size_t k = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2
			   : (c & 0xf8) == 0xf0 ? 3 : 4;
		if (k == 4 || i + k >= n + (k == 0) || (k == 1 && c < 0xc2) ||
		    (k == 3 && c > 0xf4)) {
			*bad = i;
			return false;
		}
		for (size_t j = 1; j <= k; j++)
			if ((s[i + j] & 0xc0) != 0x80) {
				*bad = i;
				return false;
			}
		if ((k == 2 && c == 0xe0 && s[i + 1] < 0xa0) ||
		    (k == 2 && c == 0xed && s[i + 1] >= 0xa0) ||
		    (k == 3 && c == 0xf0 && s[i + 1] < 0x90) ||
		    (k == 3 && c == 0xf4 && s[i + 1] >= 0x90)) {
			*bad = i;
			return false;
		}
		i += k + 1;
	}
	return true;
}

static size_t line_of(const char *in, size_t at)
{
	size_t l = 1;
	for (size_t i = 0; i < at; i++)
		l += in[i] == '\n';
	return l;
}

bool cf_filter(enum cf_format f, const char *const *secret, const char *in, size_t len,
	       struct cf_result *res)
{
	*res = (struct cf_result){ 0 };
	size_t bad;
	if (len > CF_MAX_SIZE)
		return cf_fail(res, 0, "larger than %u bytes", CF_MAX_SIZE);
	if (memchr(in, '\0', len))
		return cf_fail(res, line_of(in, (size_t)((const char *)memchr(in, '\0', len) - in)),
			       "a NUL byte (not text)");
	/* anywhere: a filtered copy could start with one that was not first */
	const char *bom = memmem(in, len, "\xef\xbb\xbf", 3);
	if (bom)
		return cf_fail(res, line_of(in, (size_t)(bom - in)), "a byte order mark");
	if (!utf8_ok((const unsigned char *)in, len, &bad))
		return cf_fail(res, line_of(in, bad), "not UTF-8");
	bool ok = false;
	switch (f) {
	case CF_NONE:
		return cf_fail(res, 0, "no filter for this file");
	case CF_NPMRC:
		ok = cf_filter_npmrc(secret, in, len, res);
		break;
	case CF_INI:
		ok = cf_filter_ini(secret, in, len, res);
		break;
	case CF_YAML:
		ok = cf_filter_yaml(secret, in, len, res);
		break;
	case CF_JSON:
		ok = cf_filter_json(secret, in, len, res);
		break;
	case CF_GITCONFIG:
		ok = cf_filter_git(secret, in, len, res);
		break;
	}
	if (!ok) {
		free(res->data);
		res->data = NULL;
		res->len = 0;
		res->removed = 0;
		if (!res->err[0])
			cf_fail(res, 0, "cannot be parsed");
	}
	return ok;
}
