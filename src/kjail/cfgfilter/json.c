/* SPDX-License-Identifier: MIT */
/* JSON, as docker's config.json: parsed by jansson (kjail links it
 * already, for the policy file), duplicate keys refused (Go's decoder
 * takes the last one, and which one a reader takes is a guess), a member
 * named by a secret pattern ("auths.HOST.auth", on the dotted path of
 * member names as Go's encoding/json matches a struct's field names: in
 * any case, with Unicode's simple folding, so "auth\u017f" is auths and
 * "to\u212aen" is token; array elements add nothing) or holding a URL
 * with a password (its escapes decoded) removed, and the rest written
 * anew in the same member order. */
#include "config.h"
#include "cfgfilter/internal.h"
#include "cfgfilter/json.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static void filter_value(const char *const *secret, json_t *v, struct strbuf *path,
			 unsigned *removed);

/* k as Go's case-insensitive match of a field name sees it: the letters
 * whose simple case folding reaches an ASCII one (LATIN SMALL LETTER LONG
 * S, KELVIN SIGN) made that letter; cf_key_secret ignores ASCII case. */
static void add_folded(struct strbuf *path, const char *k)
{
	for (; *k; k++) {
		if ((unsigned char)k[0] == 0xc5 && (unsigned char)k[1] == 0xbf) {
			sb_addc(path, 's');
			k++;
		} else if ((unsigned char)k[0] == 0xe2 && (unsigned char)k[1] == 0x84 &&
			   (unsigned char)k[2] == 0xaa) {
			sb_addc(path, 'k');
			k += 2;
		} else {
			sb_addc(path, *k);
		}
	}
}

static void filter_object(const char *const *secret, json_t *o, struct strbuf *path,
			  unsigned *removed)
{
	size_t base = path->len;
	const char *k;
	json_t *v;
	void *tmp;
	json_object_foreach_safe(o, tmp, k, v) {
		sb_setlen(path, base);
		if (base)
			sb_addc(path, '.');
		add_folded(path, k);
		bool secret_here = cf_key_secret(secret, path->s, path->len) ||
				   (json_is_string(v) &&
				    cf_value_url_secret(json_string_value(v), json_string_length(v)));
		if (secret_here) {
			json_object_del(o, k);
			(*removed)++;
			continue;
		}
		filter_value(secret, v, path, removed);
	}
	sb_setlen(path, base);
}

static void filter_value(const char *const *secret, json_t *v, struct strbuf *path,
			 unsigned *removed)
{
	if (json_is_object(v)) {
		filter_object(secret, v, path, removed);
		return;
	}
	if (!json_is_array(v))
		return;
	for (size_t i = 0; i < json_array_size(v);) {
		json_t *e = json_array_get(v, i);
		if (json_is_string(e) &&
		    cf_value_url_secret(json_string_value(e), json_string_length(e))) {
			json_array_remove(v, i);
			(*removed)++;
			continue;
		}
		filter_value(secret, e, path, removed);
		i++;
	}
}

bool cf_filter_json(const char *const *secret, const char *in, size_t len,
		    struct cf_result *res)
{
	json_error_t err;
	json_t *root = json_loadb(in, len, JSON_REJECT_DUPLICATES, &err);
	if (!root)
		return cf_fail(res, err.line > 0 ? (size_t)err.line : 0, "%s", err.text);
	if (!json_is_object(root)) {
		json_decref(root);
		return cf_fail(res, 0, "not a JSON object");
	}
	struct strbuf path = STRBUF_INIT;
	filter_value(secret, root, &path, &res->removed);
	sb_release(&path);
	char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!text)
		return cf_fail(res, 0, "cannot write the filtered copy");
	size_t n = strlen(text);
	res->data = xreallocarray(text, n + 2, 1);
	res->data[n] = '\n';
	res->data[n + 1] = '\0';
	res->len = n + 1;
	return true;
}
