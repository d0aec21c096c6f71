#!/bin/sh
# SPDX-License-Identifier: MIT
# kjail-save-policy.sh: run $KJ_REAL_KJAIL with these arguments; when it is an
# `--explain --json` that prints a policy document, keep a copy of it in
# $KJ_SAVE_POLICY (tests/integration/tap.sh sets this up when the suite
# runs with KJ_SAVE_POLICY=DIR). Exit status, stdout and stderr are kjail's.
explain=false json=false
for a in "$@"; do
	case $a in
	--) break ;;
	--explain) explain=true ;;
	--json) json=true ;;
	esac
done
if ! $explain || ! $json || [ ! -d "${KJ_SAVE_POLICY:-}" ]; then
	exec "$KJ_REAL_KJAIL" "$@"
fi
copy=$(mktemp "$KJ_SAVE_POLICY/explain.XXXXXXXX") || exec "$KJ_REAL_KJAIL" "$@"
"$KJ_REAL_KJAIL" "$@" >"$copy"
rc=$?
cat "$copy"
case $(head -c 18 "$copy") in
'{"type":"policy",'*) mv -f "$copy" "$copy.json" ;;
*) rm -f "$copy" ;;
esac
exit $rc
