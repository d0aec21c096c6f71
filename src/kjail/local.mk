# SPDX-License-Identifier: MIT
noinst_LIBRARIES += libkjail.a
libkjail_a_SOURCES = \
	src/kjail/policy/policy.c src/kjail/policy/policy.h \
	src/kjail/policy/defaults.c src/kjail/policy/defaults.h \
	src/kjail/policy/conf.c src/kjail/policy/conf.h \
	src/kjail/policy/env.c src/kjail/policy/env.h \
	src/kjail/git/env.c src/kjail/git/env.h \
	src/kjail/policy/cache.c src/kjail/policy/cache.h \
	src/kjail/planner/plan.c src/kjail/planner/plan.h src/kjail/planner/tools.c src/kjail/planner/internal.h \
	src/kjail/planner/plan-take.h src/kjail/planner/tools.h src/kjail/planner/checks.h \
	src/kjail/planner/masks.h src/kjail/planner/socket-plan.h src/kjail/planner/mask-aliases.h \
	src/kjail/planner/protect-path.h src/kjail/planner/protect-git.h src/kjail/planner/protect-home.h \
	src/kjail/planner/protect.h \
	src/kjail/planner/planner.c src/kjail/planner/planner.h src/kjail/planner/checks.c src/kjail/planner/masks.c \
	src/kjail/planner/ssh.c src/kjail/planner/ssh.h \
	src/kjail/planner/netlog.c src/kjail/planner/netlog.h \
	src/kjail/planner/mask-aliases.c src/kjail/planner/mountinfo.c src/kjail/planner/mountinfo.h \
	src/kjail/policy/sockets.c src/kjail/policy/sockets.h src/kjail/planner/socket-plan.c \
	src/kjail/policy/socket-rules.c src/kjail/policy/socket-rules.h \
	src/kjail/planner/socket-scan.c src/kjail/planner/socket-scan.h \
	src/kjail/planner/docker-endpoint.c src/kjail/planner/docker-endpoint.h \
	src/kjail/policy/secret.c src/kjail/policy/secret.h src/kjail/run/secret.c src/kjail/run/secret.h \
	src/kjail/policy/secretval.c src/kjail/policy/secretval.h \
	src/kjail/policy/credfile.c src/kjail/policy/credfile.h \
	src/kjail/policy/credcache.c src/kjail/policy/credcache.h \
	src/kjail/planner/credscan.c src/kjail/planner/credscan.h \
	src/kjail/planner/protected.c src/kjail/planner/protected.h src/kjail/planner/protect.c \
	src/kjail/planner/protect-git.c src/kjail/planner/protect-home.c src/kjail/planner/protect-path.c \
	src/kjail/planner/gitjail.c src/kjail/planner/gitjail.h \
	src/kjail/git/lexer.c src/kjail/git/lexer.h \
	src/kjail/git/reader.c src/kjail/git/reader.h src/kjail/git/link.c src/kjail/git/link.h \
	src/kjail/git/command.c src/kjail/git/command.h \
	src/kjail/git/small-files.c src/kjail/git/small-files.h \
	src/kjail/cfgfilter/cfgfilter.c src/kjail/cfgfilter/cfgfilter.h src/kjail/cfgfilter/internal.h \
	src/kjail/cfgfilter/git.h src/kjail/cfgfilter/ini.h src/kjail/cfgfilter/npmrc.h src/kjail/cfgfilter/json.h src/kjail/cfgfilter/yaml.h \
	src/kjail/cfgfilter/common.c \
	src/kjail/cfgfilter/ini.c src/kjail/cfgfilter/npmrc.c src/kjail/cfgfilter/git.c src/kjail/cfgfilter/yaml.c \
	src/kjail/cfgfilter/json.c \
	src/kjail/build/bwrap.c src/kjail/build/bwrap.h \
	src/kjail/build/explain.c src/kjail/build/explain.h \
	src/kjail/build/explain-words.c src/kjail/build/explain-words.h \
	src/kjail/build/policy-json.c src/kjail/build/policy-json.h \
	src/kjail/build/declared.c src/kjail/build/declared.h \
	src/kjail/build/brief.c src/kjail/build/brief.h \
	src/kjail/build/hints.c src/kjail/build/hints.h \
	src/kjail/planner/hints.c src/kjail/planner/hints.h src/kjail/planner/shell.c src/kjail/planner/shell.h \
	src/kjail/run/hints.c src/kjail/run/hints.h \
	src/kjail/run/stdio_guard.c src/kjail/run/stdio_guard.h \
	src/kjail/run/locate.c src/kjail/run/locate.h \
	src/kjail/run/spawn.c src/kjail/run/spawn.h \
	src/kjail/run/backend.c src/kjail/run/backend.h \
	src/kjail/run/bwrap-run.c src/kjail/run/container-run.c \
	src/kjail/run/landlock-run.c \
	src/kjail/run/ll-domain.c src/kjail/run/ll-domain.h \
	src/kjail/run/ll-restore.c src/kjail/run/ll-restore.h \
	src/kjail/build/landlock-degraded.c src/kjail/build/landlock-degraded.h \
	src/kjail/policy/egress.c src/kjail/policy/egress.h src/kjail/run/egress.c src/kjail/run/egress.h \
	src/kjail/run/devlock.c src/kjail/run/devlock.h \
	src/kjail/policy/device.c src/kjail/policy/device.h src/kjail/planner/devscan.c src/kjail/planner/devscan.h \
	src/kjail/run/reap.c src/kjail/run/reap.h \
	src/kjail/run/aftercare.c src/kjail/run/aftercare.h \
	src/kjail/run/caches.c src/kjail/run/caches.h src/kjail/run/tree.c src/kjail/run/tree.h \
	src/kjail/git/report.c src/kjail/git/report.h \
	src/kjail/run/notice.c src/kjail/run/notice.h \
	src/kjail/entry/core.c src/kjail/entry/entry.h src/kjail/entry/abi.h \
	src/kjail/build/seccomp.c src/kjail/build/seccomp.h src/kjail/run/seccomp_load.c src/kjail/run/seccomp_load.h \
	src/kjail/entry/landlock.c src/kjail/entry/landlock.h \
	src/kjail/entry/tunnel.c src/kjail/entry/tunnel.h \
	src/kjail/run/probe.c src/kjail/run/probe.h src/kjail/run/doctor.c src/kjail/run/doctor.h \
	src/kjail/run/bwrap-probe.c src/kjail/run/bwrap-probe.h src/kjail/run/probe-cache.c src/kjail/run/probe-cache.h \
	src/kjail/build/seatbelt.c src/kjail/build/seatbelt.h \
	src/kjail/run/seatbelt-run.c src/kjail/run/seatbelt-run.h \
	src/kjail/proxy/rules.c src/kjail/proxy/rules.h \
	src/kjail/proxy/parse.c src/kjail/proxy/parse.h \
	src/kjail/proxy/tls.c src/kjail/proxy/tls.h \
	src/kjail/proxy/inspect.c src/kjail/proxy/inspect.h \
	src/kjail/proxy/conn.c src/kjail/proxy/proxy.h src/kjail/proxy/internal.h \
	src/kjail/proxy/conn.h src/kjail/proxy/log.h src/kjail/proxy/relay.h src/kjail/proxy/serve.h \
	src/kjail/proxy/spawn.h src/kjail/proxy/tally.h src/kjail/proxy/summary.h \
	src/kjail/proxy/serve.c src/kjail/proxy/relay.c src/kjail/proxy/log.c \
	src/kjail/proxy/tally.c src/kjail/proxy/summary.c \
	src/kjail/proxy/budget.c src/kjail/proxy/budget.h \
	src/kjail/proxy/spawn.c \
	src/kjail/proxy/handoff.c src/kjail/proxy/handoff.h \
	src/kjail/proxy/privdrop.c src/kjail/proxy/privdrop.h \
	src/kjail/proxy/sandbox.c src/kjail/proxy/sandbox.h \
	src/kjail/agent/msg.c src/kjail/agent/msg.h src/kjail/agent/relay.c src/kjail/agent/relay.h \
	src/kjail/agent/sandbox.c src/kjail/agent/sandbox.h src/kjail/agent/spawn.c src/kjail/agent/spawn.h \
	src/kjail/run/relay-run.c src/kjail/run/relay-run.h \
	src/kjail/proxy/upstream.c src/kjail/proxy/upstream.h \
	src/kjail/proxy/dial.c src/kjail/proxy/dial.h
