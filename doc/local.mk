# Manual pages, and a test that each one is lint-clean and, for kjail,
# names the same options as 'kjail --help'.
dist_man_MANS += doc/kjail.1
TESTS += tests/integration/man-lint.test
EXTRA_DIST += tests/integration/man-lint.test
EXTRA_DIST += doc/security-model.md
