# SPDX-License-Identifier: MIT
# kli: the authority core (lattice, config layers, reports), the agent
# (model client, tools, the mediation seam, fault barriers, sessions) and
# their tests.

noinst_LIBRARIES += libkli.a
libkli_a_SOURCES = \
	src/kli/authority/atoms.c src/kli/authority/atoms.h src/kli/authority/authority.h src/kli/authority/internal.h \
	src/kli/authority/constraint.h src/kli/authority/grant.h src/kli/authority/caps.h \
	src/kli/authority/constraint.c src/kli/authority/grant.c src/kli/authority/caps.c \
	src/kli/settings/settings.c src/kli/settings/settings.h src/kli/settings/internal.h \
	src/kli/settings/read.h src/kli/settings/values.h src/kli/settings/profiles.h \
	src/kli/settings/read.c src/kli/settings/values.c src/kli/settings/profiles.c \
	src/kli/settings/where.c \
	src/kli/authority/report.c src/kli/authority/report.h \
	src/kli/authority/mediate.c src/kli/authority/mediate.h \
	src/kli/authority/fsat.c src/kli/authority/fsat.h \
	src/kli/authority/exclude.c src/kli/authority/exclude.h \
	src/kli/authority/argv.c src/kli/authority/argv.h \
	src/kli/agent/barrier.c src/kli/agent/barrier.h \
	src/kli/agent/shutdown.c src/kli/agent/shutdown.h \
	src/kli/agent/cancel.c src/kli/agent/cancel.h \
	src/kli/agent/transcript.c src/kli/agent/transcript.h \
	src/kli/agent/store.c src/kli/agent/store.h \
	src/kli/agent/agent.c src/kli/agent/agent.h src/kli/agent/state.h \
	src/kli/agent/events.c src/kli/agent/events.h src/kli/agent/turn.c src/kli/agent/turn.h \
	src/kli/agent/state.c src/kli/agent/tool-call.c src/kli/agent/tool-call.h src/kli/agent/trim.c src/kli/agent/trim.h \
	src/kli/agent/truncated.c src/kli/agent/truncated.h \
	src/kli/agent/environ.c src/kli/agent/environ.h \
	src/kli/agent/session.c src/kli/agent/session.h \
	src/kli/containment/jailpolicy.c src/kli/containment/jailpolicy.h \
	src/kli/hint/hint.c src/kli/hint/hint.h src/kli/hint/egress.c src/kli/hint/egress.h \
	src/kli/hint/words.c src/kli/hint/words.h src/kli/hint/match.c src/kli/hint/match.h \
	src/kli/hint/scan.c src/kli/hint/scan.h src/kli/hint/render.c src/kli/hint/render.h \
	src/kli/containment/containment.c src/kli/containment/containment.h src/kli/containment/report.h \
	src/kli/containment/report.c \
	src/kli/containment/drift.c src/kli/containment/drift.h \
	src/kli/containment/gate.c src/kli/containment/gate.h \
	src/kli/model/chat.c src/kli/model/chat.h \
	src/kli/model/client.c src/kli/model/client.h \
	src/kli/model/key.c src/kli/model/key.h \
	src/kli/model/redact.c src/kli/model/redact.h \
	src/kli/model/sse.c src/kli/model/sse.h \
	src/kli/model/stream.c src/kli/model/stream.h \
	src/kli/model/replay.c src/kli/model/replay.h \
	src/kli/agent/term.c src/kli/agent/term.h \
	src/kli/agent/show.c src/kli/agent/show.h \
	src/kli/agent/instructions.c src/kli/agent/instructions.h \
	src/kli/tools/diff.c src/kli/tools/diff.h \
	src/kli/tools/tools.c src/kli/tools/tools.h src/kli/tools/call.h src/kli/tools/result.c \
	src/kli/tools/result.h src/kli/tools/files.h src/kli/tools/edit.h src/kli/tools/bash.h \
	src/kli/tools/text.c src/kli/tools/text.h \
	src/kli/tools/files.c \
	src/kli/tools/edit.c \
	src/kli/tools/bash.c
KLI_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/kli
KLI_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(CURL_CFLAGS)
libkli_a_CPPFLAGS = $(KLI_CPPFLAGS)
libkli_a_CFLAGS = $(KLI_CFLAGS)

KLI_LIBS = libkli.a $(COMMON_LIBS) $(JANSSON_LIBS) $(CURL_LIBS)