libkjail_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(SECCOMP_CFLAGS) $(PTHREAD_CFLAGS)
libkjail_a_CPPFLAGS = $(AM_CPPFLAGS) -DKJ_PKGLIBEXECDIR='"$(pkglibexecdir)"'

# The egress proxy's program (proxy/kjail-proxy.c), executed by kjail for
# --allow-host: its own image, with only the proxy's code linked in (the
# archive's other objects stay out), on Linux and macOS alike. Not a mode
# of kjail-entry: that one runs inside the jail, links no jansson,
# libseccomp or threads, and must stay small; this one runs outside it.
pkglibexec_PROGRAMS = kjail-proxy
kjail_proxy_SOURCES = src/kjail/proxy/kjail-proxy.c
kjail_proxy_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(PTHREAD_CFLAGS)
kjail_proxy_LDADD = libkjail.a $(COMMON_LIBS) $(JANSSON_LIBS) $(SECCOMP_LIBS) $(PTHREAD_LIBS)

# The ssh-agent relay (agent/kjail-agent-relay.c), executed by kjail for
# --allow-socket ssh-agent: like the proxy, an image of its own that reads
# the jail's requests only after it has given up its capabilities and
# confined itself.
if OS_LINUX
pkglibexec_PROGRAMS += kjail-agent-relay
kjail_agent_relay_SOURCES = src/kjail/agent/kjail-agent-relay.c
kjail_agent_relay_CFLAGS = $(AM_CFLAGS)
kjail_agent_relay_LDADD = libkjail.a $(COMMON_LIBS) $(SECCOMP_LIBS)
endif

