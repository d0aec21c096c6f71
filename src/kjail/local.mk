# SPDX-License-Identifier: MIT
noinst_LIBRARIES += libkjail.a
libkjail_a_SOURCES = \
	src/kjail/policy.c src/kjail/policy.h \
	src/kjail/defaults.c src/kjail/defaults.h \
	src/kjail/conf.c src/kjail/conf.h \
	src/kjail/env.c src/kjail/env.h \
	src/kjail/gitenv.c src/kjail/gitenv.h \
	src/kjail/cache.c src/kjail/cache.h \
	src/kjail/plan.c src/kjail/plan.h src/kjail/plan-build.c src/kjail/plan-build.h \
	src/kjail/host.c src/kjail/host.h src/kjail/hostcheck.c src/kjail/masks.c \
	src/kjail/mask-aliases.c src/kjail/mountinfo.c src/kjail/mountinfo.h \
	src/kjail/sockets.c src/kjail/sockets.h src/kjail/socket-plan.c \
	src/kjail/protected.c src/kjail/protected.h src/kjail/protect.c \
	src/kjail/protect-git.c src/kjail/protect-home.c src/kjail/protect-path.c \
	src/kjail/gitconfig.c src/kjail/gitconfig.h src/kjail/gitlink.c src/kjail/gitlink.h \
	src/kjail/cfgfilter.c src/kjail/cfgfilter.h src/kjail/cfgfilter-int.h \
	src/kjail/cfgfilter-common.c \
	src/kjail/cfgfilter-ini.c src/kjail/cfgfilter-git.c src/kjail/cfgfilter-yaml.c \
	src/kjail/cfgfilter-json.c \
	src/kjail/bwrap.c src/kjail/bwrap.h \
	src/kjail/explain.c src/kjail/explain.h \
	src/kjail/stdio_guard.c src/kjail/stdio_guard.h \
	src/kjail/locate.c src/kjail/locate.h \
	src/kjail/spawn.c src/kjail/spawn.h \
	src/kjail/egress.c src/kjail/egress.h src/kjail/egress-run.c src/kjail/egress-run.h \
	src/kjail/devlock.c src/kjail/devlock.h \
	src/kjail/device.c src/kjail/device.h src/kjail/devscan.c \
	src/kjail/reap.c src/kjail/reap.h \
	src/kjail/aftercare.c src/kjail/aftercare.h \
	src/kjail/gitreport.c src/kjail/gitreport.h \
	src/kjail/notice.c src/kjail/notice.h \
	src/kjail/entry_core.c src/kjail/entry.h src/kjail/entry-abi.h \
	src/kjail/seccomp.c src/kjail/seccomp.h src/kjail/seccomp_load.c \
	src/kjail/landlock.c src/kjail/landlock.h \
	src/kjail/probe.c src/kjail/probe.h \
	src/kjail/seatbelt.c src/kjail/seatbelt-run.c src/kjail/seatbelt.h \
	src/kjail/allowhost.c src/kjail/allowhost.h \
	src/kjail/fdpass.c src/kjail/fdpass.h \
	src/kjail/proxy-parse.c src/kjail/proxy-parse.h \
	src/kjail/proxy.c src/kjail/proxy.h src/kjail/proxy-int.h \
	src/kjail/proxy-serve.c src/kjail/proxy-relay.c src/kjail/proxy-log.c \
	src/kjail/proxy-spawn.c
libkjail_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(SECCOMP_CFLAGS) $(PTHREAD_CFLAGS)
libkjail_a_CPPFLAGS = $(AM_CPPFLAGS) -DKJ_PKGLIBEXECDIR='"$(pkglibexecdir)"'

# The jail's first program (entry_core.c): Landlock, the user's stderr and
# signal dispositions back, descriptor hygiene, exec. One program, the same
# in every build.
if OS_LINUX
pkglibexec_PROGRAMS = kjail-entry
kjail_entry_SOURCES = src/kjail/entry.c src/kjail/entry_core.c src/kjail/entry.h \
	src/kjail/entry-abi.h src/kjail/landlock.c src/kjail/landlock.h \
	src/kjail/fdpass.c src/kjail/fdpass.h \
	src/common/util.c src/common/util.h
kjail_entry_CPPFLAGS = $(AM_CPPFLAGS)
kjail_entry_CFLAGS = $(AM_CFLAGS)
kjail_entry_LDADD = $(LIBBSD_LIBS)
endif

