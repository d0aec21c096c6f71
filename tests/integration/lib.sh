# SPDX-License-Identifier: MIT
# lib.sh: TAP output, fixtures, and the "baseline first, then the jail"
# attempt used by every tests/integration/kjail-*.test.
#
# The rule these tests live by: an attack is first shown to WORK without
# kjail (same command, same fixture), then shown to FAIL inside kjail. A
# probe that cannot succeed without kjail proves nothing, so a baseline that
# fails is "not ok", unless the kernel or our privileges genuinely cannot do
# it (then "# SKIP" with the reason). Fixtures live under the build tree,
# never under /tmp: the jail's /tmp is private, so a secret under the host's
# /tmp would be invisible inside whatever kjail did.
#
# POSIX sh (dash). No "set -e": a failing command must become "not ok", and
# every script runs to done_testing, which prints the plan (at the end).

# shellcheck disable=SC2034 # MARK and friends are for the tests
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/integration/tap.sh"
KJ_TIMEOUT=${KJ_TIMEOUT:-30}
NL='
'

# --- fixtures -----------------------------------------------------------------
# kj_init NAME: make $WORK (outside /tmp), point HOME, XDG_CONFIG_HOME and
# XDG_RUNTIME_DIR into it so the machine's real config and sockets never
# take part, and clean everything up on exit.
kj_init() {
	_base=$top_builddir/tests/integration
	mkdir -p "$_base" || exit 99
	_base=$(cd "$_base" && pwd -P)
	case $_base/ in
	/tmp/*)
		# The build tree is under /tmp, where the jail sees its own tmpfs.
		diag "build tree under /tmp: fixtures go to /var/tmp instead"
		_base=/var/tmp ;;
	esac
	WORK=$_base/work.$1.$$
	rm -rf "$WORK"
	mkdir -p "$WORK" || exit 99
	WORK=$(cd "$WORK" && pwd -P)
	trap work_cleanup EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM

	HOME=$WORK/home
	XDG_CONFIG_HOME=$HOME/.config
	XDG_RUNTIME_DIR=$WORK/run
	mkdir -p "$XDG_CONFIG_HOME" && mkdir -m 700 "$XDG_RUNTIME_DIR" || exit 99
	export HOME XDG_CONFIG_HOME XDG_RUNTIME_DIR
	unset SSH_AUTH_SOCK GPG_AGENT_INFO DBUS_SESSION_BUS_ADDRESS \
		XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME 2>/dev/null || :

	# Every jailed run reads this (empty) policy, so a system-wide
	# /etc/kjail/config.ini cannot change what the tests see.
	KJ_CONF=$WORK/kjail.ini
	printf '; kjail integration test: built-in policy only\n[sandbox]\n' >"$KJ_CONF"
	# kjail's toolchain caches live under the account's real home (never
	# $HOME): a test that wants them (kjail-cache.test) turns them on and
	# removes what it made; the others leave that home as they found it
	printf 'cache = false\n' >>"$KJ_CONF"

	# Unique text: a probe looks for it, nothing else on the machine has it.
	# Never exported (unset first), so no process holds it by inheritance.
	unset MARK WS
	MARK=KJ$$x$(date +%s)
	KJ_CWD=$WORK
	kj_reset

	[ -x "$KJAIL" ] || diag "kjail is not built: $KJAIL"
	[ -x "$HELPERS/try" ] || diag "test helpers are not built: $HELPERS"
	[ -x "$BWRAP_PATH" ] || diag "bwrap not found at $BWRAP_PATH"
	kj_helpers_reachable "$_base/helpers.$1.$$"
}

# kj_helpers_reachable DIR: probes run "$HELPERS/NAME" inside the jail too,
# and the jail's /tmp is private: helpers built under /tmp are copied to
# DIR (outside every workspace, read-only, removed on exit) and HELPERS
# points there. A copy that fails is a Bail out, never a silent pass.
kj_helpers_reachable() {
	_h=$(cd "$HELPERS" 2>/dev/null && pwd -P) || return 0
	case $_h/ in
	/tmp/*) ;;
	*) return 0 ;;
	esac
	rm -rf "$1"
	mkdir -p "$1" || bail "cannot create $1 for the test helpers"
	KJ_HELPERS_COPY=$1
	for _f in "$_h"/*; do
		if [ -f "$_f" ] && [ -x "$_f" ]; then
			cp -p "$_f" "$1/" || bail "cannot copy $_f to $1"
		fi
	done
	chmod -R a-w "$1"
	diag "helpers under /tmp: copied to $1"
	HELPERS=$1
	export HELPERS
}

# --- running ------------------------------------------------------------------
# run CMD...: run CMD from $CWD with a time limit and stdin from $KJ_STDIN;
# sets RC, OUT (stdout) and ERR (stderr).
KJ_STDIN=/dev/null
run() {
	(cd "$CWD" && exec timeout -k 5 "$KJ_TIMEOUT" "$@") \
		<"$KJ_STDIN" >"$WORK/.out" 2>"$WORK/.err"
	RC=$?
	OUT=$(cat "$WORK/.out")
	ERR=$(cat "$WORK/.err")
}

# kjrun KJAIL-ARGS...: run kjail with the test's policy file
kjrun() { run "$KJAIL" --config "$KJ_CONF" "$@"; }

# diag_print KJAIL-OPTIONS...: what kjail would have run, to help the reader
diag_print() {
	_p=$(cd "$CWD" && "$KJAIL" --config "$KJ_CONF" --print "$@" -- true 2>&1 | head -c 6000)
	diag_text "kjail --print" "$_p"
}

# --- the attempt ----------------------------------------------------------------
# Per-attempt settings (reset after each attempt and check):
#   CWD          where both runs start; kjail's workspace defaults to it
#   BASE_WRAP    command prefix of the baseline run only (e.g. "unshare -Urm")
#   BASE_SETUP   sh code run before PROBE in the baseline only
#   BASE_SKIP    if set and the baseline fails: SKIP with this reason instead
#                of "not ok" (only for what the kernel or privilege forbids)
#   RESTORE      sh code, eval'd here after the baseline: put the fixture back
#   HOSTCHECK    sh code, eval'd in a subshell after the jailed run: must
#                succeed (the host is intact)
#   HOST_JUDGED  set: the attack shows on the host only (a file left in the
#                host's /dev/shm, a process still running): HOSTCHECK must
#                fail after the baseline and pass after the jailed run
#   CLEANUP      sh code, eval'd here at the very end: undo what a jail that
#                failed to contain the attack left on the host
kj_reset() {
	CWD=$KJ_CWD
	BASE_WRAP=
	BASE_SETUP=
	BASE_SKIP=
	RESTORE=
	HOSTCHECK=
	HOST_JUDGED=
	CLEANUP=
}
kj_done_attempt() {
	if [ -n "$CLEANUP" ]; then
		eval "$CLEANUP" >/dev/null 2>&1
	fi
	kj_reset
}

# The wrapper round every jailed probe: sh -c "$KJ_JAILWRAP" sh PROBE
# [HELPER...]. It prints one verdict: KJ-ATTACK-WORKED (the probe exited 0),
# KJ-ATTACK-FAILED (it exited non-zero), or KJ-NO-VERDICT when the probe
# never ran as written: a helper it names is not executable in the jail, or
# it exited 126 or 127 (a command not found, or not executable). A probe
# that never ran proves nothing either way: that is "not ok", never a pass.
KJ_JAILWRAP='kj_p=$1; shift
for kj_h in "$@"; do
	if ! [ -f "$HELPERS/$kj_h" ] || ! [ -x "$HELPERS/$kj_h" ]; then
		echo "KJ-NO-VERDICT: helper $HELPERS/$kj_h is not executable here"
		exit 0
	fi
done
( eval "$kj_p" )
kj_rc=$?
case $kj_rc in
0) echo KJ-ATTACK-WORKED ;;
126|127) echo "KJ-NO-VERDICT: the probe exited $kj_rc (a command not found or not executable)" ;;
*) echo KJ-ATTACK-FAILED ;;
esac'

# kj_helpers_of PROBE: the helpers ("$HELPERS/NAME") PROBE runs, one a line
# (most probes name none: then no process is started to find out)
kj_helpers_of() {
	case $1 in *HELPERS*) ;; *) return 0 ;; esac
	printf '%s\n' "$1" | grep -o '[$][{]\{0,1\}HELPERS[}]\{0,1\}/[A-Za-z0-9_.-]*' |
		sed 's|.*/||' | sort -u
}