# The jail's first program (entry/core.c): Landlock, the user's stderr and
# signal dispositions back, descriptor hygiene, exec. One program, the same
# in every build.
if OS_LINUX
pkglibexec_PROGRAMS += kjail-entry
kjail_entry_SOURCES = src/kjail/entry/entry.c src/kjail/entry/core.c src/kjail/entry/entry.h \
	src/kjail/entry/connect.c src/kjail/entry/connect.h \
	src/kjail/entry/tunnel.c src/kjail/entry/tunnel.h \
	src/kjail/entry/abi.h src/kjail/entry/landlock.c src/kjail/entry/landlock.h \
	src/common/fdpass.c src/common/fdpass.h \
	src/common/util.c src/common/util.h
kjail_entry_CPPFLAGS = $(AM_CPPFLAGS)
kjail_entry_CFLAGS = $(AM_CFLAGS)
kjail_entry_LDADD = $(LIBBSD_LIBS)
endif

# The seccomp program is compiled once, at build time, for this machine.
if HAVE_SECCOMP
noinst_PROGRAMS += gen-seccomp-bpf
gen_seccomp_bpf_SOURCES = src/kjail/build/gen-seccomp-bpf.c src/kjail/build/seccomp.c
gen_seccomp_bpf_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS)
gen_seccomp_bpf_LDADD = $(COMMON_LIBS) $(SECCOMP_LIBS)
nodist_libkjail_a_SOURCES = src/kjail/build/seccomp-bpf.c
BUILT_SOURCES = src/kjail/build/seccomp-bpf.c
CLEANFILES += src/kjail/build/seccomp-bpf.c
src/kjail/build/seccomp-bpf.c: gen-seccomp-bpf$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) src/kjail/build && ./gen-seccomp-bpf$(EXEEXT) > $@.tmp && mv $@.tmp $@
endif

KJAIL_LIBS = libkjail.a $(COMMON_LIBS) $(JANSSON_LIBS) $(SECCOMP_LIBS) $(PTHREAD_LIBS)

bin_PROGRAMS += kjail
kjail_SOURCES = src/kjail/main.c
kjail_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
kjail_LDADD = $(KJAIL_LIBS)
# The plans (and the trees plan_build reads) that the planner's and the
# builders' tests start from, made one way.
PLAN_FIXTURE = tests/unit/kjail/plan-fixture.h tests/unit/kjail/tree-fixture.h tests/unit/golden.h
check_PROGRAMS += tests/unit/kjail/policy/test_cache tests/unit/kjail/policy/test_env tests/unit/kjail/build/test_bwrap tests/unit/kjail/policy/test_conf tests/unit/kjail/planner/test_planner tests/unit/kjail/build/test_seccomp \
	tests/unit/kjail/git/test_reader tests/unit/kjail/git/test_lexer tests/unit/kjail/build/test_explain tests/unit/kjail/run/test_probe tests/unit/kjail/planner/test_mountinfo \
	tests/unit/kjail/cfgfilter/test_cfgfilter tests/unit/kjail/git/test_command \
	tests/unit/kjail/run/test_caches
TESTS += tests/unit/kjail/policy/test_cache tests/unit/kjail/policy/test_env tests/unit/kjail/build/test_bwrap tests/unit/kjail/policy/test_conf tests/unit/kjail/planner/test_planner tests/unit/kjail/build/test_seccomp \
	tests/unit/kjail/git/test_reader tests/unit/kjail/git/test_lexer tests/unit/kjail/build/test_explain tests/unit/kjail/run/test_probe tests/unit/kjail/planner/test_mountinfo \
	tests/unit/kjail/cfgfilter/test_cfgfilter tests/unit/kjail/git/test_command \
	tests/unit/kjail/run/test_caches
tests_unit_kjail_run_test_caches_SOURCES = tests/unit/kjail/run/test_caches.c tests/unit/kjail/tree-fixture.h
tests_unit_kjail_run_test_caches_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_run_test_caches_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_git_test_command_SOURCES = tests/unit/kjail/git/test_command.c
tests_unit_kjail_git_test_command_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_git_test_command_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_cfgfilter_test_cfgfilter_SOURCES = tests/unit/kjail/cfgfilter/test_cfgfilter.c
tests_unit_kjail_cfgfilter_test_cfgfilter_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_cfgfilter_test_cfgfilter_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_planner_test_mountinfo_SOURCES = tests/unit/kjail/planner/test_mountinfo.c
tests_unit_kjail_planner_test_mountinfo_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_planner_test_mountinfo_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_build_test_explain_SOURCES = tests/unit/kjail/build/test_explain.c $(PLAN_FIXTURE)
tests_unit_kjail_build_test_explain_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS)
tests_unit_kjail_build_test_explain_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
# --explain --verbose byte for byte (NAME.txt) and plain --explain (NAME.short);
# test_explain: KJ_UPDATE_GOLDEN=1 rewrites them
EXPLAIN_GOLDEN = tests/unit/golden/explain/root.txt tests/unit/golden/explain/user.txt \
	tests/unit/golden/explain/nested.txt tests/unit/golden/explain/root.short \
	tests/unit/golden/explain/user.short tests/unit/golden/explain/nested.short
