/* SPDX-License-Identifier: MIT */
/* The sockets allowed by name (sockets.h): the table, values into the
 * policy from the flag and a config, and where each name's socket is for
 * a table of host environments. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <stdlib.h>
#include <string.h>

#include "policy/conf.h"
#include "policy/sockets.h"

static void test_table(void **state)
{
	(void)state;
	char buf[256];
	static const char *const names[] = { "ssh-agent", "gpg-agent", "docker", "podman",
					     "system-bus" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		const struct socket_kind *k = socket_kind_find(names[i]);
		assert_non_null(k);
		assert_non_null(k->paths[0]);
		assert_non_null(k->gives);
		assert_non_null(strstr(socket_kind_names(buf, sizeof buf), names[i]));
	}
	assert_null(socket_kind_find("ssh"));
	assert_null(socket_kind_find(""));
	assert_string_equal(socket_kind_names(buf, sizeof buf),
			    "ssh-agent, gpg-agent, docker, podman, system-bus");
	char small[12];
	assert_string_equal(socket_kind_names(small, sizeof small), "ssh-agent, ");
	/* the ones that give the host away warn, with the words the issue asks */
	char *w = socket_warning(socket_kind_find("docker"));
	assert_string_equal(w, "docker socket: the jail can start a privileged container, i.e. run "
			       "anything as root on this host");
	free(w);
	w = socket_warning(socket_kind_find("podman"));
	assert_non_null(w);
	free(w);
	w = socket_warning(socket_kind_find("system-bus"));
	assert_non_null(w);
	free(w);
	assert_null(socket_warning(socket_kind_find("ssh-agent")));
	assert_null(socket_warning(socket_kind_find("gpg-agent")));
	assert_null(socket_warning(NULL));
	/* each row's templates are of the forms sockets.h names */
	for (const struct socket_kind *k = socket_kinds; k->name; k++)
		for (size_t i = 0; i < SOCKET_PATHS_MAX && k->paths[i]; i++) {
			const char *t = k->paths[i];
			assert_true(t[0] == '/' || t[0] == '$' || t[0] == '~' ||
				    strncmp(t, "unix://$", 8) == 0);
		}
}

static void test_add_flag(void **state)
{
	(void)state;
	struct policy p;
	policy_init(&p);
	char err[512] = "";
	assert_true(socket_add(&p, "--allow-socket", "ssh-agent", "--allow-socket", "/home/u", err,
			       sizeof err));
	assert_true(socket_add(&p, "--allow-socket", "/run//x/../docker.sock", "--allow-socket",
			       "/home/u", err, sizeof err));
	assert_true(socket_add(&p, "--allow-socket", "~/.gnupg/S.gpg-agent", "--allow-socket",
			       "/home/u", err, sizeof err));
	assert_true(socket_add(&p, "--allow-socket", "./dev.sock", "--allow-socket", "/home/u", err,
			       sizeof err));
	assert_int_equal(p.allow_socket.n, 4);
	assert_string_equal(p.allow_socket.v[0].value, "ssh-agent");
	assert_string_equal(p.allow_socket.v[1].value, "/run/docker.sock");
	assert_string_equal(p.allow_socket.v[2].value, "/home/u/.gnupg/S.gpg-agent");
	assert_string_equal(p.allow_socket.v[3].value, "./dev.sock");
	assert_string_equal(p.allow_socket.v[0].origin, "--allow-socket");
	/* the agent's variable passes the scrub, saying why */
	assert_int_equal(p.keep_env.n, 1);
	assert_string_equal(p.keep_env.v[0].value, "SSH_AUTH_SOCK");
	assert_string_equal(p.keep_env.v[0].origin, "--allow-socket (allow-socket ssh-agent)");

	static const char *const bad[] = { "", "ssh", "docker.sock", "SSH-AGENT", NULL };
	for (const char *const *b = bad; *b; b++) {
		assert_false(socket_add(&p, "--allow-socket", *b, "--allow-socket", "/home/u", err,
					sizeof err));
		char *want = xasprintf("--allow-socket %s: not a socket name (ssh-agent, gpg-agent, "
				       "docker, podman, system-bus) nor a path", *b);
		assert_string_equal(err, want);
		free(want);
	}
	assert_false(socket_add(&p, "--allow-socket", "~/x.sock", "--allow-socket", NULL, err,
				sizeof err));
	assert_string_equal(err, "--allow-socket ~/x.sock: cannot expand it: no home directory");
	assert_int_equal(p.allow_socket.n, 4);
	policy_free(&p);
}

