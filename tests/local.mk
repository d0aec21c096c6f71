# SPDX-License-Identifier: MIT
# Integration tests (TAP shell) for kjail, and their C helpers.
#
# The helpers are tiny probes the tests run both on the host and inside the
# jail: they print one word (an errno name, "ok", "connected") so a test can
# tell "the jail refused" from "the probe was wrong".
check_PROGRAMS += \
	tests/helpers/try \
	tests/helpers/pfind \
	tests/helpers/handle-open \
	tests/helpers/unix-listen \
	tests/helpers/unix-connect \
	tests/helpers/tcp-listen \
	tests/helpers/tcp-connect \
	tests/helpers/protected-table \
	tests/helpers/hs-meta \
	tests/helpers/gitconfig-read \
	tests/helpers/cfgfilter-run \
	tests/helpers/cred-table \
	tests/helpers/nouserns
tests_helpers_try_SOURCES = tests/helpers/try.c tests/helpers/errname.h
tests_helpers_pfind_SOURCES = tests/helpers/pfind.c
tests_helpers_handle_open_SOURCES = tests/helpers/handle-open.c tests/helpers/errname.h
tests_helpers_unix_listen_SOURCES = tests/helpers/unix-listen.c \
	tests/helpers/errname.h tests/helpers/sockaddr-un.h
tests_helpers_unix_connect_SOURCES = tests/helpers/unix-connect.c \
	tests/helpers/errname.h tests/helpers/sockaddr-un.h
tests_helpers_tcp_listen_SOURCES = tests/helpers/tcp-listen.c tests/helpers/errname.h
tests_helpers_tcp_connect_SOURCES = tests/helpers/tcp-connect.c tests/helpers/errname.h
# AM_CFLAGS carries libbsd's overlay, which renames getopt and friends.
tests_helpers_try_LDADD = $(LIBBSD_LIBS)
tests_helpers_pfind_LDADD = $(LIBBSD_LIBS)
tests_helpers_handle_open_LDADD = $(LIBBSD_LIBS)
tests_helpers_unix_listen_LDADD = $(LIBBSD_LIBS)
tests_helpers_unix_connect_LDADD = $(LIBBSD_LIBS)
tests_helpers_tcp_listen_LDADD = $(LIBBSD_LIBS)
tests_helpers_tcp_connect_LDADD = $(LIBBSD_LIBS)
tests_helpers_hs_meta_SOURCES = tests/helpers/hs-meta.c tests/helpers/errname.h
tests_helpers_hs_meta_LDADD = $(LIBBSD_LIBS)
# the table of protected paths, as TSV, from kjail's own library
tests_helpers_protected_table_SOURCES = tests/helpers/protected-table.c
tests_helpers_protected_table_LDADD = $(KJAIL_LIBS)
# what kjail's git config reader finds, as git config --list -z prints it
tests_helpers_gitconfig_read_SOURCES = tests/helpers/gitconfig-read.c
tests_helpers_gitconfig_read_LDADD = $(KJAIL_LIBS)
# a config filter over stdin, as kjail would serve the file
tests_helpers_cfgfilter_run_SOURCES = tests/helpers/cfgfilter-run.c
tests_helpers_cfgfilter_run_LDADD = $(KJAIL_LIBS)
# the table of credential stores, as TSV, from kjail's own library
tests_helpers_cred_table_SOURCES = tests/helpers/cred-table.c
tests_helpers_cred_table_LDADD = $(KJAIL_LIBS)
# runs a command where user namespaces are refused, as in a container
tests_helpers_nouserns_SOURCES = tests/helpers/nouserns.c
tests_helpers_nouserns_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS)
tests_helpers_nouserns_LDADD = $(SECCOMP_LIBS)