EXTRA_DIST += $(EXPLAIN_GOLDEN)
tests_unit_kjail_run_test_probe_SOURCES = tests/unit/kjail/run/test_probe.c
tests_unit_kjail_run_test_probe_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_run_test_probe_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
# The bwrap probe's cache text (issue 43): written and read back exactly.
check_PROGRAMS += tests/unit/kjail/run/test_probe_cache
TESTS += tests/unit/kjail/run/test_probe_cache
tests_unit_kjail_run_test_probe_cache_SOURCES = tests/unit/kjail/run/test_probe_cache.c
tests_unit_kjail_run_test_probe_cache_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_run_test_probe_cache_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
# The backend table (issue 37): the lookup, and what each backend says of
# running here.
check_PROGRAMS += tests/unit/kjail/run/test_backend
TESTS += tests/unit/kjail/run/test_backend
tests_unit_kjail_run_test_backend_SOURCES = tests/unit/kjail/run/test_backend.c
tests_unit_kjail_run_test_backend_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_run_test_backend_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_git_test_reader_SOURCES = tests/unit/kjail/git/test_reader.c
tests_unit_kjail_git_test_reader_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_git_test_reader_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_git_test_lexer_SOURCES = tests/unit/kjail/git/test_lexer.c
tests_unit_kjail_git_test_lexer_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_git_test_lexer_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_policy_test_cache_SOURCES = tests/unit/kjail/policy/test_cache.c
tests_unit_kjail_policy_test_cache_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_policy_test_cache_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_policy_test_env_SOURCES = tests/unit/kjail/policy/test_env.c
tests_unit_kjail_policy_test_env_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_policy_test_env_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_build_test_bwrap_SOURCES = tests/unit/kjail/build/test_bwrap.c $(PLAN_FIXTURE)
tests_unit_kjail_build_test_bwrap_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_build_test_bwrap_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_policy_test_conf_SOURCES = tests/unit/kjail/policy/test_conf.c
tests_unit_kjail_policy_test_conf_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_policy_test_conf_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_planner_test_planner_SOURCES = tests/unit/kjail/planner/test_planner.c $(PLAN_FIXTURE)
tests_unit_kjail_planner_test_planner_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_planner_test_planner_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_build_test_seccomp_SOURCES = tests/unit/kjail/build/test_seccomp.c
tests_unit_kjail_build_test_seccomp_CFLAGS = $(UNIT_CFLAGS) $(SECCOMP_CFLAGS)
tests_unit_kjail_build_test_seccomp_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)

# The jail of git after a run, and git's small files read outside one
# (issue 39, item 8).
check_PROGRAMS += tests/unit/kjail/planner/test_gitjail tests/unit/kjail/git/test_small_files
TESTS += tests/unit/kjail/planner/test_gitjail tests/unit/kjail/git/test_small_files
tests_unit_kjail_git_test_small_files_SOURCES = tests/unit/kjail/git/test_small_files.c
tests_unit_kjail_git_test_small_files_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_git_test_small_files_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_planner_test_gitjail_SOURCES = tests/unit/kjail/planner/test_gitjail.c
tests_unit_kjail_planner_test_gitjail_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_planner_test_gitjail_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)

# The hints at start (issue 37): which commands are interactive shells,
# what the planner notes, the lines themselves.
check_PROGRAMS += tests/unit/kjail/planner/test_shell tests/unit/kjail/planner/test_hints \
	tests/unit/kjail/build/test_hints tests/unit/kjail/build/test_declared \
	tests/unit/kjail/build/test_landlock_degraded
TESTS += tests/unit/kjail/planner/test_shell tests/unit/kjail/planner/test_hints \
	tests/unit/kjail/build/test_hints tests/unit/kjail/build/test_declared \
	tests/unit/kjail/build/test_landlock_degraded
tests_unit_kjail_build_test_declared_SOURCES = tests/unit/kjail/build/test_declared.c
tests_unit_kjail_build_test_declared_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_build_test_declared_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_build_test_landlock_degraded_SOURCES = tests/unit/kjail/build/test_landlock_degraded.c
tests_unit_kjail_build_test_landlock_degraded_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_build_test_landlock_degraded_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_planner_test_shell_SOURCES = tests/unit/kjail/planner/test_shell.c \
	tests/unit/kjail/tree-fixture.h
tests_unit_kjail_planner_test_shell_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_planner_test_shell_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_planner_test_hints_SOURCES = tests/unit/kjail/planner/test_hints.c \
	tests/unit/kjail/tree-fixture.h
tests_unit_kjail_planner_test_hints_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_planner_test_hints_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_build_test_hints_SOURCES = tests/unit/kjail/build/test_hints.c
tests_unit_kjail_build_test_hints_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_build_test_hints_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)

