# SPDX-License-Identifier: MIT
# quick.sh: the smoke lane of `make check-quick` (tests/lanes.mk sets
# KJ_QUICK=1 for it, and for nothing else). Sourced by tap.sh, so by every
# test built on it, and by the test files that print TAP with helpers of
# their own.
#
# quick_after N: called after each "ok" with N, the count of results so
# far. In the quick lane the first case that passes ends the file: the
# plan for what ran, then exit 0 (the file's EXIT trap still cleans up).
# So each file runs its setup and its first case. A "not ok" or a "# SKIP"
# does not end it: a failure's diagnostics follow its line, and a skipped
# case ran nothing.
quick_after() {
	[ "${KJ_QUICK:-}" = 1 ] || return 0
	printf '1..%d\n' "$1"
	exit 0
}
