# SPDX-License-Identifier: MIT
# tap.sh: what every integration test script shares, sourced first by
# lib.sh (kjail-*.test) and hardening-lib.sh (hardening-*.test): the
# locations, TAP output, background jobs, polling and the cleanup of $WORK.
#
# POSIX sh (dash). No "set -e": a failing command must become "not ok", and
# every script runs to done_testing, which prints the plan (at the end).

set -u
export LC_ALL=C

# --- locations: make check exports these; derive them for a direct run ----
if [ -z "${top_srcdir:-}" ]; then
	top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${top_builddir:=$top_srcdir}"
: "${KJAIL:=$top_builddir/kjail}"
: "${HELPERS:=$top_builddir/tests/helpers}"
: "${BWRAP_PATH:=/usr/bin/bwrap}"
export top_srcdir top_builddir KJAIL HELPERS BWRAP_PATH

# KJ_SAVE_POLICY=DIR: every `kjail --explain --json` of the suite keeps a
# copy of its policy document in DIR, which kjail-policy-schema.test then
# validates against doc/kjail-policy.schema.json (doc/policy-json.md).
if [ -n "${KJ_SAVE_POLICY:-}" ] && [ -z "${KJ_REAL_KJAIL:-}" ]; then
	KJ_REAL_KJAIL=$KJAIL
	KJAIL=$top_srcdir/tests/helpers/kjail-save-policy.sh
	export KJ_REAL_KJAIL KJAIL KJ_SAVE_POLICY
fi

# --- TAP --------------------------------------------------------------------
# make check-quick ends a file after its first passing case (quick.sh)
. "$top_srcdir/tests/integration/quick.sh"
tap_n=0
ok()     { tap_n=$((tap_n + 1)); printf 'ok %d - %s\n' "$tap_n" "$1"; quick_after "$tap_n"; }
not_ok() { tap_n=$((tap_n + 1)); printf 'not ok %d - %s\n' "$tap_n" "$1"; }
skip()   { tap_n=$((tap_n + 1)); printf 'ok %d - %s # SKIP %s\n' "$tap_n" "$1" "$2"; }
diag()   { printf '%s\n' "$*" | sed 's/^/# /'; }
# diag_text LABEL TEXT: TEXT (at most 40 lines) under a label, when not empty
diag_text() {
	[ -n "$2" ] || return 0
	diag "$1:"
	printf '%s\n' "$2" | head -n 40 | sed 's/^/#   /'
}
done_testing() { printf '1..%d\n' "$tap_n"; exit 0; }
bail() { printf 'Bail out! %s\n' "$*"; exit 99; }

# check DESC CMD...: ok when CMD succeeds
check() {
	_desc=$1
	shift
	if "$@"; then
		ok "$_desc"
	else
		not_ok "$_desc"
		diag "failed: $*"
	fi
}

# diag_run WHAT: the outcome of the last run (RC, OUT, ERR)
diag_run() {
	diag "$1: exit status $RC"
	diag_text "stdout" "$OUT"
	diag_text "stderr" "$ERR"
}

is_root() { [ "$(id -u)" -eq 0 ]; }

# sq WORD: WORD quoted for sh, so paths can be spliced into probe scripts
sq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

# --- background jobs, polling, cleanup -----------------------------------------
# bg CMD...: start CMD in the background; BG_LAST is its pid, and it is
# killed on exit. Its output goes to $WORK/background.log: an orphan holding
# the test's stdout would make the TAP driver wait for it.
BG_PIDS=
bg() {
	"$@" </dev/null >>"$WORK/background.log" 2>&1 &
	BG_PIDS="$BG_PIDS $!"
	BG_LAST=$!
}

# work_cleanup: kill the background jobs, remove $WORK (the EXIT trap)
work_cleanup() {
	for _p in $BG_PIDS; do
		kill -KILL "$_p" 2>/dev/null
	done
	work_cache_cleanup
	if [ -n "${WORK:-}" ] && [ -d "$WORK" ]; then
		chmod -R u+rwX "$WORK" 2>/dev/null
		rm -rf "$WORK"
	fi
	# lib.sh's copy of the helpers, made when they were built under /tmp
	if [ -n "${KJ_HELPERS_COPY:-}" ] && [ -d "$KJ_HELPERS_COPY" ]; then
		chmod -R u+rwX "$KJ_HELPERS_COPY" 2>/dev/null
		rm -rf "$KJ_HELPERS_COPY"
	fi
}

# work_cache_cleanup: the toolchain cache directories kjail made under the
# account's real home for workspaces under $WORK (a test whose config
# leaves kjail's caches on), and kjail's records of them (.used/KEY):
# their names hold $WORK's last component and a '-' (kjail's cache.h key);
# nothing else there is touched.
work_cache_cleanup() {
	_kjw=${WORK:+${WORK##*/}}
	[ -n "$_kjw" ] || return 0
	_kjh=$(getent passwd "$(id -u)" 2>/dev/null | cut -d: -f6)
	[ -n "$_kjh" ] && [ -d "$_kjh/.cache/kjail/ws" ] || return 0
	for _kjd in "$_kjh/.cache/kjail/ws/"*"$_kjw"-*; do
		[ -d "$_kjd" ] && ! [ -L "$_kjd" ] || continue
		chmod -R u+rwX "$_kjd" 2>/dev/null
		rm -rf "$_kjd"
	done
	for _kjd in "$_kjh/.cache/kjail/ws/.used/"*"$_kjw"-*; do
		[ -f "$_kjd" ] && ! [ -L "$_kjd" ] && rm -f "$_kjd"
	done
}

# wait_for TENTHS CMD...: poll CMD every 0.1 s until it succeeds
wait_for() {
	_n=$1
	shift
	while ! "$@" >/dev/null 2>&1; do
		_n=$((_n - 1))
		[ "$_n" -gt 0 ] || return 1
		sleep 0.1
	done
	return 0
}