TESTS += tests/integration/kjail-cli.test tests/integration/kjail-doctor.test
EXTRA_DIST += tests/integration/kjail-cli.test tests/integration/kjail-doctor.test

# libFuzzer harness for the mountinfo parser and the alias finder, on the
# conventions of tests/fuzz/local.mk (FUZZ_TARGETS, seeds in
# tests/fuzz/corpus/mountinfo). Compiled by clang from the sources
# themselves: the gcc-built archives carry no coverage instrumentation.
KJAIL_FUZZ_TARGETS =
if HAVE_CLANG
KJAIL_FUZZ_TARGETS += tests/fuzz/fuzz_mountinfo
endif
FUZZ_TARGETS += $(KJAIL_FUZZ_TARGETS)
EXTRA_DIST += tests/fuzz/fuzz_mountinfo.c
CLEANFILES += tests/fuzz/fuzz_mountinfo
FUZZ_MOUNTINFO_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_mountinfo.c \
	$(srcdir)/src/kjail/planner/mountinfo.c \
	$(srcdir)/src/common/path.c \
	$(srcdir)/src/common/util.c $(srcdir)/src/common/strbuf.c
tests/fuzz/fuzz_mountinfo: $(FUZZ_MOUNTINFO_SRCS) tests/fuzz/fuzz.h src/kjail/planner/mountinfo.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@ $(FUZZ_MOUNTINFO_SRCS) $(LIBBSD_LIBS)

fuzz-mountinfo-run:
	$(MAKE) $(AM_MAKEFLAGS) fuzz-run FUZZ_TARGETS='$(KJAIL_FUZZ_TARGETS)'
.PHONY: fuzz-mountinfo-run

# libFuzzer harness for the bwrap probe's cache text (issue 43); seeds in
# tests/fuzz/corpus/probe_cache.
if HAVE_CLANG
FUZZ_TARGETS += tests/fuzz/fuzz_probe_cache
endif
EXTRA_DIST += tests/fuzz/fuzz_probe_cache.c
CLEANFILES += tests/fuzz/fuzz_probe_cache
FUZZ_PROBE_CACHE_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_probe_cache.c $(srcdir)/src/kjail/run/probe-cache.c \
	$(srcdir)/src/common/util.c $(srcdir)/src/common/strbuf.c
tests/fuzz/fuzz_probe_cache: $(FUZZ_PROBE_CACHE_SRCS) tests/fuzz/fuzz.h src/kjail/run/probe-cache.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@ $(FUZZ_PROBE_CACHE_SRCS) $(LIBBSD_LIBS)

# The egress proxy (issue 26): the allowlist, the descriptor hand-over with
# proxy_spawn, the request parsers, the log; the ClientHello reader,
# what watches a tunnel and the memory budget (issue 38).
check_PROGRAMS += tests/unit/kjail/proxy/test_rules tests/unit/kjail/proxy/test_parse \
	tests/unit/kjail/proxy/test_log tests/unit/kjail/proxy/test_budget \
	tests/unit/kjail/proxy/test_tls tests/unit/kjail/proxy/test_inspect
TESTS += tests/unit/kjail/proxy/test_rules tests/unit/kjail/proxy/test_parse \
	tests/unit/kjail/proxy/test_log tests/unit/kjail/proxy/test_budget \
	tests/unit/kjail/proxy/test_tls tests/unit/kjail/proxy/test_inspect
