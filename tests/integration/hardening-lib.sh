# SPDX-License-Identifier: MIT
# hardening-lib.sh: TAP output, fixtures and the probe tables shared by
# tests/integration/hardening-*.test (issue 4: the seccomp filter and the
# Landlock scopes).
#
# How a rule is tested: tests/helpers/try-syscall attempts one system call
# and prints one word (OK or an errno name). The same list of probes runs
#   out   on the host, without kjail,
#   ns    on the host inside a throwaway "unshare -Urmp --fork" (a new user,
#         mount and PID namespace, where the caller holds every capability
#         over them: an unprivileged caller's EPERM on the host becomes the
#         call's real answer there),
#   in    inside kjail,
# and each probe is judged on the exact word it printed inside kjail. A rule
# counts as shown to come from the jail only when a baseline answered
# differently; when both baselines gave the same errno too (an unprivileged
# caller: swapoff, acct, syslog check capabilities of the initial user
# namespace), the test line says so instead of pretending.
#
# POSIX sh, no "set -e"; tap.sh holds the TAP output, background jobs and
# cleanup it shares with lib.sh; each script prints its plan at the end.

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/integration/tap.sh"
TRY=$HELPERS/try-syscall
HS_TIMEOUT=${HS_TIMEOUT:-20}

# --- fixtures -------------------------------------------------------------------
# hs_init NAME: $WORK (outside /tmp: the jail's /tmp is private), with
#   $WS    the workspace (kjail -C), writable inside the jail
#   $CONF  kjail's policy file (outside the workspace: kjail refuses a
#          config the jail could rewrite); empty [sandbox], so the machine's
#          /etc/kjail and ~/.config/kjail take no part
#   HOME, XDG_CONFIG_HOME, XDG_RUNTIME_DIR inside $WORK
# and remove it all on exit.
hs_init() {
	_base=$top_builddir/tests/integration
	mkdir -p "$_base" || bail "cannot create $_base"
	_base=$(cd "$_base" && pwd -P)
	case $_base/ in
	/tmp/*) _base=/var/tmp ;;
	esac
	WORK=$_base/work.hardening-$1.$$
	rm -rf "$WORK"
	mkdir -p "$WORK" || bail "cannot create $WORK"
	WORK=$(cd "$WORK" && pwd -P)
	case $WORK in
	*[[:space:]]*) bail "the build directory contains white space: $WORK" ;;
	esac
	trap work_cleanup EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 141' PIPE

	WS=$WORK/ws
	CONF=$WORK/conf/kjail.ini
	mkdir -p "$WS" "$WORK/conf" "$WORK/home/.config" || bail "cannot populate $WORK"
	printf '; hardening tests: built-in policy only\n[sandbox]\n' >"$CONF"
	HOME=$WORK/home
	XDG_CONFIG_HOME=$HOME/.config
	XDG_RUNTIME_DIR=$WORK/run
	mkdir -m 700 "$XDG_RUNTIME_DIR" || bail "cannot create $XDG_RUNTIME_DIR"
	export HOME XDG_CONFIG_HOME XDG_RUNTIME_DIR
	unset SSH_AUTH_SOCK GPG_AGENT_INFO DBUS_SESSION_BUS_ADDRESS \
		XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME 2>/dev/null || :

	[ -x "$KJAIL" ] || bail "kjail is not built: $KJAIL"
	[ -x "$TRY" ] || bail "try-syscall is not built: $TRY"

	# The probe runner: runs EXE once per line "ID ARG..." of LIST and
	# prints "ID WORD"; WORD is "died:STATUS" when the probe printed
	# nothing or did not exit 0 (e.g. killed by SIGSYS: died:159).
	RUNNER=$WORK/run-probes.sh
	cat >"$RUNNER" <<'EOF'
exe=$1
list=$2
while read -r id args; do
	case $id in ''|'#'*) continue ;; esac
	# shellcheck disable=SC2086 # ARGS are words on purpose
	w=$("$exe" $args 2>/dev/null)
	rc=$?
	if [ "$rc" -ne 0 ] || [ -z "$w" ]; then
		w="died:$rc"
	fi
	printf '%s %s\n' "$id" "$w"
done <"$list"
EOF
	diag "uid $(id -u), kernel $(uname -r), workspace $WS"
}

# --- running --------------------------------------------------------------------
# run CMD...: run CMD in $WS with a time limit, stdin from /dev/null; sets
# RC, OUT (stdout) and ERR (stderr).
run() {
	(cd "$WS" && exec timeout -k 5 "$HS_TIMEOUT" "$@") \
		</dev/null >"$WORK/.out" 2>"$WORK/.err"
	RC=$?
	OUT=$(cat "$WORK/.out")
	ERR=$(cat "$WORK/.err")
}

# kj [KJAIL-OPTION...] -- CMD...: kjail with the test policy and workspace
kj() { run "$KJAIL" --config "$CONF" -C "$WS" "$@"; }

# userns_works: can this user make a user namespace on the host at all?
userns_works() { unshare -Ur true >/dev/null 2>&1; }

# --- probe tables -----------------------------------------------------------------
# probe_begin NAME: start the probe table NAME
# probe ID EXPECT [TRY-ARG...]: the probe ID runs "try-syscall TRY-ARG..."
#   (default TRY-ARG: ID); EXPECT is the word it must print inside the jail.
#   EXPECT "=" marks a control: ordinary use that must keep working; it
#   must print inside what it printed on the host.
# probe_collect WHERE CMD...: run the table through CMD... (e.g. kj --
#   or unshare -Urmp --fork, or nothing for the host), results to WHERE
# probe_judge IN BASELINE...: one TAP line per probe
probe_begin() {
	PT=$WORK/probes.$1
	: >"$PT.list"
	: >"$PT.expect"
	PT_EXE=$TRY
}

probe() {
	_id=$1
	_exp=$2
	shift 2
	[ $# -gt 0 ] || set -- "$_id"
	printf '%s %s\n' "$_id" "$*" >>"$PT.list"
	printf '%s %s %s\n' "$_id" "$_exp" "$*" >>"$PT.expect"
}

probe_collect() {
	_where=$1
	shift
	run "$@" sh "$RUNNER" "$PT_EXE" "$PT.list"
	printf '%s\n' "$OUT" >"$PT.res.$_where"
	printf '%s\n' "$RC" >"$PT.rc.$_where"
	printf '%s\n' "$ERR" >"$PT.err.$_where"
}

# result WHERE ID: the word, or "missing" when that run produced none
result() {
	_w=$(awk -v id="$2" '$1 == id { print $2; exit }' "$PT.res.$1" 2>/dev/null)
	printf '%s' "${_w:-missing}"
}

# probe_judge INSIDE-NAME DESC-PREFIX BASELINE-NAME...
probe_judge() {
	_in=$1
	_pfx=$2
	shift 2
	if [ "$(cat "$PT.rc.$_in")" -ne 0 ]; then
		diag "$_pfx: the jailed run exited $(cat "$PT.rc.$_in")"
		diag_text "stderr" "$(cat "$PT.err.$_in")"
	fi
	while read -r _id _exp _args; do
		_got=$(result "$_in" "$_id")
		_base=
		_proved=
		for _b in "$@"; do
			_bw=$(result "$_b" "$_id")
			_base="$_base${_base:+, }$_b $_bw"
			if [ "$_exp" = "=" ]; then
				# a control: the host answer is what the jail must give
				[ -n "$_proved" ] || _proved=$_bw
			elif [ -z "$_proved" ] && [ "$_bw" != "$_exp" ]; then
				# only a real answer of the call counts (not a probe
				# that could not run: setup:*, died:*, missing)
				case $_bw in
				OK|E[A-Z0-9]*) _proved="$_b $_bw" ;;
				esac
			fi
		done
		_what="$_pfx $(printf '%s' "$_args" | sed "s|$WORK|\$WORK|g")"
		if [ "$_exp" = "=" ]; then
			case $_proved in
			''|missing|died:*|setup:*)
				skip "$_what answers inside as on the host" "the probe does not run on the host ($_base)" ;;
			*)
				if [ "$_got" = "$_proved" ]; then
					ok "$_what answers inside as on the host (not refused): $_got"
				else
					not_ok "$_what answers inside as on the host (not refused)"
					diag "expected $_proved (the host's answer), got $_got inside kjail"
				fi ;;
			esac
			continue
		fi
		# a kernel without the ia32 entry: no run of the probe got a real
		# answer (a baseline may also have died: under ASan, say)
		if [ "$_got" = setup:NOIA32 ] &&
			! printf '%s\n' "$_base" | tr ',' '\n' | grep -Eq ' (OK|E[A-Z0-9]+)$'; then
			skip "$_what: $_exp inside kjail" "this kernel has no ia32 entry (int \$0x80): nothing to refuse"
			continue
		fi
		if [ "$_got" != "$_exp" ]; then
			not_ok "$_what: $_exp inside kjail"
			diag "expected $_exp inside kjail, got $_got ($_base)"
			continue
		fi
		if [ -n "$_proved" ]; then
			ok "$_what: $_got inside kjail ($_base)"
		else
			if is_root; then
				_why="this host cannot tell the filter's answer from the kernel's"
			else
				_why="as uid $(id -u) this run cannot tell the filter's answer from the kernel's; the run as root can"
			fi
			ok "$_what: $_got inside kjail; $_exp on the host too ($_base): $_why"
		fi
	done <"$PT.expect"
}

# ns_collect: the "ns" baseline, if user namespaces work on the host
ns_collect() {
	if userns_works; then
		probe_collect ns unshare -Urmp --fork
		return 0
	fi
	diag "no user namespaces on the host: the ns baseline is not available"
	: >"$PT.res.ns"
	echo 0 >"$PT.rc.ns"
	: >"$PT.err.ns"
	return 0
}