# kj_no_verdict: why the last jailed run gave no verdict, or nothing. Also
# a command the shell did not find inside a command substitution, which
# the exit status does not show (dash: "sh: 1: NAME: not found"). A probe
# whose attack is contained by a command being absent in the jail must test
# for it ([ -x ], command -v), not run it and count "not found" as refused.
kj_no_verdict() {
	case $OUT in
	*KJ-NO-VERDICT*)
		printf '%s\n' "$OUT" | grep 'KJ-NO-VERDICT' | head -n 1
		return 0 ;;
	esac
	case $ERR in *"not found"*) ;; *) return 0 ;; esac # what the grep needs
	_nf=$(printf '%s\n' "$ERR" | grep -E '^(sh|dash|bash): (line )?[0-9]+: .*not found$' | head -n 1)
	if [ -n "$_nf" ]; then
		printf 'KJ-NO-VERDICT: the shell could not run a command of the probe: %s\n' "$_nf"
	fi
}

# attempt DESC PROBE [KJAIL-OPTION...]
# PROBE is sh code that exits 0 when the attack worked. It must work without
# kjail, and fail inside kjail run with the options given.
attempt() {
	_desc=$1
	_probe=$2
	shift 2

	# shellcheck disable=SC2086 # BASE_WRAP is a word list on purpose
	run $BASE_WRAP sh -c "${BASE_SETUP:+$BASE_SETUP$NL}$_probe"
	_brc=$RC _bout=$OUT _berr=$ERR
	_shown=yes
	[ "$_brc" -eq 0 ] || _shown=no
	if [ -n "$HOST_JUDGED" ] && (eval "$HOSTCHECK") >/dev/null 2>&1; then
		_shown=no
	fi
	if [ -n "$RESTORE" ]; then
		eval "$RESTORE" >/dev/null 2>&1
	fi
	if [ "$_shown" = no ]; then
		if [ -n "$BASE_SKIP" ]; then
			skip "$_desc" "$BASE_SKIP"
			RC=$_brc OUT=$_bout ERR=$_berr
			diag_run "baseline without kjail"
		else
			not_ok "$_desc"
			diag "baseline: without kjail the attack did not work, so the jailed run would prove nothing"
			RC=$_brc OUT=$_bout ERR=$_berr
			diag_run "baseline without kjail"
			diag_text "probe" "$_probe"
		fi
		kj_done_attempt
		return 0
	fi

	# shellcheck disable=SC2046 # helper names are single words
	kjrun "$@" -- sh -c "$KJ_JAILWRAP" sh "$_probe" $(kj_helpers_of "$_probe")
	_why=
	_nv=$(kj_no_verdict)
	if [ "$RC" -ne 0 ]; then
		_why="kjail exited $RC (the probe wrapper always exits 0: kjail or the jail failed)"
	elif [ -n "$_nv" ]; then
		_why="no verdict: the probe never ran as written inside kjail, so it proves nothing ($_nv)"
	elif [ -z "$HOST_JUDGED" ]; then
		case $OUT in
		*KJ-ATTACK-WORKED*) _why="the attack WORKED inside kjail" ;;
		*KJ-ATTACK-FAILED*) ;;
		*) _why="no verdict from the probe inside kjail" ;;
		esac
	fi
	if [ -z "$_why" ] && [ -n "$HOSTCHECK" ] && ! (eval "$HOSTCHECK") >/dev/null 2>&1; then
		_why="after the jailed run the host check failed: the attack reached the host"
	fi
	kj_verdict "$@"
}