KJAIL_INTEGRATION_TESTS = \
	tests/integration/kjail-works.test \
	tests/integration/kjail-entry.test \
	tests/integration/kjail-masks.test \
	tests/integration/kjail-mask-aliases.test \
	tests/integration/kjail-protected.test \
	tests/integration/kjail-protected-table.test \
	tests/integration/kjail-protected-docs.test \
	tests/integration/kjail-aftercare.test \
	tests/integration/kjail-gitconfig-corpus.test \
	tests/integration/kjail-submodules.test \
	tests/integration/kjail-worktree.test \
	tests/integration/kjail-gitreport.test \
	tests/integration/kjail-aftercare-git.test \
	tests/integration/kjail-aftercare-cache.test \
	tests/integration/kjail-git-env.test \
	tests/integration/kjail-cred-table.test \
	tests/integration/kjail-cfgfilter.test \
	tests/integration/kjail-cfgfilter-oracle.test \
	tests/integration/kjail-escape.test \
	tests/integration/kjail-env.test \
	tests/integration/kjail-secret.test \
	tests/integration/kjail-secret-env.test \
	tests/integration/kjail-secret-content.test \
	tests/integration/kjail-network.test \
	tests/integration/kjail-allow-host-config.test \
	tests/integration/kjail-allow-host.test \
	tests/integration/kjail-allow-local.test \
	tests/integration/kjail-upstream.test \
	tests/integration/proxy-cap.test \
	tests/integration/kjail-net-refusals.test \
	tests/integration/kjail-ssh.test \
	tests/integration/kjail-socket-families.test \
	tests/integration/kjail-nested-debug.test \
	tests/integration/kjail-nested.test \
	tests/integration/kjail-host-sockets.test \
	tests/integration/kjail-socket-scan.test \
	tests/integration/kjail-allow-socket.test \
	tests/integration/kjail-agent-sockets.test \
	tests/integration/kjail-host-metadata.test \
	tests/integration/kjail-badinput.test \
	tests/integration/kjail-writable-missing.test \
	tests/integration/kjail-landlock-backend.test \
	tests/integration/kjail-userns-probe.test \
	tests/integration/kjail-masked-proc.test \
	tests/integration/kjail-device-gpu.test \
	tests/integration/kjail-pyenv.test \
	tests/integration/kjail-cache.test \
	tests/integration/kjail-check-config.test \
	tests/integration/kjail-explain.test \
	tests/integration/kjail-newcomer.test \
	tests/integration/kjail-cache-prune.test \
	tests/integration/proxy-sni.test \
	tests/integration/bench-smoke.test
TESTS += $(KJAIL_INTEGRATION_TESTS)
# Run through the shell, so a lost executable bit cannot break the suite.
TEST_LOG_COMPILER = $(SHELL)
EXTRA_DIST += $(KJAIL_INTEGRATION_TESTS) tests/integration/lib.sh tests/integration/tap.sh \
	tests/helpers/egress-servers.py tests/helpers/socks5-connect.py \
	tests/helpers/upstream-proxy.py \
	tests/helpers/sni-front.py tests/helpers/sni-client.py \
	tests/helpers/net-log-check.py \
	tests/data/gitconfig-corpus tests/helpers/oracle
# The tests' fixtures, should a run be interrupted before its trap.
clean-local: clean-kjail-integration
clean-kjail-integration:
	-chmod -R u+rwX tests/integration/work.* 2>/dev/null
	-rm -rf tests/integration/work.* tests/policy-docs
.PHONY: clean-kjail-integration

# The source files' graph as nm reads it from the objects of src/: no two
# files call each other in a loop, none defines a C library function's name.
TESTS += tests/integration/source-graph.test tests/integration/license-lint.test
EXTRA_DIST += tests/integration/source-graph.test tests/helpers/source-graph.py \
	tests/integration/license-lint.test tests/helpers/spdx-files.sh LICENSE

# README.md stays a front door: 12 KiB at most, its opening commands, the
# install and the five commands near the top, and a Layout whose every
# path exists.
TESTS += tests/integration/readme-layout.test
EXTRA_DIST += tests/integration/readme-layout.test

# The egress proxy's engine alone (issue 26): its integration test and the
# bench run it on loopback ports.
check_PROGRAMS += tests/helpers/proxy-run
tests_helpers_proxy_run_SOURCES = tests/helpers/proxy-run.c
tests_helpers_proxy_run_LDADD = $(KJAIL_LIBS)
# a flood of requests the proxy refuses, from inside a jail (issue 38)
check_PROGRAMS += tests/helpers/proxy-flood
tests_helpers_proxy_flood_SOURCES = tests/helpers/proxy-flood.c
tests_helpers_proxy_flood_LDADD = $(LIBBSD_LIBS)
TESTS += tests/integration/proxy-engine.test tests/integration/proxy-memory.test
EXTRA_DIST += tests/integration/proxy-engine.test tests/integration/proxy-memory.test \
	tests/helpers/proxy-peer.py

# The proxy's privileges (issue 38): kjail-proxy's identity, capabilities,
# filter and environment read from /proc while it serves a jail, and its
# confinement tried call by call through the function it applies it with.
if OS_LINUX
check_PROGRAMS += tests/helpers/agent-sandbox-try
tests_helpers_agent_sandbox_try_SOURCES = tests/helpers/agent-sandbox-try.c tests/helpers/errname.h
tests_helpers_agent_sandbox_try_LDADD = $(KJAIL_LIBS)
check_PROGRAMS += tests/helpers/proxy-sandbox-try
tests_helpers_proxy_sandbox_try_SOURCES = tests/helpers/proxy-sandbox-try.c tests/helpers/errname.h
tests_helpers_proxy_sandbox_try_CFLAGS = $(AM_CFLAGS) $(PTHREAD_CFLAGS)
tests_helpers_proxy_sandbox_try_LDADD = $(KJAIL_LIBS)
endif
TESTS += tests/integration/proxy-privsep.test
EXTRA_DIST += tests/integration/proxy-privsep.test tests/helpers/dns-answer.py
