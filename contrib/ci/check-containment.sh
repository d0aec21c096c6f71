#!/bin/sh
# SPDX-License-Identifier: MIT
# check-containment.sh: fail when the coding agent's grant exceeds the jail
# it runs in, or when either drifted wider than a committed baseline.
#
#   check-containment.sh [-u] [-w DIR] BASELINE.json [--] [KJAIL-ARG]...
#
# In the checkout DIR (default: the current directory):
#   1. `kjail KJAIL-ARG... --explain --json` describes the jail the agent
#      gets (the same arguments you run `kjail ... -- kli` with);
#   2. `kli --print-authority --json --jail-policy POLICY` is the grant
#      with its containment, for the log;
#   3. `kli --check-containment --jail-policy POLICY --baseline BASELINE`
#      is the gate: exit 0, or 1 with one line per grant the jail cannot
#      honour and per drift (a capability added or a constraint widened, a
#      mask or protected path gone, a writable path added, the network
#      widened, seccomp or Landlock lost). Narrowing is never drift.
#
# The baseline is a saved step 2 in which the checkout is written
# {WORKSPACE} and the home directory {HOME}, so one file serves every
# machine. -u writes it (review the diff, commit it) instead of checking.
#
# $KJAIL and $KLI name the programs (default: kjail and kli on PATH).
# Exit status: 0 within the baseline, 1 a problem (each on its own line),
# 2 usage error or a program failing.
set -u

me=check-containment
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 2; }
usage() {
	echo "usage: $me [-u] [-w DIR] BASELINE.json [--] [KJAIL-ARG]..." >&2
	exit 2
}

update=false
ws=.
while getopts uw:h opt; do
	case $opt in
	u) update=true ;;
	w) ws=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
baseline=$1
shift
[ "${1:-}" = -- ] && shift
KJAIL=${KJAIL:-kjail}
KLI=${KLI:-kli}

# kjail and kli resolve paths with symbolic links followed: so must we.
ws=$(cd "$ws" 2>/dev/null && pwd -P) || die "-w: not a directory"
home=${HOME:-/nonexistent}
[ -d "$home" ] && home=$(cd "$home" && pwd -P)
case $baseline in /*) ;; *) baseline=$(pwd -P)/$baseline ;; esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/$me.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

(cd "$ws" && "$KJAIL" "$@" --explain --json) >"$tmp/policy.json" ||
	die "'kjail $* --explain --json' failed"
(cd "$ws" && "$KLI" --print-authority --json --jail-policy "$tmp/policy.json") >"$tmp/report.json" ||
	die "'kli --print-authority --json' failed"

# {WORKSPACE} and {HOME} <-> the paths of this machine (literal text: the
# paths may hold characters sed would read as patterns).
swap() { # FROM TO FILE: FILE with every FROM replaced by TO, on stdout
	awk -v from="$1" -v to="$2" 'BEGIN { n = length(from) }
		{ out = ""; s = $0
		  while ((i = index(s, from)) > 0) { out = out substr(s, 1, i - 1) to; s = substr(s, i + n) }
		  print out s }' "$3"
}

if $update; then
	swap "$ws" "{WORKSPACE}" "$tmp/report.json" >"$tmp/a"
	swap "$home" "{HOME}" "$tmp/a" >"$baseline" || die "$baseline: cannot write it"
	echo "$me: wrote $baseline; review it and commit it"
	exit 0
fi

[ -r "$baseline" ] || die "$baseline: cannot read the baseline (write one with -u)"
swap "{WORKSPACE}" "$ws" "$baseline" >"$tmp/a"
swap "{HOME}" "$home" "$tmp/a" >"$tmp/baseline.json"
(cd "$ws" && "$KLI" --check-containment --jail-policy "$tmp/policy.json" \
	--baseline "$tmp/baseline.json")
rc=$?
[ "$rc" -le 1 ] || die "'kli --check-containment' failed (exit $rc)"
exit "$rc"