tests_unit_kjail_proxy_test_rules_SOURCES = tests/unit/kjail/proxy/test_rules.c
tests_unit_kjail_proxy_test_rules_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_proxy_test_rules_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
# kjail-entry --connect's words to the proxy (issue 38: ssh's ProxyCommand)
check_PROGRAMS += tests/unit/kjail/entry/test_tunnel
TESTS += tests/unit/kjail/entry/test_tunnel
tests_unit_kjail_entry_test_tunnel_SOURCES = tests/unit/kjail/entry/test_tunnel.c
tests_unit_kjail_entry_test_tunnel_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_entry_test_tunnel_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
# The ssh-agent relay's judge (issue 39).
check_PROGRAMS += tests/unit/kjail/agent/test_msg
TESTS += tests/unit/kjail/agent/test_msg
tests_unit_kjail_agent_test_msg_SOURCES = tests/unit/kjail/agent/test_msg.c
tests_unit_kjail_agent_test_msg_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_agent_test_msg_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
# The caller's upstream proxy (issue 38): its URL, NO_PROXY, the handshakes
# and kjail's reading of its environment.
check_PROGRAMS += tests/unit/kjail/proxy/test_upstream
TESTS += tests/unit/kjail/proxy/test_upstream
tests_unit_kjail_proxy_test_upstream_SOURCES = tests/unit/kjail/proxy/test_upstream.c
tests_unit_kjail_proxy_test_upstream_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_proxy_test_upstream_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
# kjail-proxy's own parts (issue 38): what kjail hands it, who it becomes.
check_PROGRAMS += tests/unit/kjail/proxy/test_handoff
TESTS += tests/unit/kjail/proxy/test_handoff
tests_unit_kjail_proxy_test_handoff_SOURCES = tests/unit/kjail/proxy/test_handoff.c
tests_unit_kjail_proxy_test_handoff_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_proxy_test_handoff_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
if OS_LINUX
check_PROGRAMS += tests/unit/kjail/proxy/test_privdrop
TESTS += tests/unit/kjail/proxy/test_privdrop
tests_unit_kjail_proxy_test_privdrop_SOURCES = tests/unit/kjail/proxy/test_privdrop.c
tests_unit_kjail_proxy_test_privdrop_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_proxy_test_privdrop_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
endif
tests_unit_kjail_proxy_test_parse_SOURCES = tests/unit/kjail/proxy/test_parse.c
tests_unit_kjail_proxy_test_parse_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_proxy_test_parse_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
# the log's cap and counts, and kjail's line from its summary (issue 38)
tests_unit_kjail_proxy_test_log_SOURCES = tests/unit/kjail/proxy/test_log.c
tests_unit_kjail_proxy_test_log_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS)
tests_unit_kjail_proxy_test_log_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
# the ClientHellos it reads are captures (tests/data/tls, README there)
tests_unit_kjail_proxy_test_tls_SOURCES = tests/unit/kjail/proxy/test_tls.c
tests_unit_kjail_proxy_test_tls_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_proxy_test_tls_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_proxy_test_inspect_SOURCES = tests/unit/kjail/proxy/test_inspect.c
tests_unit_kjail_proxy_test_inspect_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_proxy_test_inspect_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
EXTRA_DIST += tests/data/tls
# the memory budget, threads included
tests_unit_kjail_proxy_test_budget_SOURCES = tests/unit/kjail/proxy/test_budget.c
tests_unit_kjail_proxy_test_budget_CFLAGS = $(UNIT_CFLAGS) $(PTHREAD_CFLAGS)
tests_unit_kjail_proxy_test_budget_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)

# libFuzzer harness for the egress proxy's parsers, the allowlist, the
# ClientHello reader and what watches a tunnel (seeds in
# tests/fuzz/corpus/proxy, tokens in tests/fuzz/proxy.dict).
if HAVE_CLANG
FUZZ_TARGETS += tests/fuzz/fuzz_proxy
endif
EXTRA_DIST += tests/fuzz/fuzz_proxy.c tests/fuzz/proxy.dict
CLEANFILES += tests/fuzz/fuzz_proxy
FUZZ_PROXY_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_proxy.c \
	$(srcdir)/src/kjail/proxy/parse.c \
	$(srcdir)/src/kjail/proxy/rules.c \
	$(srcdir)/src/kjail/proxy/tls.c \
	$(srcdir)/src/kjail/proxy/inspect.c \
	$(srcdir)/src/common/util.c
tests/fuzz/fuzz_proxy: $(FUZZ_PROXY_SRCS) tests/fuzz/fuzz.h src/kjail/proxy/parse.h src/kjail/proxy/rules.h \
		src/kjail/proxy/tls.h src/kjail/proxy/inspect.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@ $(FUZZ_PROXY_SRCS) $(LIBBSD_LIBS)

# libFuzzer harness for what kjail hands its proxy program (issue 38):
# any bytes, and a message accepted is one the writer makes (seeds in
# tests/fuzz/corpus/handoff).
if HAVE_CLANG
FUZZ_TARGETS += tests/fuzz/fuzz_handoff
endif
EXTRA_DIST += tests/fuzz/fuzz_handoff.c
CLEANFILES += tests/fuzz/fuzz_handoff
FUZZ_HANDOFF_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_handoff.c \
	$(srcdir)/src/kjail/proxy/handoff.c \
	$(srcdir)/src/kjail/proxy/rules.c \
	$(srcdir)/src/kjail/proxy/upstream.c \
	$(srcdir)/src/common/util.c
tests/fuzz/fuzz_handoff: $(FUZZ_HANDOFF_SRCS) tests/fuzz/fuzz.h src/kjail/proxy/handoff.h src/kjail/proxy/rules.h \
		src/kjail/proxy/upstream.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@ $(FUZZ_HANDOFF_SRCS) $(LIBBSD_LIBS)

# kjail-entry --connect's reading of the proxy's answer, and the request it
# builds (issue 38); seeds in tests/fuzz/corpus/tunnel.
if HAVE_CLANG
FUZZ_TARGETS += tests/fuzz/fuzz_tunnel
endif
EXTRA_DIST += tests/fuzz/fuzz_tunnel.c
CLEANFILES += tests/fuzz/fuzz_tunnel
FUZZ_TUNNEL_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_tunnel.c \
	$(srcdir)/src/kjail/entry/tunnel.c