static void test_config(void **state)
{
	(void)state;
	struct policy p;
	policy_init(&p);
	char err[512] = "";
	const char *text = "[sandbox]\n"
			   "allow-socket = docker\n"
			   "allow-socket = ~/run/app.sock\n";
	assert_true(config_load_text(&p, "cfg.ini", text, strlen(text), "/home/u", err, sizeof err));
	assert_int_equal(p.allow_socket.n, 2);
	assert_string_equal(p.allow_socket.v[0].value, "docker");
	assert_string_equal(p.allow_socket.v[0].origin, "cfg.ini:2");
	assert_string_equal(p.allow_socket.v[1].value, "/home/u/run/app.sock");
	assert_string_equal(p.keep_env.v[0].value, "DOCKER_HOST");
	assert_string_equal(p.keep_env.v[0].origin, "cfg.ini:2 (allow-socket docker)");
	policy_free(&p);

	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "[sandbox]\nallow-socket = nope\n",
		  "cfg.ini:2: allow-socket nope: not a socket name (ssh-agent, gpg-agent, docker, "
		  "podman, system-bus) nor a path (absolute or ~/...)" },
		{ "[sandbox]\n\nallow-socket = run/x.sock\n",
		  "cfg.ini:3: allow-socket run/x.sock: not a socket name (ssh-agent, gpg-agent, "
		  "docker, podman, system-bus) nor a path (absolute or ~/...)" },
		{ "[sandbox]\nallow-socket =\n", NULL },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		policy_init(&p);
		err[0] = '\0';
		assert_false(config_load_text(&p, "cfg.ini", bad[i].text, strlen(bad[i].text),
					      "/home/u", err, sizeof err));
		if (bad[i].err)
			assert_string_equal(err, bad[i].err);
		else
			assert_true(strncmp(err, "cfg.ini:2: ", 11) == 0);
		policy_free(&p);
	}
}

/* Every candidate of name on a host with env, joined by " | " ("-" for
 * one that is not usable, "!" after the one that decided). */
static char *candidates(const char *name, char *const *env, const char *home, unsigned uid)
{
	struct host h = { .env = env, .home = home, .home_env = home, .uid = uid, .cwd = "/" };
	for (char *const *e = env; *e; e++)
		if (strncmp(*e, "SSH_AUTH_SOCK=", 14) == 0)
			h.ssh_auth_sock = *e + 14;
	const struct socket_kind *k = socket_kind_find(name);
	assert_non_null(k);
	char *out = xstrdup("");
	for (size_t i = 0;; i++) {
		bool more, decided;
		char *note = NULL;
		char *c = socket_candidate(k, i, &h, &more, &decided, &note);
		if (!more) {
			assert_null(c);
			break;
		}
		assert_true(!c || !note);
		char *o = xasprintf("%s%s%s%s", out, i ? " | " : "", c ? c : note ? note : "-",
				    decided ? "!" : "");
		free(out);
		out = o;
		free(c);
		free(note);
	}
	return out;
}