# kj_verdict [KJAIL-OPTION...]: ok/not ok for $_desc from $_why (empty: ok),
# with what it takes to reproduce a failure; then the attempt's cleanup.
kj_verdict() {
	if [ -z "$_why" ]; then
		ok "$_desc"
	else
		not_ok "$_desc"
		diag "$_why"
		diag_run "kjail"
		diag_text "probe" "$_probe"
		[ -z "$HOSTCHECK" ] || diag_text "host check" "$HOSTCHECK"
		diag_print "$@"
	fi
	kj_done_attempt
	return 0
}

# jail_ok DESC PROBE [KJAIL-OPTION...]
# What must keep working: PROBE (sh code) must exit 0 inside kjail, and
# HOSTCHECK, if set, must pass afterwards.
jail_ok() {
	_desc=$1
	_probe=$2
	shift 2
	# shellcheck disable=SC2046 # helper names are single words
	kjrun "$@" -- sh -c "$KJ_JAILWRAP" sh "$_probe" $(kj_helpers_of "$_probe")
	_why=
	_nv=$(kj_no_verdict)
	if [ "$RC" -ne 0 ]; then
		_why="kjail exited $RC"
	elif [ -n "$_nv" ]; then
		_why="no verdict: the probe never ran as written inside kjail ($_nv)"
	else
		case $OUT in
		*KJ-ATTACK-WORKED*) ;;
		*) _why="the probe failed inside kjail" ;;
		esac
	fi
	if [ -z "$_why" ] && [ -n "$HOSTCHECK" ] && ! (eval "$HOSTCHECK") >/dev/null 2>&1; then
		_why="the host check failed after the jailed run"
	fi
	kj_verdict "$@"
}

