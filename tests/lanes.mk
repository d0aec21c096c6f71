# SPDX-License-Identifier: MIT
# The fast lanes of the suite and the time budgets of its integration tests
# (issue 37; doc/testing.md says when to use which).
#
#   make check-unit    the cmocka unit tests: builds them and what they link,
#                      runs every tests/unit/**/test_* program
#   make check-quick   the unit tests and the first passing case of each
#                      integration test file (KJ_QUICK=1, tests/integration/quick.sh)
#   make check         every test, every case: the README's command and CI's
#
# Both lanes are `make check` with TESTS narrowed, so their results land in
# the usual .log and .trs files and test-suite.log. The unit tests are the
# TESTS under tests/unit/; every other TESTS entry is an integration test
# file (*.test).

# Integration test files that check-quick leaves out, each with its reason:
# a file whose setup alone is too slow for a smoke lane. None today: in the
# lane the slowest file, kli-race.test (a race run twice), takes about 10 s.
QUICK_EXCLUDED =

check-unit:
	@unit=; for t in $(TESTS); do \
	  case $$t in tests/unit/*) unit="$$unit $$t" ;; esac; \
	done; \
	$(MAKE) $(AM_MAKEFLAGS) check TESTS="$$unit" check_PROGRAMS="$$unit"

check-quick:
	@tests=; for t in $(TESTS); do \
	  case " $(QUICK_EXCLUDED) " in *" $$t "*) ;; *) tests="$$tests $$t" ;; esac; \
	done; \
	$(MAKE) $(AM_MAKEFLAGS) check KJ_QUICK=1 TESTS="$$tests"
.PHONY: check-unit check-quick

# Only check-quick sets it: a KJ_QUICK in the environment of a plain
# `make check` cannot shorten it (a make variable set here wins over the
# environment's).
KJ_QUICK =
AM_TESTS_ENVIRONMENT += KJ_QUICK='$(KJ_QUICK)'; export KJ_QUICK;
EXTRA_DIST += tests/integration/quick.sh

# The time budgets: tests/timed-driver.sh (Makefile.am) adds each test's
# time to its .trs file; budgets.test holds the integration tests' times
# against budgets.txt. It runs after every other test of the run, and gets
# their logs, this run's and no earlier one's, in KJ_RUN_LOGS.
TESTS += tests/integration/budgets.test
EXTRA_DIST += tests/integration/budgets.test tests/integration/budgets.txt
tests/integration/budgets.log: \
	$(filter-out tests/integration/budgets.log,$(TEST_LOGS))
AM_TESTS_ENVIRONMENT += case $$log in tests/integration/budgets.log) \
	KJ_RUN_LOGS='$(TEST_LOGS)'; export KJ_RUN_LOGS;; esac;