# The seccomp program is compiled once, at build time, for this machine.
if HAVE_SECCOMP
noinst_PROGRAMS += gen-seccomp-bpf
gen_seccomp_bpf_SOURCES = src/kjail/gen-seccomp-bpf.c src/kjail/seccomp.c
gen_seccomp_bpf_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS)
gen_seccomp_bpf_LDADD = $(COMMON_LIBS) $(SECCOMP_LIBS)
nodist_libkjail_a_SOURCES = src/kjail/seccomp-bpf.c
BUILT_SOURCES = src/kjail/seccomp-bpf.c
CLEANFILES += src/kjail/seccomp-bpf.c
src/kjail/seccomp-bpf.c: gen-seccomp-bpf$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) src/kjail && ./gen-seccomp-bpf$(EXEEXT) > $@.tmp && mv $@.tmp $@
endif

KJAIL_LIBS = libkjail.a $(COMMON_LIBS) $(JANSSON_LIBS) $(SECCOMP_LIBS) $(PTHREAD_LIBS)

bin_PROGRAMS += kjail
kjail_SOURCES = src/kjail/main.c
kjail_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
kjail_LDADD = $(KJAIL_LIBS)
check_PROGRAMS += tests/unit/test_cache tests/unit/test_env tests/unit/test_bwrap tests/unit/test_conf tests/unit/test_host tests/unit/test_seccomp \
	tests/unit/test_gitconfig tests/unit/test_explain tests/unit/test_probe tests/unit/test_mountinfo \
	tests/unit/test_cfgfilter
TESTS += tests/unit/test_cache tests/unit/test_env tests/unit/test_bwrap tests/unit/test_conf tests/unit/test_host tests/unit/test_seccomp \
	tests/unit/test_gitconfig tests/unit/test_explain tests/unit/test_probe tests/unit/test_mountinfo \
	tests/unit/test_cfgfilter
tests_unit_test_cfgfilter_SOURCES = tests/unit/test_cfgfilter.c
tests_unit_test_cfgfilter_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_cfgfilter_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_test_mountinfo_SOURCES = tests/unit/test_mountinfo.c
tests_unit_test_mountinfo_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_mountinfo_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_test_explain_SOURCES = tests/unit/test_explain.c tests/unit/tree-fixture.h
tests_unit_test_explain_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS)
tests_unit_test_explain_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_test_probe_SOURCES = tests/unit/test_probe.c
tests_unit_test_probe_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_probe_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_test_gitconfig_SOURCES = tests/unit/test_gitconfig.c
tests_unit_test_gitconfig_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_gitconfig_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_test_cache_SOURCES = tests/unit/test_cache.c
tests_unit_test_cache_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_cache_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_test_env_SOURCES = tests/unit/test_env.c
tests_unit_test_env_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_env_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_test_bwrap_SOURCES = tests/unit/test_bwrap.c
tests_unit_test_bwrap_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_bwrap_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_test_conf_SOURCES = tests/unit/test_conf.c
tests_unit_test_conf_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_conf_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_test_host_SOURCES = tests/unit/test_host.c tests/unit/tree-fixture.h
tests_unit_test_host_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_host_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_test_seccomp_SOURCES = tests/unit/test_seccomp.c
tests_unit_test_seccomp_CFLAGS = $(UNIT_CFLAGS) $(SECCOMP_CFLAGS)
tests_unit_test_seccomp_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)

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
	$(srcdir)/src/kjail/mountinfo.c \
	$(srcdir)/src/common/path.c \
	$(srcdir)/src/common/util.c
tests/fuzz/fuzz_mountinfo: $(FUZZ_MOUNTINFO_SRCS) tests/fuzz/fuzz.h src/kjail/mountinfo.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@ $(FUZZ_MOUNTINFO_SRCS) $(LIBBSD_LIBS)

fuzz-mountinfo-run:
	$(MAKE) $(AM_MAKEFLAGS) fuzz-run FUZZ_TARGETS='$(KJAIL_FUZZ_TARGETS)'
.PHONY: fuzz-mountinfo-run

