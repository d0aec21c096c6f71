/* SPDX-License-Identifier: MIT */
/* The socket scan's rules (socket-rules.h): the engine and allow tables
 * matched against paths, the directory-of-sockets-only rule, and docker's
 * unix:// endpoints (docker-endpoint.h). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <stdlib.h>
#include <string.h>

#include "planner/docker-endpoint.h"
#include "policy/socket-rules.h"

#define HOME "/home/u"

/* Every desktop runtime's engine socket is named; a path elsewhere, or
 * one component deeper than a pattern, is not. */
static void test_engine_table(void **state)
{
	(void)state;
	static const struct {
		const char *path, *what;
	} cases[] = {
		{ HOME "/.docker/run/docker.sock", "Docker Desktop engine socket" },
		{ HOME "/.docker/desktop/docker.sock", "Docker Desktop engine socket" },
		{ HOME "/.docker/desktop/backend.sock", "Docker Desktop socket" },
		{ HOME "/.colima/default/docker.sock", "Colima Docker engine socket" },
		{ HOME "/.colima/work/containerd.sock", "Colima containerd socket" },
		{ HOME "/.config/colima/default/docker.sock", "Colima Docker engine socket" },
		{ HOME "/.lima/default/sock/docker.sock", "Lima VM Docker engine socket" },
		{ HOME "/.lima/default/sock/buildkitd.sock", "Lima VM forwarded socket" },
		{ HOME "/.lima/default/ha.sock", "Lima VM host agent socket" },
		{ HOME "/.rd/docker.sock", "Rancher Desktop engine socket" },
		{ HOME "/.local/share/containers/podman/machine/qemu/podman.sock",
		  "Podman machine API socket" },
		{ HOME "/.local/share/containers/podman/machine/podman.sock",
		  "Podman machine API socket" },
		{ HOME "/.orbstack/run/docker.sock", "OrbStack engine socket" },
		/* not the table's: the scan's own words */
		{ HOME "/.colima/default/sub/docker.sock", "socket found by scan" },
		{ HOME "/.docker/run", "socket found by scan" },
		{ "/other/.docker/run/docker.sock", "socket found by scan" },
		{ HOME "x/.docker/run/docker.sock", "socket found by scan" },
		{ "/run/docker.sock", "socket found by scan" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		assert_string_equal(socket_rule_what(cases[i].path, HOME), cases[i].what);
	/* no home: only absolute patterns can match */
	assert_string_equal(socket_rule_what(HOME "/.rd/docker.sock", NULL), "socket found by scan");
	assert_string_equal(socket_rule_what(HOME "/.rd/docker.sock", "/"), "socket found by scan");
}

/* The allow table keeps look-ups and logging, nothing that acts for the
 * jail outside it. */
static void test_allow_table(void **state)
{
	(void)state;
	static const char *const kept[] = {
		"/run/nscd/socket", "/var/run/nscd/socket",
		"/run/systemd/resolve/io.systemd.Resolve", "/run/systemd/journal/socket",
		"/run/systemd/journal/dev-log", "/run/systemd/userdb/io.systemd.Multiplexer",
	};
	static const char *const masked[] = {
		"/run/dbus/system_bus_socket", "/run/systemd/private", "/run/systemd/notify",
		"/run/systemd/journal/io.systemd.journal", "/run/systemd/journal/syslog",
		"/run/docker.sock", "/run/nscd/socket2", "/run/nscd", "/run/user/1000/bus",
		"/run/systemd/userdb/sub/io.systemd.X", HOME "/.docker/run/docker.sock",
		"/run/systemd/resolve/io.systemd.Resolve.Monitor",
	};
	for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
		assert_non_null(socket_rule_match(allowed_sockets, kept[i], HOME));
	for (size_t i = 0; i < sizeof masked / sizeof *masked; i++)
		assert_null(socket_rule_match(allowed_sockets, masked[i], HOME));
}

/* A directory is masked whole only when it holds sockets (directly or in
 * directories of sockets only), none kept, and nothing else. */
static void test_dir_rule(void **state)
{
	(void)state;
	static const struct {
		struct socket_tally t;
		bool whole;
	} cases[] = {
		{ { .sockets = 1 }, true },
		{ { .sockets = 3 }, true },
		{ { .socket_dirs = 1 }, true },
		{ { .sockets = 2, .socket_dirs = 2 }, true },
		{ { 0 }, false },                      /* empty: not a socket directory */
		{ { .sockets = 1, .others = 1 }, false }, /* a config beside it */
		{ { .sockets = 1, .allowed = 1 }, false }, /* the journal's: kept */
		{ { .socket_dirs = 1, .others = 1 }, false },
		{ { .allowed = 2 }, false },
		{ { .others = 5 }, false },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		assert_int_equal(socket_dir_only_sockets(&cases[i].t), cases[i].whole);
}

static void test_docker_unix_path(void **state)
{
	(void)state;
	char *p = docker_unix_path("unix:///var/run/docker.sock");
	assert_string_equal(p, "/var/run/docker.sock");
	free(p);
	p = docker_unix_path("unix://" HOME "/.colima/default/docker.sock");
	assert_string_equal(p, HOME "/.colima/default/docker.sock");
	free(p);
	assert_null(docker_unix_path("tcp://127.0.0.1:2375"));
	assert_null(docker_unix_path("ssh://me@host"));
	assert_null(docker_unix_path("unix://relative.sock"));
	assert_null(docker_unix_path("unix://"));
	assert_null(docker_unix_path(""));
	assert_null(docker_unix_path(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engine_table),
		cmocka_unit_test(test_allow_table),
		cmocka_unit_test(test_dir_rule),
		cmocka_unit_test(test_docker_unix_path),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
