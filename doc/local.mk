# SPDX-License-Identifier: MIT
# Manual pages (kli.1 is in src/kli/local.mk), and a test that each one is
# lint-clean and, for a program's page, names the same options as its --help.
dist_man_MANS += doc/kjail.1 doc/kjail.ini.5 doc/kli.ini.5
TESTS += tests/integration/man-lint.test
EXTRA_DIST += tests/integration/man-lint.test
EXTRA_DIST += doc/security-model.md doc/recipes.md doc/policy-json.md
# makes the lists of protected paths in README.md, security-model.md and
# kjail.1 from the table (tests/integration/kjail-protected-docs.test)
EXTRA_DIST += doc/protected-names.sh
# the list of credential stores in kjail.1, from their table
# (tests/integration/kjail-cred-table.test)
EXTRA_DIST += doc/cred-names.sh