# The egress proxy (issue 26): the allowlist, the descriptor hand-over with
# proxy_spawn, the request parsers.
check_PROGRAMS += tests/unit/test_allowhost tests/unit/test_fdpass tests/unit/test_proxy_parse
TESTS += tests/unit/test_allowhost tests/unit/test_fdpass tests/unit/test_proxy_parse
tests_unit_test_allowhost_SOURCES = tests/unit/test_allowhost.c
tests_unit_test_allowhost_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_allowhost_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_test_fdpass_SOURCES = tests/unit/test_fdpass.c
tests_unit_test_fdpass_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_fdpass_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_unit_test_proxy_parse_SOURCES = tests/unit/test_proxy_parse.c
tests_unit_test_proxy_parse_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_proxy_parse_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)

# libFuzzer harness for the egress proxy's parsers and the allowlist
# (seeds in tests/fuzz/corpus/proxy, tokens in tests/fuzz/proxy.dict).
if HAVE_CLANG
FUZZ_TARGETS += tests/fuzz/fuzz_proxy
endif
EXTRA_DIST += tests/fuzz/fuzz_proxy.c tests/fuzz/proxy.dict
CLEANFILES += tests/fuzz/fuzz_proxy
FUZZ_PROXY_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_proxy.c \
	$(srcdir)/src/kjail/proxy-parse.c \
	$(srcdir)/src/kjail/allowhost.c
tests/fuzz/fuzz_proxy: $(FUZZ_PROXY_SRCS) tests/fuzz/fuzz.h src/kjail/proxy-parse.h src/kjail/allowhost.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@ $(FUZZ_PROXY_SRCS)

# --device=gpu (issue 30): the builder from a table of /dev layouts.
check_PROGRAMS += tests/unit/test_device
TESTS += tests/unit/test_device
tests_unit_test_device_SOURCES = tests/unit/test_device.c
tests_unit_test_device_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_device_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
# --allow-socket (issue 30): the table of names, the policy's values, where
# each name's socket is.
check_PROGRAMS += tests/unit/test_sockets
TESTS += tests/unit/test_sockets
tests_unit_test_sockets_SOURCES = tests/unit/test_sockets.c
tests_unit_test_sockets_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_sockets_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
# libFuzzer harness for git settings in the environment (GIT_CONFIG_PARAMETERS'
# parser, and the judgment of what it parsed); seeds in tests/fuzz/corpus/gitenv.
if HAVE_CLANG
FUZZ_TARGETS += tests/fuzz/fuzz_gitenv
endif
EXTRA_DIST += tests/fuzz/fuzz_gitenv.c
CLEANFILES += tests/fuzz/fuzz_gitenv
FUZZ_GITENV_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_gitenv.c $(srcdir)/src/kjail/gitenv.c \
	$(srcdir)/src/kjail/gitconfig.c $(srcdir)/src/common/path.c \
	$(srcdir)/src/common/strv.c $(srcdir)/src/common/ini_reader.c \
	$(srcdir)/src/kjail/cfgfilter.c $(srcdir)/src/kjail/cfgfilter-common.c \
	$(srcdir)/src/kjail/cfgfilter-ini.c \
	$(srcdir)/src/kjail/cfgfilter-git.c $(srcdir)/src/kjail/cfgfilter-yaml.c \
	$(srcdir)/src/kjail/cfgfilter-json.c $(srcdir)/src/kjail/defaults.c \
	$(srcdir)/src/common/util.c
tests/fuzz/fuzz_gitenv: $(FUZZ_GITENV_SRCS) tests/fuzz/fuzz.h src/kjail/gitenv.h src/kjail/gitconfig.h \
		src/kjail/cfgfilter.h src/kjail/cfgfilter-int.h src/kjail/defaults.h config.h
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
	$(srcdir)/tests/fuzz/fuzz_cfgfilter.c \
	$(srcdir)/src/kjail/cfgfilter.c $(srcdir)/src/kjail/cfgfilter-common.c \
	$(srcdir)/src/kjail/cfgfilter-ini.c \
	$(srcdir)/src/kjail/cfgfilter-git.c $(srcdir)/src/kjail/cfgfilter-yaml.c \
	$(srcdir)/src/kjail/cfgfilter-json.c $(srcdir)/src/kjail/defaults.c \
	$(srcdir)/src/common/util.c
tests/fuzz/fuzz_cfgfilter: $(FUZZ_CFGFILTER_SRCS) tests/fuzz/fuzz.h src/kjail/cfgfilter.h \
		src/kjail/cfgfilter-int.h src/kjail/defaults.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) $(JANSSON_CFLAGS) -o $@ $(FUZZ_CFGFILTER_SRCS) \
	  $(JANSSON_LIBS) $(LIBBSD_LIBS)
