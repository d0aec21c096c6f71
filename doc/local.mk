# SPDX-License-Identifier: MIT
# Manual pages (kli.1 is in src/kli/local.mk), and a test that each one is
# lint-clean and, for a program's page, names the same options as its --help.
dist_man_MANS += doc/kjail.1 doc/kjail.ini.5 doc/kli.ini.5
TESTS += tests/integration/man-lint.test
EXTRA_DIST += tests/integration/man-lint.test
EXTRA_DIST += doc/security-model.md doc/recipes.md doc/policy-json.md doc/testing.md
# what the README's front door sends the reader on to
EXTRA_DIST += doc/kjail.md doc/kli.md doc/building.md
EXTRA_DIST += doc/kli-result.schema.json
# makes the lists of protected paths in security-model.md and kjail.1 from
# the table (tests/integration/kjail-protected-docs.test)
EXTRA_DIST += doc/protected-names.sh
# the list of credential stores in kjail.1, from their table
# (tests/integration/kjail-cred-table.test)
EXTRA_DIST += doc/cred-names.sh
# The policy document's JSON Schema (doc/policy-json.md), installed beside
# the manual pages' data as $(datadir)/kjail/kjail-policy.schema.json, and
# the test that validates every policy document the suite produces with it.
kjaildatadir = $(datadir)/kjail
dist_kjaildata_DATA = doc/kjail-policy.schema.json doc/kjail-net-log.schema.json
TESTS += tests/integration/kjail-policy-schema.test
# It runs after every other test of the run, so it sees each document they
# kept (make check sets KJ_SAVE_POLICY: Makefile.am); all but budgets.test,
# which runs after it (tests/lanes.mk).
tests/integration/kjail-policy-schema.log: \
	$(filter-out tests/integration/kjail-policy-schema.log tests/integration/budgets.log,$(TEST_LOGS))
EXTRA_DIST += tests/integration/kjail-policy-schema.test \
	tests/helpers/kjail-save-policy.sh
