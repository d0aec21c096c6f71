/* SPDX-License-Identifier: MIT */
/* kjail --check-config's document (build/declared.h): a config read with
 * the symbolic home gives "~" paths back, the defaults' stores at their
 * default places, the network as declared, and nothing of this host. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build/declared.h"
#include "policy/conf.h"
#include "util.h"

static void test_shown(void **state)
{
	(void)state;
	_cleanup_free_ char *a = declared_shown(DECLARED_HOME "/proj");
	_cleanup_free_ char *b = declared_shown(DECLARED_HOME);
	_cleanup_free_ char *c = declared_shown(DECLARED_HOME "x/y");
	_cleanup_free_ char *d = declared_shown("/etc/x");
	assert_string_equal(a, "~/proj");
	assert_string_equal(b, "~");
	assert_string_equal(c, DECLARED_HOME "x/y");
	assert_string_equal(d, "/etc/x");
}

/* the JSON of TEXT read as a config, cwd "/ws" */
static json_t *declared_of(const char *text, bool *ok, char *err, size_t errlen)
{
	struct policy p;
	policy_init(&p);
	assert_true(config_load_text(&p, "cfg.ini", text, strlen(text), DECLARED_HOME, err, errlen));
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*ok = declared_write(f, &p, "/ws", true, err, errlen);
	fclose(f);
	policy_free(&p);
	json_t *j = *ok ? json_loads(buf, 0, NULL) : NULL;
	free(buf);
	return j;
}

/* the verdict of the mount at path, or NULL */
static const char *verdict(json_t *j, const char *path)
{
	json_t *m = json_object_get(j, "mounts"), *e;
	size_t i;
	const char *found = NULL;
	json_array_foreach(m, i, e)
		if (strcmp(json_string_value(json_object_get(e, "path")), path) == 0)
			found = json_string_value(json_object_get(e, "verdict"));
	return found;
}

static void test_document(void **state)
{
	(void)state;
	char err[512];
	bool ok;
	json_t *j = declared_of("[sandbox]\nwritable = ~/proj\ndeny-read = ~/secret\n"
				"allow-socket = ssh-agent\nallow-socket = ~/s.sock\ndevice = gpu\n"
				"allow-host = example.org\n",
				&ok, err, sizeof err);
	assert_true(ok);
	assert_non_null(j);
	assert_true(json_is_true(json_object_get(j, "declared")));
	assert_string_equal(json_string_value(json_object_get(j, "type")), "policy");
	assert_string_equal(json_string_value(json_object_get(j, "home")), "~");
	assert_string_equal(json_string_value(json_object_get(j, "workspace")), "/ws");
	assert_string_equal(verdict(j, "/"), "read-only");
	assert_string_equal(verdict(j, "/ws"), "writable");
	assert_string_equal(verdict(j, "~/proj"), "writable");
	assert_string_equal(verdict(j, "~/secret"), "masked");
	assert_string_equal(verdict(j, "~/.ssh"), "masked");          /* a default */
	assert_string_equal(verdict(j, "~/.config/gh"), "masked");    /* XDG default */
	json_t *net = json_object_get(j, "network");
	assert_string_equal(json_string_value(json_object_get(net, "mode")), "allowlist");
	assert_false(json_is_true(json_object_get(net, "enabled")));
	json_t *socks = json_object_get(j, "sockets");
	assert_int_equal(json_array_size(socks), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(socks, 0), "given")),
			    "ssh-agent");
	/* a socket path as declared, not looked up */
	assert_string_equal(json_string_value(json_object_get(json_array_get(socks, 1), "given")),
			    "~/s.sock");
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(json_object_get(j, "devices"), 0), "class")),
			    "gpu");
	json_decref(j);

	/* no defaults: no built-in stores; no network */
	j = declared_of("[sandbox]\ndefaults = false\nnetwork = false\n", &ok, err, sizeof err);
	assert_true(ok);
	assert_null(verdict(j, "~/.ssh"));
	net = json_object_get(j, "network");
	assert_string_equal(json_string_value(json_object_get(net, "mode")), "none");
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shown),
		cmocka_unit_test(test_document),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