tests/fuzz/fuzz_tunnel: $(FUZZ_TUNNEL_SRCS) tests/fuzz/fuzz.h src/kjail/entry/tunnel.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@ $(FUZZ_TUNNEL_SRCS)
# The caller's upstream proxy (issue 38): its URL, NO_PROXY and the
# upstream's answers (seeds in tests/fuzz/corpus/upstream).
if HAVE_CLANG
FUZZ_TARGETS += tests/fuzz/fuzz_upstream
endif
EXTRA_DIST += tests/fuzz/fuzz_upstream.c
CLEANFILES += tests/fuzz/fuzz_upstream
FUZZ_UPSTREAM_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_upstream.c \
	$(srcdir)/src/kjail/proxy/upstream.c \
	$(srcdir)/src/kjail/proxy/rules.c \
	$(srcdir)/src/common/util.c
tests/fuzz/fuzz_upstream: $(FUZZ_UPSTREAM_SRCS) tests/fuzz/fuzz.h src/kjail/proxy/upstream.h \
		src/kjail/proxy/rules.h src/kjail/proxy/parse.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@ $(FUZZ_UPSTREAM_SRCS) $(LIBBSD_LIBS)

# kjail's reading of the proxy's summary line (issue 38): the input is the
# whole log; seeds in tests/fuzz/corpus/summary.
if HAVE_CLANG
FUZZ_TARGETS += tests/fuzz/fuzz_summary
endif
EXTRA_DIST += tests/fuzz/fuzz_summary.c tests/fuzz/summary.dict
CLEANFILES += tests/fuzz/fuzz_summary
FUZZ_SUMMARY_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_summary.c \
	$(srcdir)/src/kjail/proxy/summary.c
tests/fuzz/fuzz_summary: $(FUZZ_SUMMARY_SRCS) tests/fuzz/fuzz.h src/kjail/proxy/summary.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) $(JANSSON_CFLAGS) -o $@ $(FUZZ_SUMMARY_SRCS) \
	  $(JANSSON_LIBS)

# --device=gpu (issue 30): the builder from a table of /dev layouts.
check_PROGRAMS += tests/unit/kjail/policy/test_device
TESTS += tests/unit/kjail/policy/test_device
tests_unit_kjail_policy_test_device_SOURCES = tests/unit/kjail/policy/test_device.c
tests_unit_kjail_policy_test_device_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_policy_test_device_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
# --allow-socket (issue 30): the table of names, the policy's values, where
# each name's socket is.
check_PROGRAMS += tests/unit/kjail/policy/test_sockets
TESTS += tests/unit/kjail/policy/test_sockets
tests_unit_kjail_policy_test_sockets_SOURCES = tests/unit/kjail/policy/test_sockets.c
tests_unit_kjail_policy_test_sockets_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_policy_test_sockets_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
# The socket scan's rules (issue 39): the tables, the directory rule,
# docker's unix:// endpoints.
check_PROGRAMS += tests/unit/kjail/policy/test_socket_rules
TESTS += tests/unit/kjail/policy/test_socket_rules
tests_unit_kjail_policy_test_socket_rules_SOURCES = tests/unit/kjail/policy/test_socket_rules.c
tests_unit_kjail_policy_test_socket_rules_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_policy_test_socket_rules_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
# libFuzzer harness for git settings in the environment (GIT_CONFIG_PARAMETERS'
# parser, and the judgment of what it parsed); seeds in tests/fuzz/corpus/gitenv.
if HAVE_CLANG
FUZZ_TARGETS += tests/fuzz/fuzz_gitenv
endif
EXTRA_DIST += tests/fuzz/fuzz_gitenv.c
CLEANFILES += tests/fuzz/fuzz_gitenv
FUZZ_GITENV_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_gitenv.c $(srcdir)/src/kjail/git/env.c \
	$(srcdir)/src/kjail/git/reader.c $(srcdir)/src/kjail/git/lexer.c $(srcdir)/src/common/path.c \
	$(srcdir)/src/common/strv.c $(srcdir)/src/common/ini_reader.c \
	$(srcdir)/src/kjail/cfgfilter/cfgfilter.c $(srcdir)/src/kjail/cfgfilter/common.c \
	$(srcdir)/src/kjail/cfgfilter/ini.c $(srcdir)/src/kjail/cfgfilter/npmrc.c \
	$(srcdir)/src/kjail/cfgfilter/git.c $(srcdir)/src/kjail/cfgfilter/yaml.c \
	$(srcdir)/src/kjail/cfgfilter/json.c $(srcdir)/src/kjail/policy/defaults.c \
	$(srcdir)/src/common/util.c $(srcdir)/src/common/strbuf.c
tests/fuzz/fuzz_gitenv: $(FUZZ_GITENV_SRCS) tests/fuzz/fuzz.h src/kjail/git/env.h src/kjail/git/reader.h src/kjail/git/lexer.h \
		src/kjail/cfgfilter/cfgfilter.h src/kjail/cfgfilter/internal.h src/kjail/cfgfilter/git.h \
		src/kjail/cfgfilter/ini.h src/kjail/cfgfilter/npmrc.h src/kjail/cfgfilter/json.h src/kjail/cfgfilter/yaml.h src/kjail/policy/defaults.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) $(JANSSON_CFLAGS) -o $@ $(FUZZ_GITENV_SRCS) \
	  $(JANSSON_LIBS) $(INIH_LIBS) $(LIBBSD_LIBS)