bin_PROGRAMS += kli
kli_SOURCES = src/kli/main.c
kli_CPPFLAGS = $(KLI_CPPFLAGS)
kli_CFLAGS = $(KLI_CFLAGS)
kli_LDADD = $(KLI_LIBS)

dist_man_MANS += doc/kli.1
EXTRA_DIST += doc/capabilities.md

# Unit tests (cmocka).
check_PROGRAMS += tests/unit/kli/authority/test_authority tests/unit/kli/settings/test_settings
TESTS += tests/unit/kli/authority/test_authority tests/unit/kli/settings/test_settings
tests_unit_kli_authority_test_authority_SOURCES = tests/unit/kli/authority/test_authority.c
tests_unit_kli_authority_test_authority_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS)
tests_unit_kli_authority_test_authority_LDADD = $(KLI_LIBS) $(CMOCKA_LIBS)
tests_unit_kli_settings_test_settings_SOURCES = tests/unit/kli/settings/test_settings.c
tests_unit_kli_settings_test_settings_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS)
tests_unit_kli_settings_test_settings_LDADD = $(KLI_LIBS) $(CMOCKA_LIBS)

# Unit tests of the agent's pure modules (and the barrier, which forks).
KLI_AGENT_UNIT_TESTS = \
	tests/unit/kli/model/test_model \
	tests/unit/kli/model/test_wire \
	tests/unit/kli/model/test_redact \
	tests/unit/kli/tools/test_tools \
	tests/unit/kli/tools/test_diff \
	tests/unit/kli/authority/test_mediate \
	tests/unit/kli/agent/test_barrier \
	tests/unit/kli/agent/test_transcript \
	tests/unit/kli/hint/test_hint \
	tests/unit/kli/containment/test_containment
check_PROGRAMS += $(KLI_AGENT_UNIT_TESTS)
TESTS += $(KLI_AGENT_UNIT_TESTS)
tests_unit_kli_model_test_model_SOURCES = tests/unit/kli/model/test_model.c
tests_unit_kli_model_test_model_CPPFLAGS = $(KLI_CPPFLAGS)
tests_unit_kli_model_test_model_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS) $(CURL_CFLAGS)
tests_unit_kli_model_test_model_LDADD = $(KLI_LIBS) $(CMOCKA_LIBS)
tests_unit_kli_model_test_wire_SOURCES = tests/unit/kli/model/test_wire.c
tests_unit_kli_model_test_wire_CPPFLAGS = $(KLI_CPPFLAGS)
tests_unit_kli_model_test_wire_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS) $(CURL_CFLAGS)
tests_unit_kli_model_test_wire_LDADD = $(KLI_LIBS) $(CMOCKA_LIBS)
tests_unit_kli_model_test_redact_SOURCES = tests/unit/kli/model/test_redact.c
tests_unit_kli_model_test_redact_CPPFLAGS = $(KLI_CPPFLAGS)
tests_unit_kli_model_test_redact_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS) $(CURL_CFLAGS)
tests_unit_kli_model_test_redact_LDADD = $(KLI_LIBS) $(CMOCKA_LIBS)
tests_unit_kli_tools_test_tools_SOURCES = tests/unit/kli/tools/test_tools.c
tests_unit_kli_tools_test_tools_CPPFLAGS = $(KLI_CPPFLAGS)
tests_unit_kli_tools_test_tools_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS) $(CURL_CFLAGS)
tests_unit_kli_tools_test_tools_LDADD = $(KLI_LIBS) $(CMOCKA_LIBS)
tests_unit_kli_tools_test_diff_SOURCES = tests/unit/kli/tools/test_diff.c
tests_unit_kli_tools_test_diff_CPPFLAGS = $(KLI_CPPFLAGS)
tests_unit_kli_tools_test_diff_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS) $(CURL_CFLAGS)
tests_unit_kli_tools_test_diff_LDADD = $(KLI_LIBS) $(CMOCKA_LIBS)
tests_unit_kli_authority_test_mediate_SOURCES = tests/unit/kli/authority/test_mediate.c
tests_unit_kli_authority_test_mediate_CPPFLAGS = $(KLI_CPPFLAGS)
tests_unit_kli_authority_test_mediate_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS) $(CURL_CFLAGS)
tests_unit_kli_authority_test_mediate_LDADD = $(KLI_LIBS) $(CMOCKA_LIBS)
tests_unit_kli_agent_test_barrier_SOURCES = tests/unit/kli/agent/test_barrier.c
tests_unit_kli_agent_test_barrier_CPPFLAGS = $(KLI_CPPFLAGS)
tests_unit_kli_agent_test_barrier_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS) $(CURL_CFLAGS)
tests_unit_kli_agent_test_barrier_LDADD = $(KLI_LIBS) $(CMOCKA_LIBS)
tests_unit_kli_agent_test_transcript_SOURCES = tests/unit/kli/agent/test_transcript.c
tests_unit_kli_agent_test_transcript_CPPFLAGS = $(KLI_CPPFLAGS)
tests_unit_kli_agent_test_transcript_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS) $(CURL_CFLAGS)
tests_unit_kli_agent_test_transcript_LDADD = $(KLI_LIBS) $(CMOCKA_LIBS)
tests_unit_kli_hint_test_hint_SOURCES = tests/unit/kli/hint/test_hint.c
tests_unit_kli_hint_test_hint_CPPFLAGS = $(KLI_CPPFLAGS)
tests_unit_kli_hint_test_hint_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS) $(CURL_CFLAGS)
tests_unit_kli_hint_test_hint_LDADD = $(KLI_LIBS) $(CMOCKA_LIBS)
tests_unit_kli_containment_test_containment_SOURCES = tests/unit/kli/containment/test_containment.c
tests_unit_kli_containment_test_containment_CPPFLAGS = $(KLI_CPPFLAGS)
tests_unit_kli_containment_test_containment_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS) $(CURL_CFLAGS)
tests_unit_kli_containment_test_containment_LDADD = $(KLI_LIBS) $(CMOCKA_LIBS)

