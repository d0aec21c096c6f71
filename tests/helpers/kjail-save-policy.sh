#!/bin/sh
# SPDX-License-Identifier: MIT
# kjail-save-policy.sh: run $KJ_REAL_KJAIL with these arguments and keep a
# copy of the policy document it prints or writes in $KJ_SAVE_POLICY, for
# kjail-policy-schema.test to validate after the rest of the suite
# (tests/integration/tap.sh puts this script in $KJAIL; make check sets
# KJ_SAVE_POLICY). Exit status, stdout and stderr are kjail's.
#   - `--explain --json`: a copy of what it printed;
#   - a run (`OPTIONS -- CMD`): the document kjail writes into the jail as
#     $KJAIL_POLICY, which is what `OPTIONS --explain --json` prints for
#     the same options (kjail-policy-schema.test checks that the two agree).
real=${KJ_REAL_KJAIL:?kjail-save-policy.sh: KJ_REAL_KJAIL is not set}
dir=${KJ_SAVE_POLICY:-}
[ -d "$dir" ] || exec "$real" "$@"

keep() { # keep FILE: FILE.json when it holds a policy document
	case $(head -c 18 "$1") in
	'{"type":"policy",'*) mv -f "$1" "$1.json" ;;
	*) rm -f "$1" ;;
	esac
}

explain=false json=false dashdash=false other=false
for a in "$@"; do
	case $a in
	--) dashdash=true; break ;;
	--explain) explain=true ;;
	--json) json=true ;;
	--print | --help | --version | --doctor* | -h | -V) other=true ;;
	esac
done

if $explain && $json; then
	copy=$(mktemp "$dir/explain.XXXXXXXX") || exec "$real" "$@"
	"$real" "$@" >"$copy"
	rc=$?
	cat "$copy"
	keep "$copy"
	exit $rc
fi

# save_run ARGS...: the policy document for the options before `--`
save_run() (
	n=0
	for a in "$@"; do
		[ "$a" = -- ] && break
		n=$((n + 1))
	done
	i=0
	for a in "$@"; do # keep the first n: the options
		shift
		[ "$i" -lt "$n" ] && set -- "$@" "$a"
		i=$((i + 1))
	done
	copy=$(mktemp "$dir/run.XXXXXXXX") || exit 0
	"$real" "$@" --explain --json </dev/null >"$copy" 2>/dev/null
	keep "$copy"
)

if $dashdash && ! $explain && ! $other; then
	save_run "$@"
fi
exec "$real" "$@"
