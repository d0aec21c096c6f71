# SPDX-License-Identifier: MIT
# Seatbelt (macOS) profile generator tests and the SBPL reader (issue 6).
#
# test_seatbelt: golden profiles and argv for representative plans, and the
# proof that no path can change the profile text. sbpl-check: a small SBPL
# reader that parses a generated profile and its -D parameters (balanced
# forms, well-formed strings, only the operations and filters kjail uses,
# every param defined). seatbelt.test runs kjail --backend seatbelt --print
# through it; on macOS it also runs commands under sandbox-exec.
check_PROGRAMS += tests/unit/kjail/build/test_seatbelt tests/helpers/sbpl-check
TESTS += tests/unit/kjail/build/test_seatbelt tests/integration/seatbelt.test
tests_unit_kjail_build_test_seatbelt_SOURCES = tests/unit/kjail/build/test_seatbelt.c $(PLAN_FIXTURE)
tests_unit_kjail_build_test_seatbelt_CFLAGS = $(UNIT_CFLAGS)
tests_unit_kjail_build_test_seatbelt_LDADD = $(KJAIL_LIBS) $(CMOCKA_LIBS)
tests_helpers_sbpl_check_SOURCES = tests/helpers/sbpl-check.c
tests_helpers_sbpl_check_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_helpers_sbpl_check_LDADD = $(COMMON_LIBS) $(JANSSON_LIBS)
# test_seatbelt runs sbpl-check: built with it, so make check-unit, which
# builds only the unit tests (tests/lanes.mk), has it too.
EXTRA_tests_unit_kjail_build_test_seatbelt_DEPENDENCIES = tests/helpers/sbpl-check$(EXEEXT)

SEATBELT_GOLDEN = \
	tests/unit/golden/seatbelt/defaults.sb \
	tests/unit/golden/seatbelt/defaults.argv \
	tests/unit/golden/seatbelt/no-network.sb \
	tests/unit/golden/seatbelt/no-network.argv \
	tests/unit/golden/seatbelt/allow-host.sb \
	tests/unit/golden/seatbelt/allow-host.argv \
	tests/unit/golden/seatbelt/allow-socket.sb \
	tests/unit/golden/seatbelt/allow-socket.argv \
	tests/unit/golden/seatbelt/masks.sb \
	tests/unit/golden/seatbelt/masks.argv \
	tests/unit/golden/seatbelt/odd-paths.argv \
	tests/unit/golden/seatbelt/symlinked-workspace.sb \
	tests/unit/golden/seatbelt/symlinked-workspace.argv \
	tests/unit/golden/seatbelt/private-aliases.sb \
	tests/unit/golden/seatbelt/private-aliases.argv
EXTRA_DIST += tests/integration/seatbelt.test contrib/ci/macos.yml $(SEATBELT_GOLDEN)