# Integration tests: TAP shell scripts running the built kli.
KLI_INTEGRATION_TESTS = \
	tests/integration/kli-authority.test \
	tests/integration/kli-layers.test \
	tests/integration/kli-config-errors.test \
	tests/integration/kli-check.test \
	tests/integration/kli-cli.test \
	tests/integration/kli-man.test \
	tests/integration/kli-agent-tools.test \
	tests/integration/kli-agent-faults.test \
	tests/integration/kli-agent-net.test \
	tests/integration/kli-agent-task.test \
	tests/integration/kli-agent-key.test \
	tests/integration/kli-agent-secret.test \
	tests/integration/kli-agent-jail.test \
	tests/integration/kli-agent-allow-host.test \
	tests/integration/kli-agent-hint.test \
	tests/integration/kli-agent-session.test \
	tests/integration/kli-agent-wire.test \
	tests/integration/kli-agent-term.test \
	tests/integration/kli-agent-cancel.test \
	tests/integration/kli-agent-resume.test \
	tests/integration/kli-agent-show.test \
	tests/integration/kli-path-sets.test \
	tests/integration/kli-exec-prefix.test \
	tests/integration/kli-overrides.test \
	tests/integration/kli-instructions.test \
	tests/integration/kli-agent-stream.test \
	tests/integration/kli-agent-seam.test \
	tests/integration/kli-containment.test \
	tests/integration/kli-race.test \
	tests/integration/kli-own-files.test
TESTS += $(KLI_INTEGRATION_TESTS)
# renames a directory and a symlink into each other's place in a loop
check_PROGRAMS += tests/helpers/swap-race
tests_helpers_swap_race_SOURCES = tests/helpers/swap-race.c
EXTRA_DIST += $(KLI_INTEGRATION_TESTS) tests/integration/kli-lib.sh \
	tests/helpers/fake-model.py tests/helpers/kli-pty.py

# libFuzzer harness for the capability-entry parser, on the conventions of
# tests/fuzz/local.mk (FUZZ_TARGETS, seeds in tests/fuzz/corpus/capability,
# tests/fuzz/capability.dict). It is compiled by clang from the sources
# themselves: the gcc-built archives carry no coverage instrumentation.
# `make fuzz-capability-run [FUZZ_SECONDS=N]` runs this harness alone.
KLI_FUZZ_TARGETS =
if HAVE_CLANG
KLI_FUZZ_TARGETS += tests/fuzz/fuzz_capability
endif
FUZZ_TARGETS += $(KLI_FUZZ_TARGETS)
EXTRA_DIST += tests/fuzz/fuzz_capability.c tests/fuzz/capability.dict
CLEANFILES += tests/fuzz/fuzz_capability