static void test_candidates(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		char *env[3];
		const char *want;
	} rows[] = {
		{ "ssh-agent", { "SSH_AUTH_SOCK=/tmp/ssh-x/agent.1", NULL }, "/tmp/ssh-x/agent.1!" },
		{ "ssh-agent", { NULL }, "$SSH_AUTH_SOCK (not set)" },
		{ "ssh-agent", { "SSH_AUTH_SOCK=rel/agent", NULL },
		  "$SSH_AUTH_SOCK (rel/agent: not an absolute path)!" },
		{ "gpg-agent", { NULL },
		  "$GNUPGHOME (not set) | /run/user/1000/gnupg/S.gpg-agent | "
		  "/home/u/.gnupg/S.gpg-agent" },
		{ "gpg-agent", { "GNUPGHOME=/srv/gnupg", NULL },
		  "/srv/gnupg/S.gpg-agent! | /run/user/1000/gnupg/S.gpg-agent | "
		  "/home/u/.gnupg/S.gpg-agent" },
		{ "docker", { NULL },
		  "$DOCKER_HOST (not set) | /run/docker.sock | /var/run/docker.sock" },
		{ "docker", { "DOCKER_HOST=unix:///home/u/.docker/run/docker.sock", NULL },
		  "/home/u/.docker/run/docker.sock! | /run/docker.sock | /var/run/docker.sock" },
		{ "docker", { "DOCKER_HOST=tcp://10.0.0.1:2375", NULL },
		  "$DOCKER_HOST (tcp://10.0.0.1:2375: no unix:// socket)! | /run/docker.sock | "
		  "/var/run/docker.sock" },
		{ "docker", { "DOCKER_HOST=unix://rel.sock", NULL },
		  "$DOCKER_HOST (rel.sock: not an absolute path)! | /run/docker.sock | "
		  "/var/run/docker.sock" },
		{ "podman", { NULL }, "/run/user/1000/podman/podman.sock | /run/podman/podman.sock" },
		{ "system-bus", { NULL }, "/run/dbus/system_bus_socket" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		char *got = candidates(rows[i].name, rows[i].env, "/home/u", 1000);
		assert_string_equal(got, rows[i].want);
		free(got);
	}
	/* no home: the ~ candidate is not usable */
	char *env[] = { NULL };
	char *got = candidates("gpg-agent", env, NULL, 0);
	assert_string_equal(got, "$GNUPGHOME (not set) | /run/user/0/gnupg/S.gpg-agent | -");
	free(got);
}

/* The agents' names give less than their sockets: gpg-agent the extra
 * socket bound at its home's S.gpg-agent, ssh-agent kjail's relay; each
 * says what it refuses, and its full socket named by path warns. */
static void test_restricted(void **state)
{
	(void)state;
	const struct socket_kind *ssh = socket_kind_find("ssh-agent");
	const struct socket_kind *gpg = socket_kind_find("gpg-agent");
	assert_true(ssh->relay && !ssh->variant && ssh->refuses && ssh->full);
	assert_true(!gpg->relay && strcmp(gpg->variant, ".extra") == 0 && gpg->refuses &&
		    gpg->full);
	for (const struct socket_kind *k = socket_kinds; k->name; k++)
		if (k != ssh && k != gpg)
			assert_true(!k->relay && !k->variant && !k->full);
	char *w = socket_full_warning(ssh, "/tmp/ssh-x/agent.1");
	assert_string_equal(w, "/tmp/ssh-x/agent.1 is ssh-agent's full socket, not the one "
			       "--allow-socket ssh-agent gives: the jail can also add, remove and "
			       "lock the agent's keys (ssh-add -D, -x); --allow-socket ssh-agent "
			       "relays only listing and signing");
	free(w);
	assert_null(socket_full_warning(socket_kind_find("docker"), "/run/docker.sock"));
	assert_null(socket_full_warning(NULL, "/x"));

	char *env1[] = { "GNUPGHOME=/srv/gnupg//", NULL }, *env0[] = { NULL },
	     *envr[] = { "GNUPGHOME=rel", NULL };
	struct host h = { .env = env1, .home = "/home/u", .home_env = "/home/u", .uid = 1000,
			  .cwd = "/" };
	char *t = socket_bind_target(gpg, &h);
	assert_string_equal(t, "/srv/gnupg/S.gpg-agent");
	free(t);
	h.env = env0;
	t = socket_bind_target(gpg, &h);
	assert_string_equal(t, "/home/u/.gnupg/S.gpg-agent");
	free(t);
	/* a relative $GNUPGHOME is not gpg's home: the default is */
	h.env = envr;
	t = socket_gnupg_home(&h);
	assert_string_equal(t, "/home/u/.gnupg");
	free(t);
	assert_null(socket_bind_target(ssh, &h));
	h.home = h.home_env = NULL;
	h.env = env0;
	assert_null(socket_gnupg_home(&h));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_add_flag),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_candidates),
		cmocka_unit_test(test_restricted),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
