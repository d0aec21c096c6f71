/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "policy/conf.h"
#include "policy/device.h"
#include "policy/egress.h"
#include "ini_reader.h"
#include "path.h"
#include "policy/secret.h"
#include "policy/sockets.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct ini_key_spec sandbox_keys[] = {
	{ "network", false },
	{ "nested-userns", false },
	{ "defaults", false },
	{ "allow-userns", false },
	{ "backend", false },
	{ "fallback", false },
	{ "cache", false },
	{ "writable", true },
	{ "deny-read", true },
	{ "deny-env", true },
	{ "keep-env", true },
	{ "allow-host", true },
	{ "device", true },
	{ "allow-socket", true },
	{ "secret", true },
	{ "net-log", false },
	{ NULL, false },
};

static const struct ini_section_spec schema[] = {
	{ "sandbox", false, sandbox_keys },
	{ NULL, false, NULL },
};

struct load_ctx {
	struct policy *p;
	const char *home;
};

char *config_user_path(const char *home, const char *xdg)
{
	if (xdg && xdg[0] == '/')
		return xasprintf("%s/kjail/config.ini", xdg);
	if (!home || home[0] != '/')
		return NULL;
	return xasprintf("%s/.config/kjail/config.ini", home);
}

bool env_pattern_valid(const char *s)
{
	if (!s[0])
		return false;
	for (; *s; s++)
		if (!(strchr("_*?[]!-", *s) || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

static bool set_bool(struct bool_setting *s, const struct ini_item *it, const char *origin,
		     char *err, size_t errlen)
{
	bool v;
	if (!ini_parse_bool(it->value, &v)) {
		fmt_into(err, errlen, "%s: expected true or false, got '%s'", it->key, it->value);
		return false;
	}
	bool_set(s, v, origin);
	return true;
}

static bool add_path(struct entry_list *l, const struct ini_item *it, const char *home,
		     const char *origin, char *err, size_t errlen)
{
	if (!it->value[0]) {
		fmt_into(err, errlen, "%s: empty path", it->key);
		return false;
	}
	if (it->value[0] != '/' && strncmp(it->value, "~/", 2) != 0 && strcmp(it->value, "~") != 0) {
		fmt_into(err, errlen, "%s: path must be absolute or start with ~/, got '%s'",
			 it->key, it->value);
		return false;
	}
	_cleanup_free_ char *expanded = path_expand_home(it->value, home);
	if (!expanded) {
		fmt_into(err, errlen, "%s: cannot expand '%s': no home directory", it->key, it->value);
		return false;
	}
	_cleanup_free_ char *clean = path_normalize(expanded, "/");
	entry_add(l, clean, origin);
	return true;
}

static bool add_pattern(struct entry_list *l, const struct ini_item *it, const char *origin,
			char *err, size_t errlen)
{
	if (!env_pattern_valid(it->value)) {
		fmt_into(err, errlen, "%s: not a variable name or pattern: '%s'", it->key, it->value);
		return false;
	}
	entry_add(l, it->value, origin);
	return true;
}

bool device_add(struct entry_list *l, const char *what, const char *value, const char *origin,
		char *err, size_t errlen)
{
	if (!device_class_known(value)) {
		char known[128] = "";
		for (const char *const *c = device_classes; *c; c++) {
			if (c != device_classes)
				strlcat(known, ", ", sizeof known);
			strlcat(known, *c, sizeof known);
		}
		fmt_into(err, errlen, "%s: unknown device class '%s' (known: %s)", what, value, known);
		return false;
	}
	if (!entry_list_has(l, value))
		entry_add(l, value, origin);
	return true;
}

static bool on_item(void *ctxp, const struct ini_item *it, char *err, size_t errlen)
{
	struct load_ctx *ctx = ctxp;
	struct policy *p = ctx->p;
	_cleanup_free_ char *origin = xasprintf("%s:%u", it->file, it->line);
	const char *k = it->key;

	if (strcmp(k, "network") == 0)
		return set_bool(&p->network, it, origin, err, errlen);
	if (strcmp(k, "nested-userns") == 0)
		return set_bool(&p->nested_userns, it, origin, err, errlen);
	if (strcmp(k, "defaults") == 0)
		return set_bool(&p->defaults, it, origin, err, errlen);
	if (strcmp(k, "allow-userns") == 0)
		return set_bool(&p->allow_userns, it, origin, err, errlen);
	if (strcmp(k, "backend") == 0) {
		if (!backend_parse(it->value, &p->backend)) {
			fmt_into(err, errlen, "backend: expected auto, bwrap, seatbelt, container or landlock, got '%s'",
				 it->value);
			return false;
		}
		str_set(&p->backend_origin, origin);
		return true;
	}
	if (strcmp(k, "fallback") == 0) {
		if (!fallback_parse(it->value, &p->fallback)) {
			fmt_into(err, errlen, "fallback: expected none or landlock, got '%s'", it->value);
			return false;
		}
		str_set(&p->fallback_origin, origin);
		return true;
	}
	if (strcmp(k, "cache") == 0) {
		if (!cache_mode_parse(it->value, &p->cache)) {
			fmt_into(err, errlen, "cache: expected true, false or shared, got '%s'",
				 it->value);
			return false;
		}
		str_set(&p->cache_origin, origin);
		return true;
	}
	if (strcmp(k, "writable") == 0)
		return add_path(&p->writable, it, ctx->home, origin, err, errlen);
	if (strcmp(k, "deny-read") == 0)
		return add_path(&p->deny_read, it, ctx->home, origin, err, errlen);
	if (strcmp(k, "deny-env") == 0)
		return add_pattern(&p->deny_env, it, origin, err, errlen);
	if (strcmp(k, "keep-env") == 0)
		return add_pattern(&p->keep_env, it, origin, err, errlen);
	if (strcmp(k, "allow-host") == 0)
		return egress_add(&p->allow_host, k, it->value, origin, err, errlen);
	if (strcmp(k, "net-log") == 0) {
		struct entry_list one = { 0 };
		bool ok = add_path(&one, it, ctx->home, origin, err, errlen);
		if (ok) {
			str_set(&p->net_log, one.v[0].value);
			str_set(&p->net_log_origin, origin);
		}
		entry_list_free(&one);
		return ok;
	}
	if (strcmp(k, "device") == 0)
		return device_add(&p->devices, k, it->value, origin, err, errlen);
	if (strcmp(k, "allow-socket") == 0)
		return socket_add(p, k, it->value, origin, ctx->home, err, errlen);
	if (strcmp(k, "secret") == 0)
		return secret_add(&p->secrets, k, it->value, origin, ctx->home, NULL, err, errlen);
	fmt_into(err, errlen, "unhandled key '%s'", k);
	return false;
}

/* Any error is fatal for the run, so a half-read file never takes effect. */
static bool load(struct policy *p, const char *name, const char *text, size_t len,
		 const char *path, bool optional, const char *home, char *err, size_t errlen)
{
	struct load_ctx ctx = { p, home };
	/* a config loosens the jail: only its owner (or root) may write it;
	 * the system's, at a path fixed at build time, may show as the
	 * overflow uid inside a jail */
	int rc = text ? ini_read_text(name, text, len, schema, on_item, &ctx, err, errlen)
		      : ini_read_file_trusted(path, optional, getuid(),
					      path && strcmp(path, KJ_SYSTEM_CONFIG) == 0 ? OWNED_UNMAPPED_OK : 0,
					      schema, on_item, &ctx, err, errlen);
	if (rc == INI_MISSING)
		return true;
	if (rc != INI_OK)
		return false;
	entry_add(&p->sources, text ? name : path, "config file");
	return true;
}

bool config_load_file(struct policy *p, const char *path, bool optional, const char *home,
		      char *err, size_t errlen)
{
	return load(p, NULL, NULL, 0, path, optional, home, err, errlen);
}

bool config_load_text(struct policy *p, const char *name, const char *text, size_t len,
		      const char *home, char *err, size_t errlen)
{
	return load(p, name, text, len, NULL, false, home, err, errlen);
}