FUZZ_CAPABILITY_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_capability.c \
	$(srcdir)/src/kli/authority/atoms.c \
	$(srcdir)/src/kli/authority/constraint.c \
	$(srcdir)/src/kli/authority/argv.c \
	$(srcdir)/src/kli/authority/grant.c \
	$(srcdir)/src/kli/authority/caps.c \
	$(srcdir)/src/common/path.c \
	$(srcdir)/src/common/util.c $(srcdir)/src/common/strbuf.c
tests/fuzz/fuzz_capability: $(FUZZ_CAPABILITY_SRCS) src/kli/authority/authority.h \
		src/kli/authority/internal.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@ $(FUZZ_CAPABILITY_SRCS) $(LIBBSD_LIBS)

fuzz-capability-run:
	$(MAKE) $(AM_MAKEFLAGS) fuzz-run FUZZ_TARGETS='$(KLI_FUZZ_TARGETS)'
.PHONY: fuzz-capability-run

# libFuzzer harness for the saved-session reader (issue 42): a file any
# program of the user may have written. Seeds in tests/fuzz/corpus/session.
if HAVE_CLANG
FUZZ_TARGETS += tests/fuzz/fuzz_session
endif
EXTRA_DIST += tests/fuzz/fuzz_session.c
CLEANFILES += tests/fuzz/fuzz_session
FUZZ_SESSION_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_session.c \
	$(srcdir)/src/kli/agent/transcript.c \
	$(srcdir)/src/common/path.c \
	$(srcdir)/src/common/util.c $(srcdir)/src/common/strbuf.c
tests/fuzz/fuzz_session: $(FUZZ_SESSION_SRCS) src/kli/agent/transcript.h tests/fuzz/fuzz.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -I$(srcdir)/src/kli $(JANSSON_CFLAGS) -o $@ \
	  $(FUZZ_SESSION_SRCS) $(JANSSON_LIBS) $(LIBBSD_LIBS)

# libFuzzer harnesses for what kli reads from a model server (issue 27):
# the reply parser with key masking and the terminal filter, and the SSE
# parser with the stream assembler. Seeds in tests/fuzz/corpus/reply and
# tests/fuzz/corpus/sse. `make fuzz-wire-run [FUZZ_SECONDS=N]` runs these two.
KLI_WIRE_FUZZ_TARGETS =
if HAVE_CLANG
KLI_WIRE_FUZZ_TARGETS += tests/fuzz/fuzz_reply tests/fuzz/fuzz_sse
endif
FUZZ_TARGETS += $(KLI_WIRE_FUZZ_TARGETS)
EXTRA_DIST += tests/fuzz/fuzz_reply.c tests/fuzz/fuzz_sse.c tests/fuzz/reply.dict tests/fuzz/sse.dict
CLEANFILES += tests/fuzz/fuzz_reply tests/fuzz/fuzz_sse

FUZZ_REPLY_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_reply.c \
	$(srcdir)/src/kli/model/chat.c \
	$(srcdir)/src/kli/model/key.c \
	$(srcdir)/src/kli/model/redact.c \
	$(srcdir)/src/kli/agent/term.c \
	$(srcdir)/src/common/path.c \
	$(srcdir)/src/common/util.c $(srcdir)/src/common/strbuf.c
tests/fuzz/fuzz_reply: $(FUZZ_REPLY_SRCS) src/kli/model/chat.h src/kli/model/key.h \
	src/kli/model/redact.h src/kli/agent/term.h tests/fuzz/fuzz.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -I$(srcdir)/src/kli $(JANSSON_CFLAGS) -o $@ \
	  $(FUZZ_REPLY_SRCS) $(JANSSON_LIBS) $(LIBBSD_LIBS)

FUZZ_SSE_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_sse.c \
	$(srcdir)/src/kli/model/sse.c \
	$(srcdir)/src/kli/model/stream.c \
	$(srcdir)/src/kli/model/chat.c \
	$(srcdir)/src/common/path.c \
	$(srcdir)/src/common/util.c $(srcdir)/src/common/strbuf.c
tests/fuzz/fuzz_sse: $(FUZZ_SSE_SRCS) src/kli/model/sse.h src/kli/model/stream.h src/kli/model/chat.h tests/fuzz/fuzz.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -I$(srcdir)/src/kli $(JANSSON_CFLAGS) -o $@ \
	  $(FUZZ_SSE_SRCS) $(JANSSON_LIBS) $(LIBBSD_LIBS)

fuzz-wire-run:
	$(MAKE) $(AM_MAKEFLAGS) fuzz-run FUZZ_TARGETS='$(KLI_WIRE_FUZZ_TARGETS)'
.PHONY: fuzz-wire-run
