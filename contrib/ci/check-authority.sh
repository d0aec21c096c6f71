#!/bin/sh
# SPDX-License-Identifier: MIT
# check-authority.sh: fail when kli would hold more authority than a
# checked-in policy allows.
#
#   check-authority.sh [-g GRANT.json] [-w DIR] POLICY.json [--] [KLI-ARG]...
#
# Runs `kli --print-authority --json KLI-ARG...` ($KLI, default kli, from
# the current directory, so the project's .kli/config.ini takes part) or
# reads that output from GRANT.json (- for standard input), and compares
# the grant with POLICY.json:
#
#   {"scope": "bounded",
#    "capabilities": [{"atom": "file/read", "constraint": "any"},
#                     {"atom": "file/write", "constraint": "path under {WORKSPACE}/src"}]}
#
# The policy has the shape of kli's own output, so a reviewed
# `kli --print-authority --json` is a valid policy; {WORKSPACE} (the
# directory given with -w, default the current one) and {HOME} stand for
# the paths that differ between machines. For "universal-except" the policy
# lists "excluded" atoms instead of "capabilities".
#
# The grant passes when it is no wider than the policy:
#   - its scope is not wider: universal > universal-except > bounded > none;
#   - universal-except: it excludes at least what the policy excludes;
#   - bounded under a bounded policy: every granted atom is listed in the
#     policy with a constraint that covers the granted one: "any" covers
#     everything, "path under P" covers P and the paths below it, "in [A..B]"
#     the ranges inside it, "one of ..." its subsets; otherwise the two
#     constraint strings must be equal;
#   - bounded under a universal-except policy: no granted atom is excluded.
#
# Exit status: 0 within the policy, 1 wider (each excess on its own line),
# 2 usage error, bad JSON, jq missing or kli failing.
# Needs jq (1.5 or later) and a POSIX shell.
set -u

me=check-authority
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 2; }
usage() {
	echo "usage: $me [-g GRANT.json] [-w DIR] POLICY.json [--] [KLI-ARG]..." >&2
	exit 2
}

grant_file=
ws=
while getopts g:w:h opt; do
	case $opt in
	g) grant_file=$OPTARG ;;
	w) ws=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
policy=$1
shift
[ "${1:-}" = -- ] && shift

command -v jq >/dev/null 2>&1 || die "jq is not installed (apt-get install jq, brew install jq)"
[ -r "$policy" ] || die "$policy: cannot read the policy"

# kli resolves paths with symbolic links followed: so must the placeholders.
if [ -n "$ws" ]; then
	ws=$(cd "$ws" 2>/dev/null && pwd -P) || die "-w $ws: not a directory"
else
	ws=$(pwd -P)
fi
home=${HOME:-}
if [ -n "$home" ] && [ -d "$home" ]; then
	home=$(cd "$home" && pwd -P)
fi

if [ -n "$grant_file" ]; then
	if [ "$grant_file" = - ]; then
		grant=$(cat) || die "cannot read the grant from standard input"
	else
		grant=$(cat "$grant_file") || die "$grant_file: cannot read the grant"
	fi
else
	kli=${KLI:-kli}
	grant=$("$kli" --print-authority --json "$@") ||
		die "'$kli --print-authority --json${*:+ $*}' failed (see above)"
fi

# Prints one line per excess; the last line is "ok SCOPE N" when none.
# A malformed grant or policy is a jq error (exit 5).
# shellcheck disable=SC2016 # jq's $variables, not the shell's
program='
def rank:
  {"none": 0, "bounded": 1, "universal-except": 2, "universal": 3}[.]
  // error("unknown scope \(tojson)");
def subst: split("{WORKSPACE}") | join($ws) | split("{HOME}") | join($home);
def words: [scan("\"([^\"]*)\"") | .[0]];
def bounds:
  capture("^in \\[(?<lo>-?[0-9]+)\\.\\.(?<hi>-?[0-9]+)\\]$")
  | {lo: (.lo | tonumber), hi: (.hi | tonumber)};
def covers($p; $g):
  if $p == "any" or $p == $g then true
  elif ($p | startswith("path under ")) and ($g | startswith("path under ")) then
    ($p[11:] | rtrimstr("/")) as $pp | $g[11:] as $gp
    | $pp == "" or $gp == $pp or ($gp | startswith($pp + "/"))
  elif ($p | startswith("in [")) and ($g | startswith("in [")) then
    ($p | bounds) as $a | ($g | bounds) as $b
    | $b.lo >= $a.lo and $b.hi <= $a.hi
  elif ($p | startswith("one of ")) and ($g | startswith("one of ")) then
    ($p | words) as $a | all($g | words | .[]; . as $w | any($a[]; . == $w))
  else false end;
def show: if . == "any" then "" else " [\(.)]" end;

$pol[0] as $pol
| ($pol.scope // error("the policy has no \"scope\"")) as $ps
| (.scope // error("the grant has no \"scope\" (not kli --print-authority --json?)")) as $gs
| ($ps | rank) as $pr | ($gs | rank) as $gr
| ($pol.excluded // []) as $pex
| ($pol.capabilities // [] | map(.constraint |= subst)) as $allowed
| [
    if $gr > $pr then
      "the scope is \($gs), wider than the policy scope \($ps)"
    elif $gs == "universal-except" and $ps == "universal-except" then
      ($pex - (.excluded // []))[]
      | "\(.) is granted (not excluded), but the policy excludes it"
    elif $gs == "bounded" and $ps == "universal-except" then
      .capabilities[] | select(.atom as $a | any($pex[]; . == $a))
      | "\(.atom)\(.constraint | show) is granted, but the policy excludes it"
    elif $gs == "bounded" and $ps == "bounded" then
      .capabilities[] | . as $c
      | [$allowed[] | select(.atom == $c.atom) | .constraint] as $ok
      | if ($ok | length) == 0 then
          "\($c.atom)\($c.constraint | show) is granted, but the policy does not allow it"
        elif any($ok[]; covers(.; $c.constraint)) then empty
        else
          "\($c.atom) is granted for \($c.constraint), wider than the policy allows (\($ok | join(", ")))"
        end
    else empty end
  ] as $excess
| if ($excess | length) > 0 then $excess[]
  else "ok \($gs) \(.capabilities // [] | length)" end
'

out=$(printf '%s\n' "$grant" |
	jq -r --slurpfile pol "$policy" --arg ws "$ws" --arg home "$home" "$program" 2>&1) ||
	die "cannot compare: $(printf '%s' "$out" | head -n 3 | tr '\n' ' ')"

case $out in
ok\ *)
	scope=$(printf '%s\n' "$out" | cut -d' ' -f2)
	n=$(printf '%s\n' "$out" | cut -d' ' -f3)
	case $scope:$n in
	bounded:1) what="bounded, 1 capability" ;;
	bounded:*) what="bounded, $n capabilities" ;;
	*) what=$scope ;;
	esac
	printf '%s: ok: the grant (%s) is within %s\n' "$me" "$what" "$policy"
	exit 0
	;;
esac

printf '%s: the grant is wider than %s allows:\n' "$me" "$policy" >&2
printf '%s\n' "$out" | sed 's/^/  /' >&2
# Where the grant came from, so the log says which file to fix.
src=$(printf '%s\n' "$grant" |
	jq -r '.sources[]? | "  \(.effect)\t\(.origin)\t\(.what)"' 2>/dev/null)
if [ -n "$src" ]; then
	printf '%s: the grant was built from:\n%s\n' "$me" "$src" >&2
else
	printf '%s: no configuration set the grant (no [kli] capabilities anywhere)\n' "$me" >&2
fi
exit 1
