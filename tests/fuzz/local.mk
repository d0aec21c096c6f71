# SPDX-License-Identifier: MIT
# libFuzzer harnesses (built with clang when present).
#
# A harness is compiled by an explicit rule with $(FUZZ_CC) and $(FUZZ_CFLAGS)
# from the sources it needs, directly: the gcc-built libraries carry no
# coverage instrumentation. Nothing here is part of 'all' or 'check'.
#
#   make fuzz                   build every harness
#   make fuzz-run               run every harness for FUZZ_SECONDS (default 30)
#   make fuzz-run FUZZ_SECONDS=5
#   make -j2 fuzz-run           two harnesses at a time (each its 30 s)
#
# fuzz-run fails if any harness finds a crash, a sanitizer report, a leak, a
# timeout or a broken assertion. Each run leaves PROG.log and an automake-style
# PROG.trs next to the binary (so .ci/run counts and prints it), its findings
# in PROG.fuzz/artifacts/ and the corpus it grew in PROG.fuzz/corpus/.
#
# Adding a harness from another fragment (FUZZ_TARGETS is initialised in
# Makefile.am, so any fragment may append to it, whatever the include order):
#
#   if HAVE_CLANG
#   FUZZ_TARGETS += tests/fuzz/fuzz_NAME
#   endif
#   tests/fuzz/fuzz_NAME: tests/fuzz/fuzz_NAME.c src/kli/x.c config.h
#   	$(AM_V_GEN)$(MKDIR_P) $(@D) && $(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) \
#   	  -o $@ $(srcdir)/tests/fuzz/fuzz_NAME.c $(srcdir)/src/kli/x.c $(LIBS...)
#   EXTRA_DIST += tests/fuzz/fuzz_NAME.c
#   CLEANFILES += tests/fuzz/fuzz_NAME
#
# The harness binary must be named fuzz_NAME. Its seeds, if any, live in
# $(srcdir)/tests/fuzz/corpus/NAME/ and its dictionary, if any, in
# $(srcdir)/tests/fuzz/NAME.dict; fuzz-run finds both by that name (the
# directory tests/fuzz/corpus is distributed whole). Logs, .trs files and
# work directories of every FUZZ_TARGETS entry are cleaned here.

FUZZ_SECONDS = 30
FUZZ_CC = $(CLANG)
FUZZ_CFLAGS = -std=gnu11 -g -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_CPPFLAGS = $(AM_CPPFLAGS) $(LIBBSD_CFLAGS) $(INIH_CFLAGS)
# -timeout: seconds for one input; a config parser has no business taking one.
# -verbosity=0 drops the line per new coverage unit (thousands in 30 s);
# findings, the artifact's name and the final statistics are still printed.
FUZZ_RUN_FLAGS = -timeout=10 -rss_limit_mb=2048 -verbosity=0 -print_final_stats=1

EXTRA_DIST += tests/fuzz/fuzz.h tests/fuzz/fuzz_ini_reader.c tests/fuzz/ini_reader.dict tests/fuzz/corpus

if HAVE_CLANG
FUZZ_TARGETS += tests/fuzz/fuzz_ini_reader
endif
CLEANFILES += tests/fuzz/fuzz_ini_reader $(FUZZ_TARGETS:=.log) $(FUZZ_TARGETS:=.trs)

FUZZ_INI_SRCS = tests/fuzz/fuzz_ini_reader.c src/common/ini_reader.c src/common/util.c src/common/strbuf.c \
	src/common/path.c
tests/fuzz/fuzz_ini_reader: $(FUZZ_INI_SRCS) tests/fuzz/fuzz.h src/common/ini_reader.h src/common/util.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@ \
	  $(FUZZ_INI_SRCS:%=$(srcdir)/%) $(INIH_LIBS) $(LIBBSD_LIBS)

# kjail's git config reader; its seeds are the corpus the integration test
# holds against git (tests/data/gitconfig-corpus), copied into
# tests/fuzz/corpus/gitconfig
EXTRA_DIST += tests/fuzz/fuzz_gitconfig.c tests/fuzz/gitconfig.dict
if HAVE_CLANG
FUZZ_TARGETS += tests/fuzz/fuzz_gitconfig
endif
CLEANFILES += tests/fuzz/fuzz_gitconfig

FUZZ_GITCONFIG_SRCS = tests/fuzz/fuzz_gitconfig.c src/kjail/git/reader.c src/kjail/git/lexer.c \
	src/common/ini_reader.c src/common/util.c src/common/strbuf.c src/common/path.c src/common/strv.c
tests/fuzz/fuzz_gitconfig: $(FUZZ_GITCONFIG_SRCS) tests/fuzz/fuzz.h src/kjail/git/reader.h src/kjail/git/lexer.h src/common/strv.h config.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@ \
	  $(FUZZ_GITCONFIG_SRCS:%=$(srcdir)/%) $(INIH_LIBS) $(LIBBSD_LIBS)

fuzz: $(FUZZ_TARGETS)

# Each harness with a fresh copy of its seeds (the source tree may be
# read-only); the exit status of the harness decides: libFuzzer exits
# non-zero on any finding. One rule a harness, so `make -jN fuzz-run` runs
# N at a time: a harness is one process on one CPU, and each still gets
# FUZZ_SECONDS of its own. A run never stops make; fuzz-run reads every
# .trs file afterwards and fails if any harness failed.
FUZZ_RUNS = $(FUZZ_TARGETS:=.fuzz-run)
$(FUZZ_RUNS): %.fuzz-run: %
	@f=$*; name=`basename $$f | sed 's/^fuzz_//'`; \
	work=$$f.fuzz; rm -rf $$work; $(MKDIR_P) $$work/corpus $$work/artifacts; \
	seeds=$(srcdir)/tests/fuzz/corpus/$$name; \
	if test -d $$seeds; then cp $$seeds/* $$work/corpus/ 2>/dev/null || :; fi; \
	dict=$(srcdir)/tests/fuzz/$$name.dict; \
	if test -f $$dict; then dict=-dict=$$dict; else dict=; fi; \
	echo "  FUZZ     $$f ($(FUZZ_SECONDS) s)"; \
	if ./$$f $(FUZZ_RUN_FLAGS) -max_total_time=$(FUZZ_SECONDS) \
	     -artifact_prefix=$$work/artifacts/ $$dict $$work/corpus \
	     >$$f.log 2>&1; then res=PASS; else res=FAIL; fi; \
	printf ':test-result: %s\n:global-test-result: %s\n:recheck: no\n:copy-in-global-log: yes\n' \
	  $$res $$res >$$f.trs; \
	echo "$$res: $$f"; \
	if test $$res = FAIL; then \
	  tail -n 40 $$f.log; ls -l $$work/artifacts; fi; \
	grep '^stat::number_of_executed_units\|^stat::new_units_added' $$f.log | sed "s|^|    $$name: |" || :

fuzz-run: $(FUZZ_RUNS)
	@if test -z "$(FUZZ_TARGETS)"; then \
	  echo "fuzz-run: no harness built (configure found no clang)"; exit 0; fi; \
	failed=; \
	for f in $(FUZZ_TARGETS); do \
	  grep -qx ':test-result: PASS' $$f.trs 2>/dev/null || failed="$$failed $$f"; \
	done; \
	if test -n "$$failed"; then echo "fuzz-run: failed:$$failed"; exit 1; fi

fuzz-clean:
	-for f in $(FUZZ_TARGETS); do rm -rf $$f.fuzz; done

clean-local: fuzz-clean

.PHONY: fuzz fuzz-run fuzz-clean $(FUZZ_RUNS)