# libFuzzer harness for the config file filters (issue 30, item 2): the
# first byte picks the format; seeds in tests/fuzz/corpus/cfgfilter.
if HAVE_CLANG
FUZZ_TARGETS += tests/fuzz/fuzz_cfgfilter
endif
EXTRA_DIST += tests/fuzz/fuzz_cfgfilter.c
CLEANFILES += tests/fuzz/fuzz_cfgfilter
FUZZ_CFGFILTER_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_cfgfilter.c $(srcdir)/src/kjail/git/lexer.c \
	$(srcdir)/src/kjail/cfgfilter/cfgfilter.c $(srcdir)/src/kjail/cfgfilter/common.c \
	$(srcdir)/src/kjail/cfgfilter/ini.c $(srcdir)/src/kjail/cfgfilter/npmrc.c \
	$(srcdir)/src/kjail/cfgfilter/git.c $(srcdir)/src/kjail/cfgfilter/yaml.c \
	$(srcdir)/src/kjail/cfgfilter/json.c $(srcdir)/src/kjail/policy/defaults.c \
	$(srcdir)/src/common/util.c $(srcdir)/src/common/strbuf.c
tests/fuzz/fuzz_cfgfilter: $(FUZZ_CFGFILTER_SRCS) tests/fuzz/fuzz.h src/kjail/cfgfilter/cfgfilter.h src/kjail/git/lexer.h \
		src/kjail/cfgfilter/internal.h src/kjail/cfgfilter/git.h src/kjail/cfgfilter/ini.h \
		src/kjail/cfgfilter/json.h src/kjail/cfgfilter/yaml.h src/kjail/policy/defaults.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) $(JANSSON_CFLAGS) -o $@ $(FUZZ_CFGFILTER_SRCS) \
	  $(JANSSON_LIBS) $(LIBBSD_LIBS)

# The ssh-agent relay's judge (issue 39): seeds in tests/fuzz/corpus/agentmsg.
if HAVE_CLANG
FUZZ_TARGETS += tests/fuzz/fuzz_agentmsg
endif
EXTRA_DIST += tests/fuzz/fuzz_agentmsg.c
CLEANFILES += tests/fuzz/fuzz_agentmsg
FUZZ_AGENTMSG_SRCS = $(srcdir)/tests/fuzz/fuzz_agentmsg.c $(srcdir)/src/kjail/agent/msg.c
tests/fuzz/fuzz_agentmsg: $(FUZZ_AGENTMSG_SRCS) tests/fuzz/fuzz.h src/kjail/agent/msg.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@ $(FUZZ_AGENTMSG_SRCS)
# Secrets found by value and by content (issue 39 items 4 and 7): the one
# rule (policy/secretval.h) and the credential-file recogniser.
check_PROGRAMS += tests/unit/kjail/policy/test_secretval tests/unit/kjail/policy/test_credfile \
	tests/unit/kjail/policy/test_credcache
TESTS += tests/unit/kjail/policy/test_secretval tests/unit/kjail/policy/test_credfile \
	tests/unit/kjail/policy/test_credcache
tests_unit_kjail_policy_test_credcache_SOURCES = tests/unit/kjail/policy/test_credcache.c
tests_unit_kjail_policy_test_credcache_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_policy_test_credcache_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_policy_test_credfile_SOURCES = tests/unit/kjail/policy/test_credfile.c
tests_unit_kjail_policy_test_credfile_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_policy_test_credfile_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_kjail_policy_test_secretval_SOURCES = tests/unit/kjail/policy/test_secretval.c
tests_unit_kjail_policy_test_secretval_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_policy_test_secretval_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
# libFuzzer harness for what the credential scan parses: its memory
# (credcache) and the home's files (credfile, secretval); seeds in
# tests/fuzz/corpus/credscan.
if HAVE_CLANG
FUZZ_TARGETS += tests/fuzz/fuzz_credscan
endif
EXTRA_DIST += tests/fuzz/fuzz_credscan.c
CLEANFILES += tests/fuzz/fuzz_credscan
FUZZ_CREDSCAN_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_credscan.c $(srcdir)/src/kjail/policy/credcache.c \
	$(srcdir)/src/kjail/policy/credfile.c $(srcdir)/src/kjail/policy/secretval.c \
	$(srcdir)/src/common/util.c $(srcdir)/src/common/strbuf.c
tests/fuzz/fuzz_credscan: $(FUZZ_CREDSCAN_SRCS) tests/fuzz/fuzz.h src/kjail/policy/credcache.h \
		src/kjail/policy/credfile.h src/kjail/policy/secretval.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@ $(FUZZ_CREDSCAN_SRCS) $(LIBBSD_LIBS)
